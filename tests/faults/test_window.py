"""The window under fire: its bot worker stopped or killed, the game killed, signals, absurd sizes, huge
strings in its files, no processes to be had. The real program runs headless in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cribtiles.rules import new_game
from cribtiles.rules.record import save
from cribtiles.table.tiles.saved import load_table

from ..xvfb import start_xvfb
from .conftest import alive, children, log_text, program_env, run, session_members, start, wait_for, wait_for_log

WINDOW_OPEN = "window open at"


def bot_starts_seed() -> int:
    """A seed whose game the bot (seat 1) starts, so that it thinks as soon as the window opens."""
    return next(s for s in range(1, 100) if new_game(2, seed=s, names=("You", "Expert")).starter == 1)


def worker_pid(game: int) -> int:
    """The bot's worker process among the game's children (not multiprocessing's resource tracker)."""
    found: list[int] = []

    def look() -> bool:
        for pid in children(game):
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except FileNotFoundError:
                continue
            if b"spawn_main" in cmdline:
                found.append(pid)
                return True
        return False

    wait_for(look, 30, "the bot's worker process")
    return found[0]


def open_expert_game(data: Path, reaper: list[subprocess.Popen[str]], *args: str) -> subprocess.Popen[str]:
    proc = start(["--level", "expert", "--seed", str(bot_starts_seed()), *args], data)
    reaper.append(proc)
    wait_for_log(data, WINDOW_OPEN)
    return proc


def ended_within(proc: subprocess.Popen[str], seconds: float) -> tuple[int, str]:
    started = time.monotonic()
    try:
        _, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"the game was still running {seconds} s after it was asked to stop") from None
    assert time.monotonic() - started < seconds
    return proc.returncode, err


def test_a_stopped_worker_is_replaced_the_bot_moves_and_quitting_is_prompt(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    proc = open_expert_game(data, reaper)
    stuck = worker_pid(proc.pid)
    os.kill(stuck, signal.SIGSTOP)  # Expert hangs, mid-thought or before it
    # past 3 x 1.5 s + 5 s the move is abandoned, the worker killed, the best-scoring move played
    wait_for_log(data, "took far too long to think", timeout=30)
    wait_for(lambda: not alive(stuck), 5, "the stopped worker to be killed")
    wait_for(lambda: load_table((data / "game.json").read_text()).state.log, 10, "the bot's move in the save")
    assert proc.poll() is None  # the game goes on
    fresh = worker_pid(proc.pid)  # a new worker for the next move (the app warms one up when asked to)
    os.kill(fresh, signal.SIGSTOP)
    proc.send_signal(signal.SIGTERM)
    code, err = ended_within(proc, 3)
    assert code == 128 + signal.SIGTERM
    assert "stopped by SIGTERM; your game is saved" in err and "Traceback" not in err
    wait_for(lambda: not session_members(proc.pid), 5, "every process of the game to end")


def test_ctrl_c_while_the_worker_is_stopped_quits_at_once_and_writes_the_settings(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    proc = open_expert_game(data, reaper)
    os.kill(worker_pid(proc.pid), signal.SIGSTOP)
    (data / "settings.json").unlink(missing_ok=True)
    proc.send_signal(signal.SIGINT)
    code, err = ended_within(proc, 3)
    assert code == 130 and "stopped by SIGINT" in err and "Traceback" not in err
    assert json.loads((data / "settings.json").read_text())["level"] == "expert"
    wait_for(lambda: not session_members(proc.pid), 5, "every process of the game to end")


def test_sighup_closes_the_game_properly(data: Path, reaper: list[subprocess.Popen[str]]) -> None:
    proc = open_expert_game(data, reaper)
    (data / "settings.json").unlink(missing_ok=True)
    proc.send_signal(signal.SIGHUP)
    code, _ = ended_within(proc, 5)
    assert code == 128 + signal.SIGHUP
    assert (data / "settings.json").exists() and (data / "game.json").exists()
    assert "window closed (SIGHUP)" in log_text(data)


def test_the_worker_and_the_resource_tracker_die_with_a_killed_game(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    proc = open_expert_game(data, reaper)
    worker = worker_pid(proc.pid)
    helpers = children(proc.pid)
    assert worker in helpers and len(helpers) >= 2  # the worker and multiprocessing's resource tracker
    time.sleep(1.0)  # Expert is thinking now
    proc.kill()
    proc.wait()
    wait_for(lambda: not any(alive(p) for p in helpers), 10, f"the game's helpers {helpers} to end")
    assert not session_members(proc.pid)


def test_a_game_that_cannot_start_processes_plays_expert_in_a_thread(
    data: Path, tmp_path: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    # what a read-only /dev/shm or a sandbox does to multiprocessing, simulated for every process start
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(
        "import multiprocessing.process\n"
        "def _refuse(self):\n"
        "    raise OSError(30, 'Read-only file system')\n"
        "multiprocessing.process.BaseProcess.start = _refuse\n"
    )
    pythonpath = f"{hooks}{os.pathsep}{Path(__file__).resolve().parents[2]}"
    proc = start(["--level", "expert", "--seed", str(bot_starts_seed())], data, PYTHONPATH=pythonpath)
    reaper.append(proc)
    wait_for_log(data, WINDOW_OPEN)
    wait_for_log(data, "cannot start a bot worker process (OSError: [Errno 30] Read-only file system)")
    wait_for(lambda: load_table((data / "game.json").read_text()).state.log, 20, "Expert's move in the save")
    assert proc.poll() is None and children(proc.pid) == []
    proc.send_signal(signal.SIGTERM)
    assert ended_within(proc, 5)[0] == 128 + signal.SIGTERM


@pytest.mark.skipif(
    shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0,
    reason="needs unshare -m (root, or user namespaces) to mount a read-only /dev/shm for one program",
)
def test_a_read_only_dev_shm_does_not_stop_the_game(data: Path, reaper: list[subprocess.Popen[str]]) -> None:
    seed = str(bot_starts_seed())
    script = 'mount -t tmpfs -o ro tmpfs /dev/shm && exec "$@"'
    cmd = ["unshare", "-m", "sh", "-c", script, "sh", sys.executable, "-m", "cribtiles"]
    proc = subprocess.Popen(
        [*cmd, "--level", "expert", "--seed", seed, "--data-dir", str(data)],
        env=program_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    reaper.append(proc)
    wait_for_log(data, WINDOW_OPEN)
    wait_for(lambda: load_table((data / "game.json").read_text()).state.log, 20, "Expert's move in the save")
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert ended_within(proc, 5)[0] == 128 + signal.SIGTERM


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ("99999x99999", "--size 99999x99999: a window can be 1 to 16384 pixels on a side"),
        ("100x30000", "--size 100x30000: a window can be 1 to 16384 pixels on a side"),
        ("²x²", "--size '²x²': write the width and height in pixels, like 1280x800"),
        ("big", "--size 'big': write the width and height in pixels, like 1280x800"),
    ],
)
def test_impossible_sizes_are_refused_in_words(data: Path, size: str, message: str) -> None:
    result = run(["--size", size], data, timeout=30)
    assert result.returncode == 2
    assert result.stderr.startswith(f"cribtiles: {message}")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("how", "opened"),
    [
        (["--size", "16000x16000"], "3840x2400"),  # no screen headless: the largest one assumed
        (["--size", "100x16000"], "960x2400"),  # never narrower than the table can be read at
    ],
)
def test_sizes_beyond_the_screen_open_at_the_screen(
    data: Path, reaper: list[subprocess.Popen[str]], how: list[str], opened: str
) -> None:
    proc = start([*how, "--seed", "1"], data)
    reaper.append(proc)
    wait_for_log(data, f"{WINDOW_OPEN} {opened}", timeout=60)
    assert "does not fit the screen" in log_text(data)
    proc.send_signal(signal.SIGTERM)
    assert ended_within(proc, 10)[0] == 128 + signal.SIGTERM


def test_a_settings_window_of_20000_pixels_opens_within_the_screen(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    (data / "settings.json").write_text(json.dumps({"window": [20000, 20000]}))
    proc = start(["--seed", "1"], data)
    reaper.append(proc)
    wait_for_log(data, WINDOW_OPEN, timeout=60)
    assert f"{WINDOW_OPEN} 3840x2400" in log_text(data) or f"{WINDOW_OPEN} 1280x800" in log_text(data)
    proc.send_signal(signal.SIGTERM)
    assert ended_within(proc, 10)[0] == 128 + signal.SIGTERM


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"players": ["You", "x" * 3_000_000]}, "a player's name is 3,000,000 characters long"),
        (
            {"actions": ["f7=" + "4L" * 300_000]},
            "action 1 is 'f7=4L4L4L4L4L4L4L4L4L4L4L4L4L4L4L4L4L4L…' (600,003 characters)",
        ),
    ],
)
def test_huge_strings_in_a_save_are_damage_and_the_window_opens(
    data: Path, reaper: list[subprocess.Popen[str]], change: dict[str, object], said: str
) -> None:
    record = json.loads(save(new_game(2, seed=1, names=("You", "Medium"))))
    record.update(change)
    (data / "game.json").write_text(json.dumps(record))
    proc = start([], data)
    reaper.append(proc)
    wait_for_log(data, WINDOW_OPEN, timeout=60)
    log = log_text(data)
    assert said in log and max(len(line) for line in log.splitlines()) < 1000  # quoted little
    assert list(data.glob("game.damaged-*.json"))  # kept aside for a bug report
    time.sleep(1.0)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert ended_within(proc, 5)[0] == 128 + signal.SIGTERM


def test_a_second_window_on_one_folder_is_refused_and_the_first_game_kept(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    first = start(["--seed", "5"], data)
    reaper.append(first)
    wait_for_log(data, WINDOW_OPEN)
    before = (data / "game.json").read_text()
    second = run(["--level", "easy"], data, timeout=30)
    assert second.returncode == 1
    assert "Crib Tiles is already running with the data folder" in second.stderr
    assert (data / "game.json").read_text() == before
    assert first.poll() is None
    first.send_signal(signal.SIGTERM)
    assert ended_within(first, 5)[0] == 128 + signal.SIGTERM


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (Debian: xvfb) to take an X server away")
def test_when_the_x_server_goes_away_the_game_and_its_worker_end(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    xvfb, display = start_xvfb(1280, 800)
    try:
        proc = start(
            ["--level", "expert", "--seed", str(bot_starts_seed())], data, SDL_VIDEODRIVER="x11", DISPLAY=display
        )
        reaper.append(proc)
        wait_for_log(data, WINDOW_OPEN)
        helpers = children(proc.pid)
        assert helpers
    finally:
        xvfb.kill()
        xvfb.wait()
    proc.wait(timeout=10)  # Xlib ends the program when its display is gone
    wait_for(lambda: not any(alive(p) for p in helpers), 10, f"the game's helpers {helpers} to end")
    assert load_table((data / "game.json").read_text()).seats[1].level == "expert"  # the save is whole
