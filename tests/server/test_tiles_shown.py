"""What a tile table sends each seat: the match made once for every seat that exchanged nothing this
round is the very one made for that seat alone, and a seat that exchanged sees its own tiles, never
another's (issue 31); the verbs a seat may use now (`legal`) are the rules engine's, for that seat's rack
alone (issue 43)."""

from __future__ import annotations

import random

from cribtiles.rules.moves import Exchange, Pass, Play
from cribtiles.server.tiles_room import TilesGame
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.public import match_json, public_match


def _alone(game: TilesGame, seat: int | None) -> dict[str, object]:
    return match_json(public_match(game.table.match, () if seat is None else (seat,)))


def _verbs(game: TilesGame, seat: int) -> list[str]:
    """The verbs `seat` may use now, read off every legal move the engine lists for the seat to move."""
    table = game.table
    if table.to_move != seat:
        return []
    actions = table.state.legal_actions()
    kinds = [
        ("play", any(isinstance(a, Play) for a in actions)),
        ("pass", Pass() in actions),
        ("exchange", any(isinstance(a, Exchange) and a.tiles for a in actions)),
    ]
    return [verb for verb, allowed in kinds if allowed]


def _play(seed: int, rules: str, seats: int) -> tuple[int, int]:
    """A seeded game of random legal moves, exchanges often; every state checked. (moves, exchanges)."""
    game = TilesGame.start([Seat(name) for name in ("Ann", "Bob", "Cy", "Di")[:seats]], rules, seed)
    rng = random.Random(seed)
    moves = exchanges = 0
    while not game.over and moves < 400:
        table = game.table
        for seat in [None, *range(seats)]:
            assert game.shown(seat)["match"] == _alone(game, seat), (seed, moves, seat)
        for seat in range(seats):
            assert game.shown(seat)["legal"] == _verbs(game, seat), (seed, moves, seat)
        assert "legal" not in game.shown(None)
        if table.round_over:
            game.next_round()
            continue
        actions = table.state.legal_actions()
        swaps = [a for a in actions if isinstance(a, Exchange) and a.tiles]
        plays = [a for a in actions if isinstance(a, Play)]
        move = rng.choice(swaps) if swaps and rng.random() < 0.3 else rng.choice(plays or actions)
        exchanges += move in swaps
        table.play(move)
        moves += 1
    for seat in [None, *range(seats)]:
        assert game.shown(seat)["match"] == _alone(game, seat)
    return moves, exchanges


def test_every_seat_is_sent_its_own_match_through_whole_games() -> None:
    exchanged = 0
    for seed, rules, seats in ((1, "exchange=any-time", 2), (2, "exchange=any-time", 3), (3, "", 2)):
        moves, exchanges = _play(seed, rules, seats)
        assert moves > 10
        exchanged += exchanges
    assert exchanged > 0  # the games did exchange, so the seat's own view was made too


def test_a_seats_exchange_is_shown_to_it_alone() -> None:
    game = TilesGame.start([Seat("Ann"), Seat("Bob")], "exchange=any-time", 5)
    table = game.table
    seat = table.to_move
    assert seat is not None
    tiles = table.state.racks[seat][:2]
    table.play(Exchange(tuple(tiles)))
    mine = game.shown(seat)["match"]["game"]["turns"][-1]["move"]
    theirs = game.shown(1 - seat)["match"]["game"]["turns"][-1]["move"]
    watched = game.shown(None)["match"]["game"]["turns"][-1]["move"]
    assert mine == str(Exchange(tuple(tiles)))
    assert theirs == watched == "exchange ?"


def test_a_seat_is_told_what_it_may_do_on_its_turn_and_nothing_on_anothers() -> None:
    game = TilesGame.start([Seat("Ann"), Seat("Bob")], "exchange=any-time", 5)
    seat = game.table.to_move
    assert seat is not None
    assert game.shown(seat)["legal"] == ["play", "pass", "exchange"]
    assert game.shown(1 - seat)["legal"] == []
    when_stuck = TilesGame.start([Seat("Ann"), Seat("Bob")], "", 5)
    assert when_stuck.shown(seat)["legal"] == ["play"]  # a player who can play may not pass (rules.md 4)
