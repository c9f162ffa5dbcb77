"""The Expert's continuations: the simulated turns' policy and a rollout, held to their plain meaning.

The policy asks the move generator for the best of its best-scoring plays by score plus leave in one
call (`movegen.best_keeping`); here it is held to the sum written out with the leave table's own
lookup. A rollout told a candidate's score skips the rules' check of it and must come out the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import count

import pytest

from cribtiles.bot.tiles import simulate
from cribtiles.bot.tiles.equity import rank_plays
from cribtiles.bot.tiles.leave import LeaveTable, default_leave
from cribtiles.bot.tiles.sampling import determinize
from cribtiles.bot.tiles.simulate import (
    FOLLOW_TURNS,
    PLAYOUT_TURNS,
    POLICY_WIDTH,
    ExpertBot,
    end_value,
    policy_play,
    policy_turn,
    rollout,
)
from cribtiles.bot.tiles.value import default_value
from cribtiles.bot.tiles.value_features import position_features
from cribtiles.rules import Board, GameState, Play, Tile, new_game
from cribtiles.rules.movegen import top_plays
from cribtiles.rules.scorer import STANDARD_SCORER


def fake_clock(step: float) -> Callable[[], float]:
    """A clock that moves on by `step` seconds each time it is read: time without the machine's noise."""
    ticks = count()
    return lambda: next(ticks) * step


def positions(seed: int, turns: int = 40) -> list[GameState]:
    """The states before each turn of a game the policy plays against itself."""
    leave = default_leave()
    state = new_game(2, seed=seed)
    seen = []
    for _ in range(turns):
        if state.is_over:
            break
        seen.append(state)
        found = policy_play(state.board, state.racks[state.current], leave, STANDARD_SCORER)
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
        assert policy_play(state.board, rack, leave, STANDARD_SCORER) == plain_policy(state.board, rack, leave)


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
        found = policy_play(state.board, state.racks[state.current], leave, STANDARD_SCORER)
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


def mid_game_positions(seed: int) -> list[GameState]:
    """States of a policy game with tiles still in the bag, a few turns apart."""
    states = [s for s in positions(seed, 30) if s.bag_size() > 25][4::8]
    assert len(states) >= 2
    return states


@pytest.mark.parametrize("seed", [9])
def test_a_continuation_that_stops_before_the_end_is_judged_by_the_learned_value(seed: int) -> None:
    """The value replaces the racks' worth: the spread gained, plus the spread still to come by the
    value from the view of the player to move at the end (against me when it is not me)."""
    leave, value = default_leave(), default_value()
    assert value is not None
    for state in mid_game_positions(seed):
        view = state.view(state.current)
        me, other = view.player, 1 - view.player
        for candidate in rank_plays(view, leave, top=2):
            for turns in (FOLLOW_TURNS, 2):
                end = state.apply(candidate.move)
                for _ in range(turns):
                    end = policy_turn(end, leave)
                assert not end.is_over
                gain = (end.scores[me] - state.scores[me]) - (end.scores[other] - state.scores[other])
                to_come = value.remaining(position_features(end.view(end.current), leave))
                expected = gain + (to_come if end.current == me else -to_come)
                got = rollout(state, candidate.move, me, leave, turns, candidate.score, value)
                assert got == pytest.approx(expected, abs=1e-9)
                assert end_value(end, me, value, leave) == pytest.approx(expected - gain, abs=1e-9)


@pytest.mark.parametrize("seed", [11])
def test_the_value_weight_mixes_the_value_with_the_racks_worth(seed: int) -> None:
    leave, value = default_leave(), default_value()
    assert value is not None
    for state in mid_game_positions(seed):
        view = state.view(state.current)
        candidate = rank_plays(view, leave, top=1)[0]
        racks = rollout(state, candidate.move, view.player, leave, score=candidate.score)
        learned = rollout(state, candidate.move, view.player, leave, score=candidate.score, value=value)
        assert racks != learned  # the two judgements differ, so the mix below means something
        half = rollout(state, candidate.move, view.player, leave, score=candidate.score, value=value, value_weight=0.5)
        assert half == pytest.approx((racks + learned) / 2, abs=1e-9)
        none = rollout(state, candidate.move, view.player, leave, score=candidate.score, value=value, value_weight=0.0)
        assert none == pytest.approx(racks, abs=1e-9)


@pytest.mark.parametrize("seed", [6])
def test_a_continuation_that_reaches_the_end_ignores_the_value(seed: int) -> None:
    leave, value = default_leave(), default_value()
    for state in bag_empty_positions(seed)[:2]:
        view = state.view(state.current)
        for candidate in rank_plays(view, leave, top=2):
            plain = rollout(state, candidate.move, view.player, leave, score=candidate.score)
            assert rollout(state, candidate.move, view.player, leave, score=candidate.score, value=value) == plain


def test_the_expert_with_the_value_plays_a_legal_move() -> None:
    state = mid_game_positions(13)[0]
    view = state.view(state.current)
    bot = ExpertBot(budget=0.1, clock=fake_clock(0.001), candidates=4, use_value=True)
    move = bot.choose(view, random.Random(3))
    state.apply(move)  # legal, or the rules raise
    # the candidates were weighed, not just ranked: the fake clock moves 1 ms a reading, so a round of 4
    # rollouts costs 9 readings (its check, and one before and after each rollout) of the 100 ms budget;
    # the check of round r reads 1 + 9 (r - 1) ms and stops once that and 4 ms (a round at the last
    # rollout's 1 ms) pass 100 ms: 11 rounds. The four (the same four tiles, laid in four orders) stay
    # within each other's error, so none is dropped after the sixth round and each has all 11 samples.
    assert sorted(bot.last_samples.values()) == [11, 11, 11, 11]


def test_without_a_readable_value_the_expert_judges_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    state = mid_game_positions(13)[0]
    view = state.view(state.current)
    plain = ExpertBot(budget=0.1, clock=fake_clock(0.001), candidates=4, use_value=False)
    expected = plain.choose(view, random.Random(4))
    monkeypatch.setattr(simulate, "default_value", lambda: None)

    def unreachable(*args: object) -> float:
        raise AssertionError("the value was read, though there is none")

    monkeypatch.setattr(simulate, "end_value", unreachable)
    unread = ExpertBot(budget=0.1, clock=fake_clock(0.001), candidates=4, use_value=True)
    assert unread.choose(view, random.Random(4)) == expected
    assert unread.last_samples == plain.last_samples
