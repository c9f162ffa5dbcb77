"""What a session shows everyone of a tile round: no rack but at the end, no bag's order, no seed, no
worth of a play that may still be called Joker on (issue 43); the same after a trip through JSON, whose
turns and calls name their fields; a seat's view rebuilt from it and its rack (issue 30)."""

from __future__ import annotations

import json
import random

import pytest

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.moves import Exchange, Pass, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.public import (
    match_from_json,
    match_json,
    player_view,
    public_from_json,
    public_json,
    public_of,
)
from cribtiles.table.tiles.session import LocalSession
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


JOKER = RuleOptions().with_text("joker=on,exchange=any-time")


def joker_session() -> tuple[LocalSession, Play, int]:
    """Two people at a table of this process under the Joker rule (no bot calls at once), the first to
    move about to play, the play and its worth."""
    session = LocalSession(Table.new((Seat("Ann"), Seat("Ben")), JOKER, 11))
    seat = session.to_move
    assert seat is not None
    board = session.table.state.board
    play = next(p for p in session.table.state.legal_plays() if score_play(board, p).total >= 3)
    return session, play, score_play(board, play).total


def test_a_play_that_may_be_called_shows_only_its_declaration() -> None:
    """Issue 43: the local session hands its drivers the public value, and that holds only what was
    declared while the play may be called: no worth, no unclaimed or over-claimed points, in the value,
    its JSON, the seats' views and the history; the state that closes the window brings the worth."""
    session, play, total = joker_session()
    mover = session.to_move
    assert mover is not None and total >= 3
    session.act(mover, play, declared=total - 3)
    other = 1 - mover
    public = session.state
    assert public.worth_withheld and public.last_turn is not None
    assert (public.last_turn.points, public.last_turn.true_points) == (total - 3, None)
    assert session.table.state.unclaimed == 3  # the referee knows; the table's drivers are not told
    told = public_json(public)
    assert told["turns"][-1]["worth"] is None and told["turns"][-1]["declared"] == total - 3
    assert not {"unclaimed", "overclaimed"} & told.keys()
    assert public_from_json(json.loads(json.dumps(told))) == public  # withheld, not made up, after the trip
    for seat in (mover, other):
        assert session.view(seat).turns[-1].true_points is None
    assert session.history[-1].turn.true_points is None
    seen = session.seen(session.history[-1])
    assert seen is not None and seen.hidden
    call = session.call_joker(other)  # a call closes the window: the worth comes with it
    assert call.points == 3 and not session.state.worth_withheld
    assert public_json(session.state)["turns"][-1]["worth"] == total
    assert session.view(other).turns[-1].true_points == total


def test_the_next_action_brings_the_worth() -> None:
    session, play, total = joker_session()
    mover = session.to_move
    assert mover is not None
    session.act(mover, play, declared=total + 2)
    assert session.state.worth_withheld
    session.act(1 - mover, Pass())
    assert not session.state.worth_withheld
    assert [t["worth"] for t in public_json(session.state)["turns"]] == [total, 0]


def test_the_turns_and_calls_go_over_the_wire_with_named_fields() -> None:
    session, play, total = joker_session()
    mover = session.to_move
    assert mover is not None
    session.act(mover, play, declared=total - 1)
    assert public_json(session.state)["turns"] == [
        {
            "player": mover,
            "move": str(play),
            "declared": total - 1,
            "worth": None,
            "drawn": len(play.placements),
            "stuck": False,
            "stand_in": None,  # the player's own turn (issue 44: a stand-in's says why it made it)
        }
    ]
    session.call_joker(1 - mover)
    told = public_json(session.state)
    assert told["turns"][0]["worth"] == total
    assert told["calls"] == [{"at_turn": 1, "caller": 1 - mover, "points": 1, "taken": 0}]
    assert public_from_json(json.loads(json.dumps(told))) == session.state


def test_a_round_that_ends_shows_the_worth_of_its_last_play() -> None:
    session = LocalSession(Table.new((Seat("Ann"), Seat("Ben")), RuleOptions().with_text("joker=on"), 3))
    while session.to_move is not None:
        seat = session.to_move
        session.act(seat, greedy_move(session.view(seat), random.Random(seat)))
        assert session.state.worth_withheld is (session.state.turns[-1].is_play and not session.is_over)
    assert session.state.turns == session.table.state.turns  # every worth, the last play's too
