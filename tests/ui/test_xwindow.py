"""End to end in a real X window: Xvfb, real mouse and keyboard events from xdotool, then the save.

Skipped (with the reason) where Xvfb or xdotool is missing; .ci/run installs them (Debian's xvfb
and xdotool) so that CI runs it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribtiles.rules import new_game
from cribtiles.table.tiles.saved import load_table
from cribtiles.ui.geometry import Layout, centre

from ..xvfb import start_xvfb

pytestmark = pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool")),
    reason="needs Xvfb and xdotool (Debian: apt-get install xvfb xdotool) to drive a real window",
)

SIZE = (1280, 800)


@contextlib.contextmanager
def virtual_screen(width: int, height: int) -> Iterator[str]:
    """A virtual screen of that size taking connections, by its display's name; ended on leaving."""
    xvfb, name = start_xvfb(width, height)
    try:
        wait_for_display(name, xvfb)
        yield name
    finally:
        xvfb.terminate()
        xvfb.wait(10)


@pytest.fixture
def display() -> Iterator[str]:
    with virtual_screen(*SIZE) as name:
        yield name


def wait_for_display(name: str, xvfb: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    """Until the X server takes a connection: its socket can be there a moment before it does, and a
    loaded machine can take seconds to start it."""
    env = {**os.environ, "DISPLAY": name}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if xvfb.poll() is not None:
            pytest.fail(f"Xvfb {name} exited with code {xvfb.returncode} before taking a connection")
        if xdotool(env, "getdisplaygeometry").returncode == 0:
            return
        time.sleep(0.1)
    pytest.fail(f"Xvfb {name} took no connection within {seconds:.0f} s")


def xdotool(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=30)


def xdo(env: dict[str, str], *args: str) -> str:
    return xdotool(env, *args).stdout.strip()


def find_window(env: dict[str, str], classname: str) -> str:
    """The id of the window of this class, waiting until it is mapped; xdotool's own words if it fails."""
    found = xdotool(env, "search", "--sync", "--classname", f"^{classname}$")
    ids = found.stdout.split()
    assert ids, f"the window did not appear (xdotool: {found.stderr.strip() or f'exit {found.returncode}'})"
    return ids[0]


def test_drag_a_tile_with_the_real_mouse_press_enter_and_the_play_is_saved(display: str, tmp_path: Path) -> None:
    seed = next(s for s in range(100) if new_game(2, seed=s, names=("You", "Medium")).current == 0)
    state = new_game(2, seed=seed, names=("You", "Medium"))
    play = next(p for p in state.legal_plays() if len(p.placements) == 2 and all(t.rank != 9 for t in p.tiles))
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER",)}
    env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy", SDL_VIDEO_X11_WMCLASS="cribtiles-e2e")
    data = tmp_path / "data"
    cmd = [sys.executable, "-m", "cribtiles", "--data-dir", str(data), "--seed", str(seed), "--size", "1280x800"]
    log = open(tmp_path / "app.log", "w")  # noqa: SIM115
    app = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        w = find_window(env, "cribtiles-e2e")
        time.sleep(1.0)
        lay = Layout.of(*SIZE)
        rack = [t.rack_form for t in state.racks[0]]
        for p in play.placements:
            slot = rack.index(p.tile.rack_form)
            rack.pop(slot)
            (x1, y1), (x2, y2) = centre(lay.slot_rect(slot)), centre(lay.square_rect(p.square))
            xdo(env, "mousemove", "--window", w, str(x1), str(y1), "mousedown", "1")
            for i in range(1, 9):
                xdo(env, "mousemove", "--window", w, str(x1 + (x2 - x1) * i // 8), str(y1 + (y2 - y1) * i // 8))
                time.sleep(0.03)
            xdo(env, "mouseup", "1")
            time.sleep(0.4)
        xdo(env, "key", "--window", w, "Return")
        saved = None
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                saved = load_table((data / "game.json").read_text()).state
                if saved.log:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.2)
        assert saved is not None and saved.log, (tmp_path / "app.log").read_text()
        assert saved.log[0] == str(play)
        xdo(env, "key", "--window", w, "ctrl+q")
        app.wait(15)
        assert app.returncode == 0, (tmp_path / "app.log").read_text()
    finally:
        if app.poll() is None:
            app.kill()
        log.close()


def test_a_hot_seat_game_in_a_real_window_curtain_and_a_play_each(display: str, tmp_path: Path) -> None:
    """Two people at one window: the curtain hides the rack until each is ready, each plays in turn."""
    names = ("Ann", "Ben")
    seed = next(s for s in range(100) if new_game(2, seed=s, names=names).current == 0)
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER",)}
    env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy", SDL_VIDEO_X11_WMCLASS="cribtiles-hot")
    data = tmp_path / "data"
    cmd = [sys.executable, "-m", "cribtiles", "--data-dir", str(data), "--players", "Ann,Ben", "--seed", str(seed)]
    cmd += ["--size", "1280x800"]
    log = open(tmp_path / "app.log", "w")  # noqa: SIM115
    app = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    lay = Layout.of(*SIZE)

    def saved_log() -> tuple[str, ...]:
        try:
            return load_table((data / "game.json").read_text()).state.log
        except (OSError, ValueError):
            return ()

    try:
        w = find_window(env, "cribtiles-hot")
        time.sleep(1.0)
        for turn in range(2):
            state = load_table((data / "game.json").read_text()).state
            assert state.current == turn  # Ann, then Ben
            (x, y) = centre(lay.rack)
            xdo(env, "mousemove", "--window", w, str(x), str(y), "click", "1")  # "Pass to ...: click when ready"
            time.sleep(0.4)
            play = min(
                (p for p in state.legal_plays() if all(t.rank != 9 for t in p.tiles)), key=lambda p: len(p.placements)
            )
            rack = [t.rack_form for t in state.racks[turn]]
            for p in play.placements:
                slot = rack.index(p.tile.rack_form)
                rack.pop(slot)
                (x1, y1), (x2, y2) = centre(lay.slot_rect(slot)), centre(lay.square_rect(p.square))
                xdo(env, "mousemove", "--window", w, str(x1), str(y1), "mousedown", "1")
                for i in range(1, 9):
                    xdo(env, "mousemove", "--window", w, str(x1 + (x2 - x1) * i // 8), str(y1 + (y2 - y1) * i // 8))
                    time.sleep(0.03)
                xdo(env, "mouseup", "1")
                time.sleep(0.4)
            xdo(env, "key", "--window", w, "Return")
            deadline = time.time() + 20
            while len(saved_log()) < turn + 1 and time.time() < deadline:
                time.sleep(0.2)
            assert saved_log()[turn] == str(play), (tmp_path / "app.log").read_text()
        xdo(env, "key", "--window", w, "ctrl+q")
        app.wait(15)
        assert app.returncode == 0, (tmp_path / "app.log").read_text()
    finally:
        if app.poll() is None:
            app.kill()
        log.close()


def test_the_title_screen_and_settings_with_real_keys(display: str, tmp_path: Path) -> None:
    """A start without a game asked for opens on the title screen; E opens the settings, Right turns the
    sound off (saved at once), Escape twice goes back to the table, Ctrl+Q quits."""
    import json

    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER",)}
    env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy", SDL_VIDEO_X11_WMCLASS="cribtiles-title")
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"tutorial_offered": True}))
    log = open(tmp_path / "app.log", "w")  # noqa: SIM115
    app = subprocess.Popen(
        [sys.executable, "-m", "cribtiles", "--data-dir", str(data), "--size", "1280x800"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        w = find_window(env, "cribtiles-title")
        time.sleep(1.0)
        xdo(env, "key", "--window", w, "e")
        time.sleep(0.4)
        xdo(env, "key", "--window", w, "Right")  # the first setting: sound, on to off
        deadline = time.time() + 10
        sound = True
        while time.time() < deadline and sound:
            with contextlib.suppress(OSError, ValueError):
                sound = json.loads((data / "settings.json").read_text()).get("sound", True)
            time.sleep(0.2)
        assert sound is False, (tmp_path / "app.log").read_text()
        for _ in range(3):  # settings -> title -> table
            xdo(env, "key", "--window", w, "Escape")
            time.sleep(0.3)
        xdo(env, "key", "--window", w, "ctrl+q")
        app.wait(15)
        assert app.returncode == 0, (tmp_path / "app.log").read_text()
    finally:
        if app.poll() is None:
            app.kill()
        log.close()
