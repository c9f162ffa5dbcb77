"""`cribtiles review FILE` on a game of cribbage (issue 32): every discard and card laid against the best
found, the biggest misses and the totals, as text or JSON, from a saved game or a bare record; a variant
the review does not take, or bad guesses, said in words with exit code 2."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cribtiles.app.main import main as cribtiles_main
from cribtiles.table.cribbage.review import review_game
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.saves import save_table
from tests.table.cribbage.test_review_worker import finished_table


@pytest.fixture(scope="module")
def table() -> CribbageTable:
    return finished_table(4)


@pytest.fixture(scope="module")
def record(table: CribbageTable, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "crib.json"
    path.write_text(json.dumps(table.state.record()), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cribtiles_main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_text_lists_every_decision_the_biggest_misses_and_the_totals(
    table: CribbageTable, record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(record), "--guesses", "8", "--seed", "2")
    assert code == 0 and err == ""
    review = review_game(table.state, random.Random(2), 8)
    lines = out.splitlines()
    n = len(review.decisions)
    assert lines[0] == f"Review of You v Medium bot (crib.json): {n} decisions, each card laid weighed over 8 guesses."
    for d in review.decisions:
        assert d.words() in out
    assert "Biggest misses:" in lines
    misses = lines.index("Biggest misses:")
    first = review.biggest_misses(1)[0]
    assert lines[misses + 1] == f"  Deal {first.deal}, {review.names[first.player]}: {first.words()}"
    assert lines[-1] == f"Final scores: You {table.state.scores[0]}, Medium bot {table.state.scores[1]}."


def test_the_json_document_says_each_decision_and_a_seed_reproduces_it(
    table: CribbageTable, record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(record), "--guesses", "8", "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    assert data["format"] == "cribtiles-cribbage-review" and data["version"] == 1 and data["guesses"] == 8
    review = review_game(table.state, random.Random(0), 8)
    assert len(data["decisions"]) == len(review.decisions) == len(data["scores"])
    first = data["decisions"][0]
    assert first["kind"] == "discard" and first["deal"] == 1 and len(first["dealt"].split()) == 6
    plays = [d for d in data["decisions"] if d["kind"] == "play"]
    assert plays and all(d["lost"] >= 0 and d["is_best"] == (d["lost"] == 0) for d in plays)
    assert data["biggest_misses"][0] == review.decisions.index(review.biggest_misses(1)[0])
    assert [t["name"] for t in data["totals"]] == ["You", "Medium bot"]
    assert run(capsys, str(record), "--guesses", "8", "--json")[1] == out  # the same seed, the same review


def test_a_saved_game_of_cribbage_is_reviewed_too(
    table: CribbageTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "saved.json"
    path.write_text(save_table(table), encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--guesses", "4")
    assert code == 0 and out.startswith("Review of You v Medium bot (saved.json): ")


def test_a_three_player_game_and_bad_guesses_are_said_in_words(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(record.read_text(encoding="utf-8"))
    data["names"] = ["Ann", "Bo", "Cy"]
    variant = tmp_path / "three.json"
    variant.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, str(variant))
    assert code == 2 and out == "" and "two players" in err
    code, _, err = run(capsys, str(record), "--guesses", "0")
    assert code == 2 and "the guesses are 1 to" in err
