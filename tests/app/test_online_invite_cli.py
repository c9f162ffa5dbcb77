"""`cribtiles online` and invitations against a real server on a loopback port (issue 44): every `online`
command takes `--data-dir` after its name (defect 14), `online new` keeps the host token there and
`online seat-bot` uses it (defect 7), `online open` lists the tables anyone may join, a table is named by
its invitation link whole, and `cribtiles cribtiles://HOST:PORT/t/CODE` (what a desktop's URL handler
runs) opens the window seated at that table, under the name used last, and goes back to that seat."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cribtiles.app.main import main
from cribtiles.online.client import Link
from cribtiles.server.front import Hall
from tests.server.running import running_server

#: Seconds any wait on a server or a child process may take before the test fails (never a timing assertion).
PATIENCE = 120.0
COMMANDS = ("new", "bot", "status", "play", "open", "seat-bot")


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user data folder, where `online new` keeps its host tokens: the test's own."""
    folder = tmp_path / "user-data"
    monkeypatch.setattr("cribtiles.app.storage.default_data_dir", lambda: folder)
    return folder


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Hall]]:
    with running_server() as (url, hall):
        yield url, hall


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["online", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", COMMANDS)
def test_every_online_command_takes_data_dir_after_its_name(command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cribtiles", "online", command, "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "--data-dir" in done.stdout, done.stderr


def test_new_with_data_dir_keeps_the_host_token_there_and_seat_bot_uses_it(
    served: tuple[str, Hall], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, hall = served
    data = tmp_path / "mine"
    code, out, err = run(capsys, "new", url, "--players", "Ann,?,?", "--json", "--data-dir", str(data))
    assert code == 0, err
    made = json.loads(out)
    kept = json.loads((data / "hosted_tables.json").read_text())
    assert kept["tables"] == [{"server": url, "code": made["code"], "host_token": made["host_token"]}]
    assert (data / "hosted_tables.json").stat().st_mode & 0o777 == 0o600
    code, out, err = run(capsys, "seat-bot", url, made["code"], "2", "hard", "--data-dir", str(data))
    assert code == 0, err
    assert out.splitlines()[0] == f"the hard bot takes seat 2 of table {made['code']}"
    code, out, err = run(capsys, "seat-bot", url, made["code"], "Ann", "easy", "--data-dir", str(data))
    assert code == 0, err  # Ann never came: before the game her seat may be given too
    assert [p.kind for p in hall.rooms[made["code"]].places] == ["bot", "bot", "person"]
    code, out, err = run(capsys, "seat-bot", url, made["code"], "3", "easy")  # the user data folder has none
    assert code == 2 and out == ""
    assert err.startswith(f"cribtiles online seat-bot: no host token of table {made['code']} at {url} is kept")
    code, out, err = run(capsys, "seat-bot", url, made["code"], "3", "easy", "--host-token", "wrong")
    assert code == 2 and "the server refused: Only the table's host may do that" in err
    code, out, err = run(capsys, "seat-bot", url, made["code"], "Zed", "easy", "--data-dir", str(data))
    assert code == 2 and "no seat at the table is 'Zed': give its number, as status lists it" in err


def test_open_lists_the_public_tables_with_a_seat_open(
    served: tuple[str, Hall], capsys: pytest.CaptureFixture[str]
) -> None:
    url, _hall = served
    public = json.loads(run(capsys, "new", url, "--players", "Ann,?,hard", "--public", "--json")[1])["code"]
    run(capsys, "new", url, "--players", "Ann,?", "--json")  # not public
    crib = json.loads(run(capsys, "new", url, "--game", "cribbage", "--players", "?,?", "--public", "--json")[1])
    code, out, err = run(capsys, "open", url, "--json")
    assert code == 0, err
    listed = [t["code"] for t in json.loads(out)["tables"]]
    assert listed[:2] == [crib["code"], public]
    code, out, err = run(capsys, "open", url, "--game", "cribbage")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith(f"at {url} (join one: cribtiles online play {url} CODE)")
    assert any(line.startswith(f"  {crib['code']}  cribbage  2 seats open  (open), (open)") for line in lines[1:])
    assert not any(public in line for line in lines)


def test_status_takes_a_tables_link_whole(served: tuple[str, Hall], capsys: pytest.CaptureFixture[str]) -> None:
    url, _hall = served
    table = json.loads(run(capsys, "new", url, "--players", "Ann,?", "--json")[1])["code"]
    port = url.rsplit(":", 1)[1]
    for link in (f"http://127.0.0.1:{port}/t/{table.lower()}", f"cribtiles://127.0.0.1:{port}/t/{table}"):
        code, out, err = run(capsys, "status", link)
        assert code == 0, err
        assert out.splitlines()[0] == f"table {table}: tiles, waiting for 1 more player"
    code, out, err = run(capsys, "status", f"cribtiles://127.0.0.1:{port}/t/{table}", "ABCDEF")
    assert code == 2 and f"the link names table {table}, not 'ABCDEF': give the link alone" in err
    code, out, err = run(capsys, "play", "cribtiles://127.0.0.1:99999/t/ABCDEF")
    assert code == 2 and "is not an invitation to a table, like http://192.168.1.20:8765/t/KXQMWD" in err
    code, out, err = run(capsys, "status", url)
    assert code == 2 and "give the table's code after SERVER, or its invitation link alone" in err


# --- the URL handler's command: the window, seated ---


def new_table(url: str, seats: list[dict[str, Any]]) -> str:
    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE)
        return str(link.request("create", PATIENCE, game="tiles", seats=seats)["code"])
    finally:
        link.close()


def kept_at(data: Path, code: str) -> list[dict[str, Any]]:
    """The seats the window has kept at the table `code` in the data folder's online games."""
    try:
        seats = json.loads((data / "online_games.json").read_text())["seats"]
    except (OSError, ValueError, KeyError):
        return []
    return [s for s in seats if isinstance(s, dict) and s.get("code") == code]


def start_seated(command: list[str], hall: Hall, code: str, seat: int, data: Path) -> str:
    """Start the window with `command` until the server holds `seat` at `code` for a connection and the
    window has kept the seat in `data` (it writes it once told); stop it (SIGTERM) and return what it said."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    window = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def seated() -> bool:
        return bool(hall.rooms[code].present.get(seat)) and bool(kept_at(data, code))

    try:
        end = time.monotonic() + PATIENCE
        while not seated() and window.poll() is None and time.monotonic() < end:
            time.sleep(0.1)
        assert seated(), f"not seated at {seat}, or the seat not kept"
        assert window.poll() is None
        window.send_signal(signal.SIGTERM)
        out, _ = window.communicate(timeout=PATIENCE)
    finally:
        if window.poll() is None:
            window.kill()
    assert window.returncode == 128 + signal.SIGTERM, out
    assert "Traceback" not in out, out
    end = time.monotonic() + PATIENCE
    while hall.rooms[code].present.get(seat) and time.monotonic() < end:  # gone: away until the next start
        time.sleep(0.1)
    return out


def test_the_url_handlers_command_opens_the_window_seated_under_the_name_used_last_and_goes_back_there(
    tmp_path: Path,
) -> None:
    """`cribtiles cribtiles://…` twice with one data folder, whose online games remember Ben from another
    table: the first takes the open seat as Ben, the second goes back to it with its token."""
    with running_server() as (url, hall):
        code = new_table(url, [{"kind": "bot", "level": "easy"}, {"kind": "open"}])
        data = tmp_path / "data"
        data.mkdir()
        before = {"server": "ws://127.0.0.1:9", "code": "AAAAAA", "seat": 0, "name": "Ben", "game": "tiles"}
        before |= {"token": "t" * 32, "host_token": ""}
        (data / "online_games.json").write_text(json.dumps({"version": 1, "seats": [before]}))
        address = f"cribtiles://127.0.0.1:{url.rsplit(':', 1)[1]}/t/{code.lower()}"
        command = [sys.executable, "-m", "cribtiles", address, "--data-dir", str(data), "--size", "1024x700"]
        tokens = []
        for _ in range(2):
            start_seated(command, hall, code, 1, data)
            assert hall.rooms[code].places[1].name == "Ben"
            [held] = kept_at(data, code)
            assert (held["server"], held["seat"], held["name"]) == (url, 1, "Ben")
            tokens.append(held["token"])
        assert tokens[0] == tokens[1]
