"""The tables a server process serves (`Tables`) and the connections at each: every change kept in the
store before it is acknowledged, what each seat may see sent to it, the bots run beside the loop, turn
clocks, finished tables let go of from memory and read back when asked for. A shared store's table is
served by one process at a time: taken when first asked for (its lease), let go of once no connection of
this process is at it, and dropped when another process took it (issue 46); what fell due at a table while
no process served it is made up when one takes it, before anything of it is sent (`make_up`). A shared
store's changes are written off the loop (`kept`): what a message's answer sends waits until its changes
are committed, and meanwhile the loop answers the other tables; one table's messages are answered one at a
time. Its leases are renewed and let go of off the loop too, in a thread of their own."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cribtiles.online.protocol import write
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.core import BotRequest

from .clients import Client, close_soon
from .limits import Limits
from .metrics import Metrics
from .rooms import Room
from .store import StoreError, TableElsewhere, TableStore

log = logging.getLogger("cribtiles.server")

#: The name on the lines the server itself says at a table (`said` with no seat): what a stand-in did.
TABLE_SPEAKER = "The table"
#: Seconds between two looks for a table another process is letting go of.
TAKE_EVERY = 0.1
#: Moves at most that a table taken from a shared store makes up before it is served (`make_up`): a whole
#: game's turns, run out one by one while nobody was there; past them, the turn clock goes on every second.
MAKE_UP_MOST = 1000
#: Threads that write a shared store's changes (each a connection of the store's pool while it writes):
#: commits of different tables are made at once, one table's one after another.
WRITERS = 4
#: A change to keep: the table, then `TableStore.put`'s arguments, taken when the change was made.
Change = tuple[Room, str, str, str, float, dict[str, Any]]


@dataclass
class Held:
    """What one answer did, held until the changes it made are kept: the changes, in order; what it sent;
    the tables where it set a bot going."""

    changes: list[Change] = field(default_factory=list)
    posts: list[tuple[Client, str]] = field(default_factory=list)
    kicks: list[Room] = field(default_factory=list)


def overdue(room: Room, now: float) -> bool:
    """Whether something fell due at `room` by `now`: a bot to move, or a person out of time."""
    return room.phase == "playing" and (room.bot_request() is not None or room.due(now) is not None)


def fell_due(room: Room, now: float) -> float:
    """When the turn of the person to move at `room`, out of time or away by `now`, fell due: its deadline
    when its time ran out (the first instant that is out of time, however the sum rounds), else `now`."""
    timer = room.settings.turn_timer
    if timer is None or now - room.last_change < timer:
        return now
    at = room.last_change + timer
    while at - room.last_change < timer:
        at = math.nextafter(at, math.inf)
    return min(at, now)


def _choose(chooser: Callable[[BotRequest[Any]], Any], request: BotRequest[Any]) -> Any:
    return chooser(request)


class Tables:
    """The tables in memory (`rooms`) and the connections at each (`clients`), over `store`."""

    def __init__(
        self,
        store: TableStore,
        limits: Limits,
        clock: Callable[[], float],
        bots: concurrent.futures.Executor,
    ) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock
        self.bots = bots
        self.rooms: dict[str, Room] = {}
        self.clients: dict[str, set[Client]] = {}  # code -> its connections
        self.listed: dict[str, None] = {}  # codes of the tables anyone may join, oldest first (some over since)
        self.thinking: set[str] = set()
        self.stand_in_failed: dict[str, int] = {}  # code -> the ply at which the rules refused a stand-in
        self.recalled: dict[str, float] = {}  # code -> when a finished table was read back from the store
        self.unkept: set[str] = set()  # tables changed since the store last failed to keep them
        self.moves = 0  # acknowledged changes, for the benchmark
        self.metrics = Metrics()  # for /metrics
        # a shared store is written off the loop (its commit is a round trip to the database)
        self.writer = (
            concurrent.futures.ThreadPoolExecutor(max_workers=WRITERS, thread_name_prefix="store")
            if store.shared
            else None
        )
        # and its leases renewed and let go of off the loop too, in order, in a thread of their own (never
        # behind a burst of commits: a lease renewed late is lost)
        self.leasing = (
            concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="leases") if store.shared else None
        )
        self.releasing: dict[str, asyncio.Future[None]] = {}  # code -> its lease being let go of
        self.renewal: asyncio.Task[None] | None = None  # the renewal of the leases under way, or last made
        self.held: Held | None = None  # what the answer being made did, while `kept` holds it
        self.locks: dict[str, asyncio.Lock] = {}  # code -> held while an answer there is made and kept
        self.lock_users: dict[str, int] = {}  # code -> the answers holding or waiting for its lock
        self.making_up: dict[str, asyncio.Event] = {}  # code -> set once what fell due there is made up
        self.writing: dict[str, int] = {}  # code -> its changes being written now (a new table's too)

    def load(self) -> None:
        """Read every table the store keeps, but those long over (a shared store's tables are served by
        several processes: each is read when it is asked for)."""
        now = self.clock()
        for data in () if self.store.shared else self.store.tables():
            try:
                room = Room.from_data(data, now)
            except (KeyError, TypeError, ValueError) as e:
                log.error("a kept table could not be read and is left out: %s", str(e)[:200])
                continue
            if not self.forgettable(room, now):  # a table long over waits in the store until asked for
                self.rooms[room.code] = room
        for room in sorted(self.rooms.values(), key=lambda r: r.created):
            if room.settings.public and room.phase == "waiting":
                self.listed[room.code] = None

    # --- what is sent ---

    def post(self, client: Client, text: str) -> None:
        """Send `text` to `client` once what waits before it is sent; a client not reading is let go of
        (it will reconnect)."""
        if self.held is not None:
            self.held.posts.append((client, text))
            return
        if client.outbox.qsize() >= self.limits.outbox:
            asyncio.get_running_loop().create_task(client.ws.close(1008, "you fell too far behind"))
            return
        client.outbox.put_nowait(text)

    def state(self, room: Room, seat: int | None, re: int | None = None) -> str:
        return write("state", re=re, code=room.code, state=room.shown(seat, self.clock()))

    def tell_all(self, room: Room, but: Client | None = None) -> None:
        """Send every connection at `room` (but one) the table as its seat sees it."""
        made: dict[int | None, str] = {}
        for client in self.clients.get(room.code, ()):
            if client is but:
                continue
            seat = client.seats.get(room.code)
            if seat not in made:
                made[seat] = self.state(room, seat)
            self.post(client, made[seat])

    def say_all(self, room: Room, line: dict[str, Any]) -> None:
        """Send every connection at `room` a line said there."""
        for client in self.clients.get(room.code, ()):
            self.post(client, write("said", code=room.code, **line))

    # --- a shared store: the tables this process serves ---

    def taken(self, code: str) -> bool:
        """Whether a new table may not have `code` (in a shared store, the code is reserved if it may)."""
        return code in self.rooms or not self.store.reserve(code)

    async def take(self, code: str) -> None:
        """Serve `code` if another process lets go of it within `lease_wait` (its lease released, or run
        out: a process killed outright); else the message for it is refused (TableElsewhere). A table
        taken is first made up for the time no process served it (`make_up`)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.limits.lease_wait
        while code not in self.rooms:
            await self.released(code)
            if code in self.rooms:
                break
            try:
                room = self.recall(code)
            except TableElsewhere:
                if loop.time() >= end:
                    return
            else:
                if room is not None:
                    await self.make_up(room)
                return
            await asyncio.sleep(TAKE_EVERY)
        making = self.making_up.get(code)
        if making is not None:  # another message's take is making it up: answered once it is done
            await making.wait()

    async def look(self, code: str) -> None:
        """A shared store's table asked after without being served (`status`: "Your online games"): when
        no process holds it and something fell due there while none did, taken and made up first, so that
        what is told of it is what a process holding it all along would tell. A table another process
        holds is that process's to move on; one nothing is due at is only read."""
        if code in self.rooms:
            making = self.making_up.get(code)
            if making is not None:
                await making.wait()
            return
        await self.released(code)
        shown = self.recall(code, claim=False)
        if shown is None or not overdue(shown, self.clock()) or code in self.rooms:
            return
        try:
            room = self.recall(code)
        except TableElsewhere:
            return
        if room is not None:
            await self.make_up(room)

    async def make_up(self, room: Room) -> int:
        """Do what fell due at `room`, just taken from the store, while no process served it, each at the
        time it fell due and kept as it is made: the stand-in of each person whose time ran out and each
        bot's reply, until a person's turn not yet out of time (at most MAKE_UP_MOST moves); then its bots
        are set going as usual. Its other messages wait meanwhile. The moves made."""
        code = room.code
        made = 0
        self.making_up[code] = done = asyncio.Event()
        try:
            for _ in range(MAKE_UP_MOST):
                if self.rooms.get(code) is not room or not await self._made_up_one(room):
                    break
                made += 1
        except (IllegalMove, StoreError) as e:  # TableElsewhere too: another process has it now
            log.error("table %s could not be made up for the time no process served it: %s", code, e)
        finally:
            del self.making_up[code]
            done.set()
        if made:
            log.info("table %s: %d moves made up for the time no process served it", code, made)
        if self.rooms.get(code) is room:
            self.kick(room)
        return made

    async def _made_up_one(self, room: Room) -> bool:
        """One move that fell due at `room` made, at the time it fell due: a bot's reply, or the stand-in of
        the person to move out of time; False when nothing is due."""
        if room.phase != "playing" or room.game is None:
            return False
        ply = room.ply
        request = room.bot_request()
        if request is not None:
            loop = asyncio.get_running_loop()
            move = await loop.run_in_executor(self.bots, _choose, room.game.chooser, request)
            at = room.last_change  # a bot replies at once to the move before
            await self.kept(room.code, functools.partial(self._play_bot_at, room, request, move, at))
        else:
            now = self.clock()
            due = room.due(now)
            if due is None:
                return False
            await self.kept(room.code, functools.partial(self.stand_in, room, due[0], due[1], fell_due(room, now)))
        return room.ply != ply

    def _play_bot_at(self, room: Room, request: BotRequest[Any], move: Any, at: float) -> None:
        if room.play_bot(move, request, at):
            self.keep(room)
            self.tell_all(room)

    def idle(self, code: str) -> bool:
        """No connection is at `code`, no bot thinks there, nothing of it waits to be kept: not even a change
        on its way to the store (unless the answer asking is the one that made it)."""
        writing = (code in self.locks and self.held is None) or code in self.making_up or code in self.writing
        return not self.clients.get(code) and code not in self.thinking and code not in self.unkept and not writing

    def let_go_if_idle(self, code: str) -> None:
        """A shared store's table no connection of this process is at goes back to the store, for whichever
        process its next player reaches (what falls due there meanwhile is made up when it is taken:
        `make_up`)."""
        if self.store.shared and code in self.rooms and self.idle(code):
            self.forget(code)
            self.release(code)

    def release(self, code: str) -> None:
        """Let go of `code`'s lease (a table no longer in memory): in a shared store, off the loop, in the
        leases' thread; this process takes it again only once that is done (`released`)."""
        if self.leasing is None:
            self.store.release(code)
            return
        future = asyncio.get_running_loop().run_in_executor(self.leasing, self.store.release, code)
        self.releasing[code] = future

        def done(_: asyncio.Future[None]) -> None:
            if self.releasing.get(code) is future:
                del self.releasing[code]

        future.add_done_callback(done)

    async def released(self, code: str) -> None:
        """Once the letting go of `code`'s lease under way, if any, is done (its lease then taken anew,
        never let go of after it was taken again)."""
        while (future := self.releasing.get(code)) is not None:
            await asyncio.wait([future])
            if self.releasing.get(code) is future:
                del self.releasing[code]

    def forget(self, code: str) -> None:
        self.rooms.pop(code, None)
        for kept in (self.clients, self.recalled, self.stand_in_failed):
            kept.pop(code, None)
        self.listed.pop(code, None)

    def lose(self, code: str) -> None:
        """Stop serving `code`, which another process serves now (this one's lease ran out): its
        connections here are closed once what they were sent is (a client then reconnects, and the proxy
        takes it to the process that serves the table)."""
        clients = self.clients.get(code, set())
        self.forget(code)
        self.unkept.discard(code)
        self.metrics.tables_lost += 1
        log.warning("table %s is served by another process now: its %d connections here are closed", code, len(clients))
        for client in clients:
            client.seats.pop(code, None)
            close_soon(client, "the table is served by another server process: connect again")

    def renew_soon(self) -> None:
        """Renew the leases (`renew`) unless a renewal is under way still."""
        if self.renewal is None or self.renewal.done():
            self.renewal = asyncio.get_running_loop().create_task(self.renew())

    async def renew(self) -> None:
        """Renew the leases of the tables this process serves, off the loop (the leases' thread); stop
        serving those it lost, and let go of those no one is at. A table taken meanwhile is renewed at the
        next renewal (its lease is new), and one let go of and taken again meanwhile is not lost."""
        assert self.leasing is not None
        held = dict(self.rooms)
        try:
            loop = asyncio.get_running_loop()
            lost = await loop.run_in_executor(self.leasing, self.store.renew, set(held))
        except StoreError as e:  # tried again at the next tick; a write meanwhile is checked by the store
            log.error("%s", e)
            return
        for code in lost:
            if code in held and self.rooms.get(code) is held[code]:
                self.lose(code)
        for code in list(self.rooms):
            self.let_go_if_idle(code)

    # --- changes ---

    def keep(self, room: Room) -> None:
        """Keep `room` as it is now; StoreError (nothing acknowledged) when it cannot be, TableElsewhere
        when another process serves it now (and this one stops: what it changed is not kept). In `kept`,
        the change is written once the answer is made, and these are raised there."""
        if self.held is not None:
            self.held.changes.append((room, room.code, room.game_name, room.phase, room.last_change, room.data()))
            return
        began = time.perf_counter()
        try:
            self.store.put(room.code, room.game_name, room.phase, room.last_change, room.data())
        except TableElsewhere:
            if self.rooms.get(room.code) is room:
                self.lose(room.code)
            raise
        except StoreError:
            self.metrics.store_errors += 1
            self.unkept.add(room.code)
            raise
        self.metrics.store_writes.observe(time.perf_counter() - began)
        self.unkept.discard(room.code)
        self.moves += 1

    def kick(self, room: Room) -> None:
        """Set a bot to think when one is to move at `room` (in `kept`: once the answer's changes are)."""
        if self.held is not None:
            self.held.kicks.append(room)
            return
        if room.code in self.thinking or room.code in self.making_up:  # `make_up` plays its bots itself
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
        asyncio.get_running_loop().create_task(self._land(room, request, future.result()))

    async def _land(self, room: Room, request: BotRequest[Any], move: Any) -> None:
        """The bot's `move` made at `room`, kept, and the table told; its next set going."""

        def play() -> None:
            if room.play_bot(move, request, self.clock()):
                self.keep(room)
                self.tell_all(room)
            self.kick(room)

        try:
            await self.kept(room.code, play)
        except (IllegalMove, StoreError) as e:
            log.error("a bot's move at table %s was not made: %s", room.code, e)

    def on_the_clock(self, now: float) -> None:
        """Tables whose person to move is out of time or away too long are moved for; bots set going."""
        for room in list(self.rooms.values()):
            if room.phase != "playing":
                continue
            lock = self.locks.get(room.code)
            if (lock is not None and lock.locked()) or room.code in self.making_up:  # looked at next time
                continue
            due = room.due(now)
            if due is not None and self.stand_in_failed.get(room.code) != room.ply:
                if self.writer is None:
                    self.stand_in(room, due[0], due[1], now)
                else:
                    asyncio.get_running_loop().create_task(self._stand_in_kept(room, *due, now))
            self.kick(room)

    async def _stand_in_kept(self, room: Room, seat: int, level: str | None, now: float) -> None:
        try:
            await self.kept(room.code, functools.partial(self.stand_in, room, seat, level, now))
        except StoreError as e:  # made but not kept: kept with the table's next change
            log.error("a stand-in move at table %s was not kept: %s", room.code, e)

    def stand_in(self, room: Room, seat: int, level: str | None, now: float) -> None:
        """Move for `seat`, out of time or away, and tell the table what was done and why. A stand-in
        the rules refuse (which should never be) is logged once and not tried again at that ply."""
        try:
            words = room.stand_in(seat, level, now)
            if not words:
                return
            line = room.say(None, TABLE_SPEAKER, words, now)
            self.keep(room)
        except IllegalMove as e:
            self.stand_in_failed[room.code] = room.ply
            log.error("a stand-in move at table %s was not made: %s", room.code, e)
            return
        except StoreError as e:  # made but not kept: kept with the table's next change
            log.error("a stand-in move at table %s was not kept: %s", room.code, e)
            return
        self.stand_in_failed.pop(room.code, None)
        log.info("table %s: %s", room.code, words)
        self.say_all(room, line)
        self.tell_all(room)

    async def kept(self, code: str | None, answer: Callable[[], None]) -> None:
        """Make `answer` (what a message asks, a bot's or a stand-in's move), its changes kept before
        anything it sent is sent and any bot it set going starts; in a shared store, written off the loop
        (this table's next answer waits for it, the other tables' do not). What `answer` raises is raised
        once what it did before is kept; StoreError or TableElsewhere when its changes cannot be (nothing
        it sent is sent)."""
        if self.writer is None:
            answer()
            return
        if code is None:  # a new table: no other answer knows it yet
            await self._held(answer)
            return
        lock = self.locks.setdefault(code, asyncio.Lock())
        self.lock_users[code] = self.lock_users.get(code, 0) + 1
        try:
            async with lock:
                await self._held(answer)
        finally:
            self.lock_users[code] -= 1
            if not self.lock_users[code]:  # no answer holds or waits for it
                del self.lock_users[code], self.locks[code]

    async def _held(self, answer: Callable[[], None]) -> None:
        self.held = held = Held()
        try:
            answer()
        finally:
            self.held = None
            await self._keep_held(held)

    async def _keep_held(self, held: Held) -> None:
        """Write `held`'s changes in a writer thread, then send what it sent and set its bots going."""
        if held.changes:
            codes = {change[1] for change in held.changes}
            loop = asyncio.get_running_loop()
            for code in codes:  # not let go of meanwhile (a new table has no lock)
                self.writing[code] = self.writing.get(code, 0) + 1
            try:
                took = await loop.run_in_executor(self.writer, self._write, held.changes)
            except TableElsewhere:
                for room in {change[0].code: change[0] for change in held.changes}.values():
                    if self.rooms.get(room.code) is room:
                        self.lose(room.code)
                raise
            except StoreError:
                self.metrics.store_errors += 1
                self.unkept.update(codes)
                raise
            finally:
                for code in codes:
                    self.writing[code] -= 1
                    if not self.writing[code]:
                        del self.writing[code]
            for seconds in took:
                self.metrics.store_writes.observe(seconds)
            self.unkept.difference_update(codes)
            self.moves += len(took)
        for client, text in held.posts:
            self.post(client, text)
        for room in held.kicks:
            self.kick(room)

    def _write(self, changes: list[Change]) -> list[float]:
        """Keep `changes` in order (in a writer thread); the seconds each took."""
        took = []
        for _room, code, game, phase, updated, data in changes:
            began = time.perf_counter()
            self.store.put(code, game, phase, updated, data)
            took.append(time.perf_counter() - began)
        return took

    # --- memory ---

    def forgettable(self, room: Room, now: float) -> bool:
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
            and code not in self.locks
        )

    def sweep(self, now: float) -> None:
        """Let go of finished tables no one is at (the store keeps them, and `recall` reads one back when
        it is asked for), and of the tables no connection is at any more in `clients`."""
        for code, room in list(self.rooms.items()):
            if self.forgettable(room, now):
                self.forget(code)
                self.release(code)
        for code in [code for code, at in self.clients.items() if not at]:
            del self.clients[code]

    def recall(self, code: str, claim: bool = True) -> Room | None:
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
                self.release(code)
            return None
        if self.store.shared and not claim:
            return room
        self.rooms[room.code] = room
        self.recalled[room.code] = self.clock()
        if self.store.shared and room.settings.public and room.phase == "waiting":
            self.listed[room.code] = None
        return room
