"""A person out of time at a table whose timer passes for them: passed for when the rules allow a pass,
else moved for by the weakest bot (the rules refuse a pass to a player who holds a play), and the table
told why in words; through a real server whose clock the test moves on (issue 31)."""

from __future__ import annotations

import logging

import pytest

from cribtiles.rules.moves import Pass, Play, format_move
from cribtiles.server.front import TABLE_SPEAKER, Hall
from cribtiles.server.rooms import Room, Settings
from cribtiles.server.tiles_room import STAND_IN_FOR_PASS, TilesGame
from cribtiles.table.tiles.table import Table

from .conftest import MakeStore
from .players import Player, connected, new_table
from .running import running_server
from .test_rooms import T0, act, person_move, tiles, two_people

SEED = 7


class Clock:
    """The server's clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def stuck_turn(seed: int) -> tuple[Room, int]:
    """A table of two people played (as easy bots) up to a turn where the person to move holds no legal
    play: the room and that seat."""
    room, _ = two_people(Settings(turn_timer=60, on_timeout="pass"), seed)
    for _ in range(200):
        game = tiles(room)
        seat = game.to_move
        assert seat is not None, "the game ended before anyone was stuck"
        if game.table.state.may_pass():
            return room, seat
        act(room, seat, person_move(room, seat, seed))
    raise AssertionError("nobody was stuck")


def test_out_of_time_a_player_who_cannot_play_passes() -> None:
    room, seat = stuck_turn(2)
    assert not tiles(room).table.state.legal_plays()
    ply = room.ply
    words = room.stand_in(seat, None, room.last_change + 60)
    last = tiles(room).table.last
    assert last is not None and last.player == seat and last.turn.move == Pass()
    assert room.ply == ply + 1
    name = room.places[seat].name
    assert words == f"{name}'s time for the move ran out. They passed."


def test_out_of_time_a_player_who_could_play_has_the_weakest_bot_play_for_them() -> None:
    room, _ = two_people(Settings(turn_timer=60, on_timeout="pass"), SEED)
    game = tiles(room)
    act(room, game.to_move or 0, person_move(room, game.to_move or 0))  # now the other may play
    seat = game.to_move
    assert seat is not None and game.table.state.legal_plays() and not game.table.state.may_pass()
    assert room.due(room.last_change + 60) == (seat, None)
    words = room.stand_in(seat, None, room.last_change + 60)
    last = game.table.last
    assert last is not None and last.player == seat and isinstance(last.turn.move, Play)
    assert STAND_IN_FOR_PASS == "beginner"
    name = room.places[seat].name
    assert words == (
        f"{name}'s time for the move ran out. They could play, and only a player who cannot play may pass, "
        "so the beginner bot played for them."
    )


def test_a_stand_in_is_the_same_move_at_a_table_loaded_again() -> None:
    """The weakest bot's move is the table's own chance: a restarted server makes the same one."""
    room, _ = two_people(Settings(turn_timer=60, on_timeout="pass"), SEED)
    first = tiles(room).to_move
    assert first is not None
    act(room, first, person_move(room, first))
    copy = TilesGame.load(tiles(room).dump())
    seat = tiles(room).to_move
    assert seat is not None
    tiles(room).stand_in(seat, None)
    copy.stand_in(seat, None)
    made, again = tiles(room).table.last, copy.table.last
    assert made is not None and again is not None and format_move(made.turn.move) == format_move(again.turn.move)


def test_through_the_server_the_turn_ends_and_the_table_is_told_why(
    caplog: pytest.LogCaptureFixture, make_store: MakeStore
) -> None:
    """The bug this mends: the server tried a refused pass every second, logging an error each time, and
    the turn never ended (on SQLite and on PostgreSQL: the stand-in's move is kept as a player's is)."""
    caplog.set_level(logging.INFO, logger="cribtiles.server")
    clock = Clock()
    with running_server(store=make_store(), clock=clock) as (url, hall):
        maker = connected(url)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
        created = new_table(maker, seats, sit=0, seed=SEED, turn_timer=60, on_timeout="pass")
        maker.close()
        ann = Player(url, created["code"])
        try:
            assert ann.resume(created["token"]) == 0
            state = ann.wait_until(lambda s: s.get("to_move") == 0)
            table = tiles_of(hall, created["code"])
            assert not table.state.may_pass(), "the test wants Ann to hold a play"
            turns = len(state["match"]["game"]["turns"])
            clock.now += 61
            state = ann.wait_until(lambda s: len(s["match"]["game"]["turns"]) > turns)
            made = state["match"]["game"]["turns"][turns]
            player, move = made["player"], made["move"]
            assert player == 0 and move != "pass", (player, move)
            ann.wait_until(lambda s: bool(ann.said))
            said = ann.said[-1]
            assert said["name"] == TABLE_SPEAKER and said["seat"] is None
            assert said["text"].startswith("Ann's time for the move ran out. They could play")
        finally:
            ann.close()
    errors = [r for r in caplog.records if r.name == "cribtiles.server" and r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    assert any("ran out" in r.getMessage() for r in caplog.records if r.name == "cribtiles.server")


def tiles_of(hall: Hall, code: str) -> Table:
    """The server's own table (read while it waits for a person, so nothing changes it meanwhile)."""
    game = hall.rooms[code].game
    assert isinstance(game, TilesGame)
    return game.table
