"""A table nobody is at (issue 46): with a shared store no process holds it, so its turn timer does not
run while nobody looks. What fell due meanwhile is made up when a process takes it again, each at the time
it fell due (the stand-ins of the persons out of time, the bots' replies), before anything of it is sent:
a player coming back, or anyone asking after it (`status`: "Your online games"), sees the table a process
holding it all along would show. On SQLite a process does hold it all along: the same first state.

The server's clock is the test's; every wait is a hang guard."""

from __future__ import annotations

import time
from typing import Any

import pytest

from cribtiles.server.front import TABLE_SPEAKER, Hall

from .conftest import MakeStore
from .players import WAIT, Player, connected, new_table
from .running import running_server
from .test_stand_in import SEED, Clock

TIMER = 60


def first_state(player: Player) -> dict[str, Any]:
    """The first state `player`'s link is sent for its table (the lines said there kept on the way)."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        message = player.link.next_message(0.2)
        if message is None:
            continue
        if message["type"] == "said":
            player.said.append(message)
        elif message["type"] == "state" and message["code"] == player.code:
            state: dict[str, Any] = message["state"]
            player.take(state)
            return state
    raise AssertionError("no state came")


def wait_for(what: Any, why: str) -> None:
    end = time.monotonic() + WAIT
    while not what():
        assert time.monotonic() < end, why
        time.sleep(0.02)


def left(url: str, hall: Hall, seats: list[dict[str, Any]]) -> tuple[str, list[str], dict[str, Any]]:
    """A table of `seats` (its persons each seated), played by nobody, up to a person's turn; then every
    connection gone: its code, each person's token, and the last state they saw."""
    maker = connected(url)
    created = new_table(maker, seats, sit=0, seed=SEED, turn_timer=TIMER, on_timeout="pass")
    maker.close()
    code = str(created["code"])
    people, tokens = [Player(url, code)], [str(created["token"])]
    people[0].resume(tokens[0])
    for n, seat in enumerate(seats[1:], start=1):
        if seat["kind"] == "open":
            people.append(Player(url, code))
            people[-1].join(f"P{n}", n)
            tokens.append(people[-1].link.seats[code])
    state = people[0].wait_until(lambda s: s["phase"] == "playing" and seats[s["to_move"]]["kind"] != "bot")
    for person in people:
        person.close()
    if hall.store.shared:  # let go of at once: no process holds it now
        wait_for(lambda: code not in hall.rooms, "the table was not let go of")
    return code, tokens, state


def test_back_after_the_deadline_the_first_state_has_the_stand_in_and_the_bots_reply(
    make_store: MakeStore, store_kind: str
) -> None:
    clock = Clock()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
    with running_server(store=make_store(), clock=clock) as (url, hall):
        code, tokens, before = left(url, hall, seats)
        assert before["to_move"] == 0 and before["deadline"] == pytest.approx(before["last_change"] + TIMER)
        clock.now = before["deadline"] + 1
        if store_kind == "sqlite":  # held all along: the server's clock moves the table on by itself
            wait_for(lambda: hall.rooms[code].ply >= before["ply"] + 2, "the stand-in was not made")
        ann = Player(url, code)
        try:
            ann.resume(tokens[0])
            state = first_state(ann)
            assert state["ply"] >= before["ply"] + 2, (before["ply"], state["ply"])
            assert state["to_move"] == 0 and state["deadline"] >= before["deadline"] + TIMER
            ann.wait_until(lambda s: any(s_["name"] == TABLE_SPEAKER for s_ in ann.said))
            assert any("Ann's time for the move ran out" in s["text"] for s in ann.said)
        finally:
            ann.close()


@pytest.mark.parametrize("store_kind", ["postgresql"])
def test_each_turn_that_ran_out_while_nobody_was_there_is_made_up_at_its_own_time(make_store: MakeStore) -> None:
    """Two people both gone for six turns' time: six stand-ins, each when its turn ran out, as a process
    holding the table would have made them; `status` (Your online games) already tells it, and the first
    state of the person back at it too."""
    clock = Clock()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
    with running_server(store=make_store(), clock=clock) as (url, hall):
        code, tokens, before = left(url, hall, seats)
        turns = 6
        clock.now = before["deadline"] + (turns - 1) * TIMER + 1
        lobby = connected(url)
        try:
            told = lobby.request("status", WAIT, code=code)["table"]
        finally:
            lobby.close()
        assert told["ply"] == before["ply"] + turns and told["since_last_move"] == 1, told
        ann = Player(url, code)
        try:
            ann.resume(tokens[0])
            state = first_state(ann)
            assert state["ply"] == before["ply"] + turns
            assert state["deadline"] == pytest.approx(before["deadline"] + turns * TIMER)
            assert state["last_change"] == pytest.approx(before["deadline"] + (turns - 1) * TIMER)
            ann.wait_until(lambda s: len([s_ for s_ in ann.said if "ran out" in s_["text"]]) >= turns)
        finally:
            ann.close()


@pytest.mark.parametrize("store_kind", ["postgresql"])
def test_a_table_not_due_is_not_taken_by_a_look(make_store: MakeStore) -> None:
    """`status` of a table nobody holds and nothing is due at reads it without taking it."""
    clock = Clock()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
    with running_server(store=make_store(), clock=clock) as (url, hall):
        code, _, before = left(url, hall, seats)
        lobby = connected(url)
        try:
            told = lobby.request("status", WAIT, code=code)["table"]
        finally:
            lobby.close()
        assert told["ply"] == before["ply"] and code not in hall.rooms
