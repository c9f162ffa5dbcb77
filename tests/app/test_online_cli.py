"""`cribtiles online new|bot|status` against a real server on a loopback port: `new` prints a code (text
and JSON), bad arguments are refused in words with exit status 2, two `online bot` processes play a whole
game and exit 0, `status` shows the seats, whose turn, the scores and the ending, an unreachable server is
said in words, and nothing a server sends puts a control character on the terminal (issue 31)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.server import ServerConnection, serve

from cribtiles.app import online_cli
from cribtiles.app.main import main
from cribtiles.online.client import Link
from cribtiles.online.protocol import VERSION, read, write
from tests.server.running import running_server

#: Seconds any wait on a server or a child process may take before the test fails (never a timing assertion).
PATIENCE = 120.0


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user data folder, where `online new` keeps its host tokens: the test's own."""
    folder = tmp_path / "user-data"
    monkeypatch.setattr("cribtiles.app.storage.default_data_dir", lambda: folder)
    return folder


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server() as (url, _hall):
        yield url


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["online", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def new_code(capsys: pytest.CaptureFixture[str], url: str, players: str, *more: str) -> str:
    code, out, err = run(capsys, "new", url, "--players", players, "--json", *more)
    assert code == 0, err
    told: str = json.loads(out)["code"]
    return told


def a_free_port() -> int:
    with socket.socket() as probe:  # a loopback port where nothing listens
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_new_prints_the_tables_code_and_host_token_and_the_table_is_there(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "new", server, "--players", "Ann,?,hard")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("code ") and lines[0].endswith(": players take their seats at the table with it")
    table_code = lines[0].split()[1].rstrip(":")
    assert len(table_code) == 6 and table_code.isalpha() and table_code.isupper()
    assert lines[1].startswith("host token ") and "keep it to yourself" in lines[1]
    web = server.replace("ws://", "http://")
    assert lines[2] == f"invitation {web}/t/{table_code}: a browser shows the table and opens Crib Tiles at it"

    code, out, err = run(capsys, "status", server, table_code, "--json")
    assert code == 0, err
    table = json.loads(out)
    assert table["code"] == table_code and table["phase"] == "waiting" and table["game"] == "tiles"
    assert [s["kind"] for s in table["seats"]] == ["person", "open", "bot"]
    assert table["seats"][0]["name"] == "Ann" and table["seats"][2]["level"] == "hard"


def test_new_as_json_gives_the_code_the_host_token_and_the_seats(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "new", server, "--players", "?,Easy", "--rules", "joker=on", "--json")
    assert code == 0, err
    told = json.loads(out)
    assert set(told) == {"server", "code", "host_token", "game", "seats", "invitation"}
    assert told["server"] == server and told["game"] == "tiles"
    assert told["invitation"] == f"{server.replace('ws://', 'http://')}/t/{told['code']}"
    assert told["seats"] == [{"kind": "open"}, {"kind": "bot", "level": "easy"}]
    assert len(told["host_token"]) >= 22  # 128 bits or more, as URL-safe text


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--players", "Ann"], "cribtiles online new: --players: a table has 2 to 4 seats, not 1"),
        (["--players", "Ann,?,?,?,?"], "cribtiles online new: --players: a table has 2 to 4 seats, not 5"),
        (["--players", "Ann,,?"], "cribtiles online new: --players: separate the seats with commas, like Ann,?,hard"),
        (["--players", "Ann\x1b[2J,?"], "cribtiles online new: --players: "),
        (["--players", "Ann,?", "--turn-timer", "soon"], "write a time like 90s, 5m or 2d, not 'soon'"),
        (["--players", "Ann,?", "--turn-timer", "1s"], "cribtiles online new: the server refused: "),
        (["--players", "Ann,?", "--rules", "joker=maybe"], "cribtiles online new: the server refused: "),
        (["--players", "Ann,?", "--game", "chess"], "invalid choice: 'chess'"),
        (
            ["--players", "Ann,?", "--game", "cribbage", "--rules", "variant=three-player"],
            "Three-player cribbage is played by three, not 2",
        ),
    ],
)
def test_bad_players_rules_and_turn_timers_are_refused_in_words_with_exit_status_2(
    server: str, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = run(capsys, "new", server, *argv)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err
    assert "\x1b" not in err  # a name's control character is written as its escape, never sent on


def test_two_bot_processes_play_a_whole_game_and_status_tells_how_it_ended(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    table_code = new_code(capsys, server, "?,?", "--seed", "3")
    command = [sys.executable, "-m", "cribtiles", "online", "bot", server, table_code]
    bots = [
        subprocess.Popen(
            [*command, "--level", level, "--name", name, "--seed", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for level, name in (("easy", "Ann"), ("medium", "Ben"))
    ]
    said = []
    try:
        for bot in bots:
            out, err = bot.communicate(timeout=PATIENCE)
            said.append((bot.returncode, out, err))
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
    for returncode, out, err in said:
        assert returncode == 0 and "Traceback" not in err, err
        assert f"of table {table_code} and plays until the game is over" in out
        assert f"table {table_code}: tiles, over after " in out and "\nended: " in out
    firsts = sorted(out.splitlines()[0] for _, out, _ in said)  # the two start at once: either may sit first
    assert firsts in (
        [f"{name} sits at seat {seat} of table {table_code} and plays until the game is over" for name, seat in pairs]
        for pairs in ((("Ann", 1), ("Ben", 2)), (("Ann", 2), ("Ben", 1)))
    )
    names = ["Ann", "Ben"] if firsts[0].startswith("Ann sits at seat 1") else ["Ben", "Ann"]

    code, out, err = run(capsys, "status", server, table_code, "--json")
    assert code == 0, err
    table = json.loads(out)
    assert table["phase"] == "over" and [s["name"] for s in table["seats"]] == names
    scores, winners = table["scores"], table["winners"]
    assert winners == [i for i, s in enumerate(scores) if s == max(scores)]

    code, out, err = run(capsys, "status", server, table_code)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"table {table_code}: tiles, over after {table['turns']} turns"
    assert lines[1].split() == ["1.", names[0], str(scores[0])] and lines[2].split() == ["2.", names[1], str(scores[1])]
    won = " and ".join(names[w] for w in winners) + (" won" if len(winners) == 1 else " tied")
    assert lines[3].startswith("ended: ") and lines[3].endswith(f"; {won}")


def test_partners_online_two_bot_processes_and_the_servers_two_play_and_status_tells_each_seat(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44: `online new --game cribbage --rules variant=partnership` makes a table of four; two `online
    bot` processes take its open seats (partners across: seats 1 and 3) and the game is played to its end;
    status gives each seat its side's score, and both partners won."""
    rules = "variant=partnership,target=61"
    table_code = new_code(capsys, server, "?,easy,?,medium", "--game", "cribbage", "--rules", rules)
    command = [sys.executable, "-m", "cribtiles", "online", "bot", server, table_code, "--seed", "2"]
    names = ("Ann", "Cy")
    bots = [
        subprocess.Popen(
            [*command, "--level", "easy", "--name", name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for name in names
    ]
    said = []
    try:
        for bot in bots:
            out, err = bot.communicate(timeout=PATIENCE)
            said.append((bot.returncode, out, err))
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
    assert [code for code, _, _ in said] == [0, 0], said
    code, out, err = run(capsys, "status", server, table_code, "--json")
    assert code == 0, err
    table = json.loads(out)
    assert table["phase"] == "over" and table["game"] == "cribbage" and len(table["seats"]) == 4
    scores, winners = table["scores"], table["winners"]
    assert scores[0] == scores[2] and scores[1] == scores[3] and 61 in scores
    assert winners in ([0, 2], [1, 3]) and scores[winners[0]] == 61
    code, out, err = run(capsys, "status", server, table_code)
    assert code == 0 and err == ""
    lines = out.splitlines()
    won = " and ".join(table["seats"][w]["name"] for w in winners)  # partners won, not tied
    assert len(lines) == 6 and lines[5].endswith(f"; {won} won"), lines


def test_two_bots_of_one_level_started_at_once_without_names_each_take_a_seat(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both would be "Easy bot", and a name sits once at a table: the second to sit is "Easy bot 2"."""
    table_code = new_code(capsys, server, "?,?")
    command = [sys.executable, "-m", "cribtiles", "online", "bot", server, table_code, "--level", "easy"]
    bots = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    said = []
    try:
        for bot in bots:
            out, err = bot.communicate(timeout=PATIENCE)
            said.append((bot.returncode, out, err))
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
    assert [code for code, _, _ in said] == [0, 0], said
    firsts = sorted(out.splitlines()[0].split(" sits at ")[0] for _, out, _ in said)
    assert firsts == ["Easy bot", "Easy bot 2"]


def test_status_shows_the_seats_whose_turn_it_is_and_the_scores_while_playing(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    table_code = new_code(capsys, server, "Ann,easy", "--seed", "4")
    ann = Link(server)
    try:
        assert ann.wait_connected(PATIENCE)
        ann.request("join", PATIENCE, code=table_code, name="Ann")
        code, out, err = run(capsys, "status", server, table_code, "--json")
        assert code == 0, err
        table = json.loads(out)
        assert table["phase"] == "playing" and table["to_move"] in (0, 1) and len(table["scores"]) == 2
        code, out, err = run(capsys, "status", server, table_code)
    finally:
        ann.close()
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"table {table_code}: tiles, playing: turn {table['turns'] + 1}")
    assert lines[1].split()[:3] == ["1.", "Ann", str(table["scores"][0])] and "here" in lines[1]
    assert lines[2].split()[:3] == ["2.", "Easy", str(table["scores"][1])] and "the server's bot (easy)" in lines[2]
    to_move = [i for i, line in enumerate(lines[1:]) if line.endswith("<- to move")]
    assert to_move == [table["to_move"]]


def test_status_of_a_waiting_table_counts_its_open_seats(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    table_code = new_code(capsys, server, "?,?,hard")
    code, out, err = run(capsys, "status", server, table_code.lower())
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"table {table_code}: tiles, waiting for 2 more players"
    assert lines[1:] == ["  1. (open)", "  2. (open)", "  3. Hard    the server's bot (hard)"]


def test_status_tells_a_table_resigned_and_one_aborted(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44: who resigned and who won; an aborted table, with no result."""
    link = Link(server)
    try:
        assert link.wait_connected(PATIENCE)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
        resigned = link.request("create", game="tiles", seats=seats, sit=0)["code"]
        link.request("resign", code=resigned)
        waiting = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
        aborted = link.request("create", game="tiles", seats=waiting, sit=0)["code"]
        link.request("abort", code=aborted)
    finally:
        link.close()
    code, out, _ = run(capsys, "status", server, resigned)
    assert code == 0 and out.splitlines()[-1] == "ended: Ann resigned; Easy won"
    code, out, _ = run(capsys, "status", server, aborted)
    assert code == 0 and out.splitlines()[0] == f"table {aborted}: tiles, aborted before its first move: no result"
    assert len(out.splitlines()) == 3  # the seats, and no ending


def test_a_bot_for_a_level_the_game_has_not_and_an_unknown_code_are_said_in_words(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    table_code = new_code(capsys, server, "?,easy")
    code, out, err = run(capsys, "bot", server, table_code, "--level", "genius")
    assert code == 2 and out == ""
    assert err.startswith("cribtiles online bot: there is no bot level 'genius' for tiles; the levels are ")
    code, out, err = run(capsys, "status", server, "ZZZZZZ")
    assert code == 2 and out == ""
    assert err.startswith("cribtiles online status: the server refused: ") and "Traceback" not in err


def test_an_unreachable_server_or_a_wrong_address_is_said_in_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    port = a_free_port()
    for argv in (
        ["new", f"ws://127.0.0.1:{port}", "--players", "Ann,?"],
        ["status", f"127.0.0.1:{port}", "ABCDEF"],
    ):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "", argv
        assert err == f"cribtiles online {argv[0]}: ws://127.0.0.1:{port}: no server answers at that address\n"
    # a bot waits for a server to start beside it, and says so; then gives up with the same status
    monkeypatch.setattr(online_cli, "BOT_START_WAIT", 1.5)
    code, out, err = run(capsys, "bot", f"ws://127.0.0.1:{port}", "ABCDEF", "--level", "easy")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"cribtiles online bot: ws://127.0.0.1:{port}: no server answers at that address; "
        "waiting for the server to start (at most 1.5 s)",
        f"cribtiles online bot: ws://127.0.0.1:{port}: no server answers at that address (waited 1.5 s)",
    ]
    code, out, err = run(capsys, "status", "http://127.0.0.1:80", "ABCDEF")
    assert code == 2 and out == "" and "starts with ws:// or wss://" in err and "Traceback" not in err


# --- a server that sends what no Crib Tiles server would ---

EVIL = "\x1b]0;PWNED\x07\x1b[2J\x9b31m\u2028"
SEATS: list[dict[str, Any]] = [
    {"name": f"Ann{EVIL}", "kind": "person", "level": None, "present": True, "away": None},
    {"name": f"Ben{EVIL}", "kind": "bot", "level": f"hard{EVIL}", "present": True, "away": None},
]


def answer(ws: ServerConnection) -> None:
    """The welcome, then every request answered with a table full of control characters (a code that
    begins with REFUSE is refused, in words full of them)."""
    ws.send(write("welcome", server=f"evil{EVIL}", version=VERSION))
    for frame in ws:
        message = read(frame, "client")
        number = message.get("id")
        if message["type"] == "create":
            ws.send(write("created", re=number, code=f"KXQ{EVIL}", host=f"tok{EVIL}"))
        elif message["code"].startswith("REFUSE"):
            ws.send(write("refused", re=number, reason=f"no{EVIL} such table"))
        else:
            table = {"game": f"tiles{EVIL}", "phase": "over", "turns": 7, "seats": SEATS, "scores": [9, 3]}
            table.update(ended=f"out{EVIL}", winners=[0])
            ws.send(write("table", re=number, code=f"KXQ{EVIL}", table=table))


@pytest.fixture
def evil_server() -> Iterator[str]:
    with serve(answer, "127.0.0.1", 0) as ws_server:
        thread = threading.Thread(target=ws_server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"ws://127.0.0.1:{ws_server.socket.getsockname()[1]}"
        finally:
            ws_server.shutdown()
            thread.join(PATIENCE)


def printable(text: str) -> bool:
    return all(c == "\n" or c.isprintable() for c in text)


@pytest.mark.parametrize(
    "argv",
    [
        ["status", "{url}", "KXQMWD"],
        ["status", "{url}", "KXQMWD", "--json"],
        ["new", "{url}", "--players", "Ann,?"],
        ["new", "{url}", "--players", "Ann,?", "--json"],
        ["status", "{url}", "REFUSED"],
    ],
)
def test_no_control_character_a_server_sends_reaches_the_terminal(
    evil_server: str, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *[a.format(url=evil_server) for a in argv])
    assert printable(out) and printable(err), (out, err)
    assert "PWNED" in out + err  # the words are there, their control characters written as escapes
    if "REFUSED" in argv:
        assert code == 2 and err.startswith("cribtiles online status: the server refused: no\\x1b]0;PWNED")
    else:
        assert code == 0
    if "--json" in argv:
        told = json.loads(out)  # still the same JSON, the characters escaped inside it
        assert told["code"] == f"KXQ{EVIL}"


# --- online play: the window, at the table ---


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["ws://127.0.0.1:9", "KX\x1b[2JQ"], "cribtiles online play: a table's code is six letters, like KXQMWD, not "),
        (["ws://127.0.0.1:9", "ABCDEF", "--name", "Ann\x07"], "cribtiles online play: --name: a player's name may "),
        (["ws://127.0.0.1:9", "ABCDEF", "--name", " "], "cribtiles online play: --name: a player's name has 1 to 40"),
        (["http://127.0.0.1:9", "ABCDEF"], "cribtiles online play: a server's address starts with ws:// or wss://"),
        (["ws://127.0.0.1:9", "ABCDEF", "--size", "big"], "cribtiles online play: --size 'big': write the width"),
    ],
)
def test_play_refuses_a_bad_code_name_address_or_size_in_words(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = run(capsys, "play", *argv)
    assert code == 2 and out == ""
    assert err.startswith(words) and printable(err)


def test_play_opens_the_window_seated_and_a_second_start_goes_back_to_the_same_seat(tmp_path: Path) -> None:
    """Two starts of `cribtiles online play` with one data folder: the first takes the seat kept for Ben
    and keeps its token in online_games.json; the second goes back to it with that token (a join as Ben
    would be refused: his seat is taken). Each window is stopped with SIGTERM once seated."""
    import os
    import signal
    import time

    with running_server() as (url, hall):
        made = new_table_of(url, [{"kind": "person", "name": "Ben"}, {"kind": "bot", "level": "easy"}])
        table_code = made["code"]
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        data = tmp_path / "data"
        command = [sys.executable, "-m", "cribtiles", "online", "play", url, table_code.lower(), "--name", "Ben"]
        command += ["--data-dir", str(data), "--size", "1024x700"]
        tokens = []
        for start in range(2):
            window = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            try:
                end = time.monotonic() + PATIENCE
                # seated at the server, and the window has kept the seat's token (it writes it once told)
                while (
                    not (seated(hall, table_code) and kept(data)) and window.poll() is None and time.monotonic() < end
                ):
                    time.sleep(0.1)
                assert seated(hall, table_code), f"start {start}: not seated"
                assert kept(data), f"start {start}: the seat was not kept in online_games.json"
                assert window.poll() is None
                window.send_signal(signal.SIGTERM)
                out, _ = window.communicate(timeout=PATIENCE)
            finally:
                if window.poll() is None:
                    window.kill()
            assert window.returncode == 128 + signal.SIGTERM, out
            assert "Traceback" not in out, out
            [held] = json.loads((data / "online_games.json").read_text())["seats"]
            assert (held["server"], held["code"], held["seat"], held["name"]) == (url, table_code, 0, "Ben")
            tokens.append(held["token"])
            end = time.monotonic() + PATIENCE
            while seated(hall, table_code) and time.monotonic() < end:  # gone: away until the next start
                time.sleep(0.1)
        assert tokens[0] == tokens[1]


def kept(data: Path) -> bool:
    """Whether the window has written the seat it took into the data folder's online games."""
    try:
        return bool(json.loads((data / "online_games.json").read_text())["seats"])
    except (OSError, ValueError, KeyError):
        return False


def new_table_of(url: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE)
        made: dict[str, Any] = link.request("create", PATIENCE, game="tiles", seats=seats)
        return made
    finally:
        link.close()


def seated(hall: Any, code: str) -> bool:
    """Whether the first seat (Ben's) at `code` is held by a connection now (the server's own account)."""
    return bool(hall.rooms[code].present.get(0))
