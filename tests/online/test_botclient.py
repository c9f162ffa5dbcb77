"""A seat bot's Joker call at an online table (`botclient.tile_call`): the state it is sent withholds the
last play's worth while it may be called (issue 43), so the bot counts the play itself."""

from __future__ import annotations

import random
from typing import Any

from cribtiles.online.botclient import tile_call
from cribtiles.rules.moves import Play
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
    session = LocalSession(Table.new((Seat("Ann"), Seat("Ben")), RuleOptions().with_text("joker=on"), 2))
    mover = session.to_move
    assert mover is not None
    board = session.table.state.board
    play = next(p for p in session.table.state.legal_plays() if isinstance(p, Play))
    session.act(mover, play, declared=score_play(board, play).total - declared_less)
    other = 1 - mover
    state = {"match": match_json(session.match), "you": other, "rack": format_tiles(session.table.state.racks[other])}
    assert state["match"]["game"]["turns"][-1]["worth"] is None  # nothing told: the bot counts
    return state


def test_a_seat_bot_calls_on_a_wrong_declaration_by_its_own_count() -> None:
    for less in (2, -3):
        assert tile_call(sent_after(less), "expert", random.Random(0))
    assert not tile_call(sent_after(0), "expert", random.Random(0))


def test_a_seat_bot_misses_as_often_as_its_level() -> None:
    state = sent_after(2)
    calls = sum(tile_call(state, "beginner", random.Random(n)) for n in range(400))
    assert 140 <= calls <= 260  # a Beginner overlooks half the wrong declarations
