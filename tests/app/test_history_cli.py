"""`cribtiles history` and `cribtiles stats`: a game played to its end in the text mode is listed with
its final scores and counted, once; the JSON documents, the text, no games yet, a damaged or locked
history, and a game window holding the data folder."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from cribtiles.app.history import HISTORY_FILE, History
from cribtiles.app.history_cli import NO_GAMES
from cribtiles.app.main import main
from cribtiles.app.storage import Store
from cribtiles.app.tiles.textgame import play_text_game
from cribtiles.rules import RuleOptions
from cribtiles.rules.movegen import scored_plays
from cribtiles.table.game_summary import Game, TileDetails
from cribtiles.table.ledger import GameSummary
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table
from tests.app.test_history import summary
from tests.table.test_ledger import played

pytestmark = pytest.mark.filterwarnings("ignore:the bots' leave table")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def tile(
    key: str,
    finished_at: str,
    mode: str,
    seed: int,
    seats: tuple[tuple[str, str | None], ...],
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    rounds: int,
    turns: int,
    undos: int,
    hints: int,
    best: int,
    line: int,
) -> GameSummary:
    """A hand-made tile game (no options, no record)."""
    details = TileDetails(mode, "", rounds, turns, undos, hints, best, line)
    return GameSummary(0, key, Game.TILES, finished_at, seed, seats, scores, winners, "", details)


def saved(folder: Path) -> Table:
    return load_table((folder / "game.json").read_text(encoding="utf-8"))


def greedy_reader(folder: Path):  # type: ignore[no-untyped-def]
    """A person who plays the best-scoring play of the rack in the save at each prompt (or passes)."""

    def read(prompt: str) -> str:
        state = saved(folder).state
        plays = scored_plays(state.board, state.racks[state.current])
        return str(max(plays, key=lambda ps: ps[1])[0]) if plays else "pass"

    return read


# --- a whole game in the text mode ---


def test_a_game_played_to_its_end_in_the_text_mode_is_listed_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out: list[str] = []
    assert play_text_game("medium", 11, read=greedy_reader(tmp_path), write=out.append, data_dir=tmp_path) == 0
    final = saved(tmp_path)
    outcome = final.state.outcome
    assert outcome is not None
    capsys.readouterr()

    code, text, err = run(capsys, "history", "--json", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    doc = json.loads(text)
    assert (doc["format"], doc["version"]) == ("cribtiles-history", 1)
    (game,) = doc["games"]
    assert game["scores"] == list(outcome.final_scores)
    assert game["winners"] == list(outcome.winners)
    assert game["players"] == [{"name": "You", "level": None}, {"name": "Medium", "level": "medium"}]
    assert (game["id"], game["mode"], game["seed"], game["rounds"], game["turns"]) == (
        1, "standard", 11, 1, len(final.state.turns),
    )  # fmt: skip
    assert game["options"] == "start=low,exchange=when-stuck,joker=off,rounds=1,mode=standard"
    assert (game["undos"], game["hints"], game["opponent"], game["marked"]) == (0, 0, "medium", False)
    you, bot = outcome.final_scores
    result = "win" if you > bot else "loss" if you < bot else "tie"
    assert game["result"] == result

    code, text, err = run(capsys, "stats", "--json", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    stats = json.loads(text)
    assert (stats["format"], stats["games"], stats["watched"], stats["marked_lines"]) == ("cribtiles-stats", 1, 0, [])
    (line,) = stats["lines"]
    assert (line["mode"], line["opponent"], line["games"]) == ("standard", "medium", 1)
    assert (line["wins"], line["losses"], line["ties"]) == (
        int(result == "win"), int(result == "loss"), int(result == "tie"),
    )  # fmt: skip
    assert (line["average_score"], line["best_score"]) == (you, you)
    assert line["best_play"] == max(t.points for t in final.state.turns if t.player == 0 and t.is_play)
    assert stats["total"] == line | {"mode": "all", "opponent": "all"}

    # played again from its end (the saved game is the finished one): still one game in the history
    assert play_text_game(read=lambda prompt: "quit", write=out.append, data_dir=tmp_path) == 0
    assert [g.id for g in Store(tmp_path).past_games()] == [1]


def test_a_match_is_recorded_once_when_its_last_round_ends(tmp_path: Path) -> None:
    out: list[str] = []
    options = RuleOptions.parse("rounds=2")
    assert play_text_game("easy", 8, options, read=greedy_reader(tmp_path), write=out.append, data_dir=tmp_path) == 0
    (game,) = Store(tmp_path).past_games()
    match = saved(tmp_path).match
    assert (game.tiles.rounds, game.scores, game.winners) == (2, match.totals, match.winners)


def test_a_game_left_at_its_end_before_it_was_recorded_is_recorded_at_the_next_start(tmp_path: Path) -> None:
    table = played([Seat.person("You"), Seat.bot("easy")], RuleOptions(), 5)
    Store(tmp_path).save_game(table)  # as if the program had stopped between the last save and the record
    out: list[str] = []
    assert play_text_game(read=lambda prompt: "quit", write=out.append, data_dir=tmp_path) == 0
    (game,) = Store(tmp_path).past_games()
    assert game.scores == table.state.outcome.final_scores  # type: ignore[union-attr]
    assert out[0].startswith("Crib Tiles: a game against the medium bot (seed ")  # a new game, as before


def test_a_damaged_history_is_said_in_the_text_mode_and_the_game_kept(tmp_path: Path) -> None:
    (tmp_path / HISTORY_FILE).write_bytes(b"junk" * 1000)
    table = played([Seat.person("You"), Seat.bot("easy")], RuleOptions(), 2)
    Store(tmp_path).save_game(table)  # a finished game, recorded at the start
    out: list[str] = []
    assert play_text_game(read=lambda prompt: "quit", write=out.append, data_dir=tmp_path) == 0
    (kept,) = [p.name for p in tmp_path.glob("history.damaged-*.sqlite3")]
    assert out[0] == (
        f"The history of your games could not be used (it is not a database); it was kept as {kept}, "
        "and a new history begins."
    )
    (game,) = Store(tmp_path).past_games()
    assert game.scores == table.state.outcome.final_scores  # type: ignore[union-attr]


# --- the listing and the table ---


def add(folder: Path, *games: GameSummary) -> None:
    h = History(folder / HISTORY_FILE)
    for g in games:
        assert h.add(g) > 0
    h.close()


def test_no_games_yet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "history", "--data-dir", str(tmp_path)) == (0, NO_GAMES + "\n", "")
    assert run(capsys, "stats", "--data-dir", str(tmp_path)) == (0, NO_GAMES + "\n", "")
    code, text, _ = run(capsys, "history", "--json", "--data-dir", str(tmp_path / "nowhere"))
    assert code == 0 and json.loads(text) == {
        "format": "cribtiles-history", "version": 1, "games": [], "cribbage_games": []
    }  # fmt: skip
    code, text, _ = run(capsys, "stats", "--json", "--data-dir", str(tmp_path))
    assert code == 0 and json.loads(text) == {
        "format": "cribtiles-stats", "version": 1, "games": 0, "watched": 0,
        "lines": [], "total": None, "marked_lines": [], "marked_total": None,
        "cribbage": {"games": 0, "lines": [], "total": None, "marked_lines": [], "marked_total": None},
    }  # fmt: skip
    assert not (tmp_path / HISTORY_FILE).exists() and not (tmp_path / "nowhere").exists()


def test_the_listing_has_a_line_for_each_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    you_won = tile(
        "a", "2026-11-30T14:05:09", "standard", 1, (("You", None), ("Hard", "hard")), (312, 298), (0,),
        1, 41, 0, 0, 36, 24,
    )  # fmt: skip
    tie = tile(
        "b", "2026-12-01T09:00:00", "standard", 2, (("Ann", None), ("Easy", "easy"), ("Ben", None)),
        (500, 500, 420), (0, 1), 3, 120, 1, 2, 40, 24,
    )  # fmt: skip
    add(tmp_path, you_won, tie)
    code, text, err = run(capsys, "history", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        "2 games, the newest last:",
        "   1  2026-11-30 14:05  standard   You 312, Hard [hard] 298  -  You won",
        "   2  2026-12-01 09:00  standard, 3 rounds  Ann 500, Easy [easy] 500, Ben 420  -  tie: Ann and Easy"
        "  (1 undo, 2 hints)",
    ]


def test_no_control_character_of_a_stored_name_reaches_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A history written by another program (or by hand) may hold a name that would retitle and clear
    the terminal: the listing and the statistics show its escapes instead."""
    hostile = "Ann\x1b]0;PWNED\x07\x1b[2J"
    game = tile(
        "a", "2026-11-30T14:05:09", "standard", 1, ((hostile, None), ("Hard", "hard")), (312, 298), (0,),
        1, 41, 0, 0, 36, 24,
    )  # fmt: skip
    add(tmp_path, game)
    for command in ("history", "stats"):
        code, text, _ = run(capsys, command, "--data-dir", str(tmp_path))
        assert code == 0 and "\x1b" not in text and "\x07" not in text, command
    code, text, _ = run(capsys, "history", "--data-dir", str(tmp_path))
    assert "Ann\\x1b]0;PWNED\\x07\\x1b[2J 312" in text


@pytest.mark.parametrize("command", ["history", "stats"])
def test_a_folder_that_cannot_be_looked_into_is_one_line_and_exit_2(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, command, "--data-dir", str(tmp_path / ("x" * 300)))  # a name too long
    assert (code, out) == (2, "")
    assert err.startswith(f"cribtiles {command}: the data folder '") and err.endswith("(File name too long)\n")
    assert len(err) < 200 and err.count("\n") == 1

    def refused(self: Path) -> bool:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "is_dir", refused)  # a folder inside one this user may not enter
    code, out, err = run(capsys, command, "--data-dir", str(tmp_path / "inner"))
    assert (code, out) == (2, "") and err.endswith("cannot be read (Permission denied)\n")


def test_the_statistics_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def game(key: str, scores: tuple[int, int], bot: str = "hard", undos: int = 0) -> GameSummary:
        winners = tuple(i for i, s in enumerate(scores) if s == max(scores))
        return tile(
            key, "2026-11-30T14:05:09", "standard", 1, (("You", None), (bot.title(), bot)), scores, winners,
            1, 40, undos, 0, 30, 20,
        )  # fmt: skip

    add(tmp_path, game("1", (300, 200)), game("2", (250, 200)), game("3", (100, 200)), game("4", (90, 95), "easy"))
    add(tmp_path, game("5", (400, 10), undos=2), replace(game("6", (1, 2)), seats=(("Easy", "easy"), ("Hard", "hard"))))
    code, text, err = run(capsys, "stats", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        "Games without undos or hints:",
        "mode      opponent  games  won  lost  tied  win %  average  best  best play  best line  streak"
        "  solitaire margin  matches won",
        "standard  easy          1    0     1     0     0%     90.0    90         30         20       0"
        "                 -            -",
        "standard  hard          3    2     1     0    67%    216.7   300         30         20       2"
        "                 -            -",
        "all       all           4    2     2     0    50%    185.0   300         30         20       2"
        "                 -            -",
        "",
        "Games with undos or hints:",
        "mode      opponent  games  won  lost  tied  win %  average  best  best play  best line  streak"
        "  solitaire margin  matches won",
        "standard  hard          1    1     0     0   100%    400.0   400         30         20       1"
        "                 -            -",
        "",
        "1 game of bots only is not counted.",
    ]


# --- a damaged or locked history, a window holding the folder ---


def test_a_damaged_history_is_set_aside_and_said_on_standard_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / HISTORY_FILE).write_bytes(b"not a database " * 200)
    code, text, err = run(capsys, "history", "--data-dir", str(tmp_path))
    (kept,) = [p.name for p in tmp_path.glob("history.damaged-*.sqlite3")]
    assert (code, text) == (0, NO_GAMES + "\n")
    assert err == (
        f"cribtiles: The history of your games could not be used (it is not a database); it was kept as {kept}, "
        "and a new history begins.\n"
    )


def test_a_locked_history_is_said_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cribtiles.app import history

    monkeypatch.setattr(history, "TIMEOUT", 0.1)
    add(tmp_path, summary(1))
    locker = sqlite3.connect(tmp_path / HISTORY_FILE, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        code, text, err = run(capsys, "stats", "--json", "--data-dir", str(tmp_path))
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert (code, text) == (1, "")  # no figures: zero games would be a lie
    assert err == (
        "cribtiles: The history of your games cannot be read just now "
        "(another program has kept it locked for more than 0.1 seconds).\n"
    )
    assert list(tmp_path.glob("history.damaged-*")) == []
    assert run(capsys, "stats", "--json", "--data-dir", str(tmp_path))[0] == 0


def test_it_reads_while_a_game_holds_the_data_folder(tmp_path: Path) -> None:
    add(tmp_path, summary(1), summary(2))
    window = Store(tmp_path)
    assert window.lock() == ""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cribtiles", "history", "--json", "--data-dir", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        window.unlock()
    assert (done.returncode, done.stderr) == (0, "")
    assert [g["id"] for g in json.loads(done.stdout)["games"]] == [1, 2]


def test_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "history", "--colour")
    assert code == 2 and "unrecognized arguments: --colour" in err


def test_a_variant_is_listed_and_counted_on_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.app.cribbage.test_history import variant_game

    add(tmp_path, variant_game(1, "partnership"), variant_game(2, "five-card"))
    code, text, err = run(capsys, "history", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert text.splitlines()[1:] == [
        "   1  2026-12-03 10:01  cribbage   You 121, Easy bot [easy] 80, North [medium] 121, Hard bot [hard] 80  -  "
        "You and North won  (partnerships)",
        "   2  2026-12-03 10:02  cribbage   You 61, Easy bot [easy] 40  -  You won, a skunk  (five-card, to 61)",
    ]
    code, text, err = run(capsys, "history", "--json", "--data-dir", str(tmp_path))
    first, second = json.loads(text)["cribbage_games"]
    assert (first["variant"], first["winners"], second["variant"]) == ("partnership", [0, 2], "five-card")
    code, text, err = run(capsys, "stats", "--data-dir", str(tmp_path))
    lines = text.splitlines()
    start = lines.index("The other variants, each on its own (every bot level, with undos and hints or without):")
    assert [line.split("  ")[0] for line in lines[start + 2 :]] == ["five-card", "partnerships"]
    code, text, err = run(capsys, "stats", "--json", "--data-dir", str(tmp_path))
    cribbage = json.loads(text)["cribbage"]
    assert cribbage["games"] == 2 and cribbage["lines"] == [] and cribbage["total"] is None
    assert [(v["level"], v["games"]) for v in cribbage["variants"]] == [("five-card", 1), ("partnership", 1)]
