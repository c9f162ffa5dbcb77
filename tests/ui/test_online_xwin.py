"""Two real game windows at one online table: a server on 127.0.0.1 in this process, a table for Ann and
Ben, and two `cribtiles online play` windows side by side on one virtual screen (Xvfb), each with its
own data folder. Each plays one turn with real mouse events from xdotool (tiles dragged from the rack to
the board, Return); the server then holds both moves, and both windows show both of them.

Skipped (with the reason) where Xvfb, xdotool or ImageMagick's `import` is missing (Debian: apt-get
install xvfb xdotool imagemagick; .ci/run installs them). With CRIBTILES_SHOTS=<folder> set, the screen
is saved there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pygame
import pytest

from cribtiles.online.client import Link
from cribtiles.rules.game import GameState
from cribtiles.rules.moves import Play
from cribtiles.ui.geometry import Layout, centre
from tests.server.running import running_server

from .test_xwindow import virtual_screen, xdo, xdotool

pytestmark = pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool") and shutil.which("import")),
    reason="needs Xvfb, xdotool and ImageMagick (Debian: apt-get install xvfb xdotool imagemagick)",
)

WINDOW = (1280, 800)
SCREEN = (2 * WINDOW[0], WINDOW[1])  # the two windows side by side
#: Seconds any one wait may take before the test fails (never a timing assertion).
PATIENCE = 30.0


@pytest.fixture
def display() -> Iterator[str]:
    with virtual_screen(*SCREEN) as name:
        yield name


def wait_for(check: Callable[[], bool], what: str, seconds: float = PATIENCE) -> None:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            pytest.fail(f"{what}: not within {seconds:.0f} s")
        time.sleep(0.1)


class Window:
    """One `cribtiles online play` window: its process, its X window, its data folder."""

    def __init__(self, env: dict[str, str], url: str, code: str, name: str, folder: Path) -> None:
        self.name = name
        self.data = folder / name
        self.data.mkdir(parents=True)
        # instant animations (the other's move is shown at once), and no tutorial offered on the way
        (self.data / "settings.json").write_text(json.dumps({"tutorial_offered": True, "speed": "instant"}))
        self.env = {**env, "SDL_VIDEO_X11_WMCLASS": f"cribtiles-{name.lower()}"}
        self.log: IO[str] = open(folder / f"{name}.log", "w")  # noqa: SIM115
        command = [sys.executable, "-m", "cribtiles", "online", "play", url, code, "--name", name]
        command += ["--data-dir", str(self.data), "--size", f"{WINDOW[0]}x{WINDOW[1]}"]
        self.process = subprocess.Popen(command, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        self.id = ""

    def find(self) -> None:
        found = xdotool(self.env, "search", "--sync", "--classname", f"^cribtiles-{self.name.lower()}$")
        ids = found.stdout.split()
        assert ids, f"{self.name}'s window did not appear ({found.stderr.strip()}): {self.said()}"
        self.id = ids[0]

    def said(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return Path(self.log.name).read_text()

    def at_the_table(self) -> bool:
        log = self.data / "cribtiles.log"
        return log.exists() and "at a table of 2 (RemoteSession)" in log.read_text(errors="replace")

    def drag(self, x1: int, y1: int, x2: int, y2: int) -> None:
        """Press on (x1, y1), move there in steps, release: a real drag in this window."""
        xdo(self.env, "mousemove", "--window", self.id, str(x1), str(y1), "mousedown", "1")
        for i in range(1, 9):
            x, y = x1 + (x2 - x1) * i // 8, y1 + (y2 - y1) * i // 8
            xdo(self.env, "mousemove", "--window", self.id, str(x), str(y))
            time.sleep(0.03)
        xdo(self.env, "mouseup", "1")
        time.sleep(0.3)

    def play(self, state: GameState, play: Play) -> None:
        lay = Layout.of(*WINDOW)
        rack = [t.rack_form for t in state.racks[state.current]]
        for p in play.placements:
            slot = rack.index(p.tile.rack_form)
            rack.pop(slot)
            self.drag(*centre(lay.slot_rect(slot)), *centre(lay.square_rect(p.square)))
        xdo(self.env, "key", "--window", self.id, "Return")

    def pixels(self, path: Path) -> pygame.Surface:
        """The window as it is drawn now (ImageMagick's `import` of its X window)."""
        done = subprocess.run(
            ["import", "-window", self.id, str(path)], env=self.env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return pygame.image.load(str(path))

    def stop(self) -> None:
        if self.process.poll() is None:
            xdo(self.env, "key", "--window", self.id, "ctrl+q")
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(15)
        self.log.close()


def a_short_play(state: GameState) -> Play:
    """A play of the fewest tiles, none of them a 9 (whose face is a turned 6: no flipping in the drag)."""
    return min((p for p in state.legal_plays() if all(t.rank != 9 for t in p.tiles)), key=lambda p: len(p.placements))


def test_two_windows_at_one_online_table_each_play_a_turn_and_both_show_both_moves(
    display: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
    env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy")
    with running_server() as (url, hall):
        link = Link(url)
        try:
            assert link.wait_connected(PATIENCE)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
            code = link.request("create", PATIENCE, game="tiles", seats=seats, seed=11)["code"]
        finally:
            link.close()
        room = hall.rooms[code]
        windows = [Window(env, url, code, name, tmp_path) for name in ("Ann", "Ben")]
        try:
            for i, window in enumerate(windows):
                window.find()
                xdo(env, "windowmove", window.id, str(i * WINDOW[0]), "0")
            wait_for(lambda: room.phase == "playing" and room.present.get(0) and room.present.get(1), "both seated")
            for window in windows:  # each window says in its log when it is at the table
                wait_for(window.at_the_table, f"{window.name}'s window at the table")
            time.sleep(0.5)  # and its first frames drawn
            before = [w.pixels(tmp_path / f"{w.name}-before.png") for w in windows]
            plays: list[Play] = []
            for turn in range(2):
                state: GameState = room.game.table.state  # type: ignore[union-attr]
                assert len(state.log) == turn
                play = a_short_play(state)
                windows[state.current].play(state, play)
                plays.append(play)
                wait_for(lambda: len(room.game.table.state.log) > turn, f"turn {turn + 1} at the server")  # type: ignore[union-attr]  # noqa: B023
                time.sleep(0.8)  # the move shown in both windows
            final: GameState = room.game.table.state  # type: ignore[union-attr]
            assert list(final.log) == [str(p) for p in plays]
            after = [w.pixels(tmp_path / f"{w.name}-after.png") for w in windows]
            screen = tmp_path / "both-windows.png"
            subprocess.run(["import", "-window", "root", str(screen)], env=env, check=True, timeout=60)
            if os.environ.get("CRIBTILES_SHOTS"):
                shutil.copy(screen, Path(os.environ["CRIBTILES_SHOTS"]) / "online-two-windows.png")
            lay = Layout.of(*WINDOW)
            squares = [p.square for play in plays for p in play.placements]
            for window, was, now in zip(windows, before, after, strict=True):
                changed = [
                    s
                    for s in squares
                    if was.get_at(centre(lay.square_rect(s))) != now.get_at(centre(lay.square_rect(s)))
                ]
                assert changed == squares, f"{window.name}'s window does not show every tile played: {window.said()}"
            for window in windows:
                assert window.process.poll() is None, window.said()
        finally:
            for window in windows:
                window.stop()
        for window in windows:
            assert window.process.returncode == 0, window.said()
            assert "Traceback" not in window.said(), window.said()
        told: dict[str, Any] = room.summary(time.time())
        assert told["phase"] == "playing" and told["turns"] == 2
