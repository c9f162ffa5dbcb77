"""Taking back a person's last turn at a table with bots: the round is rebuilt from its record, so the
state after an undo is the state before that turn, and the same move again gives the same game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules import IllegalMove
from cribtiles.rules.game import GameState
from cribtiles.rules.moves import Exchange, Move, Pass, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.record import record_of, replay
from cribtiles.rules.scoring import score_play
from cribtiles.table import Seat, parse_players
from cribtiles.table.saves import save_table
from cribtiles.table.tiles.history import history_of
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table, log_position, state_before


def bots_reply(table: Table) -> None:
    """Every bot to move plays its greedy move from its request's seed (the same request, the same move)."""
    while table.bot_to_move:
        request = table.bot_request()
        table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)


def person_move(table: Table, rng: random.Random) -> Move:
    """A legal move of the person to move: mostly a play, sometimes a pass or an exchange when allowed."""
    state = table.state
    plays = state.legal_plays()
    if state.may_pass() and (not plays or rng.random() < 0.3):
        rack = state.racks[state.current]
        n = min(len(rack), state.bag_size(state.current), rng.randint(1, 3))
        return Exchange.of(rng.sample(rack, n)) if n else Pass()
    return rng.choice(plays)


def snapshot(table: Table) -> tuple[GameState, list[object], int]:
    return table.state, list(table.history), table.undos


SETUPS = [
    ("You,medium", ""),
    ("You,easy,hard", ""),
    ("You,medium", "joker=on"),
    ("You,beginner,expert", "joker=on"),
    ("You,medium", "exchange=any-time"),
    ("You,medium", "mode=solitaire"),
    ("You,medium", "rounds=2"),
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from(SETUPS), st.floats(0.05, 0.5))
def test_undo_restores_the_state_before_the_turn_and_the_same_move_replays_the_same_game(
    seed: int, setup: tuple[str, str], undo_rate: float
) -> None:
    players, rules = setup
    table = Table.new(parse_players(players), RuleOptions.parse(rules), seed)
    rng = random.Random(seed)
    undos = 0
    while not table.match_over:
        if table.round_over:
            table.next_round()
            # a finished round stays as it was
            with pytest.raises(
                IllegalMove, match="you have no turn to take back in this round \\(a round that is over"
            ):
                table.undo(0)
        bots_reply(table)
        if table.round_over:
            continue
        before = snapshot(table)
        move = person_move(table, rng)
        table.play(move)
        bots_reply(table)
        after = snapshot(table)
        if rng.random() < undo_rate and not table.round_over:  # a finished round is not taken back
            n = table.undo(0)
            undos += 1
            assert n == len(after[1]) - len(before[1]) >= 1
            assert table.state == before[0]  # replay-identical: racks, bag, board, scores, calls, log
            assert table.state.racks == before[0].racks and table.state.bags == before[0].bags
            assert table.history == before[1]
            assert table.history == list(history_of(table.state))
            assert table.undos == undos and table.to_move == 0
            table.play(move)  # the same move again: the same game as before the undo
            bots_reply(table)
            assert table.state == after[0] and table.history == after[1]
    assert table.undos == undos


def test_state_before_is_the_record_replayed_up_to_that_turn_with_the_calls_on_the_turns_before() -> None:
    table = Table.new(parse_players("You,expert,beginner"), RuleOptions.parse("joker=on"), 11)
    rng = random.Random(1)
    while not table.round_over:
        bots_reply(table)
        if table.round_over:
            break
        move = person_move(table, rng)
        declared = None
        if isinstance(move, Play) and rng.random() < 0.5:  # an under-count the bots may call Joker on
            declared = max(0, score_play(table.state.board, move).total - 2)
        table.play(move, declared)
    state = table.state
    assert state.calls, "this seed's game has Joker calls to place"
    states = [replay(record_of(state), n) for n in range(len(state.log) + 1)]
    for k in range(len(state.turns) + 1):
        rebuilt = state_before(state, k)
        assert len(rebuilt.turns) == k
        assert rebuilt == states[log_position(state, k)]
        if k < len(state.turns):  # every call made before turn k is in, none after it
            assert rebuilt.calls == tuple(c for c in state.calls if c[0] <= k)
    assert state_before(state, len(state.turns)) == state


def test_undo_is_refused_in_words() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("medium"), Seat.person("Ben")), seed=5)
    with pytest.raises(IllegalMove, match="only a person"):
        table.undo(1)
    with pytest.raises(IllegalMove, match="no seat 7"):
        table.undo(6)
    # play until Ann has moved and Ben has moved after her
    rng = random.Random(2)
    while not (
        any(t.player == 0 for t in table.state.turns)
        and table.state.turns[-1].player == 2
        and any(t.player == 0 for t in table.state.turns)
    ):
        if table.bot_to_move:
            bots_reply(table)
        else:
            table.play(person_move(table, rng))
    assert not table.can_undo(0)
    with pytest.raises(IllegalMove, match="Ben has moved since"):
        table.undo(0)
    assert table.can_undo(2)  # Ben may take his back (only the bot would follow him)
    fresh = Table.new((Seat.person("Ann"), Seat.bot("medium")), seed=8)
    if fresh.state.current == 1:
        bots_reply(fresh)
    assert not fresh.can_undo(0)
    with pytest.raises(IllegalMove, match="Ann has no turn to take back in this round"):
        fresh.undo(0)
    assert fresh.undos == 0


def test_a_finished_game_is_not_taken_back_and_an_undo_is_saved() -> None:
    table = Table.new(parse_players("You,medium"), seed=3)
    rng = random.Random(3)
    bots_reply(table)
    table.play(person_move(table, rng))
    assert table.undo(0) >= 1
    again = load_table(save_table(table))
    assert again.undos == 1 and again.state == table.state
    while not table.round_over:
        bots_reply(table)
        if not table.round_over:
            table.play(person_move(table, rng))
    assert table.state.outcome is not None and not table.can_undo(0)
    with pytest.raises(IllegalMove, match="the game is over: it is kept as it was played"):
        table.undo(0)
