"""The server's doors on loopback addresses (issue 43): bare sockets count toward their address's limit
from their accept, a socket over it is closed at once while another address gets in, a handshake never
finished is closed after the handshake timeout; a web page of another origin is refused with HTTP 403
and a line in the log; forwarded headers are believed from a trusted proxy only; `hello`'s name reaches
the log with no control character; a seed out of range is refused in words.

Linux routes all of 127.0.0.0/8 to the loopback interface, so each test's clients come from addresses of
their own (`source_address`) and share nothing with the others'."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from cribtiles.online.protocol import read, write
from cribtiles.server.forwarded import Proxies, networks
from cribtiles.server.front import Hall, Limits

from .players import WAIT
from .running import running_server

SEED_WORDS = " is out of range: a seed is a whole number from 0 to 2^63 - 1."


def port_of(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


def until(done: Callable[[], bool], what: str) -> None:
    """Wait for `done`, which the server's thread makes true (a bounded wait, not a timed assertion)."""
    for _ in range(2_000):
        if done():
            return
        time.sleep(0.01)
    raise AssertionError(f"{what} never happened")


def held(hall: Hall, address: str) -> int:
    return hall.doors.by_address.get(address, 0)


def bare(url: str, source: str) -> socket.socket:
    """A TCP socket to the server from `source` that sends nothing."""
    return socket.create_connection(("127.0.0.1", port_of(url)), timeout=WAIT, source_address=(source, 0))


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed `sock` (it answers nothing first); a hang guard of WAIT seconds."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


@contextmanager
def welcomed(url: str, source: str, **headers: str) -> Iterator[ClientConnection]:
    """A WebSocket from `source` (with `headers` in its handshake), welcomed and answering a ping."""
    with connect(url, open_timeout=WAIT, source_address=(source, 0), additional_headers=headers or None) as ws:
        assert read(ws.recv(timeout=WAIT), "server")["type"] == "welcome"
        ws.send(write("ping", id=1))
        assert read(ws.recv(timeout=WAIT), "server")["type"] == "pong"
        yield ws


def asked(ws: ClientConnection, kind: str, **fields: Any) -> dict[str, Any]:
    ws.send(write(kind, id=9, **fields))
    for _ in range(100):
        message = read(ws.recv(timeout=WAIT), "server")
        if message.get("re") == 9:
            return message
    raise AssertionError(f"no answer to {kind}")


def handshake(url: str, source: str, *headers: str) -> str:
    """A WebSocket handshake written by hand from `source`: the head of the server's answer."""
    port = port_of(url)
    lines = [
        "GET / HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        *headers,
    ]
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(source, 0)) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer and len(answer) < 65_536:
            part = sock.recv(4096)
            if not part:
                break
            answer += part
    return answer.decode("latin-1")


@contextmanager
def logged() -> Iterator[list[str]]:
    """The server's log lines (INFO and up) while the block runs."""
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("cribtiles.server")
    keep, level = Keep(logging.INFO), logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.INFO)
    try:
        yield lines
    finally:
        logger.removeHandler(keep)
        logger.setLevel(level)


# --- unfinished handshakes count ---


def test_bare_sockets_count_from_their_accept_and_one_more_is_closed_while_another_address_gets_in() -> None:
    limits = Limits(connections_per_address=16, handshake=600.0)  # none of them times out during the test
    with running_server(limits=limits) as (url, hall), ExitStack() as stack:
        holder = [stack.enter_context(bare(url, "127.0.0.5")) for _ in range(16)]
        until(lambda: held(hall, "127.0.0.5") == 16, "the 16 sockets counted")
        with bare(url, "127.0.0.5") as over:
            assert closed_by_server(over)
        assert held(hall, "127.0.0.5") == 16
        began = time.perf_counter()
        with welcomed(url, "127.0.0.6"):
            print(f"another address was welcomed and answered in {time.perf_counter() - began:.3f} s")
            assert held(hall, "127.0.0.6") == 1
        for sock in holder:
            sock.close()
        until(lambda: held(hall, "127.0.0.5") == 0, "the closed sockets let go of")
        assert "127.0.0.5" not in hall.doors.by_address
        with welcomed(url, "127.0.0.5"):
            pass


def test_a_socket_that_never_finishes_its_handshake_is_closed_after_the_handshake_timeout() -> None:
    with running_server(limits=Limits(handshake=0.5)) as (url, hall), bare(url, "127.0.0.8") as silent:
        assert closed_by_server(silent)
        until(lambda: held(hall, "127.0.0.8") == 0, "the silent socket let go of")


def test_the_handshake_timeout_is_set_deliberately() -> None:
    from cribtiles.server.front import HANDSHAKE_TIMEOUT

    assert Limits().handshake == HANDSHAKE_TIMEOUT == 10.0


# --- other web pages ---


def test_a_web_page_of_another_origin_is_refused_with_403_and_a_line_in_the_log() -> None:
    with running_server(origins=("https://play.example.org",)) as (url, _hall), logged() as lines:
        answer = handshake(url, "127.0.0.10", "Origin: https://evil.example")
        assert answer.startswith("HTTP/1.1 403 Forbidden\r\n"), answer
        said = [line for line in lines if "https://evil.example" in line]
        assert said == [
            "refused a connection from 127.0.0.10: a web page at 'https://evil.example', "
            "not an origin --allowed-origins names (HTTP 403)"
        ]
        assert handshake(url, "127.0.0.10", "Origin: https://play.example.org").startswith("HTTP/1.1 101 ")
        assert handshake(url, "127.0.0.10").startswith("HTTP/1.1 101 ")  # the game's own clients send none


def test_by_default_every_web_page_is_refused_and_the_native_clients_get_in() -> None:
    with running_server() as (url, _hall):
        assert handshake(url, "127.0.0.11", "Origin: http://127.0.0.1:8765").startswith("HTTP/1.1 403 ")
        with welcomed(url, "127.0.0.11"):
            pass


# --- close codes ---


def test_a_text_frame_that_is_not_utf_8_closes_the_connection_with_1007() -> None:
    with running_server() as (url, _hall), welcomed(url, "127.0.0.15") as ws:
        ws.send(b'{"v":1,"type":"ping","\xff":1}', text=True)
        with pytest.raises(ConnectionClosed) as caught:
            ws.recv(timeout=WAIT)
        assert caught.value.rcvd is not None and caught.value.rcvd.code == 1007


# --- forwarded addresses ---


def test_a_forged_forwarded_header_from_a_peer_not_trusted_is_ignored() -> None:
    proxies = Proxies(networks("127.0.0.1"))
    with running_server(proxies=proxies) as (url, hall):
        forged = {"X-Forwarded-For": "203.0.113.9", "Forwarded": "for=203.0.113.9"}
        with welcomed(url, "127.0.0.12", **forged) as ws:
            assert held(hall, "127.0.0.12") == 1 and held(hall, "203.0.113.9") == 0
            seats = [{"kind": "person", "name": "Eve"}, {"kind": "open"}]
            code = asked(ws, "create", game="tiles", seats=seats)["code"]
            made = hall.addresses.created_by
            assert made.get("127.0.0.12") == {code} and "203.0.113.9" not in made


def test_a_trusted_proxys_connections_count_against_the_client_it_names() -> None:
    limits = Limits(connections_per_address=2)
    with running_server(limits=limits, proxies=Proxies(networks("127.0.0.1"))) as (url, hall), ExitStack() as stack:
        for _ in range(2):
            stack.enter_context(welcomed(url, "127.0.0.1", **{"X-Forwarded-For": "6.6.6.6, 203.0.113.9"}))
        assert held(hall, "203.0.113.9") == 2 and held(hall, "6.6.6.6") == 0
        with pytest.raises(InvalidStatus) as caught, welcomed(url, "127.0.0.1", **{"X-Forwarded-For": "203.0.113.9"}):
            pass
        assert caught.value.response.status_code == 429
        assert b"Too many connections from your address" in caught.value.response.body
        # another client behind the same proxy, and the proxy's own connection with no header, get in
        stack.enter_context(welcomed(url, "127.0.0.1", **{"X-Forwarded-For": "203.0.113.10"}))
        stack.enter_context(welcomed(url, "127.0.0.1", Forwarded='for="[2001:db8::7]:4711"'))
        stack.enter_context(welcomed(url, "127.0.0.1"))
        assert [held(hall, a) for a in ("203.0.113.10", "2001:db8::7", "127.0.0.1")] == [1, 1, 1]


# --- hello, seeds ---


def test_hellos_client_name_goes_to_the_log_with_no_control_character_and_bounded() -> None:
    with running_server() as (url, _hall), welcomed(url, "127.0.0.13") as ws, logged() as lines:
        assert asked(ws, "hello", client="Evil\x1b]0;PWNED\x07" + "x" * 500)["type"] == "ok"
        said = [line for line in lines if "says it is" in line]
        assert len(said) == 1
        assert said[0].startswith("a client at 127.0.0.13 says it is 'Evil\\x1b]0;PWNED\\x07xxx")
        assert said[0].endswith("x…'") and len(said[0]) < 140 and "\x1b" not in said[0]


@pytest.mark.parametrize("seed", [-1, 2**63, 10**40])
def test_a_seed_out_of_range_is_refused_in_words(seed: int) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
    with running_server(any_seed=False) as (url, hall), welcomed(url, "127.0.0.14") as ws:
        answer = asked(ws, "create", game="tiles", seats=seats, seed=seed)
        assert answer["type"] == "refused" and answer["reason"].startswith("The seed "), answer
        assert answer["reason"].endswith(SEED_WORDS), answer
        assert len(answer["reason"]) < 200 and not hall.rooms
        assert asked(ws, "create", game="tiles", seats=seats, seed=2**63 - 1)["type"] == "created"
        assert asked(ws, "create", game="cribbage", seats=seats, seed=0)["type"] == "created"
