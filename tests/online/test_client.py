"""The link to a server (`Link`) against a real one on a loopback port (issue 31): a fault of its own in
its thread is logged and the link connects again rather than die silently; and it opens its
connections as the WebSocket library wants them opened (no DeprecationWarning)."""

from __future__ import annotations

import logging
import warnings

import pytest
from websockets.sync.client import ClientConnection

from cribtiles.online.client import Link
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
