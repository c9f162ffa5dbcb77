"""Three real windows on one virtual screen (Xvfb) at one online table (issue 44's proof): Ann and Ben
each sit down with `cribtiles online play`, and Cy, in a window of his own, watches the table through the
Online screen's Watch with a code, all by real keys from xdotool. Ann plays a turn (real drags), Ben
resigns (Ctrl+R, Y), and both end cards offer Play again: Ann asks (Return), Ben agrees (Y), and both
windows sit down at the new table with the same seats; Cy's end card, which offered him nothing to press
while they played, says where they play again, and Return takes him to watch the new table.

Skipped (with the reason) where Xvfb, xdotool or ImageMagick's `import` is missing (Debian: apt-get
install xvfb xdotool imagemagick; .ci/run installs them). With CRIBTILES_SHOTS=<folder> set, the screen
is saved there at each step (online-xwin-*.png)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from cribtiles.online.client import Link
from cribtiles.rules.game import GameState
from tests.server.running import running_server

from .test_online_xwin import WINDOW, Window, a_short_play, wait_for
from .test_xwindow import virtual_screen, xdo

pytestmark = pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool") and shutil.which("import")),
    reason="needs Xvfb, xdotool and ImageMagick (Debian: apt-get install xvfb xdotool imagemagick)",
)

SCREEN = (2 * WINDOW[0], 2 * WINDOW[1])  # Ann and Ben side by side, Cy under Ann
PATIENCE = 30.0  # seconds any one wait may take before the test fails (never a timing assertion)


@pytest.fixture
def display() -> Iterator[str]:
    with virtual_screen(*SCREEN) as name:
        yield name


class Watcher(Window):
    """Cy's window: the game started plain (`cribtiles`), its way to the table by the Online screen."""

    def __init__(self, env: dict[str, str], name: str, folder: Path) -> None:
        self.name = name
        self.data = folder / name
        self.data.mkdir(parents=True)
        (self.data / "settings.json").write_text(json.dumps({"tutorial_offered": True, "speed": "instant"}))
        self.env = {**env, "SDL_VIDEO_X11_WMCLASS": f"cribtiles-{name.lower()}"}
        self.log: IO[str] = open(folder / f"{name}.log", "w")  # noqa: SIM115
        command = [sys.executable, "-m", "cribtiles", "--data-dir", str(self.data)]
        command += ["--size", f"{WINDOW[0]}x{WINDOW[1]}"]
        self.process = subprocess.Popen(command, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        self.id = ""

    def keys(self, *names: str) -> None:
        for key in names:
            xdo(self.env, "key", "--window", self.id, key)
            time.sleep(0.25)

    def type(self, text: str) -> None:
        xdo(self.env, "type", "--window", self.id, "--delay", "30", text)
        time.sleep(0.25)


def shot(env: dict[str, str], folder: Path, name: str) -> Path:
    """The whole screen now, kept in `folder` (and in CRIBTILES_SHOTS when set)."""
    path = folder / f"online-xwin-{name}.png"
    subprocess.run(["import", "-window", "root", str(path)], env=env, check=True, timeout=60)
    if os.environ.get("CRIBTILES_SHOTS"):
        shutil.copy(path, Path(os.environ["CRIBTILES_SHOTS"]) / path.name)
    return path


def test_two_players_resign_and_play_again_in_real_windows_while_a_third_watches(display: str, tmp_path: Path) -> None:
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
        ann, ben = (Window(env, url, code, name, tmp_path) for name in ("Ann", "Ben"))
        cy = Watcher(env, "Cy", tmp_path)
        windows: list[Window] = [ann, ben, cy]
        try:
            for window, (x, y) in zip(windows, ((0, 0), (WINDOW[0], 0), (0, WINDOW[1])), strict=True):
                window.find()
                xdo(env, "windowmove", window.id, str(x), str(y))
            wait_for(lambda: room.phase == "playing" and room.present.get(0) and room.present.get(1), "both seated")
            for player in (ann, ben):
                wait_for(player.at_the_table, f"{player.name}'s window at the table")

            # Cy: O (the Online screen), Down to the address, typed, Tab Tab out of the text fields, W (Watch
            # with a code), the code typed, Return
            wait_for(lambda: "window open" in (cy.data / "cribtiles.log").read_text(errors="replace"), "Cy's title")
            cy.keys("o", "Down")
            cy.type(url)
            cy.keys("Tab", "Tab", "w")
            cy.type(code.lower())
            cy.keys("Return")

            def watched(at: str = code) -> bool:
                return any(c.seats.get(at, -1) is None for c in hall.clients.get(at, set()))

            wait_for(watched, "Cy watching the table")
            state: GameState = room.game.table.state  # type: ignore[union-attr]
            ann.play(state, a_short_play(state))
            wait_for(lambda: len(room.game.table.state.log) == 1, "Ann's turn at the server")  # type: ignore[union-attr]
            time.sleep(1.0)  # her tiles drawn in all three windows
            shot(env, tmp_path, "1-a-turn-watched")

            xdo(env, "key", "--window", ben.id, "ctrl+r")
            time.sleep(0.5)
            xdo(env, "key", "--window", ben.id, "y")
            wait_for(lambda: room.game.table.state.is_over, "the game over at the server after Ben resigned")  # type: ignore[union-attr]
            time.sleep(1.0)  # the end cards drawn
            shot(env, tmp_path, "2-resigned")
            outcome = room.summary(time.time())
            assert outcome["phase"] == "over", outcome

            xdo(env, "key", "--window", ann.id, "Return")  # Play again: asked of Ben
            wait_for(lambda: room.rematch is not None, "Ann's request to play again at the server")
            time.sleep(1.0)
            shot(env, tmp_path, "3-play-again-asked")
            xdo(env, "key", "--window", ben.id, "y")  # Ben agrees

            def new_table() -> str | None:
                return next((c for c, r in hall.rooms.items() if c != code and r.phase == "playing"), None)

            wait_for(lambda: new_table() is not None, "the new table at the server")
            again = hall.rooms[str(new_table())]
            wait_for(lambda: bool(again.present.get(0) and again.present.get(1)), "both seated at the new table")
            assert [p.name for p in again.places] == ["Ann", "Ben"]
            time.sleep(1.5)  # both windows at the new table; Cy's end card says where, to watch it too
            shot(env, tmp_path, "4-played-again")
            assert watched()  # Cy still watches the table that ended, until he goes on
            cy.keys("Return")
            wait_for(lambda: watched(again.code), "Cy watching the new table")
            time.sleep(1.0)
            shot(env, tmp_path, "5-new-table-watched")
            for window in windows:
                assert window.process.poll() is None, window.said()
        finally:
            for window in windows:
                window.stop()
        for window in windows:
            assert window.process.returncode == 0, window.said()
            assert "Traceback" not in window.said(), window.said()
