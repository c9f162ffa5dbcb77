"""The link to a server (`Link`) against a real one on a loopback port (issue 31): a fault of its own in
its thread is logged and the link connects again rather than die silently; it opens its connections as
the WebSocket library wants them opened (no DeprecationWarning); and against a server of another version
of the protocol it says which, in words, rather than fail obscurely (issue 43). The links to one server
(`ServerLinks`) send what concerns a table on a connection of that table's, at /t/CODE (issue 46)."""

from __future__ import annotations

import json
import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from websockets.sync.client import ClientConnection
from websockets.sync.server import ServerConnection, serve

from cribtiles.online.client import IDLE_KEPT, Link, ServerLinks
from cribtiles.online.protocol import VERSION
from tests.server.running import running_server

WAIT = 20.0


def test_a_fault_in_the_links_thread_is_logged_and_the_link_connects_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="cribtiles.online")
    serve = Link._serve
    calls: list[int] = []

    def faulty(self: Link, ws: ClientConnection) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a fault nobody foresaw")
        serve(self, ws)

    monkeypatch.setattr(Link, "_serve", faulty)
    with running_server() as (url, _hall):
        link = Link(url, backoff=(0.05, 0.5))
        try:
            assert link.wait_connected(WAIT), link.problem
            assert len(calls) == 2 and link.connects == 1
            assert link.request("ping", WAIT)["type"] == "pong"
        finally:
            link.close()
    faults = [r for r in caplog.records if r.name == "cribtiles.online"]
    assert len(faults) == 1 and faults[0].exc_info is not None
    assert "a fault nobody foresaw" in str(faults[0].exc_info[1])


def test_the_link_opens_its_connection_as_the_library_wants() -> None:
    with running_server() as (url, _hall), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        link = Link(url, backoff=(0.05, 0.5))
        try:
            assert link.wait_connected(WAIT), link.problem
            assert link.request("ping", WAIT)["type"] == "pong"
        finally:
            link.close()
    told = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert not told, told


@contextmanager
def greeting_server(welcome: dict[str, object]) -> Iterator[str]:
    """A server on 127.0.0.1 that says only `welcome` to each connection (another version's, say)."""

    def greet(ws: ServerConnection) -> None:
        ws.send(json.dumps(welcome))
        for _ in ws:  # then it reads until the client goes
            pass

    with serve(greet, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"ws://127.0.0.1:{server.socket.getsockname()[1]}"
        finally:
            server.shutdown()
            thread.join(WAIT)


def problem_of(url: str) -> tuple[str, int]:
    """What a link to `url` says is wrong once it has tried (bounded), and how often it got in."""
    link = Link(url, backoff=(0.05, 0.5))
    try:
        end = time.monotonic() + WAIT
        while not link.problem and time.monotonic() < end:
            link.wait_connected(0.05)
        return link.problem, link.connects
    finally:
        link.close()


@pytest.mark.parametrize(
    ("theirs", "older"),
    [(VERSION - 1, "the server's"), (VERSION + 1, "this one")],
)
def test_a_server_of_another_version_is_told_in_words(theirs: int, older: str) -> None:
    welcome = {"v": theirs, "type": "welcome", "server": "Crib Tiles", "version": theirs}
    with greeting_server(welcome) as url:
        problem, connects = problem_of(url)
    assert problem == (
        f"this server speaks version {theirs} of the online protocol; this Crib Tiles speaks version "
        f"{VERSION}: update the older one ({older}) to the newest Crib Tiles"
    )
    assert connects == 0


def test_a_first_message_that_is_no_welcome_is_a_lost_connection_not_a_version() -> None:
    with greeting_server({"v": VERSION, "type": "pong"}) as url:
        problem, connects = problem_of(url)
    assert problem == "the connection to the server was lost" and connects == 0


def until(done: Callable[[], bool]) -> bool:
    end = time.monotonic() + WAIT
    while not done() and time.monotonic() < end:
        time.sleep(0.01)
    return done()


def test_a_tables_messages_go_on_its_own_link_at_its_address_closed_once_it_holds_nothing() -> None:
    now = [0.0]
    with running_server() as (url, hall):
        links = ServerLinks(url, backoff=(0.05, 0.5), clock=lambda: now[0])
        try:
            assert links.wait_connected(WAIT), links.problem
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
            made = links.request("create", WAIT, game="tiles", seats=seats, sit=0)
            code = str(made["code"])
            table = links.table(code.lower(), WAIT)  # one link a table, however its code is written
            assert table is links.opened(code) and table is not links.lobby
            assert (table.url, table.address, links.seats) == (url, f"{url}/t/{code}", {code: made["token"]})
            # the seat taken as the table was made is held on the table's connection: the lobby's left it
            assert links.request("resume", WAIT, code=code, token=made["token"])["type"] == "joined"
            assert until(lambda: {c.ws.request.path for c in hall.clients.get(code, ())} == {f"/t/{code}"})
            assert hall.rooms[code].present == {0: 1}  # here once, not twice nor away
            # a table's request is sent on its link, the lobby's on the server's own
            assert links.request("chat", WAIT, code=code, text="hello")["type"] == "ok"
            assert links.request("open_tables", WAIT)["type"] == "tables"

            table.step_away(code)  # it holds nothing now, and is kept a while (opened again at once, often)
            now[0] += IDLE_KEPT - 1
            assert links.table("ABCDEF") is not None and links.opened(code) is table
            now[0] += 1
            links.table("ABCDEF")
            assert links.opened(code) is None and not table.connected
        finally:
            links.close()


def test_the_servers_own_link_is_closed_once_idle_and_opened_again_when_asked_for() -> None:
    """Each window holds one connection a table, and the server's own only while it is used: a server
    counts an address's connections (16), and many windows may be behind one address."""
    now = [0.0]
    with running_server() as (url, hall):
        links = ServerLinks(url, backoff=(0.05, 0.5), clock=lambda: now[0])
        try:
            assert links.wait_connected(WAIT), links.problem
            assert links.request("open_tables", WAIT)["type"] == "tables"
            first = links.lobby
            now[0] += IDLE_KEPT - 1
            links.close_idle()  # asked for a moment ago: kept
            assert links.connected and links.lobby is first
            now[0] += IDLE_KEPT  # closed by the links' own looking thread, with nothing asked of them
            assert until(lambda: not first.connected)
            assert not links.connected and links.connects == 1
            assert until(lambda: hall.metrics.connections == 0)
            # asked for again: opened again, and answers as before
            assert links.request("open_tables", WAIT)["type"] == "tables"
            assert links.connected and links.lobby is not first and links.connects == 2
            assert hall.metrics.connections == 1
        finally:
            links.close()


def test_the_servers_own_link_is_kept_while_a_request_waits_on_it() -> None:
    now = [0.0]
    with running_server() as (url, _):
        links = ServerLinks(url, backoff=(0.05, 0.5), clock=lambda: now[0])
        try:
            assert links.wait_connected(WAIT), links.problem
            lobby = links.lobby
            links._lobby_busy += 1  # a request waiting for its answer
            now[0] += 2 * IDLE_KEPT
            links.close_idle()
            assert links.lobby is lobby and links.connected
            links._lobby_busy -= 1
            now[0] += 2 * IDLE_KEPT
            links.close_idle()
            assert not lobby.connected
        finally:
            links.close()


def test_a_seat_taken_while_the_link_connects_is_sat_at_on_that_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table made while its link was still connecting: the connection was back at the tables held when
    it began, and the seat taken on another thread then (`come_back`, as the server's own link hands the
    creator's seat over) could be in neither, so the creator was away at their own table until the
    link next connected. Here the seat is taken between the connection's first table and its being up."""
    with running_server() as (url, hall):
        maker = Link(url, backoff=(0.05, 0.5))
        try:
            assert maker.wait_connected(WAIT), maker.problem
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
            first, second = (maker.request("create", WAIT, game="tiles", seats=seats, sit=0) for _ in range(2))
        finally:
            maker.close()
        assert until(lambda: not any(hall.rooms[t["code"]].present.get(0) for t in (first, second)))
        rejoin = Link._rejoin

        def first_then_the_other(self: Link, ws: ClientConnection, kind: str, **fields: object) -> None:
            rejoin(self, ws, kind, **fields)
            if fields.get("code") == first["code"]:  # as if another thread took a seat just now
                self.come_back(str(second["code"]), str(second["token"]))

        monkeypatch.setattr(Link, "_rejoin", first_then_the_other)
        held = Link(url, backoff=(0.05, 0.5))
        try:
            held.sit(str(first["code"]), str(first["token"]))
            assert held.wait_connected(WAIT), held.problem
            assert until(lambda: all(hall.rooms[t["code"]].present.get(0) == 1 for t in (first, second)))
        finally:
            held.close()
