"""The server's front: WebSocket connections (the `websockets` library), each message judged before it
touches a table and routed to what answers it: the lobby's requests (`lobby_requests`), a table's
(`table_requests`), a browser's pages (`web`). The tables, the store and the bots are `tables`'; what an
address and a connection may ask, `limits` and `clients`. One asyncio loop holds every table, so the
first of two calls is the first (issue 31).

Limits: a frame's size (`websockets` closes a connection that sends a larger one), messages a second per
connection, connections (`doors`) and open tables per address, and codes tried per address a minute; an
address is the client's, which a trusted reverse proxy forwards (`forwarded`). A bad message is refused
in words; a connection that keeps sending them is closed with the reason."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import gc
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.typing import Origin

from cribtiles.online.protocol import MAX_FRAME, VERSION, ProtocolError, read, write
from cribtiles.quoting import quoted
from cribtiles.rules.errors import IllegalMove

from .clients import Client, allowed, close_soon, drain, forgive, write_out
from .doors import Counted, Doors
from .forwarded import Proxies
from .limits import HANDSHAKE_TIMEOUT, Addresses, Limits
from .lobby_requests import LobbyRequests
from .metrics import Metrics
from .rooms import Room, normal_code
from .store import StoreError, TableElsewhere, TableStore
from .table_requests import TableRequests
from .tables import TABLE_SPEAKER, Tables
from .web import WebPages, address_of

log = logging.getLogger("cribtiles.server")

SERVER_NAME = "Crib Tiles server"
SWEEP_EVERY = 60.0  # seconds between two looks for what memory may let go of (`Hall.sweep`)
#: characters of `hello`'s client name the log keeps
CLIENT_NAME = 80
#: Messages that name a table without serving it: a shared store's process answers them with no lease.
LOOKS = frozenset({"create", "open_tables", "status", "ping", "hello"})
#: The refusal of a message for a table another server process serves (a shared store's).
ELSEWHERE = "That table is served by another server process just now: connect again, at /t/CODE."


class Hall:
    """Every table of the server and every connection to it: the connections are served here, and each
    message routed to what answers it."""

    def __init__(
        self,
        store: TableStore,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
        bots: concurrent.futures.Executor | None = None,
        any_seed: bool = False,
        proxies: Proxies | None = None,
        download: str | None = None,
    ) -> None:
        self.store = store
        self._limits = limits or Limits()
        self.clock = clock
        # connections per address, counted from each socket's accept to its close
        self.doors = Doors(self.limits.connections_per_address, proxies or Proxies())
        self.bots = bots or concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="bots")
        self.tables = Tables(store, self.limits, clock, self.bots)
        self.addresses = Addresses(self.limits, clock, self.doors.warn)
        self.table_requests = TableRequests(self.tables, self.addresses, clock)
        # `any_seed`: a client's seed taken at any table, not only at one with no other person (tests): its
        # creator would know every bag of a game against other people
        self.lobby_requests = LobbyRequests(self.tables, self.addresses, self.table_requests, any_seed)
        # `download`: where a table's invitation page says to get the game (None: ask the sender)
        self.web = WebPages(self.tables, self.addresses, self.doors, download)
        self.swept = clock()
        self.tables.load()

    @property
    def limits(self) -> Limits:
        return self._limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        """New limits, for every part of the hall alike (a test raises one for a while)."""
        self._limits = self.tables.limits = self.addresses.limits = limits

    @property
    def rooms(self) -> dict[str, Room]:
        return self.tables.rooms

    @property
    def clients(self) -> dict[str, set[Client]]:
        return self.tables.clients

    @property
    def moves(self) -> int:
        """Acknowledged changes, for the benchmark."""
        return self.tables.moves

    @property
    def metrics(self) -> Metrics:
        return self.tables.metrics

    # --- connections ---

    async def serve_client(self, ws: ServerConnection) -> None:
        address = ws.client if isinstance(ws, Counted) else address_of(ws)
        client = Client(ws, address, allowance=float(self.limits.burst), checked=self.clock())
        writer = asyncio.create_task(write_out(client))
        self.metrics.connections += 1
        try:
            self.tables.post(client, write("welcome", server=SERVER_NAME, version=VERSION))
            async for frame in ws:
                reason = await self._receive(client, frame)
                if reason:
                    self.tables.post(client, write("bye", reason=reason))
                    await client.outbox.put(None)
                    await writer
                    # the frames it sent meanwhile are read and dropped, else the close it answers
                    # waits behind them and the connection lingers for the whole close timeout
                    draining = asyncio.create_task(drain(ws))
                    await ws.close(1008, reason[:120])
                    draining.cancel()
                    return
        except ConnectionClosed:
            pass
        finally:
            self.metrics.connections -= 1
            self._gone(client)
            writer.cancel()

    def _gone(self, client: Client) -> None:
        now = self.clock()
        for code, seat in client.seats.items():
            self.clients.get(code, set()).discard(client)
            room = self.rooms.get(code)
            if room is not None and seat is not None:
                room.depart(seat, now)
                self.tables.tell_all(room)
            self.tables.let_go_if_idle(code)

    def web_page(self, connection: ServerConnection, request: Request) -> Response | None:
        """`process_request`'s page for a browser's plain GET (`WebPages.page`); None for a handshake."""
        return self.web.page(connection, request)

    # --- messages ---

    async def _receive(self, client: Client, frame: str | bytes) -> str:
        """Answer one frame; the reason to close the connection, or ""."""
        post = self.tables.post
        may = allowed(client, self.limits, self.clock())
        forgive(client, self.limits)
        try:
            message = read(frame, "client", self.limits.frame)
        except ProtocolError as e:
            client.bad += 1
            post(client, write("refused", reason=str(e)))
            return "too many bad messages" if client.bad >= self.limits.bad_messages else ""
        re = message.get("id")
        if not may:  # answered, with its `re`, so that a client waiting on it knows at once
            client.bad += 1
            most = f"too many messages: at most {self.limits.per_second:g} a second"
            post(client, write("refused", re=re, reason=most))
            return "too many messages" if client.bad >= self.limits.bad_messages else ""
        code = message.get("code")
        if self.store.shared and isinstance(code, str):
            # a table taken, or asked after while no process serves it, is made up for that time first
            if message["type"] not in LOOKS:
                await self.tables.take(normal_code(code))
            elif message["type"] == "status":
                await self.tables.look(normal_code(code))
        began = time.perf_counter()
        try:  # in a shared store, sent once its changes are committed (the loop goes on meanwhile)
            await self.tables.kept(
                normal_code(code) if isinstance(code, str) else None, lambda: self._answer(client, message)
            )
        except IllegalMove as e:
            post(client, write("refused", re=re, reason=_sentence(str(e))))
        except TableElsewhere as e:
            log.warning("%s", e)
            post(client, write("refused", re=re, reason=ELSEWHERE))
            # closed once told: the client connects again, and the proxy takes it where the table is
            close_soon(client, "the table is served by another server process: connect again")
        except StoreError as e:
            log.error("%s", e)
            post(client, write("refused", re=re, reason="The server could not keep that move; try again."))
        finally:
            self.metrics.answers.observe(time.perf_counter() - began)
        return ""

    def _answer(self, client: Client, message: dict[str, Any]) -> None:
        kind, re = message["type"], message.get("id")
        if kind == "ping":
            self.tables.post(client, write("pong", re=re))
        elif kind == "hello":
            if self.doors.told.due(client.address, "hello"):  # once a minute an address: no flood of lines
                log.info("a client at %s says it is %s", client.address, quoted(message["client"], CLIENT_NAME))
            self.tables.post(client, write("ok", re=re))
        elif kind == "create":
            self.lobby_requests.create(client, message)
        elif kind == "open_tables":
            self.lobby_requests.open_tables(client, message)
        else:
            self.table_requests.answer(client, message)

    # --- the clock ---

    async def tick(self) -> None:
        """Every second: a shared store's leases renewed; tables whose person to move is out of time or
        away too long; bots to set going; once a minute, what memory may let go of."""
        while True:
            await asyncio.sleep(1.0)
            now = self.clock()
            if self.store.shared:  # off the loop, one renewal at a time
                self.tables.renew_soon()
            if now - self.swept >= SWEEP_EVERY:
                self.sweep(now)
            self.tables.on_the_clock(now)

    def sweep(self, now: float) -> None:
        """Let go of what memory need not hold: finished tables no one is at (the store keeps them, and
        they are read back when asked for), codes tried more than a minute ago, addresses whose tables are
        all over, and tables no connection is at any more in `clients`."""
        self.swept = now
        self.tables.sweep(now)
        self.addresses.sweep(now, self.rooms)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return "Refused."
    return text[0].upper() + text[1:] + ("" if text[-1] in ".!?" else ".")


def _first_answer(
    hooks: tuple[Callable[[ServerConnection, Request], Response | None], ...],
    connection: ServerConnection,
    request: Request,
) -> Response | None:
    """`process_request`: the first answer of `hooks` in turn (the doors count the connection first)."""
    for hook in hooks:
        answer = hook(connection, request)
        if answer is not None:
            return answer
    return None


async def run_server(
    hall: Hall,
    host: str,
    port: int,
    ready: Callable[[str], None] | None = None,
    stop: Awaitable[Any] | None = None,
    origins: tuple[str, ...] = (),
) -> None:
    """Serve `hall` on `host`:`port` (0: a free port) until `stop` is done (None: for ever). A handshake
    that carries an `Origin` (a web page's) is refused with HTTP 403 unless it is one of `origins`; the
    native clients send none."""
    collect_rarely()
    doors = hall.doors
    async with serve(
        hall.serve_client,
        host,
        port,
        create_connection=doors.connection_class(),
        process_request=functools.partial(_first_answer, (doors.admit, hall.web_page)),
        process_response=doors.answered,
        origins=[None, *(Origin(o) for o in origins)],
        open_timeout=hall.limits.handshake,
        compression=None,
        max_size=hall.limits.frame,
        max_queue=4,
        ping_interval=20,
        ping_timeout=20,
    ) as server:
        for room in hall.rooms.values():
            hall.tables.kick(room)
        ticking = asyncio.create_task(hall.tick())
        if ready is not None:
            ready(_url(server))
        try:
            if stop is None:
                await asyncio.Future()
            else:
                await stop
        finally:
            ticking.cancel()


#: The cyclic collector's thresholds for a server (Python's: 700, 10, 10). Every move makes a new value of
#: its table's state and many of them live on, so with the defaults the collector goes over every object
#: of every table (about 90 ms with 250 tables, holding up every answer) once every few hundred moves;
#: with these, once in many thousands, and the young passes are hardly longer.
COLLECTOR_THRESHOLDS = (1000, 20, 100)


def collect_rarely() -> None:
    """Set the cyclic collector for a server process: rare full passes (freed memory waits a little)."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def _url(server: WsServer) -> str:
    sock = next(iter(server.sockets))
    host, port = sock.getsockname()[:2]
    return f"ws://{'[' + host + ']' if ':' in host else host}:{port}"


__all__ = [
    "ELSEWHERE",
    "HANDSHAKE_TIMEOUT",
    "MAX_FRAME",
    "SWEEP_EVERY",
    "TABLE_SPEAKER",
    "Client",
    "Hall",
    "Limits",
    "collect_rarely",
    "run_server",
]
