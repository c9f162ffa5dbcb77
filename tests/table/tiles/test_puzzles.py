"""Puzzles: every shipped puzzle has one best answer, recomputed here with `legal_plays` and
`score_play` (not with the generator's own `scored_plays`); the stated scores are the engine's; the
obvious play is legal, one line, and the best such; the set is ordered easy to hard; the generator is
deterministic for a seed and finds the shipped puzzles again from their games; answers are scored
against the best; the file ships with the package."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from cribtiles.rules import legal_plays, score_play
from cribtiles.rules.board import Board
from cribtiles.rules.game import new_game
from cribtiles.rules.moves import Play, parse_move
from cribtiles.rules.tiles import full_set, rack_counter
from cribtiles.table.tiles.puzzles import (
    DATA_FILE,
    LEVEL_WORDS,
    MARGIN,
    RATIO,
    Puzzle,
    check_answer,
    difficulty,
    find_puzzles,
    from_json,
    one_line,
    positions,
    puzzle_at,
    puzzle_id,
    puzzle_state,
    puzzle_table,
    shipped_path,
    shipped_puzzles,
    to_json,
)

ROOT = Path(__file__).resolve().parents[3]
PUZZLES = shipped_puzzles()


def engine_scores(board: Board, rack: object) -> dict[Play, int]:
    """Every legal play of the rack and its score, as the engine's facade has them."""
    return {p: score_play(board, p).total for p in legal_plays(board, rack)}  # type: ignore[arg-type]


def test_a_curated_set_ships_ordered_easy_to_hard() -> None:
    assert 30 <= len(PUZZLES) <= 60
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)
    assert len({p.seed for p in PUZZLES}) == len(PUZZLES)  # one position from each game: many boards
    assert list(PUZZLES) == sorted(PUZZLES, key=difficulty)
    levels = [p.level for p in PUZZLES]
    assert levels == sorted(levels, key=LEVEL_WORDS.index) and set(levels) == set(LEVEL_WORDS)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_every_shipped_puzzle_has_a_unique_best_answer_that_scores_what_it_says(puzzle: Puzzle) -> None:
    board = puzzle.position
    scores = engine_scores(board, puzzle.rack_tiles)
    assert len(scores) == puzzle.plays
    top = max(scores.values())
    best = [p for p, s in scores.items() if s == top]
    assert best == [puzzle.best_play]  # one play, and it is the one stated
    assert puzzle.best_score == top == score_play(board, puzzle.best_play).total

    # the obvious play: legal, one line, scoring what it says, and no one-line play scores more
    obvious = puzzle.obvious_play
    assert obvious in scores and scores[obvious] == puzzle.obvious_score
    assert one_line(board, obvious) and len(score_play(board, obvious).lines) == 1
    assert puzzle.obvious_score == max(s for p, s in scores.items() if one_line(board, p))
    assert not one_line(board, puzzle.best_play)  # else it would be the obvious play
    assert puzzle.best_score >= RATIO * puzzle.obvious_score and puzzle.best_score >= puzzle.obvious_score + MARGIN


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_a_puzzle_holds_no_tile_more_often_than_the_set(puzzle: Puzzle) -> None:
    used = rack_counter(puzzle.rack_tiles) + rack_counter(t for _, t in puzzle.position.tiles())
    assert not used - rack_counter(full_set())
    state = puzzle_state(puzzle)  # the table's deal: every tile of the set once
    every = rack_counter(t for _, t in state.board.tiles()) + rack_counter(state.bags[0])
    every += rack_counter(state.racks[0]) + rack_counter(state.racks[1])
    assert every == rack_counter(full_set())
    assert state.racks[0] == puzzle.rack_tiles and state.current == 0 and state.board == puzzle.position


def test_the_puzzle_table_is_yours_to_play_against_hard() -> None:
    table = puzzle_table(PUZZLES[0])
    assert table.person_to_move and table.seats[1].level == "hard"
    assert PUZZLES[0].best_play in table.state.legal_plays()


def test_a_puzzle_s_id_names_its_position_not_only_its_game_and_turn() -> None:
    """Solved puzzles are remembered by id: a set made again from other games must not give a new
    position the id of an old one (as the set of 05aa0fd did, `s41t1` for another board)."""
    for puzzle in PUZZLES:
        assert puzzle.id == puzzle_id(puzzle.seed, puzzle.turn, puzzle.board, puzzle.rack)
        assert puzzle.id.startswith(f"s{puzzle.seed}t{puzzle.turn}-")
    first = PUZZLES[0]
    other_rack = puzzle_id(first.seed, first.turn, first.board, PUZZLES[1].rack)
    other_board = puzzle_id(first.seed, first.turn, PUZZLES[1].board, first.rack)
    assert len({first.id, other_rack, other_board}) == 3


def test_the_generator_is_deterministic_and_finds_the_shipped_puzzles_again() -> None:
    for puzzle in (PUZZLES[0], PUZZLES[-1]):
        found = find_puzzles(puzzle.seed, puzzle.players)
        assert found == find_puzzles(puzzle.seed, puzzle.players)
        assert puzzle in found  # the same position, best and obvious plays, from its game


def test_a_position_is_a_puzzle_exactly_when_the_engine_says_so() -> None:
    """Every position of one bots' game, judged again from `legal_plays` and `score_play`."""
    seed = PUZZLES[1].seed
    judged = 0
    for state in positions(seed):
        got = puzzle_at(state, seed, ("hard", "hard"))
        if state.board.is_empty():
            assert got is None  # the first play: every spot alike
            continue
        scores = engine_scores(state.board, state.racks[state.current])
        if not scores:
            assert got is None
            continue
        top = max(scores.values())
        unique = sum(1 for s in scores.values() if s == top) == 1
        single = [s for p, s in scores.items() if one_line(state.board, p)]
        far = bool(single) and top >= RATIO * max(single) and top >= max(single) + MARGIN
        assert (got is not None) == (unique and far), len(state.turns)
        judged += 1
        if got is not None:
            assert got.turn == len(state.turns) and got.best_score == top and got.obvious_score == max(single)
    assert judged > 10


def test_the_first_play_is_never_a_puzzle() -> None:
    assert puzzle_at(new_game(2, seed=5), 5, ("hard", "hard")) is None


# --- answers ---


def test_the_best_answer_is_found() -> None:
    p = PUZZLES[0]
    v = check_answer(p, p.best)
    assert v.found and v.points == v.best == p.best_score
    assert v.words == f"You found it: {p.best} for {p.best_score}, the best play here."
    assert check_answer(p, p.best_play) == v


def test_a_lesser_answer_is_scored_against_the_best() -> None:
    p = PUZZLES[0]
    v = check_answer(p, p.obvious_play)
    assert not v.found and v.points == p.obvious_score and v.best == p.best_score
    assert v.words == f"You found {p.obvious_score}: the best is {p.best_score} — {p.best}."


def test_an_answer_the_rules_refuse_or_without_your_tiles_scores_nothing() -> None:
    p = PUZZLES[0]
    board = p.position
    square = next(s for s, _ in board.tiles())  # a square already taken
    tile = p.rack_tiles[0]
    refused = check_answer(p, Play.of([(square, tile)]))
    assert refused.points is None and not refused.found and refused.words.startswith("The rules refuse that play")
    missing = Counter(full_set()) - Counter(t.rack_form for t in p.rack_tiles)
    stranger = next(t for t in sorted(missing) if t.rack_form not in {r.rack_form for r in p.rack_tiles})
    not_mine = check_answer(p, Play.of([(p.best_play.placements[0].square, stranger)]))
    assert not_mine.points is None and "not all on your rack" in not_mine.words
    assert check_answer(p, "f7=ZZ").points is None  # not notation


# --- the file ---


def test_the_file_round_trips_and_bad_files_are_said() -> None:
    assert from_json(to_json(PUZZLES)) == PUZZLES
    assert from_json(shipped_path().read_text(encoding="utf-8")) == PUZZLES
    with pytest.raises(ValueError, match="not JSON"):
        from_json("{")
    with pytest.raises(ValueError, match="format"):
        from_json(json.dumps({"format": 99, "puzzles": []}))
    data = json.loads(to_json(PUZZLES[:2]))
    data["puzzles"][1]["best_score"] = "lots"
    with pytest.raises(ValueError, match="best_score"):
        from_json(json.dumps(data))
    data = json.loads(to_json(PUZZLES[:2]))
    data["puzzles"][1]["best"] = "k99=5D"
    with pytest.raises(ValueError, match=PUZZLES[1].id):
        from_json(json.dumps(data))
    data = json.loads(to_json(PUZZLES[:1]))
    data["puzzles"].append(data["puzzles"][0])
    with pytest.raises(ValueError, match="same id"):
        from_json(json.dumps(data))
    assert isinstance(parse_move(PUZZLES[0].best), Play)


def test_the_puzzles_ship_with_the_package_and_the_bundle() -> None:
    assert shipped_path() == ROOT / "cribtiles" / "table" / "tiles" / "data" / DATA_FILE
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "**/*.json" in package_data["cribtiles"]
    spec = (ROOT / "installer.spec").read_text(encoding="utf-8")
    assert '"table" / "tiles" / "data" / "puzzles.json"' in spec
