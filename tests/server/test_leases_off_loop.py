"""A shared store's leases are renewed and let go of off the server's loop (issue 46): a renewal the
database holds back does not hold back the answers; a table let go of and asked for again before its lease
is let go of is taken again only once it is (its new lease is never deleted after it was taken), and is
held on. On a real PostgreSQL; no timing is asserted: every wait is a hang guard."""

from __future__ import annotations

import threading
import time

from cribtiles.online.client import NotConnected
from cribtiles.server.pgstore import PostgresStore

from .players import WAIT, Player, connected, new_table
from .postgres import Cluster
from .running import running_server
from .test_pgstore import one

SHORT = 5.0  # seconds a request is given that must not wait for the held back call


def held_back_store(url: str, call: str) -> tuple[PostgresStore, threading.Event, threading.Event]:
    """A PostgresStore whose `call` ("renew" or "release") waits, once `hold` is set, until `go` is."""
    hold, go = threading.Event(), threading.Event()

    class Held(PostgresStore):
        def renew(self, codes: set[str]) -> set[str]:
            if call == "renew" and hold.is_set():
                go.wait(4 * WAIT)
            return super().renew(codes)

        def release(self, code: str) -> None:
            if call == "release" and hold.is_set():
                go.wait(4 * WAIT)
            super().release(code)

    return Held(url, lease=30), hold, go


def test_a_renewal_held_back_by_the_database_holds_back_no_answer(postgres: Cluster) -> None:
    store, hold, go = held_back_store(postgres.database(), "renew")
    try:
        with running_server(store=store) as (url, hall):
            maker = connected(url)
            made = new_table(maker, [{"kind": "person", "name": "Ann"}, {"kind": "open"}], sit=0)
            maker.close()
            code = str(made["code"])
            ann = Player(url, code)
            try:
                ann.resume(made["token"])
                hold.set()  # the next renewal waits (the server renews every second)
                time.sleep(1.5)
                assert hall.tables.renewal is not None and not hall.tables.renewal.done()
                try:
                    assert ann.link.request("ping", SHORT)["type"] == "pong"
                    assert ann.request("chat", text="still here")["type"] == "ok"
                except NotConnected as e:
                    raise AssertionError(f"the server did not answer while a renewal waited: {e}") from None
                finally:
                    go.set()
                until = time.monotonic() + WAIT
                while not hall.tables.renewal.done():
                    assert time.monotonic() < until, "the renewal did not end"
                    time.sleep(0.05)
                assert code in hall.rooms  # its lease renewed, not lost
            finally:
                ann.close()
    finally:
        go.set()
        store.close()


def test_a_table_asked_for_while_its_lease_is_let_go_of_is_taken_again_after_and_held(postgres: Cluster) -> None:
    url_db = postgres.database()
    store, hold, go = held_back_store(url_db, "release")
    try:
        with running_server(store=store) as (url, hall):
            maker = connected(url)
            made = new_table(maker, [{"kind": "person", "name": "Ann"}, {"kind": "open"}], sit=0)
            maker.close()
            code = str(made["code"])
            until = time.monotonic() + WAIT
            while code in hall.rooms or code in hall.tables.releasing:  # the maker's seat let go of first
                assert time.monotonic() < until, "the table was not let go of"
                time.sleep(0.02)
            ann = Player(url, code)
            ann.resume(made["token"])
            hold.set()  # only now: a release still on its way from before is not the one held back
            ann.close()  # let go of: its lease's release waits
            until = time.monotonic() + WAIT
            while code not in hall.tables.releasing:
                assert time.monotonic() < until, "the table was not let go of"
                time.sleep(0.02)
            back = Player(url, code)
            try:
                answered: list[int] = []
                thread = threading.Thread(target=lambda: answered.append(back.resume(made["token"])))
                thread.start()
                time.sleep(0.5)
                assert not answered and code not in hall.rooms  # waits for the release
                go.set()
                thread.join(WAIT)
                assert answered == [0] and code in hall.rooms
                time.sleep(2.5)  # two renewals later: still its, its lease held
                assert code in hall.rooms
                assert one(url_db, "SELECT holder FROM leases WHERE code = %s", code) == store.holder
            finally:
                back.close()
    finally:
        go.set()
        store.close()
