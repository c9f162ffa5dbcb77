"""The Expert's continuations: the simulated turns' policy and a rollout, held to their plain meaning.

The policy asks the move generator for the best of its best-scoring plays by score plus leave in one
call (`movegen.best_keeping`); here it is held to the sum written out with the leave table's own
lookup. A rollout told a candidate's score skips the rules' check of it and must come out the same.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from cribtiles.bot.equity import rank_plays
from cribtiles.bot.leave import LeaveTable, default_leave
from cribtiles.bot.sampling import determinize
from cribtiles.bot.simulate import POLICY_WIDTH, policy_play, rollout
from cribtiles.rules import Board, GameState, Play, Tile, new_game
from cribtiles.rules.movegen import top_plays


def positions(seed: int, turns: int = 40) -> list[GameState]:
    """The states before each turn of a game the policy plays against itself."""
    leave = default_leave()
    state = new_game(2, seed=seed)
    seen = []
    for _ in range(turns):
        if state.is_over:
            break
        seen.append(state)
        found = policy_play(state.board, state.racks[state.current], leave)
        state = state.apply(found[0] if found else state.legal_actions()[0])
    return seen


def plain_policy(board: Board, rack: Sequence[Tile], leave: LeaveTable) -> tuple[Play, int] | None:
    """Of the best-scoring plays, the first with the greatest score plus the leave of what it keeps."""
    plays = top_plays(board, rack, POLICY_WIDTH)
    if not plays:
        return None

    def value(ps: tuple[Play, int]) -> float:
        kept = list(rack)
        for t in ps[0].tiles:
            kept.remove(t.rack_form)
        return ps[1] + leave(kept)

    return max(plays, key=value)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_policy_is_score_plus_leave_over_the_best_scoring_plays(seed: int) -> None:
    leave = default_leave()
    for state in positions(seed):
        rack = state.racks[state.current]
        assert policy_play(state.board, rack, leave) == plain_policy(state.board, rack, leave)


def test_the_leave_table_by_rank_key_holds_every_leave() -> None:
    leave = default_leave()
    assert len(leave.by_rank_key) == len(leave) > 1000  # every multiset of 0-4 kinds has its own key


@pytest.mark.parametrize("seed", [4, 5])
def test_a_rollout_told_the_score_comes_out_the_same(seed: int) -> None:
    leave = default_leave()
    for state in positions(seed, 24)[::4]:
        view = state.view(state.current)
        for candidate in rank_plays(view, leave, top=3):
            assert isinstance(candidate.move, Play)
            guess = determinize(view, random.Random(seed))
            plain = rollout(guess, candidate.move, view.player, leave)
            told = rollout(guess, candidate.move, view.player, leave, score=candidate.score)
            assert told == plain
