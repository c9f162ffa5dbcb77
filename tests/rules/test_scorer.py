"""A game's scorer (cribtiles/rules/scorer.py) and the rule option `bonuses`: plays are scored by the
options in force, by the checker and by both cores of the move generator alike."""

from __future__ import annotations

import ast
import functools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.rules import (
    Board,
    GameState,
    Play,
    RuleOptions,
    Scorer,
    load,
    new_game,
    parse_move,
    save,
    score_play,
)
from cribtiles.rules.movegen import reference_scored_plays, scored_plays
from cribtiles.rules.scorer import STANDARD_SCORER
from cribtiles.rules.scoring import NO_BONUSES, STANDARD_BONUSES

ROOT = Path(__file__).resolve().parents[2]
OFF = RuleOptions(bonuses=False)
ALL_THREE = "e7=AL f7=2L g7=3L h7=4L i7=5L"  # 7 + first play + five tiles + one colour


def test_the_option_reads_and_writes_as_the_others_do() -> None:
    assert RuleOptions.parse("bonuses=off") == OFF
    assert RuleOptions().bonuses is True
    assert RuleOptions.parse(OFF.to_text()) == OFF
    assert OFF.to_text() == "start=low,exchange=when-stuck,joker=off,rounds=1,mode=standard,bonuses=off"
    # at its default it is not written: a game under the default options reads as it did before it
    assert RuleOptions().to_text() == "start=low,exchange=when-stuck,joker=off,rounds=1,mode=standard"
    assert RuleOptions.parse("bonuses=on").to_text() == RuleOptions().to_text()
    with pytest.raises(ValueError, match="bonuses may be on or off, not 'none'"):
        RuleOptions.parse("bonuses=none")


def test_the_scorer_is_made_from_the_options() -> None:
    assert Scorer.of(RuleOptions()) == STANDARD_SCORER == Scorer()
    assert Scorer.of(OFF).bonuses == NO_BONUSES
    assert Scorer.of(RuleOptions(joker=True, bonuses=False)) is Scorer.of(OFF)


def test_the_worked_example_without_bonuses() -> None:
    """rules.md 9's 37 is 7 and nothing more without bonuses; the other examples have none to lose."""
    play = parse_move(ALL_THREE)
    assert isinstance(play, Play)
    on, off = Scorer.of(RuleOptions()).score(Board.empty(), play), Scorer.of(OFF).score(Board.empty(), play)
    assert (on.total, off.total) == (37, 7)
    assert [str(b.kind) for b in on.bonuses] == ["first play", "five tiles", "one colour"]
    assert off.bonuses == () and off.lines == on.lines
    first = parse_move("f7=4L g7=5D h7=6L")
    assert isinstance(first, Play)
    assert Scorer.of(OFF).score(Board.empty(), first).total == 5
    assert Scorer.of(OFF).laid(Board.empty().place(first.placements), first).total == 5


@functools.cache
def positions(seed: int) -> tuple[tuple[Board, tuple[object, ...]], ...]:
    """(board, rack) before each turn of a seeded game of greedy plays, in Solitaire one seed in two (so
    that one-colour lines are common)."""
    options = RuleOptions(mode="solitaire" if seed % 2 else "standard")
    state = new_game(2, options, seed=seed)
    rng = random.Random(seed)
    seen = []
    while not state.is_over and len(seen) < 40:
        rack = state.racks[state.current]
        seen.append((state.board, rack))
        plays = state.scorer.scored_plays(state.board, rack)
        move = max(plays, key=lambda p: (p[1], rng.random()))[0] if plays else state.legal_actions()[0]
        state = state.apply(move)
    return tuple(seen)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 9), st.integers(0, 39))
def test_without_bonuses_every_play_scores_its_bonuses_less(seed: int, turn: int) -> None:
    """The generator's plays with bonuses off are its plays with them on, in the same order, each less
    the bonuses the checker finds in it; by both cores (the one in use and the reference)."""
    history = positions(seed)
    board, rack = history[min(turn, len(history) - 1)]
    on = scored_plays(board, rack, STANDARD_BONUSES)  # type: ignore[arg-type]
    for off in (scored_plays(board, rack, NO_BONUSES), reference_scored_plays(board, rack, NO_BONUSES)):  # type: ignore[arg-type]
        assert [p for p, _ in off] == [p for p, _ in on]
        for (play, with_bonuses), (_, without) in zip(on, off, strict=True):
            bonuses = score_play(board, play).bonuses
            assert without == with_bonuses - sum(b.points for b in bonuses)
            assert without == Scorer.of(OFF).score(board, play).total


def whole_game(options: RuleOptions, seed: int) -> GameState:
    """A seeded game of greedy plays (by the game's scorer) to its end."""
    state = new_game(2, options, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        plays = state.scorer.scored_plays(state.board, state.racks[state.current])
        if plays:
            state = state.apply(max(plays, key=lambda p: (p[1], rng.random()))[0])
        else:
            state = state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_game_without_bonuses_scores_none(seed: int) -> None:
    state = whole_game(OFF, seed)
    board = Board.empty()
    for turn in state.turns:
        if isinstance(turn.move, Play):
            scored = score_play(board, turn.move)
            assert turn.points == scored.total - sum(b.points for b in scored.bonuses)
            board = board.place(turn.move.placements)
    assert sum(t.points for t in state.turns) == sum(state.scores)
    # a save names the option, and loads as it was
    text = save(state)
    assert json.loads(text)["options"]["bonuses"] == "off"
    again = load(text)
    assert again.options == OFF and again.scores == state.scores and again.outcome == state.outcome


def test_an_old_save_without_the_option_loads_with_bonuses() -> None:
    """A save made before the option names no bonuses, as a save under the default still does."""
    state = new_game(2, RuleOptions(), seed=5)
    state = state.apply(max(state.scorer.scored_plays(state.board, state.racks[state.current]), key=lambda p: p[1])[0])
    data = json.loads(save(state))
    assert list(data["options"]) == ["start", "exchange", "joker", "rounds", "mode"]  # as before the option
    old = load(json.dumps(data))
    assert old.options.bonuses is True and old.scores == state.scores and old.scorer == STANDARD_SCORER
    data["options"]["bonuses"] = "on"  # said, it is read too
    assert load(json.dumps(data)).options == RuleOptions()


def test_joker_claims_are_judged_by_the_options_score() -> None:
    """Under the Joker rule with bonuses off, a first play of 4 5 6 is worth 5: declaring the 15 it
    would make with bonuses over-claims 10, which a call takes back; declaring 5 leaves nothing."""
    options = RuleOptions(joker=True, bonuses=False)
    state = new_game(2, options, seed=1)
    rack = state.racks[state.current]
    play, worth = max(state.scorer.scored_plays(state.board, rack), key=lambda p: p[1])
    with_bonuses = STANDARD_SCORER.score(state.board, play).total
    assert with_bonuses > worth
    over = state.apply(play, declared=with_bonuses)
    assert over.overclaimed == with_bonuses - worth and over.unclaimed == 0
    other = 1 - state.current
    assert over.view(other).last_play_worth() == worth
    called = over.call_joker(other)
    assert called.scores[state.current] == worth
    exact = state.apply(play, declared=worth)
    assert exact.overclaimed == exact.unclaimed == 0
    assert exact.call_joker(other).scores[other] == -5


def test_a_players_view_scores_as_the_game() -> None:
    state = new_game(3, OFF, seed=2)
    assert all(state.view(p).scorer == state.scorer == Scorer.of(OFF) for p in range(3))


#: The modules that may score a play without a scorer: the checker, the generator and the scorer
#: itself, and the facade that names them (rules.md 8).
SCORING_MODULES = {"rules/scoring.py", "rules/movegen.py", "rules/scorer.py", "rules/__init__.py"}
#: What scores a play: everything else asks the scorer of the game or options at hand.
SCORING_NAMES = {"score_play", "score_laid", "scored_plays", "best_score", "top_plays", "best_keeping"}


def test_nothing_above_the_rules_scores_a_play_without_the_games_scorer() -> None:
    """No module of cribtiles/ but the rules' own scoring modules imports a free scoring function: a play
    is scored by `state.scorer` (or a view's, or a scorer made from the options), so that an option
    that changes scoring reaches the breakdowns, the coach, the bots and the server alike."""
    found = []
    for path in sorted((ROOT / "cribtiles").rglob("*.py")):
        name = path.relative_to(ROOT / "cribtiles").as_posix()
        if name in SCORING_MODULES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and "rules" in node.module:
                found += [f"{name}: {a.name}" for a in node.names if a.name in SCORING_NAMES]
    assert found == []
