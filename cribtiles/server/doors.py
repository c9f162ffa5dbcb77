"""The server's doors, before the hall: each socket counted against its client's address from the moment
it is accepted (a trusted proxy's once its request names the client) and let go of when it closes, one
over the limit refused; a web page's handshake from an origin not in `--allowed-origins` logged; and the
log's warnings, at most one a minute for each address and kind, so that a flood cannot rotate it away."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from http import HTTPStatus
from typing import ClassVar
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import InvalidOrigin
from websockets.http11 import Request, Response

from cribtiles.quoting import quoted

from .forwarded import Proxies, canonical

log = logging.getLogger("cribtiles.server")

TOLD_EVERY = 60.0  # seconds: one warning of a kind about one address in this time at most


class Told:
    """When each (address, kind) of warning was last logged; the oldest are forgotten past `most`."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, most: int = 10_000) -> None:
        self.clock = clock
        self.most = most
        self.last: dict[tuple[str, str], float] = {}

    def due(self, address: str, kind: str) -> bool:
        """Whether a warning of `kind` about `address` may be logged now (and it is noted as logged)."""
        now, key = self.clock(), (address, kind)
        last = self.last.pop(key, None)  # popped and put back: the dict stays oldest first
        if last is not None and now - last < TOLD_EVERY:
            self.last[key] = last
            return False
        while len(self.last) >= self.most:
            del self.last[next(iter(self.last))]
        self.last[key] = now
        return True


class Counted(ServerConnection):
    """A connection that its `doors` count from its socket's accept to its close."""

    doors: ClassVar[Doors]
    client = "?"  # the address its limits and the log's lines use
    counted: str | None = None  # the address it is counted against (None: not counted)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.doors.accepted(self)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.doors.released(self)


class Doors:
    """Connections per address, at most `limit` at once, sockets whose handshake is not done yet among
    them (else a client holding bare sockets open would wait out every other's handshake)."""

    def __init__(self, limit: int, proxies: Proxies, told: Told | None = None) -> None:
        self.limit = limit
        self.proxies = proxies
        self.told = told or Told()
        self.by_address: dict[str, int] = {}

    def connection_class(self) -> type[Counted]:
        """The connection class `serve` makes its connections of (its `create_connection`)."""

        class Through(Counted):
            pass

        Through.doors = self
        return Through

    def accepted(self, connection: Counted) -> None:
        """A socket accepted: counted against its peer (over the limit: closed at once), unless the peer
        is a trusted proxy, whose client is known only once its request is read (`admit`)."""
        peer = connection.remote_address
        connection.client = canonical(str(peer[0])) if isinstance(peer, tuple) and peer else "?"
        if not self.proxies.trusts(connection.client) and not self._count(connection, connection.client, "closed"):
            connection.transport.abort()

    def admit(self, connection: ServerConnection, request: Request) -> Response | None:
        """The request of a trusted proxy's connection read: counted against the client it names (over
        the limit: HTTP 429, which the proxy passes on)."""
        if not isinstance(connection, Counted) or connection.counted is not None:
            return None
        headers = request.headers
        connection.client = self.proxies.client(
            connection.client, headers.get_all("X-Forwarded-For"), headers.get_all("Forwarded")
        )
        if self._count(connection, connection.client, "HTTP 429"):
            return None
        return connection.respond(HTTPStatus.TOO_MANY_REQUESTS, "Too many connections from your address.\n")

    def answered(self, connection: ServerConnection, request: Request, response: Response) -> None:
        """After the handshake's answer is made: a refused web page's origin goes to the log."""
        if isinstance(connection.protocol.handshake_exc, InvalidOrigin):
            client = connection.client if isinstance(connection, Counted) else "?"
            origin = ", ".join(request.headers.get_all("Origin"))
            words = "refused a connection from %s: a web page at %s, not an origin --allowed-origins names (HTTP 403)"
            self.warn(client, "origin", words, quoted(origin, 80))

    def released(self, connection: Counted) -> None:
        """A socket closed, its handshake done or not: its address may hold one more."""
        address, connection.counted = connection.counted, None
        if address is None:
            return
        left = self.by_address.get(address, 1) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)

    def _count(self, connection: Counted, address: str, how: str) -> bool:
        """Count `connection` against `address`; False (and a line in the log) over the limit."""
        held = self.by_address.get(address, 0)
        if held >= self.limit:
            self.warn(address, "connections", "refused a connection from %s (%s): it holds %d already", how, held)
            return False
        self.by_address[address] = held + 1
        connection.counted = address
        return True

    def warn(self, address: str, kind: str, words: str, *args: object) -> None:
        """Log `words` (its first %s: the address) unless one of `kind` about `address` was logged lately."""
        if self.told.due(address, kind):
            log.warning(words, address, *args)


def web_origins(text: str) -> tuple[str, ...]:
    """The origins of `--allowed-origins`, separated by commas, as a browser writes them in its `Origin`
    header (scheme and host in lower case, no default port, no path); ValueError in words.

    >>> web_origins("https://Play.Example.org/, http://localhost:8080,https://x.org:443")
    ('https://play.example.org', 'http://localhost:8080', 'https://x.org')
    """
    return tuple(_origin(part.strip()) for part in text.split(",") if part.strip())


def _origin(part: str) -> str:
    words = f"{quoted(part)} is not a web page's origin, like https://play.example.org (a scheme, a host, maybe a port)"
    split = urlsplit(part)
    try:
        port = split.port
    except ValueError:
        raise ValueError(words) from None
    scheme, host = split.scheme.lower(), split.hostname
    if scheme not in ("http", "https") or not host or split.username is not None or split.path not in ("", "/"):
        raise ValueError(words)
    if split.query or split.fragment or split.password is not None:
        raise ValueError(words)
    host = f"[{host}]" if ":" in host else host
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != default else "")
