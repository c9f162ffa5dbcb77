"""`cribtiles review RECORD_FILE [--json] [--budget S] [--seed N]` on a game of the tile game: every turn
against the best move found, the biggest misses and the totals, as text or as a JSON document; a bad
budget is said in words with exit code 2 (tests/app/test_review_cli.py: the command, of either game)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from cribtiles.app.main import main as cribtiles_main
from cribtiles.app.tiles import review_cli
from cribtiles.rules import RuleOptions, Scorer
from cribtiles.rules.moves import Play, parse_move
from cribtiles.rules.record import record_of, save_match
from cribtiles.rules.scoring import score_play
from cribtiles.table.saves import save_table
from cribtiles.table.tiles.history import history_of
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table
from tests.table.tiles.test_review import bot_game


@pytest.fixture(scope="module")
def game() -> Table:
    return bot_game("hard,medium", seed=7)


@pytest.fixture(scope="module")
def saved(game: Table, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(save_table(game), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cribtiles_main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_the_text_lists_every_turn_the_biggest_misses_and_the_totals(
    game: Table, saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(saved), "--budget", "0")
    assert code == 0 and err == ""  # no progress: standard error is not a terminal here
    lines = out.splitlines()
    assert lines[0] == f"Review of Hard v Medium (game.json): {len(game.state.turns)} turns, 0 s of analysis a turn."
    records = history_of(game.state)
    rows = [line for line in lines if re.match(r"\s*\d+  (Hard|Medium) ", line)]
    assert len(rows) == len(records)
    for row, record in zip(rows, records, strict=True):
        number, name, *_ = row.split()
        assert int(number) == record.number + 1 and name == game.state.names[record.player]
        assert f"  {record.turn.move}  " in row
    listed = lines[lines.index("Biggest misses:") + 1 : lines.index("Totals:") - 1]
    misses = [m for m in listed if not m.startswith("    ")]  # under each, the learned value's reading
    assert 1 <= len(misses) <= review_cli.MISSES
    assert all(re.match(r"  turn \d+, (Hard|Medium): played .+ for \d+; best .+ for \d+ \(", m) for m in misses)
    notes = [m.strip() for m in listed if m.startswith("    ")]
    assert all(re.match(r"(The play made|The best found|Both plays|The learned value): ", n) for n in notes)
    assert sum(n.startswith("The learned value: ") for n in notes) == len(misses)
    totals = lines[lines.index("Totals:") + 1 : lines.index("Totals:") + 3]
    assert [t.split()[0] for t in totals] == ["Hard", "Medium"]
    hard, medium = game.state.final_scores()
    assert lines[-1] == f"Final scores: Hard {hard} Medium {medium}."
    assert any(line.startswith("Points lost: what the best found scores more") for line in lines)
    assert any(line.startswith("Value lost: how much more the best found is worth") for line in lines)


def test_the_json_document_says_each_turn_as_the_record_and_the_engine_have_it(
    game: Table, saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = as_json(capsys, str(saved), "--budget", "0", "--seed", "3")
    assert (data["format"], data["version"], data["budget"], data["seed"]) == ("cribtiles-review", 1, 0.0, 3)
    assert data["players"] == ["Hard", "Medium"] and data["complete"] is True
    records = history_of(game.state)
    assert len(data["turns"]) == len(records) == len(data["scores"])
    board_before = {r.number: r.board_before for r in records}
    for turn, record in zip(data["turns"], records, strict=True):
        assert (turn["round"], turn["turn"], turn["player"]) == (1, record.number + 1, record.player)
        assert turn["played"] == str(record.turn.move) and turn["played_score"] == record.turn.points
        best = parse_move(turn["best"])
        score = score_play(board_before[record.number], best).total if isinstance(best, Play) else 0
        assert turn["best_score"] == score
        assert turn["value_lost"] >= 0 and turn["points_lost"] == turn["best_score"] - turn["played_score"]
        assert turn["is_best"] == (turn["best"] == turn["played"])
        assert isinstance(turn["played_opens"], str) and isinstance(turn["played_value_after"], float)
        if turn["is_best"]:
            assert (turn["best_opens"], turn["best_value_after"]) == (turn["played_opens"], turn["played_value_after"])
    assert any(t["played_opens"] for t in data["turns"])  # what some play opened or closed, in words
    assert data["scores"][-1] == list(game.state.scores)
    assert data["finals"] == [list(game.state.final_scores())]
    losses = [data["turns"][i]["value_lost"] for i in data["biggest_misses"]]
    assert losses == sorted(losses, reverse=True) and all(v > 0 for v in losses)
    assert [t["name"] for t in data["totals"]] == ["Hard", "Medium"]
    assert sum(t["turns"] for t in data["totals"]) == len(records)


def test_rules_bonuses_off_reviews_the_same_moves_without_bonuses(
    game: Table, saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--rules bonuses=off` replays the record's moves under the options changed: each play's points
    are its standard score less its bonuses, and the JSON names the rules (the record's otherwise)."""
    data = as_json(capsys, str(saved), "--budget", "0", "--rules", "bonuses=off")
    assert data["rules"] == "start=low,exchange=when-stuck,joker=off,rounds=1,mode=standard,bonuses=off"
    records = history_of(game.state)
    assert [t["played"] for t in data["turns"]] == [str(r.turn.move) for r in records]
    for turn, record in zip(data["turns"], records, strict=True):
        bonuses = sum(b.points for b in record.score.bonuses) if record.score is not None else 0
        assert turn["played_score"] == record.turn.points - bonuses
        best = parse_move(turn["best"])
        if isinstance(best, Play):
            assert turn["best_score"] == Scorer.of(RuleOptions(bonuses=False)).score(record.board_before, best).total
    assert as_json(capsys, str(saved), "--budget", "0")["rules"] == game.state.options.to_text()
    code, _, err = run(capsys, str(saved), "--budget", "0", "--rules", "bonuses=maybe")
    assert code == 2 and "--rules: bonuses may be on or off" in err


def test_a_game_record_and_a_match_record_are_reviewed_too(
    game: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "record.json"
    record.write_text(record_of(game.state).to_json(), encoding="utf-8")
    data = as_json(capsys, str(record), "--budget", "0")
    assert [t["played"] for t in data["turns"]] == [str(t.move) for t in game.state.turns]
    match = bot_game("medium,medium", "rounds=2", seed=5)
    path = tmp_path / "match.json"
    path.write_text(save_match(match.match), encoding="utf-8")
    data = as_json(capsys, str(path), "--budget", "0")
    assert {t["round"] for t in data["turns"]} == {1, 2}
    assert len(data["finals"]) == 2
    code, out, _ = run(capsys, str(path), "--budget", "0")
    assert code == 0 and "Round 2" in out.splitlines()
    assert "round 2, turn " in out or "round 1, turn " in out  # a miss names its round


def test_an_unfinished_game_is_reviewed_as_far_as_it_went(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cribtiles.rules.options import RuleOptions
    from cribtiles.table import parse_players

    table = Table.new(parse_players("You,medium"), RuleOptions(), 5)
    for _ in range(4):
        move = table.state.legal_actions()[0]
        (table.play_bot if table.bot_to_move else table.play)(move)
    path = tmp_path / "game.json"
    path.write_text(save_table(table), encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--budget", "0")
    assert code == 0
    assert "The game is not finished: its turns so far." in out and out.rstrip().splitlines()[-1].startswith(
        "Scores so far:"
    )
    assert as_json(capsys, str(path), "--budget", "0")["complete"] is False


@pytest.mark.parametrize("budget", ["-1", "abc", "nan", "1e9"])
def test_a_budget_that_is_not_seconds_is_refused(budget: str, saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(saved), "--budget", budget)
    assert code == 2 and out == ""
    assert "--budget" in err and ("seconds" in err) and "Traceback" not in err


def test_progress_goes_to_standard_error_when_it_is_a_terminal(
    saved: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert cribtiles_main(["review", str(saved), "--budget", "0"]) == 0
    shown = terminal.getvalue()
    turns = len(load_table(saved.read_text(encoding="utf-8")).state.turns)
    assert f"\rReviewing turn 1 of {turns}…" in shown and f"\rReviewing turn {turns} of {turns}…" in shown
    assert shown.endswith("\r")  # the line is cleared before the review is printed
    assert "Reviewing" not in capsys.readouterr().out


def test_the_window_s_review_and_the_command_s_find_the_same_bests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same game, budget and seed: the review the window runs (its worker, here in a thread) and
    `cribtiles review` weigh the same plays and find the same best on every turn. A budget that fits
    only the least rounds makes both the same on any machine."""
    from cribtiles.table.tiles.review_worker import ReviewWorker
    from tests.table.tiles.test_review_worker import finish

    table = bot_game("easy,medium", seed=1)  # Easy misses plays, as a person may
    path = tmp_path / "game.json"
    path.write_text(save_table(table), encoding="utf-8")
    worker = ReviewWorker(budget=1e-6, seed=5, use_process=False)
    worker.start(table)
    window = finish(worker)
    worker.close()
    data = as_json(capsys, str(path), "--budget", "0.000001", "--seed", "5")
    assert [str(t.best) for t in window.turns] == [t["best"] for t in data["turns"]]
    assert [t.best_score for t in window.turns] == [t["best_score"] for t in data["turns"]]
    assert any(not t.is_best for t in window.turns)


def test_a_points_lost_below_0_is_said_why() -> None:
    from dataclasses import replace

    from cribtiles.rules.board import Board
    from cribtiles.table.tiles.review import Method, Review, TurnReview

    turn = next(t for t in bot_game("easy,medium", seed=1).state.turns if t.points > 2)
    review = Review((), ("Ann", "Ben"), (), ((0, 0),), 0.5, True)
    assert not any("below 0" in n for n in review_cli.figure_notes(review))
    best = turn.points - 2
    lost = TurnReview(
        0, 0, 0, turn.move, turn.points, 1.0, turn.move, best, 5.0, -2, 4.0, Board.empty(), (), Method.SIMULATED
    )
    notes = review_cli.figure_notes(replace(review, turns=(lost,)))
    assert notes[-1].startswith("A points lost below 0: the best found scores less now, but the continuations")
