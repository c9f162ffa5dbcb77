"""The tile game's seat bot online (`tiles_seat`, issue 45): the registry's `SEAT_BOT` part of the game,
a legal move from what its seat is sent, and its Joker call (`tile_call`): the state it is sent withholds
the last play's worth while it may be called (issue 43), so the bot counts the play itself."""

from __future__ import annotations

import random
from typing import Any

from cribtiles.games import SEAT_BOT, game_named
from cribtiles.online.tiles_seat import TILE_PLAY, tile_call, tile_move
from cribtiles.rules.moves import Play, parse_move
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.rules.tiles import format_tiles
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.public import match_json
from cribtiles.table.tiles.session import LocalSession
from cribtiles.table.tiles.table import Table


def sent_after(declared_less: int) -> dict[str, Any]:
    """The state seat 1 would be sent once seat 0 has made its first play, declared `declared_less`
    points short (negative: over), while it may still be called."""
    return played_and_sent(declared_less)[1]


def played_and_sent(declared_less: int) -> tuple[LocalSession, dict[str, Any]]:
    """The game once seat 0 has made its first play, declared `declared_less` points short, and the
    state the other seat is sent then."""
    session = LocalSession(Table.new((Seat("Ann"), Seat("Ben")), RuleOptions().with_text("joker=on"), 2))
    mover = session.to_move
    assert mover is not None
    board = session.table.state.board
    play = next(p for p in session.table.state.legal_plays() if isinstance(p, Play))
    session.act(mover, play, declared=score_play(board, play).total - declared_less)
    other = 1 - mover
    rack = format_tiles(session.table.state.racks[other])
    state: dict[str, Any] = {"match": match_json(session.match), "you": other, "rack": rack}
    assert state["match"]["game"]["turns"][-1]["worth"] is None  # nothing told: the bot counts
    return session, state


def test_a_seat_bot_calls_on_a_wrong_declaration_by_its_own_count() -> None:
    for less in (2, -3):
        assert tile_call(sent_after(less), "expert", random.Random(0))
    assert not tile_call(sent_after(0), "expert", random.Random(0))


def test_a_seat_bot_misses_as_often_as_its_level() -> None:
    state = sent_after(2)
    calls = sum(tile_call(state, "beginner", random.Random(n)) for n in range(400))
    assert 140 <= calls <= 260  # a Beginner overlooks half the wrong declarations


def test_it_is_the_registrys_seat_bot_of_the_tile_game() -> None:
    assert game_named("tiles").part(SEAT_BOT) is TILE_PLAY
    assert (TILE_PLAY.move, TILE_PLAY.calls) == (tile_move, tile_call)


def test_a_seat_bot_makes_a_legal_move_from_what_its_seat_was_sent() -> None:
    session, state = played_and_sent(0)
    assert session.to_move == state["you"]
    for level in ("beginner", "easy", "expert"):
        move = parse_move(tile_move(state, level, random.Random(1)))
        assert move in session.table.state.legal_plays(), level
