"""Seeded games played to the end by random legal actions, with the rules' invariants checked at every step."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.rules import (
    EndReason,
    Exchange,
    GameState,
    Pass,
    Play,
    RuleOptions,
    full_set,
    has_legal_play,
    load,
    new_game,
    save,
    score_hand,
    score_play,
)
from cribtiles.rules.hands import why_invalid

FULL = Counter(full_set())
CONFIGS = {
    "2p": (2, ""),
    "3p": (3, "start=high"),
    "4p": (4, ""),
    "any-time": (2, "exchange=any-time"),
    "any-time-3p": (3, "exchange=any-time"),
    "solitaire": (2, "mode=solitaire"),
    "joker": (3, "joker=on"),
    "joker-solitaire-any-time": (2, "joker=on,mode=solitaire,exchange=any-time"),
}
#: Plays applied per step besides the chosen one (each legal play is also checked by score_play).
APPLIED_SAMPLE = 6
#: On an empty board every play anywhere is legal (tens of thousands): a sample is checked per game,
#: and test_every_first_play_of_some_racks_is_accepted checks them all for a few racks.
FIRST_PLAY_SAMPLE = 300


def count_value(rank: int) -> int:
    return min(6 if rank == 9 else rank, 10)


def max_steps(players: int) -> int:
    """A play lays a tile from the 104; between two plays at most 3 * players - 1 idle turns."""
    return (104 + 1) * 3 * players


def expected_end(state: GameState) -> EndReason | None:
    """Why the game should be over now (rules.md sections 5 and 6), worked out from the turns and racks."""
    n = state.players
    recent = state.turns[-2 * n :]
    if len(recent) == 2 * n and all(not t.is_play and t.stuck for t in recent):
        return EndReason.LOCKED
    recent = state.turns[-3 * n :]
    if len(recent) == 3 * n and not any(t.is_play for t in recent):
        return EndReason.IDLE
    if state.bag_size() == 0:  # every bag; in Solitaire a side may have emptied its rack turns ago
        if not all(state.racks):
            return EndReason.OUT
        if not any(has_legal_play(state.board, r) for r in state.racks):
            return EndReason.BLOCKED
    return None


def check_state(state: GameState) -> None:
    assert state.tile_count() == FULL
    for line in state.board.lines():
        assert why_invalid(line.ranks, line.name) is None, line
        assert score_hand(line.ranks).is_valid
    for p in range(state.players):
        turn_points = sum(t.points for t in state.turns if t.player == p)
        call_points = sum(c.points for _, c in state.calls if c.caller == p)
        taken = sum(c.taken for n, c in state.calls if n and state.turns[n - 1].player == p)  # over-claims called
        assert state.scores[p] == turn_points + call_points - taken
        assert len(state.racks[p]) <= 5
    for t in state.turns:
        assert t.points >= 0  # and above its true score too, muggins style (until called)
    for n, c in state.calls:
        assert c.taken in (0, c.points) and (not c.taken or state.turns[n - 1].points > state.turns[n - 1].true_points)
    if state.options.solitaire:
        for side, bag in enumerate(state.bags):
            colours = {t.colour for t in bag} | {t.colour for t in state.racks[side]}
            assert len(colours) <= 1
    reason = expected_end(state)
    if reason is None:
        assert state.outcome is None
    else:
        assert state.outcome is not None and state.outcome.reason == reason


def check_actions(state: GameState, rng: random.Random) -> None:
    """Every legal action is legal: plays accepted by score_play, everything applies without error."""
    actions = state.legal_actions()
    assert actions, "a player who may not act"
    assert len(set(actions)) == len(actions)
    plays = [a for a in actions if isinstance(a, Play)]
    others = [a for a in actions if not isinstance(a, Play)]
    stuck = not plays
    assert (Pass() in others) == (stuck or state.options.exchange == "any-time")
    rack = Counter(t.rack_form for t in state.racks[state.current])
    checked = plays if not state.board.is_empty() else rng.sample(plays, min(FIRST_PLAY_SAMPLE, len(plays)))
    for play in checked:
        score_play(state.board, play)  # raises IllegalMove if the generator offered an illegal play
        assert not Counter(t.rack_form for t in play.tiles) - rack
    for action in others + rng.sample(plays, min(APPLIED_SAMPLE, len(plays))):
        after = state.apply(action)
        assert after.tile_count() == FULL
        if isinstance(action, Exchange):
            assert len(action.tiles) <= state.bag_size(state.current)


def check_transition(before: GameState, action: object, declared: int | None, after: GameState) -> None:
    p = before.current
    turn = after.turns[-1]
    assert turn.player == p and turn.move == action
    assert len(after.turns) == len(before.turns) + 1
    if not after.is_over:
        assert after.current == (p + 1) % before.players
    if isinstance(action, Play):
        total = score_play(before.board, action).total
        assert turn.true_points == total
        assert turn.points == (total if declared is None else declared)
        assert after.scores[p] == before.scores[p] + turn.points
        left = len(before.racks[p]) - len(action.placements)
        assert len(after.racks[p]) == min(5, left + before.bag_size(p))  # refilled to 5 if the bag allows
        assert after.bag_size() == before.bag_size() - (len(after.racks[p]) - left)
        assert len(after.board) == len(before.board) + len(action.placements)
        assert not turn.stuck
    else:
        assert after.board == before.board and after.scores == before.scores
        assert turn.stuck == (not before.legal_plays())  # what counts towards a locked board
        assert after.bag_size() == before.bag_size() and len(after.racks[p]) == len(before.racks[p])
    for q in range(before.players):
        if q != p and before.bag_of(q) != before.bag_of(p):
            assert after.bags[before.bag_of(q)] == before.bags[before.bag_of(q)]


def check_end(state: GameState) -> None:
    out = state.outcome
    assert out is not None
    assert out.deductions == tuple(sum(count_value(t.rank) for t in r) for r in state.racks)
    assert out.final_scores == tuple(s - d for s, d in zip(state.scores, out.deductions, strict=True))
    assert out.winners == tuple(p for p, s in enumerate(out.final_scores) if s == max(out.final_scores))
    if out.reason is EndReason.OUT:
        assert out.went_out is not None and state.racks[out.went_out] == () and out.deductions[out.went_out] == 0
    else:
        assert out.went_out is None
    assert state.legal_actions() == [] and state.current_player == -1
    assert load(save(state)) == state


def play_game(players: int, text: str, seed: int) -> GameState:
    options = RuleOptions.parse(text)
    state = new_game(players, options, seed)
    rng = random.Random(seed)
    check_state(state)
    for _ in range(max_steps(players)):
        if state.is_over:
            break
        check_actions(state, rng)
        action = rng.choice(state.legal_actions())
        declared = None
        if options.joker and isinstance(action, Play) and rng.random() < 0.4:
            declared = rng.randint(0, score_play(state.board, action).total + 5)  # over too: muggins style
        after = state.apply(action, declared)
        check_transition(state, action, declared, after)
        state = after
        check_state(state)
        if options.joker and rng.random() < 0.3:
            last = state.turns[-1]
            caller = rng.choice([q for q in range(players) if not (last.is_play and q == last.player)])
            unclaimed = state.unclaimed if last.is_play else 0
            over = state.overclaimed if last.is_play else 0
            assert not (unclaimed and over)
            called = state.call_joker(caller)
            gain = unclaimed or over or -5
            assert called.scores[caller] == state.scores[caller] + gain
            if last.is_play:  # an over-declaration falls back to the play's true score
                assert called.scores[last.player] == state.scores[last.player] - over
            state = called
            check_state(state)
    assert state.is_over, "the game did not end within the bound"
    check_end(state)
    return state


@pytest.mark.parametrize("config", list(CONFIGS))
@settings(max_examples=2, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(config: str, seed: int) -> None:
    players, text = CONFIGS[config]
    play_game(players, text, seed)


def test_random_games_end_in_every_way() -> None:
    """Random play reaches every end of section 5, so the invariants above see them all."""
    reasons = set()
    games = ((2, "", 0), (2, "", 1), (2, "mode=solitaire", 0), (2, "exchange=any-time", 9))
    for players, text, seed in games:
        state = new_game(players, RuleOptions.parse(text), seed)
        rng = random.Random(seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
        assert state.outcome is not None
        reasons.add(state.outcome.reason)
    assert reasons == set(EndReason)


@pytest.mark.parametrize("seed", [0, 1])
def test_every_first_play_of_some_racks_is_accepted(seed: int) -> None:
    state = new_game(2, RuleOptions(), seed)
    plays = state.legal_plays()
    assert len(plays) > 1000
    for play in plays:
        assert score_play(state.board, play).total >= 10  # the first play bonus at least
