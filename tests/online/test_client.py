"""The link to a server (`Link`) against a real one on a loopback port (issue 31): a fault of its own in
its thread is logged and the link connects again rather than die silently; it opens its connections as
the WebSocket library wants them opened (no DeprecationWarning); and against a server of another version
of the protocol it says which, in words, rather than fail obscurely (issue 43)."""

from __future__ import annotations

import json
import logging
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from websockets.sync.client import ClientConnection
from websockets.sync.server import ServerConnection, serve

from cribtiles.online.client import Link
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
