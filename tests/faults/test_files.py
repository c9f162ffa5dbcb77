"""Fault injection for files: the real game, headless, fed damaged settings and saves of every kind,
given a data folder it cannot write (a file, /dev/null, a read-only mount), a full disk, the temporary
files of games killed during a save, and a second game on the same folder.

Each test asserts what a player would see: the game starts and stays up, the damaged file is kept
aside (or the game says why it could not be), the old save is intact, nothing is left behind.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import pytest

from cribtiles.rules import new_game
from cribtiles.rules.game import GameState
from cribtiles.rules.record import save
from cribtiles.table.settings import Preferences

from .conftest import ROOT, log_text, program_env, run, start, wait_for

UP_FOR = 2.0  # seconds the window must stay up to count as started
DEFAULTS = json.loads(json.dumps(asdict(Preferences())))  # the settings file the window writes afresh


# --- helpers ---


def game_in_play(actions: int = 6, bot_to_move: bool = False) -> GameState:
    """A game against Medium (seat 1) after `actions` actions, with the player or the bot to move."""
    s = new_game(2, seed=7, names=("You", "Medium"))
    for _ in range(actions):
        s = s.apply(s.legal_actions()[0])
    if (s.current == 1) != bot_to_move:
        s = s.apply(s.legal_actions()[0])
    assert not s.is_over and (s.current == 1) == bot_to_move
    return s


def record(**changes: object) -> bytes:
    data = json.loads(save(game_in_play()))
    data.update(changes)
    return json.dumps(data).encode()


def sparse(size: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        with open(path, "wb") as f:
            f.truncate(size)

    return make


def wait_while_up(proc: subprocess.Popen[str], predicate: Callable[[], object], what: str, timeout: float = 60) -> None:
    """Wait for `predicate`, failing at once (with the game's output) if the game exits first."""

    def done() -> object:
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the game exited with {proc.returncode} before {what}\n{out}\n{err}")
        return predicate()

    wait_for(done, timeout, what)


def stays_up(proc: subprocess.Popen[str], seconds: float = UP_FOR) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the game exited with {proc.returncode} within {seconds} s\n{out}\n{err}")
        time.sleep(0.05)


def stop(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    """SIGTERM (the window closes as if the player had quit); its exit code, output and errors."""
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=20)
    assert "Traceback" not in err, err
    return proc.returncode, out, err


def window(data: Path, reaper: list[subprocess.Popen[str]], *args: str, **env: str) -> subprocess.Popen[str]:
    proc = start(list(args), data, **env)
    reaper.append(proc)
    return proc


def asides(folder: Path, stem: str) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith(f"{stem}.damaged-"))


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- damaged settings ---

SETTINGS: dict[str, bytes | Callable[[Path], None]] = {
    "level a list": b'{"level": ["expert"]}',
    "speed a list": b'{"speed": []}',
    "speed a dict": b'{"speed": {"fast": true}}',
    "sound a string": b'{"sound": "on"}',
    "fullscreen a number": b'{"fullscreen": 1}',
    "window of a bool": b'{"window": [true, 5]}',
    "window 20000 square": b'{"window": [20000, 20000]}',
    "window of strings": b'{"window": ["1280", "800"]}',
    "nested 200,000 deep": b"[" * 200_000,
    "a string of 900 KB": b'{"level": "' + b"x" * 900_000 + b'"}',
    "a file of 2 MB": sparse(2 * 1024 * 1024),
    "binary": bytes(range(256)) * 4,
    "not JSON": b"{speed: fast",
    "a JSON list": b'["medium", "fast"]',
    "a folder": lambda path: path.mkdir(),
}


@pytest.mark.parametrize("damage", SETTINGS.values(), ids=SETTINGS.keys())
def test_damaged_settings_are_set_aside_and_the_game_starts(
    data: Path, reaper: list[subprocess.Popen[str]], damage: bytes | Callable[[Path], None]
) -> None:
    path = data / "settings.json"
    if isinstance(damage, bytes):
        path.write_bytes(damage)
    else:
        damage(path)
    proc = window(data, reaper)
    wait_while_up(proc, lambda: asides(data, "settings"), "the damaged settings were set aside")
    stays_up(proc)
    stop(proc)
    [aside] = asides(data, "settings")
    if isinstance(damage, bytes):
        assert aside.read_bytes() == damage
    assert f"was set aside as {aside.name}" in log_text(data)
    # written afresh when the window closed, the tutorial offered on the title screen of this first start
    assert json.loads(path.read_text()) == dict(DEFAULTS, tutorial_offered=True)


# --- damaged saves ---

SAVES: dict[str, bytes | Callable[[Path], None]] = {
    "nested 200,000 deep": b"[" * 200_000,
    "actions nested deep": b'{"format": "cribtiles-game", "version": 1, "actions": ' + b"[" * 200_000,
    "binary": bytes(range(256)) * 4,
    "not JSON": b'{"format": "cribtiles-game",',
    "a JSON list": b"[]",
    "players a dict": record(players={"You": 1}),
    "actions of numbers": record(actions=[1, 2, 3]),
    "seed a string": record(seed="7"),
    "an unknown rule": record(options={"gravity": "on"}),
    "an action of 600 KB": record(actions=["a1=5D " * 100_000]),
    "a version of 600 KB": record(version="v" * 600_000),
    "an illegal action": record(actions=["m13=KD"]),
    "a player name of 3 MB": record(players=["You" * 1_000_000, "Medium"]),
    "a file of 9 MB": sparse(9 * 1024 * 1024),
    "a broken match": b'{"format": "cribtiles-match", "version": 1, "seed": 1, "rounds": [{"format": 2}]}',
    "a folder": lambda path: path.mkdir(),
}


@pytest.mark.parametrize("damage", SAVES.values(), ids=SAVES.keys())
def test_damaged_saves_are_set_aside_and_a_new_game_starts(
    data: Path, reaper: list[subprocess.Popen[str]], damage: bytes | Callable[[Path], None]
) -> None:
    path = data / "game.json"
    if isinstance(damage, bytes):
        path.write_bytes(damage)
    else:
        damage(path)
    proc = window(data, reaper)
    wait_while_up(proc, lambda: asides(data, "game"), "the damaged save was set aside")
    stays_up(proc)
    stop(proc)
    [aside] = asides(data, "game")
    if isinstance(damage, bytes):
        assert aside.read_bytes() == damage
    log = log_text(data)
    assert f"was set aside as {aside.name}" in log
    assert not re.search(r"(a1=5D ){11}|v{61}", log)  # the message quotes little of the file


def test_a_damaged_save_never_takes_the_name_of_one_set_aside_before(data: Path) -> None:
    now = time.time()
    earlier = {}
    for t in range(-1, 30):  # every name the next half minute could give, taken already
        name = f"game.damaged-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now + t))}.json"
        earlier[name] = f"damaged earlier, {t}"
        (data / name).write_text(earlier[name])
    (data / "game.json").write_text("[damaged now")
    proc = start([], data)
    try:
        wait_while_up(proc, lambda: len(asides(data, "game")) > len(earlier), "the damaged save was set aside")
    finally:
        proc.kill()
        proc.communicate()
    assert all((data / name).read_text() == text for name, text in earlier.items())
    [new] = [p for p in asides(data, "game") if p.name not in earlier]
    assert new.read_text() == "[damaged now" and re.fullmatch(r"game\.damaged-[0-9]{8}-[0-9]{6}-2\.json", new.name)


# --- data folders that cannot be written ---


@pytest.mark.parametrize("where", ["a file", "/dev/null"])
def test_a_data_dir_that_is_not_a_folder_runs_and_says_it_cannot_save(
    tmp_path: Path, reaper: list[subprocess.Popen[str]], where: str
) -> None:
    folder = tmp_path / "data" if where == "a file" else Path("/dev/null")
    if where == "a file":
        folder.write_text("a file, not a folder")
    proc = window(folder, reaper)
    stays_up(proc)
    _, _, err = stop(proc)
    assert f"could not save the settings in {folder} ({folder} is not a folder)" in err
    if where == "a file":
        assert folder.read_text() == "a file, not a folder"


def read_only(folder: Path, args: list[str]) -> list[str]:
    """The command that runs `args` with `folder` read-only. Root writes through permissions, so as root
    the folder is bind-mounted read-only in a mount namespace of its own; otherwise chmod 0o555 does."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return args
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True) if shutil.which("unshare") else None
    if probe is None or probe.returncode != 0:
        pytest.skip("running as root without unshare(1) and mount namespaces: no way to make a read-only folder")
    mount = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@"'
    return ["unshare", "-rm", "sh", "-c", mount, "sh", str(folder), *args]


def test_a_read_only_folder_runs_keeps_every_file_and_says_what_happened(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    game = save(game_in_play()).encode()
    (data / "game.json").write_bytes(game)
    (data / "settings.json").write_bytes(b'{"speed": []}')
    cmd = read_only(data, [sys.executable, "-m", "cribtiles", "--data-dir", str(data)])
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=program_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    reaper.append(proc)
    try:
        stays_up(proc, 3)
        _, _, err = stop(proc)
    finally:
        data.chmod(0o755)
    assert re.search(r"could not be set aside \((Read-only file system|Permission denied)\)", err), err
    assert "so it was left where it is" in err and "kept as" not in err
    assert re.search(rf"could not save the settings in {re.escape(str(data))} \((Read-only file sys|Permiss)", err)
    assert (data / "game.json").read_bytes() == game
    assert (data / "settings.json").read_bytes() == b'{"speed": []}'
    assert sorted(p.name for p in data.iterdir()) == ["game.json", "settings.json"]


# --- a full disk ---


def full_disk(limit: int) -> Callable[[], None]:
    """For preexec_fn: files can grow to `limit` bytes, and writing past it fails with EFBIG."""

    def limit_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_files


def test_a_full_disk_keeps_the_old_save_whole_and_leaves_no_temporary_file(data: Path) -> None:
    old = save(game_in_play(actions=80, bot_to_move=True)).encode()  # the bot moves, the game is saved
    (data / "game.json").write_bytes(old)
    cmd = [sys.executable, "-m", "cribtiles", "--data-dir", str(data), "--continue"]  # the bot moves at once
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=program_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=full_disk(len(old)),  # the next save is longer by the bot's move
    )
    try:
        # the log says when the save failed, unless the log itself grew past the limit: then wait 15 s
        deadline = time.monotonic() + 15
        wait_while_up(
            proc, lambda: "could not save the game" in log_text(data) or time.monotonic() > deadline, "a save"
        )
        stays_up(proc, 1)
        _, _, err = stop(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert f"could not save the game in {data} (File too large)" in err  # the player is told at the end
    assert (data / "game.json").read_bytes() == old
    assert temporaries(data) == []


# --- temporary files of games killed during a save ---


def test_temporary_files_of_killed_games_are_removed_at_start(data: Path, reaper: list[subprocess.Popen[str]]) -> None:
    stale = [".game.json.9999999999.tmp", ".settings.json.9999999998.tmp"]
    for name in stale:
        (data / name).write_text('{"format": "cribtiles-game", "ver')  # cut short by kill -9
    (data / "game.json").write_bytes(save(game_in_play()).encode())
    proc = window(data, reaper)
    wait_while_up(proc, lambda: temporaries(data) == [], "the stale temporary files were removed")
    stays_up(proc)
    stop(proc)
    assert all(f"removed the stale temporary file {data / name}" in log_text(data) for name in stale)


# --- two games on one folder ---


def test_a_second_game_on_the_same_folder_is_refused_and_the_first_game_is_kept(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    game = save(game_in_play()).encode()  # the player to move: the first window writes nothing
    (data / "game.json").write_bytes(game)
    first = window(data, reaper)
    wait_while_up(first, lambda: "locked the data folder" in log_text(data), "the first game locked the folder")
    stays_up(first, 1)
    for args in (["--level", "easy"], [], ["--seed", "3"]):
        second = run(args, data, timeout=60)
        assert second.returncode == 1, second.stderr
        assert f"Crib Tiles is already running with the data folder {data}; close it first" in second.stderr
        assert (data / "game.json").read_bytes() == game
        assert first.poll() is None
    stop(first)
    third = window(data, reaper, "--level", "easy")  # once the first has gone, the folder is free
    stays_up(third)
    stop(third)
