"""The Expert's continuations: the simulated turns' policy and a rollout, held to their plain meaning.

The policy asks the move generator for the best of its best-scoring plays by score plus leave in one
call (`movegen.best_keeping`); here it is held to the sum written out with the leave table's own
lookup. A rollout told a candidate's score skips the rules' check of it and must come out the same.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from cribtiles.bot.tiles.equity import rank_plays
from cribtiles.bot.tiles.leave import LeaveTable, default_leave
from cribtiles.bot.tiles.sampling import determinize
from cribtiles.bot.tiles.simulate import FOLLOW_TURNS, PLAYOUT_TURNS, POLICY_WIDTH, policy_play, policy_turn, rollout
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


def bag_empty_positions(seed: int) -> list[GameState]:
    """States of a policy game from the first with the bag empty to its end."""
    leave = default_leave()
    state = new_game(2, seed=seed)
    seen = []
    while not state.is_over:
        if state.bag_size() == 0:
            seen.append(state)
        found = policy_play(state.board, state.racks[state.current], leave)
        state = state.apply(found[0] if found else state.legal_actions()[0])
    return seen


@pytest.mark.parametrize("seed", [6, 7])
def test_with_the_bag_empty_a_rollout_plays_to_the_end_and_counts_the_rules_deductions(seed: int) -> None:
    """The racks left at the end are deducted by the rules (`final_scores`), not guessed at."""
    leave = default_leave()
    states = bag_empty_positions(seed)
    assert states
    for state in states[:3]:
        view = state.view(state.current)
        for candidate in rank_plays(view, leave, top=2):
            after = state.apply(candidate.move)
            end = after
            for _ in range(FOLLOW_TURNS + PLAYOUT_TURNS):
                if end.is_over:
                    break
                end = policy_turn(end, leave)
            assert end.is_over  # a game with the bag empty ends within the turns given
            me, other = view.player, 1 - view.player
            spread = (end.final_scores()[me] - state.scores[me]) - (end.final_scores()[other] - state.scores[other])
            assert rollout(state, candidate.move, me, leave, score=candidate.score) == spread


def test_with_the_bag_empty_the_policy_weighs_kept_tiles_as_half_their_count_in_debt() -> None:
    leave = default_leave()
    for state in bag_empty_positions(8):
        rack = state.racks[state.current]
        plays = top_plays(state.board, rack, POLICY_WIDTH)
        if not plays:
            continue

        def value(ps: tuple[Play, int], rack: Sequence[Tile] = rack) -> float:
            kept = list(rack)
            for t in ps[0].tiles:
                kept.remove(t.rack_form)
            return ps[1] - 0.5 * sum(t.value for t in kept)

        best = max(plays, key=value)
        after = policy_turn(state, leave)
        assert after.turns[-1].move == best[0]
