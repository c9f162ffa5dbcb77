"""What the server's hall holds in memory, on a clock the test moves (issue 31): a finished table no one is
at is let go of after a while and read back from the store when someone asks for it (status, watch,
resume); the codes tried from each address and the tables made from each are forgotten once they no
longer count, and no more addresses are counted at once than the limit; a connection's refused
messages are forgiven with time, so that a rare one never closes it. Each test runs on SQLite and on
PostgreSQL (`store_kind`, issue 46), where several processes share the store: a table is read when it is
asked for and held only while a connection of the process is at it."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from cribtiles.online.protocol import write
from cribtiles.rules.errors import IllegalMove
from cribtiles.server.front import SWEEP_EVERY, Client, Hall, Limits
from cribtiles.server.rooms import Room
from cribtiles.server.store import TableStore

from .conftest import MakeStore
from .players import WAIT, Player, connected
from .running import running_server
from .test_rooms import T0, play_out, two_people

KEEP = 600.0


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def finished_room() -> tuple[Room, list[str]]:
    """A table of Ann and Ben played to its end at T0: the room and its seats' tokens."""
    room, tokens = two_people(seed=3)
    play_out(room)
    assert room.phase == "over" and room.last_change == T0
    return room, tokens


def kept(make_store: MakeStore, *rooms: Room) -> TableStore:
    """A store that keeps `rooms`, as a server started again finds it: written by a store that then lets
    go of them (in PostgreSQL, their leases), and opened afresh."""
    writer = make_store()
    for room in rooms:
        writer.put(room.code, room.game_name, room.phase, room.last_change, room.data())
        writer.release(room.code)
    return make_store()


def served(hall: Hall, *rooms: Room) -> None:
    """The hall serves `rooms` (a shared store's are read only once asked for)."""
    for room in rooms:
        if room.code not in hall.rooms:
            assert hall.tables.recall(room.code) is not None


def lost(make_store: MakeStore, code: str) -> None:
    """The table `code` taken out of the store behind the server's back."""
    place = make_store.place
    if place.startswith("postgresql:"):
        import psycopg

        with psycopg.connect(place, autocommit=True) as conn:
            conn.execute("DELETE FROM tables WHERE code = %s", (code,))
        return
    with sqlite3.connect(place) as conn:
        conn.execute("DELETE FROM tables WHERE code = ?", (code,))
        conn.execute("DELETE FROM changes WHERE code = ?", (code,))


def client(address: str, now: float = T0, allowance: float = 40) -> Client:
    """A connection from `address` at `now` for the hall's own methods (nothing is sent anywhere)."""
    return Client(None, address, allowance=allowance, checked=now, last_bad=now)  # type: ignore[arg-type]


def test_a_finished_table_is_let_go_of_after_a_while_and_read_back_when_asked_for(make_store: MakeStore) -> None:
    room, tokens = finished_room()
    clock = Clock(T0 + 10)
    store = kept(make_store, room)
    with running_server(store=store, limits=Limits(keep_over=KEEP), clock=clock) as (url, hall):
        if store.shared:
            shown_only(url, hall, room)
        else:
            let_go_after_a_while(url, hall, room, clock)
        for how in ("watch", "resume"):
            person = Player(url, room.code)
            try:
                if how == "watch":
                    person.watch()
                else:
                    assert person.resume(tokens[1]) == 1
                state = person.wait_until(lambda s: s["phase"] == "over")
                assert state["ply"] == room.ply and "record" in state
                hall.sweep(clock.now + 10 * KEEP)
                assert room.code in hall.rooms  # someone is at it: it stays
            finally:
                person.close()
            deadline = time.monotonic() + WAIT
            while hall.clients.get(room.code):  # the server sees them leave
                assert time.monotonic() < deadline, "the server never saw the connection go"
                time.sleep(0.02)
            hall.sweep(clock.now + 10 * KEEP)
            assert room.code not in hall.rooms, how
        maker = connected(url)
        try:  # and its code is never given to a new table while the store keeps it
            seen = {room.code}
            for _ in range(3):
                made = maker.request("create", WAIT, game="tiles", seats=[{"kind": "open"}] * 2)
                assert made["code"] not in seen
                seen.add(made["code"])
        finally:
            maker.close()


def shown_only(url: str, hall: Hall, room: Room) -> None:
    """A shared store's finished table is not read at start, and a status shows it without serving it."""
    assert room.code not in hall.rooms
    link = connected(url)
    try:
        told = link.request("status", WAIT, code=room.code.lower())["table"]
        assert told["phase"] == "over" and told["scores"] == room.summary(T0)["scores"]
        assert room.code not in hall.rooms
    finally:
        link.close()


def let_go_after_a_while(url: str, hall: Hall, room: Room, clock: Clock) -> None:
    """A store of one process: the table just over is in memory, let go of `keep_over` after its last
    move, read back when a status asks for it and kept a while from then."""
    assert room.code in hall.rooms  # just over: still in memory
    clock.now = T0 + KEEP - 1
    hall.sweep(clock.now)
    assert room.code in hall.rooms
    clock.now = T0 + KEEP
    hall.sweep(clock.now)
    assert room.code not in hall.rooms and not hall.clients
    link = connected(url)
    try:
        told = link.request("status", WAIT, code=room.code.lower())["table"]
        assert told["phase"] == "over" and told["scores"] == room.summary(T0)["scores"]
        assert room.code in hall.rooms  # read back ...
        hall.sweep(clock.now + KEEP - 1)
        assert room.code in hall.rooms  # ... and kept a while from then, not from its last move
        hall.sweep(clock.now + KEEP)
        assert room.code not in hall.rooms
    finally:
        link.close()


def test_a_restarted_server_leaves_long_finished_tables_in_the_store(make_store: MakeStore) -> None:
    old, _ = finished_room()
    new, _ = two_people(seed=4)
    new.code = "GHJKLM"
    store = kept(make_store, old, new)
    hall = Hall(store, Limits(keep_over=KEEP), clock=Clock(T0 + KEEP))
    assert list(hall.rooms) == ([] if store.shared else ["GHJKLM"])  # a shared store's: read when asked for
    assert hall.table_requests.room(client("10.0.0.1"), old.code).ply == old.ply
    with pytest.raises(IllegalMove, match="no table has that code"):
        hall.table_requests.room(client("10.0.0.1"), "QQQQQQ")


def test_codes_tried_are_forgotten_after_a_minute_and_few_addresses_are_counted_at_once(make_store: MakeStore) -> None:
    clock = Clock(T0)
    hall = Hall(make_store(), Limits(addresses_counted=50), clock=clock)
    for n in range(120):
        with pytest.raises(IllegalMove):
            hall.table_requests.room(client(f"10.0.{n // 250}.{n % 250}"), "QQQQQQ")
        assert len(hall.addresses.tries) <= 50
    assert "10.0.0.119" in hall.addresses.tries and "10.0.0.0" not in hall.addresses.tries  # the oldest went first
    clock.now += 60
    hall.sweep(clock.now)
    assert len(hall.addresses.tries) == 50  # a minute exactly: they still count
    clock.now += 1
    hall.sweep(clock.now)
    assert not hall.addresses.tries


def test_addresses_whose_tables_are_over_are_forgotten(make_store: MakeStore) -> None:
    over, _ = finished_room()
    playing, _ = two_people(seed=4)
    playing.code = "GHJKLM"
    hall = Hall(kept(make_store, over, playing), Limits(keep_over=KEEP), clock=Clock(T0))
    served(hall, over, playing)
    hall.addresses.created_by = {"10.0.0.1": {over.code}, "10.0.0.2": {over.code, playing.code}, "10.0.0.3": set()}
    hall.tables.clients = {over.code: set(), playing.code: {client("10.0.0.2")}}
    hall.sweep(T0)
    assert hall.addresses.created_by == {"10.0.0.2": {playing.code}}
    assert list(hall.clients) == [playing.code]


def test_the_hall_sweeps_on_its_own_clock(make_store: MakeStore) -> None:
    room, _ = finished_room()
    clock = Clock(T0 + 10)
    hall = Hall(kept(make_store, room), Limits(keep_over=KEEP), clock=clock)
    served(hall, room)

    async def a_few_ticks() -> None:
        ticking = asyncio.create_task(hall.tick())
        clock.now = T0 + KEEP + SWEEP_EVERY
        for _ in range(100):
            await asyncio.sleep(0.05)
            if room.code not in hall.rooms:
                break
        ticking.cancel()

    asyncio.run(a_few_ticks())
    assert room.code not in hall.rooms


def bad_frames(hall: Hall, who: Client, n: int) -> list[str]:
    """`n` malformed frames from `who`: the reason to close after each ("" while it stays open)."""

    async def send() -> list[str]:
        reasons = []
        for _ in range(n):
            reasons.append(await hall._receive(who, "{not json"))
            while not who.outbox.empty():  # read, as a client would
                who.outbox.get_nowait()
        return reasons

    return asyncio.run(send())


def test_refused_messages_are_forgiven_with_time(make_store: MakeStore) -> None:
    clock = Clock(T0)
    limits = Limits(bad_messages=20, bad_forgiven=0.1)
    hall = Hall(make_store(), limits, clock=clock)
    steady = client("10.0.0.1")
    for _ in range(100):  # one bad message every 10 seconds, for ever: never closed
        assert bad_frames(hall, steady, 1) == [""]
        clock.now += 10
    assert steady.bad <= 1
    burst = client("10.0.0.2", clock.now)
    reasons = bad_frames(hall, burst, 20)
    assert reasons[:19] == [""] * 19 and reasons[19] == "too many bad messages"


def test_a_message_refused_for_its_rate_counts_and_is_forgiven_too(make_store: MakeStore) -> None:
    clock = Clock(T0)
    hall = Hall(make_store(), Limits(per_second=1, burst=1, bad_messages=3, bad_forgiven=0.1), clock=clock)
    who = client("10.0.0.1", allowance=1)
    ping = write("ping", id=1)

    async def pings(n: int) -> list[str]:
        return [await hall._receive(who, ping) for _ in range(n)]

    assert asyncio.run(pings(3)) == ["", "", ""]  # the first allowed, two refused
    clock.now += 30  # three forgiven, and the allowance back
    assert asyncio.run(pings(3)) == ["", "", ""]
    assert asyncio.run(pings(2))[-1] == "too many messages"


def test_a_table_the_store_lost_meanwhile_is_refused_like_any_unknown_code(make_store: MakeStore) -> None:
    room, _ = finished_room()
    hall = Hall(kept(make_store, room), Limits(keep_over=KEEP), clock=Clock(T0 + KEEP))
    assert room.code not in hall.rooms
    lost(make_store, room.code)
    with pytest.raises(IllegalMove, match="no table has that code"):
        hall.table_requests.room(client("10.0.0.1"), room.code)


def test_a_long_quiet_time_saves_up_no_forgiveness(make_store: MakeStore) -> None:
    clock = Clock(T0)
    hall = Hall(make_store(), Limits(bad_messages=5, bad_forgiven=0.1), clock=clock)
    who = client("10.0.0.1")
    assert bad_frames(hall, who, 2) == ["", ""]
    clock.now += 10_000  # both forgiven, and nothing more
    assert bad_frames(hall, who, 5) == ["", "", "", "", "too many bad messages"]
