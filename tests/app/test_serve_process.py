"""`cribtiles serve` and `cribtiles online bot` as real processes (issue 43): SIGTERM while a bot is thinking
ends the server soon after it says "stopped" (its bots' processes with it), and it says at start whom it
trusts for forwarded addresses and which web pages may connect; a wrong proxy or origin is refused in
words; a bot started before its server waits for it, says what it waits for, then takes its seat and
plays the game to its end.

No timing is asserted: the waits are hang guards, and the times are printed."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from cribtiles.online.client import Link

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD = 10.0  # seconds a stopped server may take to exit before the test fails: far more than it needs
PATIENCE = 120.0  # seconds for anything else: a server to start, a game to be played


class Lines:
    """What a process writes on one of its pipes, line by line, read by a thread of its own."""

    def __init__(self, stream: IO[str] | None) -> None:
        assert stream is not None
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, wanted: Callable[[str], bool], what: str, proc: subprocess.Popen[str]) -> str:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            found = next((line for line in list(self.lines) if wanted(line)), None)
            if found is not None:
                return found
            if proc.poll() is not None and not self._thread.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"{what} never came; the lines: {self.lines}")

    def text(self) -> str:
        self._thread.join(PATIENCE)
        return "\n".join(self.lines)


def started(*args: str) -> subprocess.Popen[str]:
    """`python -m cribtiles ARGS` in a session of its own (a signal reaches it and nothing else)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "cribtiles", *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def session_members(session: int) -> list[int]:
    """The processes left in `session` (Linux's /proc)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:
            members.append(int(entry.name))
    return members


@contextmanager
def server(data: Path, port: int, *more: str) -> Iterator[tuple[str, subprocess.Popen[str], Lines]]:
    """`cribtiles serve` on `port` (0: a free one) for the block: its URL, its process and its errors;
    stopped by SIGTERM after the block unless the block stopped it."""
    proc = started("serve", "--port", str(port), "--data-dir", str(data), *more)
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    try:
        line = out.wait_for(lambda line: line.startswith("Crib Tiles server on "), "the server's line", proc)
        yield line.split()[4], proc, err
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(PATIENCE)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def log_lines(data: Path) -> list[str]:
    return (data / "cribtiles.log").read_text().splitlines()


def to_move_after_mine(link: Link, code: str) -> None:
    """Take the open seat at `code` and make one move: after it, the server's Expert is thinking."""
    from cribtiles.online.botclient import SeatBot
    from cribtiles.online.tiles_seat import tile_move

    bot = SeatBot(link, code, "beginner", seed=1)
    seat = bot.take_seat("Ann")
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        message = link.next_message(timeout=1.0)
        if message is None or message["type"] != "state":
            continue
        state = message["state"]
        if state.get("phase") == "playing" and state.get("to_move") == seat:
            move = tile_move(state, "beginner", random.Random(1))
            answer = link.request("act", timeout=PATIENCE, code=code, ply=state["ply"], move=move)
            assert answer["type"] == "state" and answer["state"]["to_move"] != seat
            return
    raise AssertionError("the seat was never to move")


def test_sigterm_while_a_bot_thinks_ends_the_server_soon_after_it_says_stopped(tmp_path: Path) -> None:
    data = tmp_path / "server"
    trusted = ("--forwarded-allow-ips", "127.0.0.1,10.0.0.0/8", "--allowed-origins", "https://Play.Example.org")
    with server(data, 0, *trusted) as (url, proc, err):
        link = Link(url)
        try:
            assert link.wait_connected(PATIENCE), link.problem
            seats = [{"kind": "open"}, {"kind": "bot", "level": "expert"}]
            code = str(link.request("create", timeout=PATIENCE, game="tiles", seats=seats)["code"])
            to_move_after_mine(link, code)
            began = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(HANG_GUARD)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"the server was still running {HANG_GUARD:g} s after SIGTERM") from None
            print(f"the server exited {time.monotonic() - began:.3f} s after SIGTERM, a bot thinking")
        finally:
            link.close()
        assert proc.returncode == 0 and "Traceback" not in err.text(), err.text()
    for _ in range(1_000):  # its bots' processes and multiprocessing's tracker end as it does
        if not session_members(proc.pid):
            break
        time.sleep(0.01)
    assert session_members(proc.pid) == [], "a process of the server (a bot's) outlived it"
    lines = [line.split(" cribtiles.server: ", 1)[1] for line in log_lines(data) if " cribtiles.server: " in line]
    assert lines[-2:] == ["stopping: SIGTERM", "stopped"]
    assert "forwarded client addresses are read from these proxies only: 127.0.0.1/32, 10.0.0.0/8" in lines
    assert "web pages that may connect: https://play.example.org" in lines


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--forwarded-allow-ips", "10.0.0.1/8"], "'10.0.0.1/8' is not a network's first address: write 10.0.0.0/8"),
        (["--forwarded-allow-ips", "proxy.lan"], "'proxy.lan' is neither an address nor a network, like 127.0.0.1"),
        (["--allowed-origins", "https://x.org/play"], "'https://x.org/play' is not a web page's origin, like https:"),
    ],
)
def test_a_wrong_proxy_or_origin_is_refused_in_words_before_the_server_starts(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cribtiles.app.main import main

    code = main(["serve", "--data-dir", str(tmp_path / "server"), *argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert f"cribtiles serve: error: argument {argv[0]}: {words}" in err and "Traceback" not in err
    assert not (tmp_path / "server").exists()  # nothing was made: the server never started


def test_a_bot_started_before_its_server_waits_for_it_then_plays_the_game_to_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cribtiles.app.main import main

    data, port = tmp_path / "server", free_port()
    with server(data, port) as (url, _proc, _err):  # the table is made, and the server stops
        assert main(["online", "new", url, "--players", "?,beginner", "--json"]) == 0
        code = json.loads(capsys.readouterr().out)["code"]
    bot = started("online", "bot", url, code, "--level", "beginner", "--name", "Ann")
    out, err = Lines(bot.stdout), Lines(bot.stderr)
    try:
        said = err.wait_for(lambda line: "waiting for the server to start" in line, "the bot's waiting line", bot)
        assert said == (
            f"cribtiles online bot: {url}: no server answers at that address; "
            "waiting for the server to start (at most 180 s)"
        )
        with server(data, port) as (again, _proc, _err):
            assert again == url
            bot.wait(PATIENCE)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(PATIENCE)
    printed = out.text()
    assert bot.returncode == 0, (printed, err.text())
    assert printed.startswith(f"Ann sits at seat 1 of table {code} and plays until the game is over\n")
    assert f"table {code}: tiles, over after " in printed and "\nended: " in printed
