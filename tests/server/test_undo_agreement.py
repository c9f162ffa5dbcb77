"""Taking back a move at an online table by agreement (`Room`, no socket, its clock passed in): the asker's
own last turn (and the server bots' replies after it) goes back once every other person seated has
agreed; the bots agree by themselves; a refusal, a withdrawal or a move made meanwhile ends the request;
one at a time; every request and answer is idempotent; an away person blocks it until they answer; the
request survives a restart; and no seat is sent a tile of the asker's (issue 31)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cribtiles.online.client import Refused
from cribtiles.online.tiles_seat import tile_move
from cribtiles.rules.match import Match
from cribtiles.rules.tiles import format_tiles
from cribtiles.server.rooms import Room, Settings, UndoAsk

from .conftest import MakeStore
from .players import Player, connected, new_table
from .running import running_server
from .test_rooms import T0, act, kept, make_room, person_move, refused, tiles, two_people
from .test_secrecy import Frame, Leaks


def ask(room: Room, seat: int, ply: int | None = None) -> bool:
    return room.act(seat, {"type": "undo", "ply": room.ply if ply is None else ply}, T0)


def answer(room: Room, seat: int, yes: bool, ply: int | None = None) -> bool:
    asked = room.undo_ask
    at = ply if ply is not None else (asked.ply if asked is not None else room.ply)
    return room.act(seat, {"type": "undo_answer", "ply": at, "yes": yes}, T0)


def first_move(room: Room) -> tuple[int, list[str]]:
    """The person to move moves (bots reply as the server's would, until a person is to move): the
    mover, and their rack before it."""
    game = tiles(room)
    mover = game.to_move
    assert mover is not None and room.places[mover].kind == "person"
    rack = sorted(str(t) for t in game.table.state.racks[mover])
    assert act(room, mover, person_move(room, mover))
    bots_reply(room)
    return mover, rack


def bots_reply(room: Room) -> int:
    """The server's bots move until a person is to move: how many moved."""
    moved = 0
    while (request := room.bot_request()) is not None:
        assert room.game is not None and room.play_bot(room.game.chooser(request), request, T0)
        moved += 1
    return moved


def rack_of(room: Room, seat: int) -> list[str]:
    return sorted(str(t) for t in tiles(room).table.state.racks[seat])


def told(room: Room, seat: int | None) -> dict[str, Any]:
    undo: dict[str, Any] = room.shown(seat, T0)["undo"]
    return undo


def test_two_people_the_other_agrees_and_the_move_goes_back_to_the_askers_rack() -> None:
    room, _ = two_people()
    mover, rack = first_move(room)
    other, ply, turns = 1 - mover, room.ply, len(tiles(room).table.state.turns)
    assert room.shown(mover, T0)["can_undo"] and room.shown(None, T0)["undo"] is None
    assert ask(room, mover)
    assert room.ply == ply and len(tiles(room).table.state.turns) == turns  # asked, nothing taken back yet
    expected = {"seat": mover, "ply": ply, "agreed": [], "waiting": [other], "ended": None, "by": None}
    assert told(room, other) == told(room, mover) == told(room, None) == expected
    assert not room.shown(mover, T0)["can_undo"]  # asked already
    assert answer(room, other, True)
    assert room.ply == ply + 1 and len(tiles(room).table.state.turns) == turns - 1
    assert tiles(room).to_move == mover and rack_of(room, mover) == rack  # her tiles are on her rack again
    assert told(room, other)["ended"] == "made" and told(room, other)["agreed"] == [other]
    assert tiles(room).table.undos == 1  # the game is marked as one with a take-back
    # no seat but hers is sent her rack: the other's state, the spectator's
    mine = format_tiles(sorted(tiles(room).table.state.racks[mover]))
    for seat in (other, None):
        text = json.dumps(room.shown(seat, T0))
        assert mine not in text and format_tiles(tiles(room).table.state.racks[mover]) not in text
    assert room.shown(mover, T0)["rack"] == format_tiles(tiles(room).table.state.racks[mover])
    act(room, mover, person_move(room, mover, seed=1))
    assert told(room, other) is None  # told once, in the state that ended it


def test_the_servers_bots_agree_by_themselves_and_their_replies_go_back_too() -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}, {"kind": "person", "name": "Ben"}]
    for seed in range(1, 40):  # a deal where the bot replies between Ann's move and Ben's
        room, _ = make_room(seats, seed=seed)
        room.take("Ann", T0)
        room.take("Ben", T0)
        bots_reply(room)
        if tiles(room).to_move == 0:
            break
    else:
        raise AssertionError("no deal where Ann moves before the bot")
    turns = len(tiles(room).table.state.turns)
    mover, rack = first_move(room)
    assert mover == 0 and len(tiles(room).table.state.turns) == turns + 2  # hers and the bot's reply
    assert ask(room, 0)
    assert told(room, 2)["waiting"] == [2]  # the bot is not asked
    assert answer(room, 2, True)
    assert len(tiles(room).table.state.turns) == turns and rack_of(room, 0) == rack


def test_alone_with_bots_a_move_goes_back_at_once_coach_or_not() -> None:
    for coach in (True, False):
        room, _ = make_room(
            [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}], Settings(coach=coach)
        )
        room.take("Ann", T0)
        bots_reply(room)
        turns = len(tiles(room).table.state.turns)
        _, rack = first_move(room)
        ply = room.ply
        assert ask(room, 0)
        assert room.ply == ply + 1 and len(tiles(room).table.state.turns) == turns and rack_of(room, 0) == rack
        assert told(room, 0)["ended"] == "made" and told(room, 0)["agreed"] == []
        assert not ask(room, 0, ply)  # the same request again: answered, not made twice
        assert len(tiles(room).table.state.turns) == turns


def test_a_refusal_ends_it_and_the_same_move_is_not_asked_back_again() -> None:
    room, _ = two_people()
    mover, _ = first_move(room)
    other, turns = 1 - mover, len(tiles(room).table.state.turns)
    assert ask(room, mover)
    refused(room, "you asked", lambda: answer(room, mover, True))
    assert answer(room, other, False)
    assert told(room, mover)["ended"] == "refused" and told(room, mover)["by"] == other
    assert len(tiles(room).table.state.turns) == turns and not room.shown(mover, T0)["can_undo"]
    assert not answer(room, other, False)  # the same answer again: answered, nothing changes
    refused(room, "said no", lambda: ask(room, mover))
    refused(room, "over", lambda: answer(room, other, True))
    assert act(room, other, person_move(room, other))  # the game goes on
    assert told(room, mover) is None


def test_the_asker_withdraws() -> None:
    room, _ = two_people()
    mover, _ = first_move(room)
    other = 1 - mover
    assert ask(room, mover)
    assert answer(room, mover, False)
    assert told(room, other)["ended"] == "withdrawn"
    assert not answer(room, mover, False)  # again: answered
    refused(room, "over", lambda: answer(room, other, True))
    refused(room, "asked back once", lambda: ask(room, mover))


def test_a_move_made_meanwhile_ends_it() -> None:
    room, _ = two_people()
    mover, _ = first_move(room)
    other = 1 - mover
    assert ask(room, mover)
    asked_at = room.ply
    assert act(room, other, person_move(room, other))  # Ben plays on instead of answering
    assert told(room, mover)["ended"] == "moved"
    refused(room, "moved on", lambda: answer(room, other, True, asked_at))
    refused(room, "has moved since", lambda: ask(room, mover))  # the game's own rule, in words


def test_one_request_at_a_time_and_nonsense_is_refused() -> None:
    room, _ = make_room([{"kind": "person", "name": n} for n in ("Ann", "Ben", "Cat")])
    for name in ("Ann", "Ben", "Cat"):
        room.take(name, T0)
    refused(room, "no one is asking", lambda: answer(room, 0, True))
    first = tiles(room).to_move
    assert first is not None
    refused(room, "no turn to take back", lambda: ask(room, first))
    mover, _ = first_move(room)
    others = [s for s in range(3) if s != mover]
    refused(room, "moved on", lambda: ask(room, mover, room.ply - 1))
    refused(room, "no turn to take back", lambda: ask(room, others[0]))
    assert ask(room, mover)
    refused(room, "one at a time", lambda: ask(room, others[0]))
    refused(room, "no one is asking", lambda: answer(room, others[0], True, room.ply + 3))
    assert answer(room, others[0], True)
    assert not answer(room, others[0], True)  # agreed already: answered, nothing changes
    assert told(room, mover)["agreed"] == [others[0]] and told(room, mover)["waiting"] == [others[1]]
    assert answer(room, others[1], True)
    assert told(room, mover)["ended"] == "made"
    assert not answer(room, others[1], True)  # the last yes sent again after the move went back


def test_an_away_person_blocks_it_until_they_come_back_and_it_survives_a_restart() -> None:
    room, _ = two_people()
    room.arrive(0)
    room.arrive(1)
    mover, rack = first_move(room)
    other = 1 - mover
    room.depart(other, T0)
    assert ask(room, mover)
    assert told(room, mover)["waiting"] == [other]  # away: the request waits for them
    assert room.due(T0 + 86_400) is None  # no timer: nothing moves for them
    again = Room.from_data(json.loads(kept(room)), T0 + 10)
    assert again.undo_ask == UndoAsk(mover, room.ply)
    again.arrive(other)
    assert again.act(other, {"type": "undo_answer", "ply": room.ply, "yes": True}, T0 + 20)
    assert rack_of(again, mover) == rack and again.undo_ask is not None and again.undo_ask.ended == "made"


def test_a_turn_timer_running_out_ends_it() -> None:
    room, _ = two_people(Settings(turn_timer=60))
    mover, _ = first_move(room)
    assert ask(room, mover)
    due = room.due(T0 + 61)
    assert due is not None and due[0] == 1 - mover
    room.stand_in(due[0], due[1], T0 + 61)
    assert told(room, mover)["ended"] == "moved"


def test_through_the_front_a_spectator_may_not_answer_and_everyone_is_told(make_store: MakeStore) -> None:
    """Over real sockets: Ann asks, the spectator's answer is refused in words, Ben's yes takes the move
    back, and every connection is sent the request and its end (on SQLite and on PostgreSQL)."""
    with running_server(store=make_store()) as (url, _hall):
        host = connected(url)
        made = new_table(host, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}], seed=4)
        host.close()
        people = [Player(url, made["code"]), Player(url, made["code"])]
        watcher = Player(url, made["code"])
        try:
            people[0].join("Ann")
            people[1].join("Ben")
            watcher.watch()
            first = people[0].wait_until(lambda s: s.get("phase") == "playing")["to_move"]
            mover, other = people[first], people[1 - first]
            state = mover.wait_until(lambda s: s.get("to_move") == first)
            mover.request("act", ply=state["ply"], move=tile_move(state, "easy", random.Random(1)))
            ply = mover.state["ply"]
            turns = len(mover.state["match"]["game"]["turns"])
            mover.request("undo", ply=ply)
            assert mover.state["undo"]["waiting"] == [1 - first] and mover.state["ply"] == ply
            other.wait_until(lambda s: s.get("undo") is not None and s["undo"]["seat"] == first)
            watcher.wait_until(lambda s: s.get("undo") is not None)
            with pytest.raises(Refused, match="spectator"):
                watcher.request("undo_answer", ply=ply, yes=True)
            other.request("undo_answer", ply=ply, yes=True)
            assert len(other.state["match"]["game"]["turns"]) == turns - 1
            back = mover.wait_until(lambda s: len(s["match"]["game"]["turns"]) == turns - 1)
            assert back["undo"]["ended"] == "made" and back["to_move"] == first
            assert watcher.wait_until(lambda s: s["ply"] == ply + 1)["undo"]["ended"] == "made"
            assert "rack" not in watcher.state
        finally:
            for p in (*people, watcher):
                p.close()


def test_no_state_around_take_backs_tells_a_seat_what_it_may_not_see() -> None:
    """A whole game (three people, a server bot, the Joker rule) in which moves are often asked back and
    agreed to, or refused: every seat's state and the spectator's after every change pass the secrecy
    test's checks (no other rack, no bag's order, no seed, no other's exchanged tiles)."""
    seats = [{"kind": "person", "name": n} for n in ("Ann", "Ben", "Cat")] + [{"kind": "bot", "level": "easy"}]
    room, _ = make_room(seats, Settings(rules="joker=on"), seed=1_928_374_655)  # a seed no other number is
    for name in ("Ann", "Ben", "Cat"):
        room.take(name, T0)
    rng, leaks, made, refusals = random.Random(5), Leaks(), 0, 0

    def look() -> None:
        match: Match = tiles(room).table.match
        for seat in (0, 1, 2, None):
            text = json.dumps({"type": "state", "code": room.code, "state": room.shown(seat, T0)})
            leaks.check(Frame(0 if seat is None else seat + 1, seat, True, text, match))

    for step in range(3_000):
        game = tiles(room)
        if game.over:
            break
        look()
        if bots_reply(room):
            continue
        seat = game.to_move
        assert seat is not None
        assert act(room, seat, person_move(room, seat, seed=step))
        look()
        if rng.random() < 0.3 and room.shown(seat, T0)["can_undo"]:
            assert ask(room, seat)
            look()
            for other in (s for s in range(3) if s != seat):
                yes = rng.random() < 0.8
                assert answer(room, other, yes)
                look()
                if not yes:
                    refusals += 1
                    break
            else:
                made += 1
    assert tiles(room).over and made >= 3 and refusals >= 1
    assert not leaks.found, sorted(set(leaks.found))[:10]
    for what in ("state", "spectator", "round on", "another's rack", "a bag"):
        assert leaks.met.get(what), f"no state met the check of {what}"
