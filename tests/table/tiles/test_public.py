"""What a session shows everyone of a tile round: no rack but at the end, no bag's order, no seed;
the same after a trip through JSON; a seat's view rebuilt from it and its rack (issue 30)."""

from __future__ import annotations

import json
import random

import pytest

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.moves import Exchange
from cribtiles.rules.options import RuleOptions
from cribtiles.table.seats import Seat
from cribtiles.table.session import LocalSession
from cribtiles.table.tiles.public import (
    match_from_json,
    match_json,
    player_view,
    public_from_json,
    public_json,
    public_of,
)
from cribtiles.table.tiles.table import Table

ANY_TIME = RuleOptions().with_text("exchange=any-time")


def with_an_exchange() -> GameState:
    """A round in which seat 0 exchanged two tiles, then seat 1 played."""
    state = Match.start(2, ANY_TIME, 7).game
    state = state.apply(Exchange.of(state.racks[state.current][:2]))
    return state.apply(greedy_move(state.view(state.current), random.Random(0)))


def test_the_public_state_holds_no_rack_and_no_bag() -> None:
    state = with_an_exchange()
    public = public_of(state)
    assert public.rack_sizes == (5, 5) and public.bag_sizes == (len(state.bags[0]),)
    assert public.end_racks == () and not hasattr(public, "racks") and not hasattr(public, "seed")
    assert public.bag_size() == state.bag_size() and public.current == state.current
    exchanged = next(t for t in public.turns if isinstance(t.move, Exchange))
    assert exchanged.move == Exchange(()) and exchanged.drawn == 2  # how many is public, which are not
    shown = public_of(state, (exchanged.player,))
    assert shown.turns == state.turns  # the seat that exchanged sees its own tiles


def test_the_public_state_crosses_json_unchanged() -> None:
    state = with_an_exchange()
    for shown in ((), (0,), (0, 1)):
        public = public_of(state, shown)
        assert public_from_json(json.loads(json.dumps(public_json(public)))) == public


def test_a_finished_round_shows_its_racks_and_end() -> None:
    session = LocalSession(Table.new((Seat("Ann"), Seat("Ben")), RuleOptions(), 3))
    while session.to_move is not None:
        seat = session.to_move
        session.act(seat, greedy_move(session.view(seat), random.Random(seat)))
    public = session.state
    assert public.is_over and public.end_racks == session.table.state.racks
    assert public.final_scores() == session.table.state.final_scores()
    assert match_from_json(json.loads(json.dumps(match_json(session.match)))) == session.match
    assert session.match.totals == session.table.match.totals and session.match.is_over


def test_a_seats_view_is_rebuilt_from_the_public_state_and_its_rack() -> None:
    state = with_an_exchange()
    for seat in (0, 1):
        assert player_view(public_of(state, (seat,)), seat, state.racks[seat]) == state.view(seat)


def test_the_whole_record_is_given_only_once_the_round_is_over() -> None:
    options = RuleOptions().with_text("rounds=2")
    session = LocalSession(Table.new((Seat("Ann"), Seat("Ben")), options, 3))
    with pytest.raises(IllegalMove, match="still being played"):
        session.record()
    while session.to_move is not None:
        seat = session.to_move
        session.act(seat, greedy_move(session.view(seat), random.Random(seat)))
    record = session.record()
    assert record.state == session.table.state and record.history == session.table.history
    assert record.match.seed == 0 != session.table.match.seed  # the next round's bag stays hidden
