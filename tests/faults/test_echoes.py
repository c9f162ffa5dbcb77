"""What the program echoes of hostile input (issue 29): a 100 KB argument, a line of a binary file, an
escape sequence in a name or a file name. Nothing of it reaches the terminal whole or as a control
character: each message quotes a short, escaped excerpt. And quitting never says "saved" when saving
failed. The real program runs in subprocesses, headless."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from cribtiles.rules import new_game
from cribtiles.rules.board import Board
from cribtiles.rules.record import save

from .conftest import log_text, run, start, wait_for_log
from .test_text_and_arena import Collected

BIG = "x" * 100_000
HOSTILE = "\x1b]0;PWNED\x07\x1b[2J"
EMPTY_BOARD = Board.empty().to_text()
#: characters: a message that quotes a short excerpt stays well under this (the last bound is 500)
SHORT = 400


def control_characters(text: str) -> list[str]:
    """The characters of `text` that a terminal would act on: below 0x20 (but the line break and tab),
    DEL and the C1 controls 0x80-0x9f."""
    return [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]


def assert_clean(text: str) -> None:
    assert not control_characters(text), repr(text[:400])


def assert_short_refusal(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """One short line (or argparse's usage and one short line), no control character, no traceback."""
    err = result.stderr
    assert result.returncode == code, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    assert_clean(err + result.stdout)
    last = err.rstrip("\n").splitlines()[-1]
    assert len(last) < SHORT and "x" * 61 not in err, last[:600]
    assert len(err) < 2 * SHORT + 600, err[:600]  # the usage of argparse, and one line
    return last


# --- 1. command-line values are not echoed whole ---

ARGUMENTS = {
    "--rules of 100 KB": ["--text", "--rules", BIG],
    "--rules start=": ["--rules", "start=" + BIG],
    "--rules name=": ["--rules", BIG + "=on"],
    "--rules rounds=": ["--rules", "rounds=" + BIG],
    "--players": ["--players", "Ann," + BIG],
    "--size": ["--size", BIG],
    "--seed": ["--seed", BIG],
    "--level": ["--level", BIG],
    "an unknown option": ["--" + BIG],
    "an unknown argument": ["--text", BIG],
    "analyze --rack": ["analyze", "--rack", BIG],
    "analyze --top": ["analyze", "--rack", "4L", "--top", BIG],
    "analyze --by": ["analyze", "--rack", "4L", "--by", BIG],
    "analyze FILE": ["analyze", "--rack", "4L", BIG],
    "review --budget": ["review", "x.json", "--budget", BIG],
    "review --seed": ["review", "x.json", "--seed", BIG],
    "review FILE": ["review", BIG],
    "replay --size": ["replay", "x.json", "--size", BIG],
    "replay FILE": ["replay", BIG],
    "history": ["history", BIG],
    "stats --data-dir": ["stats", "--data-dir", BIG],
    "arena --bots": ["arena", "--bots", "hard," + BIG],
    "arena --rules": ["arena", "--bots", "hard,easy", "--rules", "joker=" + BIG],
    "arena --games": ["arena", "--bots", "hard,easy", "--games", BIG],
    "cribbage score": ["cribbage", "score", BIG, "--starter", "5C"],
    "cribbage score --starter": ["cribbage", "score", "5H 5D 5S JC", "--starter", BIG],
    "cribbage peg": ["cribbage", "peg", "4H " + BIG],
    "cribbage arena --bots": ["cribbage", "arena", "--bots", "hard," + BIG],
}


@pytest.mark.parametrize("args", ARGUMENTS.values(), ids=ARGUMENTS.keys())
def test_a_huge_value_on_the_command_line_is_quoted_short(data: Path, args: list[str]) -> None:
    assert_short_refusal(run(args, None, timeout=20, XDG_DATA_HOME=str(data)))


@pytest.mark.parametrize("args", ARGUMENTS.values(), ids=ARGUMENTS.keys())
def test_an_escape_on_the_command_line_is_not_passed_to_the_terminal(data: Path, args: list[str]) -> None:
    hostile = [a.replace(BIG, HOSTILE) for a in args]
    result = run(hostile, None, timeout=20, XDG_DATA_HOME=str(data))
    assert "Traceback" not in result.stderr, result.stderr  # refused, or (stats) a folder of that name
    assert_clean(result.stdout + result.stderr)


def test_the_rules_option_quotes_forty_characters_with_an_ellipsis(data: Path) -> None:
    last = assert_short_refusal(run(["--rules", BIG], data, timeout=20))
    assert last == f"cribtiles: '{'x' * 39}…': write options as name=value, like start=high"
    last = assert_short_refusal(run(["--seed", BIG], data, timeout=20))
    assert last == f"cribtiles: error: argument --seed: invalid int value: '{'x' * 57}…'"


# --- 2. files that are not games: short, escaped excerpts ---


def hostile_files(folder: Path) -> dict[str, Path]:
    files = {
        "a line of 100 KB": BIG + "\n",
        "escapes": HOSTILE + "\n",
        "13 board lines, a huge token": EMPTY_BOARD[:-3] + BIG + "\n",
        "13 board lines, an escape token": EMPTY_BOARD[:-3] + "5D" + HOSTILE + "\n",
        "14 board lines, the last huge": (".. " * 13 + "\n") * 13 + BIG + "\n",
        "14 board lines, the last an escape": (".. " * 13 + "\n") * 13 + HOSTILE + "\n",
        "JSON with an escape": json.dumps({"format": HOSTILE, "version": HOSTILE}, ensure_ascii=False),
        "JSON of 100 KB": json.dumps({"format": "cribtiles-game", "version": BIG}),
    }
    paths = {}
    for what, text in files.items():
        path = folder / f"{len(paths)}.txt"
        path.write_text(text, encoding="utf-8")
        paths[what] = path
    binary = folder / "binary"
    binary.write_bytes(bytes(range(256)) * 64)
    paths["binary"] = binary
    named = folder / f"name{HOSTILE}.json"
    named.write_text("{}")
    paths["a name with escapes"] = named
    paths["a missing file named with escapes"] = folder / f"gone{HOSTILE}"
    paths["/etc/passwd"] = Path("/etc/passwd")
    return paths


@pytest.mark.parametrize("command", ["analyze", "review", "replay"])
def test_a_file_that_is_not_a_game_is_quoted_short_and_escaped(tmp_path: Path, data: Path, command: str) -> None:
    for what, path in hostile_files(tmp_path).items():
        if not path.exists() and what != "a missing file named with escapes":
            continue  # no /etc/passwd here
        extra = ["--rack", "4L"] if command == "analyze" else []
        result = run([command, str(path), *extra], None, timeout=20, XDG_DATA_HOME=str(data))
        assert_short_refusal(result)


def test_analyze_etc_passwd_quotes_a_short_excerpt(data: Path) -> None:
    passwd = Path("/etc/passwd")
    if not passwd.exists() or len(passwd.read_text().splitlines()) < 14:
        pytest.skip("no /etc/passwd of 14 lines here")
    last = assert_short_refusal(run(["analyze", str(passwd), "--rack", "4L"], None, timeout=20))
    assert last.startswith("cribtiles analyze: /etc/passwd, line 14: a board has 13 rows")


def test_an_escape_in_a_board_token_is_shown_as_its_escape(tmp_path: Path, data: Path) -> None:
    board = tmp_path / "board.txt"
    rows = Board.empty().to_text().splitlines()
    rows[6] = rows[6][:-2] + "5D" + HOSTILE
    board.write_text("\n".join(rows) + "\n")
    last = assert_short_refusal(run(["analyze", str(board), "--rack", "4L"], None, timeout=20))
    assert "\\x1b]0;" in last


# --- 3. a name too long is refused at input, quoting nothing of it ---


def test_a_huge_name_on_the_command_line_is_refused_in_one_short_line(data: Path) -> None:
    last = assert_short_refusal(run(["--text", "--players", "Ann," + BIG], data, timeout=20))
    assert last == "cribtiles: --players: a player's name is 100,000 characters long; names have at most 40"


def cribbage_save(names: list[str]) -> str:
    from cribtiles.cribbage import new_game as new_cribbage
    from cribtiles.table.cribbage.table import CribbageTable

    data = json.loads(CribbageTable(new_cribbage(3), 0, "easy").to_json())
    data["record"]["names"] = names
    return json.dumps(data)


@pytest.mark.parametrize("name", ["x" * 900_000, "Ann" + HOSTILE], ids=["900 KB", "escapes"])
def test_a_cribbage_save_with_a_bad_name_is_damage_set_aside(tmp_path: Path, name: str) -> None:
    """The cribbage engine checks names as the tile game's does: a save holding a huge name (one of 5 MB
    is refused already for its size) or an escape is damaged, set aside with a short message quoting
    nothing of the name."""
    from cribtiles.app.storage import Store

    (tmp_path / "cribbage.json").write_text(cribbage_save(["You", name]))
    table, note = Store(tmp_path).load_cribbage()
    assert table is None and len(note) < SHORT, note[:600]
    assert "a player's name" in note and "kept as cribbage.damaged-" in note
    assert_clean(note)
    assert list(tmp_path.glob("cribbage.damaged-*.json")) and not (tmp_path / "cribbage.json").exists()


def test_the_new_game_screen_keeps_at_most_forty_characters_of_a_paste() -> None:
    from cribtiles.names import MAX_NAME
    from cribtiles.ui.tiles.newgame_form import Control, NewGameForm, Part

    form = NewGameForm.offered([("You", None), ("Hard", "hard")], new_game(2).options, False)
    form.focus_on(Control(Part.WHO, 0))
    form.type("Ann" + HOSTILE + "x" * 5_000_000)
    assert form.seats[0].name == "Ann]0;PWNED[2J" + "x" * (MAX_NAME - 14)
    assert form.table_seats()[0].name == form.seats[0].name


# --- 4. names and fields with control characters, written by hand, reach no terminal ---


def hostile_record(folder: Path) -> Path:
    record = json.loads(save(new_game(2, seed=1, names=("You", "Medium"))))
    record["players"] = ["You" + HOSTILE, "Ann\x9b2J\x85"]
    path = folder / "hostile.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["review"], ["review", "--json"], ["replay"]])
def test_a_record_with_control_characters_in_its_names_reaches_no_terminal(
    tmp_path: Path, data: Path, command: list[str]
) -> None:
    path = hostile_record(tmp_path)
    last = assert_short_refusal(run([*command, str(path)], None, timeout=20, XDG_DATA_HOME=str(data)))
    assert "a player's name may hold only printable characters" in last


def test_a_reviewed_file_named_with_escapes_is_named_with_its_escapes(tmp_path: Path, data: Path) -> None:
    state = new_game(2, seed=1, names=("You", "Medium"))
    for _ in range(2):
        state = state.apply(state.legal_actions()[0])
    path = tmp_path / f"game{HOSTILE}.json"
    path.write_text(save(state))
    result = run(["review", str(path), "--budget", "0"], None, timeout=20)
    assert result.returncode == 0, result.stderr
    assert_clean(result.stdout + result.stderr)
    assert "game\\x1b]0;PWNED\\x07\\x1b[2J.json" in result.stdout


def test_the_text_mode_with_a_hostile_save_and_folder_prints_no_control_character(tmp_path: Path) -> None:
    folder = tmp_path / f"data{HOSTILE}"
    folder.mkdir()
    record = json.loads(save(new_game(2, seed=1, names=("You", "Medium"))))
    record["players"] = ["You", "Ann" + HOSTILE]
    (folder / "game.json").write_text(json.dumps(record), encoding="utf-8")
    result = run(["--text"], folder, timeout=30)  # standard input at its end at once
    assert result.returncode == 0, result.stderr
    assert_clean(result.stdout + result.stderr)
    assert "a player's name may hold only printable characters" in result.stdout
    assert f"--data-dir {tmp_path}/data\\x1b]0;PWNED\\x07\\x1b[2J`" in result.stdout
    assert list(folder.glob("game.damaged-*.json"))
    log = log_text(folder)  # read later with `cat`, the log's lines pass no control character either
    assert f"--data-dir {tmp_path}/data\\x1b]0;PWNED" in log
    assert_clean(log)


# --- 5. quitting never says "saved" when saving failed ---


def test_the_window_stopped_with_its_game_unsaved_does_not_say_saved(
    tmp_path: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    folder = tmp_path / "data"
    folder.write_text("a file, not a folder")  # every save fails; the log goes to standard error
    proc = start([], folder)
    reaper.append(proc)
    err = Collected(proc.stderr)
    err.wait_for("could not save the game", 30)  # the new game's first save, as the window opens
    time.sleep(1.5)  # the window's loop takes over SIGTERM
    assert proc.poll() is None, err.finish()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)
    said = err.finish()
    assert proc.returncode == 128 + signal.SIGTERM and "Traceback" not in said, said
    assert "game is saved" not in said, said
    assert re.search(r"stopped by SIGTERM; your game could not be saved \(.* is not a folder\), so the turns", said)


def test_the_window_says_saved_when_it_was(data: Path, reaper: list[subprocess.Popen[str]]) -> None:
    proc = start([], data)
    reaper.append(proc)
    wait_for_log(data, "window open at")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert "stopped by SIGTERM; your game is saved and goes on when you start again." in err
    assert "could not be saved" not in err and "could not be saved" not in log_text(data)


def test_the_title_screen_s_quit_says_whether_the_game_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from cribtiles.app.storage import Store
    from cribtiles.ui.config import Preferences
    from cribtiles.ui.window import App

    def quit_note(store: Store) -> str:
        app = App(None, Preferences(speed="instant"), store, size=(960, 640))
        try:
            return next(i.note for i in app.menus.title_items() if i.label == "Quit")
        finally:
            app.close()

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    unsaved = quit_note(Store(blocker / "sub"))
    assert "saved" in unsaved and "is saved" not in unsaved and "could not be saved" in unsaved
    assert quit_note(Store(tmp_path / "data")) == "Your game is saved; it goes on when you come back"


def test_the_text_mode_says_not_saved_when_it_was_not(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.write_text("a file, not a folder")
    result = run(["--text"], folder, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "game is saved" not in result.stdout
    assert "End of input: your game could not be saved (could not save the game in" in result.stdout


def test_a_data_folder_named_with_escapes_that_cannot_be_used_is_named_with_its_escapes(tmp_path: Path) -> None:
    """The folder's name reaches the player's messages and, when the log cannot be kept there, the log's
    lines on standard error: both show its escapes."""
    folder = tmp_path / f"data{HOSTILE}"
    folder.write_text("a file, not a folder")
    result = run(["--text"], folder, timeout=30)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert_clean(result.stdout + result.stderr)
    assert "data\\x1b]0;PWNED\\x07\\x1b[2J is not a folder" in result.stderr  # the log's warning
    assert "End of input: your game could not be saved" in result.stdout
