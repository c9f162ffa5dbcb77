"""A game of cribbage given up: it ends at once as a plain win for the other side (no skunk counted),
told in words; its record keeps the resignation after the moves, a table's save replays to the same end,
and a record without one (every record before) reads as before (issue 44)."""

from __future__ import annotations

import json
import random

import pytest

from cribtiles.cribbage import (
    CribbageError,
    CribbageOptions,
    CribbageState,
    MarginKind,
    Phase,
    new_game,
    parse_move,
    replay,
)
from cribtiles.cribbage.options import Variant
from cribtiles.table.cribbage.replay import replay_words
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.seats import Seat


def played(state: CribbageState, moves: int, seed: int = 3) -> CribbageState:
    rng = random.Random(seed)
    for _ in range(moves):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_one_who_resigns_loses_as_a_plain_win_whatever_the_scores() -> None:
    state = played(new_game(11, ("Ann", "Ben")), 14)
    over = state.resign(1)
    assert over.is_over and over.phase is Phase.OVER and over.current_player is None
    assert over.outcome is not None
    assert (over.outcome.winner, over.outcome.resigned, over.outcome.margin_kind) == (0, 1, MarginKind.WIN)
    assert over.outcome.scores == state.scores  # 0 to a few: no lurch is counted for a game given up
    assert over.outcome.words(over.names) == f"Ben resigned: Ann wins, {state.scores[0]} to {state.scores[1]}."
    assert over.log == state.log
    with pytest.raises(CribbageError, match="the game is over"):
        over.resign(0)


def test_with_three_players_the_best_of_the_others_wins() -> None:
    state = played(new_game(5, ("Ann", "Ben", "Cat"), CribbageOptions(variant=Variant.THREE)), 30)
    over = state.resign(0)
    assert over.outcome is not None
    best = max((1, 2), key=lambda p: state.scores[p])
    assert over.outcome.winner == best and over.outcome.resigned == 0


def test_the_record_keeps_the_resignation_and_a_save_replays_to_the_same_end() -> None:
    state = played(new_game(12, ("Ann", "Ben")), 9)
    over = state.resign(0)
    record = over.record()
    assert record["resigned"] == 0 and record["moves"] == list(state.log)
    assert replay(record) == over
    assert "resigned" not in state.record()
    table = CribbageTable(new_game(12, ("Ann", "Ben")), seats=(Seat("Ann"), Seat("Ben")), by_name=True)
    for text in state.log:
        table.replay_move(parse_move(text))
    table.resign(0)
    again = CribbageTable.from_json(table.to_json(), by_name=True)
    assert again.is_over and again.state == table.state
    summary = again.summary(1)
    assert summary is not None and summary.person_won
    assert summary.margin_words == "Ann resigned: no skunk is counted."
    ben, ann = again.state.scores[1], again.state.scores[0]
    told = f"Ann resigned: Ben wins, {ben} to {ann}.\nAnn resigned: no skunk is counted."
    assert replay_words(again).endswith(told)  # the record, told move by move, ends as it ended
    with pytest.raises(CribbageError, match="cannot have been given up"):
        replay({**json.loads(json.dumps(record)), "resigned": 2})
