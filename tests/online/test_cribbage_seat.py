"""Classic cribbage's seat bot online (`cribbage_seat`, issue 45): the registry's `SEAT_BOT` part of the
game, a legal move from what its seat is sent, and never a call beside its move."""

from __future__ import annotations

import random

from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.moves import parse_move
from cribtiles.games import SEAT_BOT, game_named
from cribtiles.online.cribbage_seat import SEAT_PLAY, bot_move
from cribtiles.table.cribbage.public import view_data


def test_it_is_the_registrys_seat_bot_of_cribbage() -> None:
    assert game_named("cribbage").part(SEAT_BOT) is SEAT_PLAY
    assert SEAT_PLAY.move is bot_move


def test_a_seat_bot_makes_a_legal_move_from_its_view_and_never_calls_beside_it() -> None:
    game = new_game(5)
    moves = 0
    while not game.is_over and moves < 60:  # the deal, the play and the show
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        state = {"view": view_data(view), "may_call": True}
        move = parse_move(bot_move(state, "medium", random.Random(moves)))
        assert move in view.legal
        assert not SEAT_PLAY.calls(state, "medium", random.Random(moves))
        game = game.apply(move)
        moves += 1
    assert moves == 60
