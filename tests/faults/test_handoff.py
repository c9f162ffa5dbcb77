"""An invitation clicked while the game is already open (issue 44): the second program (`cribtiles online
play cribtiles://…`, as the URL handler runs it) is not refused by the data folder's lock; it hands the
table to the open window, which comes to the front seated there. A window that does not take it (here:
stopped with SIGSTOP) leaves the second program to say the game is already open, as before, and nothing
is left behind for a later window to open by surprise.

The window and the server are real programs in processes of their own, headless."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

from cribtiles.online.client import Link

from .conftest import log_text, run, start, wait_for, wait_for_log
from .test_server_kill import Server, free_port

PATIENCE = 30.0  # seconds any one wait may take before the test fails (never a timing assertion)


def a_table(url: str) -> str:
    """A table with an easy bot and an open seat; its code."""
    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE)
        made = link.request("create", game="tiles", seats=[{"kind": "bot", "level": "easy"}, {"kind": "open"}])
        code: str = made["code"]
        return code
    finally:
        link.close()


def seated_at(data: Path) -> list[str]:
    """The codes of the tables the window in `data` keeps a seat at."""
    try:
        kept = json.loads((data / "online_games.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return []
    return [s["code"] for s in kept["seats"]]


def test_an_invitation_clicked_while_the_game_is_open_seats_its_window_at_the_table(
    tmp_path: Path, data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    server = Server(free_port(), tmp_path / "server")
    server.start()
    reaper.extend(server.started)
    code = a_table(server.url)
    window = start([], data)
    reaper.append(window)
    wait_for_log(data, "window open")
    link = f"cribtiles://127.0.0.1:{server.port}/t/{code[:3].lower()}-{code[3:].lower()}"
    handed = run(["online", "play", link, "--name", "Ben"], data)
    assert handed.returncode == 0, handed.stderr
    assert f"already open; the table {code} opens in its window" in handed.stdout + handed.stderr
    wait_for(lambda: code in seated_at(data), PATIENCE, "the open window to sit at the table")
    assert "a table was handed to this window" in log_text(data)
    assert not (data / "open_table.json").exists()
    assert window.poll() is None  # the open window goes on, and no second one was started
    window.terminate()
    assert window.wait(PATIENCE) == 128 + signal.SIGTERM
    server.stop()


def test_a_window_that_does_not_take_the_table_leaves_the_refusal_as_before_and_nothing_behind(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    window = start([], data)
    reaper.append(window)
    wait_for_log(data, "window open")
    os.kill(window.pid, signal.SIGSTOP)  # open, holding the folder, but taking nothing
    try:
        refused = run(["online", "play", "cribtiles://127.0.0.1:9/t/KXQMWD"], data)
    finally:
        os.kill(window.pid, signal.SIGCONT)
    assert refused.returncode == 1
    assert "Crib Tiles is already running with the data folder" in refused.stdout + refused.stderr
    assert not (data / "open_table.json").exists()
