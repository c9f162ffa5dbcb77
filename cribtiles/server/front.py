"""The server's front: WebSocket connections (the `websockets` library), each message judged before it
touches a table, every change kept (`store`) before it is acknowledged, what each seat may see sent to
it, the bots run beside the loop, and the clocks of tables with a turn timer. One asyncio loop holds
every table, so the first of two calls is the first (issue 31).

Limits: a frame's size (`websockets` closes a connection that sends a larger one), messages a second per
connection, connections (`doors`) and open tables per address, and codes tried per address a minute; an
address is the client's, which a trusted reverse proxy forwards (`forwarded`). A bad message is refused
in words; a connection that keeps sending them is closed with the reason."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import functools
import gc
import ipaddress
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.typing import Origin

from cribtiles.online.invitation import invitation_to
from cribtiles.online.protocol import MAX_CLIENT_FRAME, MAX_FRAME, VERSION, ProtocolError, read, write
from cribtiles.quoting import quoted
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.core import BotRequest

from .doors import Counted, Doors
from .forwarded import Proxies, canonical
from .metrics import Metrics
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
from .rematch import RematchEnd
from .rooms import Room, Settings, new_code, new_token, normal_code, read_places, token_hash
from .store import StoreError, TableElsewhere, TableStore

log = logging.getLogger("cribtiles.server")

SERVER_NAME = "Crib Tiles server"
#: The name on the lines the server itself says at a table (`said` with no seat): what a stand-in did.
TABLE_SPEAKER = "The table"
SWEEP_EVERY = 60.0  # seconds between two looks for what memory may let go of (`Hall.sweep`)
TRIES_KEPT = 60.0  # seconds a wrong code counts against its address
#: seconds from a socket's accept to its handshake done, else it is closed (websockets' `open_timeout`). A
#: client on a slow phone line sends its few hundred bytes of request in well under this; a socket that
#: sends nothing holds one of its address's connections this long at most.
HANDSHAKE_TIMEOUT = 10.0
#: a client's seed, when a table takes one: the range of the seeds the server draws itself (63 bits)
SEEDS = 2**63
#: characters of `hello`'s client name the log keeps
CLIENT_NAME = 80
#: Messages that name a table without serving it: a shared store's process answers them with no lease.
LOOKS = frozenset({"create", "open_tables", "status", "ping", "hello"})
#: The refusal of a message for a table another server process serves (a shared store's).
ELSEWHERE = "That table is served by another server process just now: connect again, at /t/CODE."
#: Seconds between two looks for a table another process is letting go of.
TAKE_EVERY = 0.1
#: The close code of a connection whose table moved to another process (1012: the service restarts).
MOVED = 1012
#: Where a process's metrics are read (Prometheus's text format), from this machine only.
METRICS_PATH = "/metrics"
FORWARDED_HEADERS = frozenset({"x-forwarded-for", "forwarded", "x-real-ip"})


@dataclass(frozen=True)
class Limits:
    """How much one connection, one address and the whole server may ask."""

    frame: int = MAX_CLIENT_FRAME  # bytes in one message from a client
    per_second: float = 20.0  # messages a second a connection may send, on average
    burst: int = 40  # and at once
    bad_messages: int = 20  # refused messages before a connection is closed
    connections_per_address: int = 16
    tables_per_address: int = 30  # tables created from one address and not over
    codes_per_minute: int = 30  # unknown codes tried from one address a minute
    tables: int = 100_000
    outbox: int = 64  # messages waiting for a slow reader before it is dropped
    bad_forgiven: float = 0.1  # refused messages forgiven a second: a rare one never closes a connection
    keep_over: float = 3_600.0  # seconds a finished table no one is at stays in memory (then: the store)
    addresses_counted: int = 10_000  # addresses whose wrong codes are counted at once (the oldest go first)
    handshake: float = HANDSHAKE_TIMEOUT  # seconds a socket may take to finish its handshake
    lists_per_minute: int = 30  # lists of the open tables asked from one address a minute
    tables_listed: int = 50  # open tables in one list at most (the newest)
    #: seconds a message for a table another process of a shared store serves waits for it to be let go
    #: of (its lease released, or run out: a shared store's lease is 10 s)
    lease_wait: float = 12.0


@dataclass(eq=False)
class Client:
    """One connection: where it comes from, the tables it sits at or watches, its message allowance."""

    ws: ServerConnection
    address: str
    seats: dict[str, int | None] = field(default_factory=dict)  # code -> seat (None: watching)
    allowance: float = 0.0
    checked: float = 0.0
    bad: int = 0  # refused messages, less those forgiven since
    last_bad: float = 0.0  # from when the next one is forgiven
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue())
    closing: str = ""  # why the connection is closed once what waits in its outbox is sent


class TooManyTries(IllegalMove):
    """An address past its count of wrong codes and tokens a minute: refused even a right one."""


def _choose(chooser: Callable[[BotRequest[Any]], Any], request: BotRequest[Any]) -> Any:
    return chooser(request)


class Hall:
    """Every table of the server and every connection to it."""

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
        self.download = download  # where a table's invitation page says to get the game (None: ask the sender)
        # a client's seed taken at any table, not only at one with no other person (tests): its creator
        # would know every bag of a game against other people
        self.any_seed = any_seed
        self.limits = limits or Limits()
        self.clock = clock
        # connections per address, counted from each socket's accept to its close
        self.doors = Doors(self.limits.connections_per_address, proxies or Proxies())
        self.bots = bots or concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="bots")
        self.rooms: dict[str, Room] = {}
        self.clients: dict[str, set[Client]] = {}  # code -> its connections
        self.created_by: dict[str, set[str]] = {}  # address -> codes of tables it made, not over
        self.tries: dict[str, deque[float]] = {}  # address -> when it tried an unknown code
        self.lists: dict[str, deque[float]] = {}  # address -> when it asked for the open tables
        self.listed: dict[str, None] = {}  # codes of the tables anyone may join, oldest first (some over since)
        self.thinking: set[str] = set()
        self.stand_in_failed: dict[str, int] = {}  # code -> the ply at which the rules refused a stand-in
        self.recalled: dict[str, float] = {}  # code -> when a finished table was read back from the store
        self.swept = clock()
        self.unkept: set[str] = set()  # tables changed since the store last failed to keep them
        self.moves = 0  # acknowledged changes, for the benchmark
        self.metrics = Metrics()  # for /metrics
        now = clock()
        # a shared store's tables are served by several processes: each table is read when it is asked for
        for data in () if store.shared else store.tables():
            try:
                room = Room.from_data(data, now)
            except (KeyError, TypeError, ValueError) as e:
                log.error("a kept table could not be read and is left out: %s", str(e)[:200])
                continue
            if not self._forgettable(room, now):  # a table long over waits in the store until asked for
                self.rooms[room.code] = room
        for room in sorted(self.rooms.values(), key=lambda r: r.created):
            if room.settings.public and room.phase == "waiting":
                self.listed[room.code] = None

    # --- connections ---

    async def serve_client(self, ws: ServerConnection) -> None:
        address = ws.client if isinstance(ws, Counted) else _address(ws)
        client = Client(ws, address, allowance=float(self.limits.burst), checked=self.clock())
        writer = asyncio.create_task(self._write(client))
        self.metrics.connections += 1
        try:
            self._post(client, write("welcome", server=SERVER_NAME, version=VERSION))
            async for frame in ws:
                reason = await self._receive(client, frame)
                if reason:
                    self._post(client, write("bye", reason=reason))
                    await client.outbox.put(None)
                    await writer
                    # the frames it sent meanwhile are read and dropped, else the close it answers
                    # waits behind them and the connection lingers for the whole close timeout
                    draining = asyncio.create_task(_drain(ws))
                    await ws.close(1008, reason[:120])
                    draining.cancel()
                    return
        except ConnectionClosed:
            pass
        finally:
            self.metrics.connections -= 1
            self._gone(client)
            writer.cancel()

    async def _write(self, client: Client) -> None:
        """Send what waits for `client`, in order (a slow reader holds up no one else)."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await client.outbox.get()
                if text is None:
                    if client.closing:
                        await client.ws.close(MOVED, client.closing[:120])
                    return
                await client.ws.send(text)

    def _post(self, client: Client, text: str) -> None:
        if client.outbox.qsize() >= self.limits.outbox:  # not reading: let it go, it will reconnect
            asyncio.get_running_loop().create_task(client.ws.close(1008, "you fell too far behind"))
            return
        client.outbox.put_nowait(text)

    def _gone(self, client: Client) -> None:
        now = self.clock()
        for code, seat in client.seats.items():
            self.clients.get(code, set()).discard(client)
            room = self.rooms.get(code)
            if room is not None and seat is not None:
                room.depart(seat, now)
                self._tell_all(room)
            self._let_go_if_idle(code)

    # --- a shared store: the tables this process serves ---

    def _taken(self, code: str) -> bool:
        """Whether a new table may not have `code` (in a shared store, the code is reserved if it may)."""
        return code in self.rooms or not self.store.reserve(code)

    async def _take(self, code: str) -> None:
        """Serve `code` if another process lets go of it within `lease_wait` (its lease released, or run
        out: a process killed outright); else the message is refused in `_answer` (ELSEWHERE)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.limits.lease_wait
        while code not in self.rooms:
            try:
                self._recall(code)
                return
            except TableElsewhere:
                if loop.time() >= end:
                    return
            await asyncio.sleep(TAKE_EVERY)

    def _idle(self, code: str) -> bool:
        return not self.clients.get(code) and code not in self.thinking and code not in self.unkept

    def _let_go_if_idle(self, code: str) -> None:
        """A shared store's table no connection of this process is at goes back to the store, for whichever
        process its next player reaches (a table's bots and clocks wait for its players to come back)."""
        if self.store.shared and code in self.rooms and self._idle(code):
            self._forget(code)
            self.store.release(code)

    def _forget(self, code: str) -> None:
        self.rooms.pop(code, None)
        for kept in (self.clients, self.recalled, self.stand_in_failed):
            kept.pop(code, None)
        self.listed.pop(code, None)

    def _lose(self, code: str) -> None:
        """Stop serving `code`, which another process serves now (this one's lease ran out): its
        connections here are closed once what they were sent is (a client then reconnects, and the proxy
        takes it to the process that serves the table)."""
        clients = self.clients.get(code, set())
        self._forget(code)
        self.unkept.discard(code)
        self.metrics.tables_lost += 1
        log.warning("table %s is served by another process now: its %d connections here are closed", code, len(clients))
        for client in clients:
            client.seats.pop(code, None)
            self._close_soon(client, "the table is served by another server process: connect again")

    def _close_soon(self, client: Client, reason: str) -> None:
        """Close `client`'s connection once what it was sent is, the answer being made now too."""
        if not client.closing:
            client.closing = reason
            asyncio.get_running_loop().call_soon(client.outbox.put_nowait, None)

    def _renew(self) -> None:
        """Renew the leases of the tables this process serves; stop serving those it lost, and let go of
        those no one is at."""
        try:
            lost = self.store.renew(set(self.rooms))
        except StoreError as e:  # tried again at the next tick; a write meanwhile is checked by the store
            log.error("%s", e)
            return
        for code in lost:
            self._lose(code)
        for code in list(self.rooms):
            self._let_go_if_idle(code)

    # --- messages ---

    def _allowed(self, client: Client) -> bool:
        now = self.clock()
        client.allowance = min(
            float(self.limits.burst), client.allowance + (now - client.checked) * self.limits.per_second
        )
        client.checked = now
        if client.allowance < 1:
            return False
        client.allowance -= 1
        return True

    def _forgive(self, client: Client) -> None:
        """Forgive `client` its refused messages one by one, one every 1 / `bad_forgiven` seconds."""
        rate = self.limits.bad_forgiven
        if not client.bad or rate <= 0:
            client.last_bad = client.checked
            return
        forgiven = int((client.checked - client.last_bad) * rate)
        if forgiven >= client.bad:  # all of them: no credit is saved up for the next ones
            client.bad, client.last_bad = 0, client.checked
        elif forgiven:
            client.bad -= forgiven
            client.last_bad += forgiven / rate

    async def _receive(self, client: Client, frame: str | bytes) -> str:
        """Answer one frame; the reason to close the connection, or ""."""
        allowed = self._allowed(client)
        self._forgive(client)
        try:
            message = read(frame, "client", self.limits.frame)
        except ProtocolError as e:
            client.bad += 1
            self._post(client, write("refused", reason=str(e)))
            return "too many bad messages" if client.bad >= self.limits.bad_messages else ""
        re = message.get("id")
        if not allowed:  # answered, with its `re`, so that a client waiting on it knows at once
            client.bad += 1
            most = f"too many messages: at most {self.limits.per_second:g} a second"
            self._post(client, write("refused", re=re, reason=most))
            return "too many messages" if client.bad >= self.limits.bad_messages else ""
        code = message.get("code")
        if self.store.shared and isinstance(code, str) and message["type"] not in LOOKS:
            await self._take(normal_code(code))
        began = time.perf_counter()
        try:
            self._answer(client, message)
        except IllegalMove as e:
            self._post(client, write("refused", re=re, reason=_sentence(str(e))))
        except TableElsewhere as e:
            log.warning("%s", e)
            self._post(client, write("refused", re=re, reason=ELSEWHERE))
            # closed once told: the client connects again, and the proxy takes it where the table is
            self._close_soon(client, "the table is served by another server process: connect again")
        except StoreError as e:
            log.error("%s", e)
            self._post(client, write("refused", re=re, reason="The server could not keep that move; try again."))
        finally:
            self.metrics.answers.observe(time.perf_counter() - began)
        return ""

    def _answer(self, client: Client, message: dict[str, Any]) -> None:
        kind, re = message["type"], message.get("id")
        if kind == "ping":
            self._post(client, write("pong", re=re))
        elif kind == "hello":
            if self.doors.told.due(client.address, "hello"):  # once a minute an address: no flood of lines
                log.info("a client at %s says it is %s", client.address, quoted(message["client"], CLIENT_NAME))
            self._post(client, write("ok", re=re))
        elif kind == "create":
            self._create(client, message)
        elif kind == "open_tables":
            self._open_tables(client, message)
        elif kind in ("join", "resume", "watch", "status", "seat_bot", "abort"):
            token = message.get("token") if kind == "resume" else None
            room = self._room(client, message["code"], token, claim=kind != "status")
            getattr(self, f"_{kind}")(client, room, message)
        else:
            room = self._room(client, message["code"])
            seat = client.seats.get(room.code)
            if room.code not in client.seats:
                raise IllegalMove("join the table (or come back to your seat) first")
            if kind == "leave":
                self._leave(client, room)
                self._let_go_if_idle(room.code)
                self._post(client, write("ok", re=re))
            elif kind == "chat":
                self._chat(client, room, seat, message["text"])
                self._post(client, write("ok", re=re))
            elif seat is None:
                raise IllegalMove("a spectator watches; only the players move")
            elif kind == "hint":
                room.count_hint()
                self._keep(room)
                self._post(client, write("ok", re=re))
            elif kind == "resign":
                self._resign(client, room, seat, re)
            elif kind in ("rematch", "rematch_answer"):
                self._rematch(client, room, seat, message)
            else:
                self._act(client, room, seat, message)

    def _room(self, client: Client, code: str, token: str | None = None, claim: bool = True) -> Room:
        """The table of `code` (`claim`: to serve it, else only to show it). An address that has tried too
        many wrong codes is refused even a right one for a while (else a guesser would still learn each
        code it hits), but not at a table its connection is at, nor with a seat's token there (a player
        coming back)."""
        code = normal_code(code)
        room = self.rooms.get(code) or self._recall(code, claim)
        if room is not None and (room.code in client.seats or (token and room.seat_of(token) is not None)):
            return room
        self._tried(client, "no table has that code", right=room is not None)
        assert room is not None
        return room

    def _tried(self, client: Client, words: str, right: bool = False) -> None:
        """Refuse a wrong code or token in `words`, counting it against the address (a guesser is slowed
        to `codes_per_minute`); a `right` one passes unless the address is over its count."""
        self._tried_from(client.address, words, right)

    def _tried_from(self, address: str, words: str, right: bool = False) -> None:
        """`_tried` for `address`, on a socket or a web page alike (TooManyTries: over its count)."""
        now = self.clock()
        tried = self.tries.get(address)
        if tried is None:
            while len(self.tries) >= self.limits.addresses_counted:  # many addresses at once: the oldest go
                del self.tries[next(iter(self.tries))]
            tried = self.tries[address] = deque()
        while tried and now - tried[0] > TRIES_KEPT:
            tried.popleft()
        if len(tried) >= self.limits.codes_per_minute:
            raise TooManyTries("too many codes tried from your address: wait a minute")
        if right:
            return
        tried.append(now)
        if len(tried) == self.limits.codes_per_minute:
            self.doors.warn(address, "codes", "%s tried %d wrong codes or tokens in a minute", len(tried))
        raise IllegalMove(words)

    # --- web pages ---

    def web_page(self, connection: ServerConnection, request: Request) -> Response | None:
        """A browser's plain GET (no WebSocket upgrade) answered with a page: a table's invitation at
        `/t/CODE` (an unknown code counts as a wrong code of the address, and past their limit even a
        right one is refused, as on a socket), a word about the server at `/`, 404 for anything else.
        None for a WebSocket's handshake, which goes on."""
        if is_upgrade(request):
            return None
        peer = _address(connection)
        address = connection.client if isinstance(connection, Counted) else peer
        if request.path.partition("?")[0] == METRICS_PATH:
            return self._metrics_page(connection, request, peer)
        server = public_server(request.headers, self.doors.proxies.trusts(peer))
        code = table_code(request.path)
        if code is None:
            root = request.path.partition("?")[0] == "/"
            page = Page(HTTPStatus.OK, server_page(server)) if root else Page(HTTPStatus.NOT_FOUND, not_found_page())
            return respond(connection, page)
        normal = normal_code(code)
        room = self.rooms.get(normal) or self._recall(normal, claim=False)
        try:
            self._tried_from(address, "no table has that code", right=room is not None)
        except TooManyTries:
            return respond(connection, Page(HTTPStatus.TOO_MANY_REQUESTS, too_many_page()))
        except IllegalMove:
            return respond(connection, Page(HTTPStatus.NOT_FOUND, not_found_page()))
        assert room is not None
        if server is None:
            return respond(connection, Page(HTTPStatus.BAD_REQUEST, no_host_page()))
        shown = invitation_page(room.summary(self.clock()), invitation_to(server, room.code), self.download)
        return respond(connection, Page(HTTPStatus.OK, shown))

    def _metrics_page(self, connection: ServerConnection, request: Request, peer: str) -> Response:
        """The process's metrics in Prometheus's text format, for a scraper on this machine that asks
        the process itself: never through a proxy (a forwarded request is refused, as from afar)."""
        forwarded = any(name.lower() in FORWARDED_HEADERS for name in request.headers)
        if forwarded or not _is_loopback(peer):
            return respond(connection, Page(HTTPStatus.NOT_FOUND, not_found_page()))
        phases: dict[str, int] = {}
        for room in self.rooms.values():
            phases[room.phase] = phases.get(room.phase, 0) + 1
        response = connection.respond(HTTPStatus.OK, self.metrics.text(phases, self.moves))
        del response.headers["Content-Type"]  # the library's, replaced (Headers keeps every value set)
        response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
        return response

    def _create(self, client: Client, message: dict[str, Any]) -> None:
        open_tables = self.created_by.setdefault(client.address, set())
        open_tables &= {c for c in open_tables if c in self.rooms and self.rooms[c].phase != "over"}
        if len(open_tables) >= self.limits.tables_per_address:
            self.doors.warn(client.address, "tables", "%s made %d tables not over yet", len(open_tables))
            raise IllegalMove(f"your address has {len(open_tables)} tables not over: finish one first")
        if len(self.rooms) >= self.limits.tables:
            raise IllegalMove("the server is full: try again later")
        game = message["game"]
        try:
            places = read_places(game, message["seats"])
            settings = Settings(
                rules=message.get("rules", "")[:400],
                coach=message.get("coach", False),
                turn_timer=message.get("turn_timer"),
                on_timeout=message.get("on_timeout", "bot"),
                absent_bot=message.get("absent_bot"),
                public=message.get("public", False),
            )
            seed = message.get("seed")
            if seed is not None and settings.public:
                raise IllegalMove(
                    "a table anyone may join takes no seed: its creator would know every bag of the game of "
                    "whoever joins. Leave the seed out and the server draws one"
                )
            if seed is not None and not 0 <= seed < SEEDS:
                raise IllegalMove(
                    f"the seed {quoted(seed, 24)} is out of range: a seed is a whole number from 0 to 2^63 - 1"
                )
            if seed is not None and not self.any_seed and sum(p.kind == "person" for p in places) > 1:
                raise IllegalMove(
                    "a seed is taken only at a table with one person's seat, the rest bots: "
                    "with it the table's creator would know every bag of the other players' game. "
                    "Leave the seed out and the server draws one"
                )
            if seed is None:
                # 63 bits: the start's draws and a seat's own rack single out a 31-bit seed in a
                # few core-hours of search, and with it every rack and bag of the game
                seed = secrets.randbits(63)
            now = self.clock()
            code = new_code(self._taken)  # a table let go of keeps its code
            room, host = Room.new(code, game, places, settings, seed, now)
        except ValueError as e:
            raise IllegalMove(str(e)) from None
        sit = message.get("sit")
        seat: int | None = None
        token: str | None = None
        if sit is not None:
            if not 0 <= sit < len(places) or places[sit].kind != "person" or places[sit].name is None:
                raise IllegalMove("the creator sits at a seat named for a person")
            seat, token = room.take(places[sit].name or "", now)
        self.rooms[code] = room
        self._keep(room)
        open_tables.add(code)
        if settings.public:
            self.listed[code] = None
        self._post(client, write("created", re=message.get("id"), code=code, host=host, seat=seat, token=token))
        if seat is not None:
            self._attach(client, room, seat)
        self._kick(room)

    def _open_tables(self, client: Client, message: dict[str, Any]) -> None:
        """The tables anyone may join that have a seat open, the newest first (`tables_listed` at most),
        of one game when `game` says which; an address may ask `lists_per_minute` times a minute."""
        now = self.clock()
        asked = self.lists.setdefault(client.address, deque())
        while asked and now - asked[0] > TRIES_KEPT:
            asked.popleft()
        if len(asked) >= self.limits.lists_per_minute:
            raise IllegalMove("the open tables were asked for too often from your address: wait a minute")
        asked.append(now)
        game = message.get("game")
        if self.store.shared:  # whichever process serves them
            self._post(client, write("tables", re=message.get("id"), tables=self._waiting(game, now)))
            return
        found: list[dict[str, Any]] = []
        for code in reversed(list(self.listed)):
            room = self.rooms.get(code)
            if room is None or room.phase != "waiting":  # begun (or let go of): listed no more
                del self.listed[code]
            elif len(found) < self.limits.tables_listed and (game is None or room.game_name == game):
                found.append(room.listing(now))
        self._post(client, write("tables", re=message.get("id"), tables=found))

    def _waiting(self, game: str | None, now: float) -> list[dict[str, Any]]:
        """A shared store's open tables, as `_open_tables` lists them: a table this process serves as it
        is in memory (newer than kept only by its presence), any other as the store keeps it."""
        found = []
        for data in self.store.waiting(game, self.limits.tables_listed):
            room = self.rooms.get(str(data.get("code")))
            if room is None:
                try:
                    room = Room.from_data(data, now)
                except (KeyError, TypeError, ValueError) as e:
                    log.error("a kept table could not be read and is left out: %s", str(e)[:200])
                    continue
            if room.phase == "waiting":
                found.append(room.listing(now))
        found.sort(key=lambda t: -float(t["created"]))
        return found

    def _attach(self, client: Client, room: Room, seat: int | None) -> None:
        old = client.seats.get(room.code, -1)
        if old == seat:
            self._post(client, self._state(room, seat))
            return
        if old != -1 and old is not None:
            room.depart(old, self.clock())
        client.seats[room.code] = seat
        self.clients.setdefault(room.code, set()).add(client)
        if seat is not None and room.arrive(seat):  # the host's bot leaves their seat to them: kept so
            try:
                self._keep(room)
            except StoreError as e:  # kept with the table's next change
                log.error("%s", e)
        for line in room.chat[-20:]:
            self._post(client, write("said", code=room.code, **line))
        self._tell_all(room)

    def _join(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        seat, token = room.take(message["name"], self.clock(), message.get("seat"))
        self._keep(room)
        self._post(client, write("joined", re=message.get("id"), code=room.code, seat=seat, token=token))
        self._attach(client, room, seat)
        self._kick(room)

    def _resume(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        seat = room.seat_of(message["token"])
        if seat is None:
            self._tried(client, "that seat token opens no seat at this table")
        assert seat is not None
        self._post(client, write("joined", re=message.get("id"), code=room.code, seat=seat, token=message["token"]))
        self._attach(client, room, seat)
        self._seated_again_late(client, room, seat)

    def _seated_again_late(self, client: Client, room: Room, seat: int) -> None:
        """A person back at a finished table that was played again meanwhile, who missed their seat's token
        there (their connection dropped as it was sent): a new token for that seat, sent to this connection
        alone; the one sent before stops opening it (the old table's token proves whose seat it is)."""
        told = room.rematch
        made = told.table if told is not None and told.ended is RematchEnd.MADE else None
        again = None if made is None else self.rooms.get(made) or self._recall(made)
        if again is None or seat >= len(again.places) or again.places[seat].kind != "person":
            return
        token = new_token()
        again.places[seat].token_hash = token_hash(token)
        self._keep(again)
        self._post(client, write("rematched", code=room.code, table=again.code, seat=seat, token=token))
        log.info("table %s: seat %d sent its place at %s again", room.code, seat + 1, again.code)

    def _watch(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        self._post(client, write("watching", re=message.get("id"), code=room.code))
        self._attach(client, room, None)

    def _status(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        self._post(client, write("table", re=message.get("id"), code=room.code, table=room.summary(self.clock())))

    def _seat_bot(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        if not room.is_host(message["host"]):
            self._tried(client, "only the table's host may do that: the host token is not this table's")
        now = self.clock()
        words = room.seat_bot(message["seat"], message["level"], now)
        line = room.say(None, TABLE_SPEAKER, words, now)
        self._keep(room)
        self._post(client, write("ok", re=message.get("id")))
        log.info("table %s: %s", room.code, words)
        for other in self.clients.get(room.code, ()):
            self._post(other, write("said", code=room.code, **line))
        self._tell_all(room)
        self._kick(room)

    # --- the end of a table: resigning, aborting, playing again ---

    def _resign(self, client: Client, room: Room, seat: int, re: int | None) -> None:
        """`seat` gives the game up: the table is told so in a line of its own, and every seat its state."""
        if room.places[seat].kind != "person":
            raise IllegalMove("only a person at the table resigns")
        now = self.clock()
        words = room.resign(seat, now)
        line = room.say(None, TABLE_SPEAKER, words, now) if words else None
        self._keep(room)
        self._post(client, self._state(room, seat, re))
        if line is not None:
            log.info("table %s: %s", room.code, words)
            for other in self.clients.get(room.code, ()):
                self._post(other, write("said", code=room.code, **line))
            self._tell_all(room, but=client)

    def _abort(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        """The host (its token) or a person seated here ends the table before its first move."""
        host = message.get("host")
        if host is not None and not room.is_host(host):
            self._tried(client, "only the table's host may do that: the host token is not this table's")
        seated = client.seats.get(room.code) is not None
        if host is None and not seated:
            raise IllegalMove("only a player seated at the table, or its host, may abort it")
        if room.abort(self.clock()):
            self._keep(room)
            log.info("table %s was aborted before its first move", room.code)
            self._tell_all(room, but=client)
        self._post(client, write("ok", re=message.get("id")))
        if seated:
            self._post(client, self._state(room, client.seats[room.code]))

    def _rematch(self, client: Client, room: Room, seat: int, message: dict[str, Any]) -> None:
        """`seat` asks to play the finished table again, or answers the request; once every person has
        agreed, the new table is made and each person's new token sent to their own connections."""
        asking = message["type"] == "rematch"
        before = copy.deepcopy(room.rematch)
        changed = room.ask_rematch(seat) if asking else room.answer_rematch(seat, message["yes"])
        if changed and room.rematch_ready and len(self.rooms) >= self.limits.tables:
            room.rematch = before  # the request waits as it was: this answer may be given again later
            raise IllegalMove("the server is full: try again later")
        made = self._play_again(room) if changed and room.rematch_ready else None
        if changed:
            self._keep(room)
        self._post(client, self._state(room, seat, message.get("id")))
        if changed:
            self._tell_all(room, but=client)
        if made is not None:
            self._seated_again(room, *made)

    def _play_again(self, room: Room) -> tuple[Room, dict[int, str]]:
        """The new table of `room`'s rematch, kept before anyone is told of it."""
        if len(self.rooms) >= self.limits.tables:
            raise IllegalMove("the server is full: try again later")
        code = new_code(self._taken)
        again, tokens = room.play_again(code, secrets.randbits(63), self.clock())
        self.rooms[code] = again
        self._keep(again)
        log.info("table %s is played again at %s", room.code, code)
        return again, tokens

    def _seated_again(self, room: Room, again: Room, tokens: dict[int, str]) -> None:
        """Each person of `room` is sent their seat at the new table `again`: to their own connections
        only (a spectator, or another seat, is told the new code by the state, never a token)."""
        for client in list(self.clients.get(room.code, ())):
            seat = client.seats.get(room.code)
            if seat in tokens:
                self._post(client, write("rematched", code=room.code, table=again.code, seat=seat, token=tokens[seat]))
        self._kick(again)

    def _leave(self, client: Client, room: Room) -> None:
        seat = client.seats.pop(room.code)
        self.clients.get(room.code, set()).discard(client)
        if seat is not None:
            room.depart(seat, self.clock())
            self._tell_all(room)

    def _chat(self, client: Client, room: Room, seat: int | None, text: str) -> None:
        name = room.places[seat].name if seat is not None else "a spectator"
        line = room.say(seat, name or "?", text, self.clock())
        self._keep(room)
        for other in self.clients.get(room.code, ()):
            self._post(other, write("said", code=room.code, **line))

    def _act(self, client: Client, room: Room, seat: int, message: dict[str, Any]) -> None:
        made = room.act(seat, message, self.clock())
        # a resend of a move made but never kept (the store failed) keeps it now: it is acknowledged
        fresh = made or room.code in self.unkept
        if fresh:
            self._keep(room)
        self._post(client, self._state(room, seat, message.get("id")))
        if fresh:
            self._tell_all(room, but=client)
            self._kick(room)

    # --- changes ---

    def _keep(self, room: Room) -> None:
        """Keep `room` as it is now; StoreError (nothing acknowledged) when it cannot be, TableElsewhere
        when another process serves it now (and this one stops: what it changed is not kept)."""
        began = time.perf_counter()
        try:
            self.store.put(room.code, room.game_name, room.phase, room.last_change, room.data())
        except TableElsewhere:
            if self.rooms.get(room.code) is room:
                self._lose(room.code)
            raise
        except StoreError:
            self.metrics.store_errors += 1
            self.unkept.add(room.code)
            raise
        self.metrics.store_writes.observe(time.perf_counter() - began)
        self.unkept.discard(room.code)
        self.moves += 1

    def _state(self, room: Room, seat: int | None, re: int | None = None) -> str:
        return write("state", re=re, code=room.code, state=room.shown(seat, self.clock()))

    def _tell_all(self, room: Room, but: Client | None = None) -> None:
        made: dict[int | None, str] = {}
        for client in self.clients.get(room.code, ()):
            if client is but:
                continue
            seat = client.seats.get(room.code)
            if seat not in made:
                made[seat] = self._state(room, seat)
            self._post(client, made[seat])

    def _kick(self, room: Room) -> None:
        """Set a bot to think when one is to move at `room`."""
        if room.code in self.thinking:
            return
        request = room.bot_request()
        if request is None or room.game is None:
            return
        self.thinking.add(room.code)
        chooser = room.game.chooser
        future = asyncio.get_running_loop().run_in_executor(self.bots, _choose, chooser, request)
        future.add_done_callback(lambda f: self._landed(room, request, f))

    def _landed(self, room: Room, request: BotRequest[Any], future: asyncio.Future[Any]) -> None:
        self.thinking.discard(room.code)
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            log.error("a bot at table %s could not choose: %s", room.code, error)
            return
        try:
            if room.play_bot(future.result(), request, self.clock()):
                self._keep(room)
                self._tell_all(room)
        except (IllegalMove, StoreError) as e:
            log.error("a bot's move at table %s was not made: %s", room.code, e)
            return
        self._kick(room)

    async def tick(self) -> None:
        """Every second: tables whose person to move is out of time or away too long; bots to set going."""
        while True:
            await asyncio.sleep(1.0)
            now = self.clock()
            if self.store.shared:
                self._renew()
            if now - self.swept >= SWEEP_EVERY:
                self.sweep(now)
            for room in list(self.rooms.values()):
                if room.phase != "playing":
                    continue
                due = room.due(now)
                if due is not None and self.stand_in_failed.get(room.code) != room.ply:
                    self._stand_in(room, due[0], due[1], now)
                self._kick(room)

    # --- memory ---

    def _forgettable(self, room: Room, now: float) -> bool:
        """Whether `room` may leave memory: over for `keep_over` seconds (since its last move, or since it
        was last read back), no one at it, and kept as it is."""
        code = room.code
        since = max(room.last_change, self.recalled.get(code, room.last_change))
        return (
            room.phase == "over"
            and now - since >= self.limits.keep_over
            and not self.clients.get(code)
            and code not in self.unkept
            and code not in self.thinking
        )

    def sweep(self, now: float) -> None:
        """Let go of what memory need not hold: finished tables no one is at (the store keeps them, and
        `_recall` reads one back when it is asked for), codes tried more than a minute ago, addresses
        whose tables are all over, and tables no connection is at any more in `clients`."""
        self.swept = now
        for code, room in list(self.rooms.items()):
            if self._forgettable(room, now):
                self._forget(code)
                self.store.release(code)
        for book in (self.tries, self.lists):
            for address, tried in list(book.items()):
                while tried and now - tried[0] > TRIES_KEPT:
                    tried.popleft()
                if not tried:
                    del book[address]
        for address, codes in list(self.created_by.items()):
            codes &= {c for c in codes if c in self.rooms and self.rooms[c].phase != "over"}
            if not codes:
                del self.created_by[address]
        for code in [code for code, at in self.clients.items() if not at]:
            del self.clients[code]

    def _recall(self, code: str, claim: bool = True) -> Room | None:
        """The finished table `code` read back from the store, where the sweep left it, or in a shared
        store any table, then served here (`claim`; else only shown: TableElsewhere when another process
        serves it). None: the store has no such table, or cannot read it: the log says which."""
        if not code:
            return None
        try:
            data = self.store.get(code, claim)
            if data is None:
                return None
            room = Room.from_data(data, self.clock())
        except TableElsewhere:
            raise
        except StoreError as e:
            log.error("table %s could not be read back: %s", code, e)
            return None
        except (KeyError, TypeError, ValueError) as e:
            log.error("the kept table %s could not be read and is left out: %s", code, str(e)[:200])
            if claim:
                self.store.release(code)
            return None
        if self.store.shared and not claim:
            return room
        self.rooms[room.code] = room
        self.recalled[room.code] = self.clock()
        if self.store.shared and room.settings.public and room.phase == "waiting":
            self.listed[room.code] = None
        return room

    def _stand_in(self, room: Room, seat: int, level: str | None, now: float) -> None:
        """Move for `seat`, out of time or away, and tell the table what was done and why. A stand-in
        the rules refuse (which should never be) is logged once and not tried again at that ply."""
        try:
            words = room.stand_in(seat, level, now)
            if not words:
                return
            line = room.say(None, TABLE_SPEAKER, words, now)
            self._keep(room)
        except IllegalMove as e:
            self.stand_in_failed[room.code] = room.ply
            log.error("a stand-in move at table %s was not made: %s", room.code, e)
            return
        except StoreError as e:  # made but not kept: kept with the table's next change
            log.error("a stand-in move at table %s was not kept: %s", room.code, e)
            return
        self.stand_in_failed.pop(room.code, None)
        log.info("table %s: %s", room.code, words)
        for client in self.clients.get(room.code, ()):
            self._post(client, write("said", code=room.code, **line))
        self._tell_all(room)


async def _drain(ws: ServerConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


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


def _address(connection: ServerConnection) -> str:
    peer = connection.remote_address
    return canonical(str(peer[0])) if isinstance(peer, tuple) and peer else "?"


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # no address known ("?")
        return False


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return "Refused."
    return text[0].upper() + text[1:] + ("" if text[-1] in ".!?" else ".")


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
            hall._kick(room)
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


__all__ = ["MAX_FRAME", "Hall", "Limits", "run_server"]
