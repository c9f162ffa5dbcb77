"""A browser's plain GET to the server (no WebSocket upgrade), answered with a page: a table's invitation
at `/t/CODE`, a word about the server at `/`, the process's metrics at `/metrics` for a scraper on this
machine, 404 for anything else. Codes tried here count against the address as on a socket."""

from __future__ import annotations

import ipaddress
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from cribtiles.online.invitation import invitation_to
from cribtiles.rules.errors import IllegalMove

from .doors import Counted, Doors
from .forwarded import canonical
from .limits import Addresses, TooManyTries
from .pages import (
    Page,
    invitation_page,
    is_upgrade,
    no_host_page,
    not_found_page,
    public_server,
    respond,
    server_page,
    table_code,
    too_many_page,
)
from .rooms import normal_code
from .tables import Tables

#: Where a process's metrics are read (Prometheus's text format), from this machine only.
METRICS_PATH = "/metrics"
FORWARDED_HEADERS = frozenset({"x-forwarded-for", "forwarded", "x-real-ip"})


class WebPages:
    """The pages of a server whose tables are `tables`; `download` is where a table's invitation page
    says to get the game (None: ask the sender)."""

    def __init__(self, tables: Tables, addresses: Addresses, doors: Doors, download: str | None) -> None:
        self.tables = tables
        self.addresses = addresses
        self.doors = doors
        self.download = download

    def page(self, connection: ServerConnection, request: Request) -> Response | None:
        """The page a GET asks for: a table's invitation at `/t/CODE` (an unknown code counts as a wrong
        code of the address, and past their limit even a right one is refused, as on a socket), a word
        about the server at `/`, 404 for anything else. None for a WebSocket's handshake, which goes on."""
        if is_upgrade(request):
            return None
        peer = address_of(connection)
        address = connection.client if isinstance(connection, Counted) else peer
        if request.path.partition("?")[0] == METRICS_PATH:
            return self._metrics(connection, request, peer)
        server = public_server(request.headers, self.doors.proxies.trusts(peer))
        code = table_code(request.path)
        if code is None:
            root = request.path.partition("?")[0] == "/"
            page = Page(HTTPStatus.OK, server_page(server)) if root else Page(HTTPStatus.NOT_FOUND, not_found_page())
            return respond(connection, page)
        normal = normal_code(code)
        room = self.tables.rooms.get(normal) or self.tables.recall(normal, claim=False)
        try:
            self.addresses.tried(address, "no table has that code", right=room is not None)
        except TooManyTries:
            return respond(connection, Page(HTTPStatus.TOO_MANY_REQUESTS, too_many_page()))
        except IllegalMove:
            return respond(connection, Page(HTTPStatus.NOT_FOUND, not_found_page()))
        assert room is not None
        if server is None:
            return respond(connection, Page(HTTPStatus.BAD_REQUEST, no_host_page()))
        clock = self.tables.clock
        shown = invitation_page(room.summary(clock()), invitation_to(server, room.code), self.download)
        return respond(connection, Page(HTTPStatus.OK, shown))

    def _metrics(self, connection: ServerConnection, request: Request, peer: str) -> Response:
        """The process's metrics in Prometheus's text format, for a scraper on this machine that asks
        the process itself: never through a proxy (a forwarded request is refused, as from afar)."""
        forwarded = any(name.lower() in FORWARDED_HEADERS for name in request.headers)
        if forwarded or not _is_loopback(peer):
            return respond(connection, Page(HTTPStatus.NOT_FOUND, not_found_page()))
        phases: dict[str, int] = {}
        for room in self.tables.rooms.values():
            phases[room.phase] = phases.get(room.phase, 0) + 1
        response = connection.respond(HTTPStatus.OK, self.tables.metrics.text(phases, self.tables.moves))
        del response.headers["Content-Type"]  # the library's, replaced (Headers keeps every value set)
        response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
        return response


def address_of(connection: ServerConnection) -> str:
    """The address `connection` comes from, as the server writes addresses ("?": none known)."""
    peer = connection.remote_address
    return canonical(str(peer[0])) if isinstance(peer, tuple) and peer else "?"


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # no address known ("?")
        return False
