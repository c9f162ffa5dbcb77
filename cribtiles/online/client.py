"""A connection to a Crib Tiles server that comes back by itself (`Link`): a thread reads the server's
messages into an inbox, or into the mailbox of each session that listens to a table; `request` sends
one and waits for its answer; a dropped connection is tried again with growing pauses, and once back it
returns to every seat it holds (`resume` with the seat's token) and every table it watches, one at a
time. The lines said at each table are kept with it (`chat_lines`). `ws://` and `wss://` both work (TLS
by the system's certificates) (issues 31, 44).

`ServerLinks` are the links a client keeps to one server: one at its address for what concerns no one
table (making a table, the open tables, a table's status), and one for each table at `URL/t/CODE`, where a
proxy in front of several server processes routes every connection of a table to the process that serves
it; each comes back by itself with its own pauses, and each is closed once idle a while (opened again when
next asked for). One server process answers both alike (issue 46)."""

from __future__ import annotations

import contextlib
import itertools
import logging
import queue
import random
import threading
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from cribtiles.table.chat import ChatLine, chat_line

from .protocol import MAX_FRAME, OtherVersion, ProtocolError, read, read_welcome, write

CLIENT_NAME = "cribtiles"
#: Seconds a link coming back waits for the server to answer each seat it returns to before the next.
REJOIN_WAIT = 10.0
#: The most lines of one table's chat a link keeps (the server keeps fewer).
CHAT_KEPT = 200
Mailbox = queue.Queue[dict[str, Any]]
#: The field a link adds to each message it reads: its place in the order the server sent them (a state
#: answered to a request and one pushed before it reach a session by two ways; this says which is newer).
ARRIVAL = "_arrival"

#: What is asked at the server's own address rather than at a table's: what concerns no one table, or only
#: looks at one (any process of a server of several answers these: the server's `LOOKS`).
LOBBY = frozenset({"create", "open_tables", "status", "ping", "hello"})
#: Seconds a table's link that holds nothing (no seat, no session, not watching) stays open after it was
#: last asked for (the same table is often opened again at once), and the server's own after its last
#: request; then it is closed.
IDLE_KEPT = 10.0
#: Seconds between two looks of `ServerLinks` for links idle that long.
LOOK_EVERY = 1.0

log = logging.getLogger("cribtiles.online")


class NotConnected(Exception):
    """The server cannot be reached now (the link keeps trying); its words say why."""


class Refused(Exception):
    """The server refused a request; its words are the server's reason."""


def check_url(url: str) -> str:
    """`url` as a server's address (`ws://host:port` or `wss://…`); ValueError in words."""
    url = url.strip()
    if "://" not in url:
        url = f"ws://{url}"
    if not url.startswith(("ws://", "wss://")):
        raise ValueError("a server's address starts with ws:// or wss://, like ws://192.168.1.20:8765")
    return url


def table_address(url: str, code: str) -> str:
    """Where the table `code` of the server at `url` is connected to: `URL/t/CODE`, the code as the server
    keeps it (a proxy that hashes the path must see one spelling of it).

    >>> table_address("ws://h:1", "kxq-mwd"), table_address("wss://example.org/crib/", "KXQMWD")
    ('ws://h:1/t/KXQMWD', 'wss://example.org/crib/t/KXQMWD')
    """
    return f"{url.rstrip('/')}/t/{urllib.parse.quote(_normal(code), safe='')}"


class Link:
    """A connection kept open to `url` in a thread of its own (at the address of its `table` when given:
    `url` stays the server's). Messages the server sends by itself (states, chat) wait in the mailboxes of
    the sessions that `listen` to their table, else in `inbox`; answers to `request` go to their caller.
    `seats` and `watching` are the tables it returns to when it comes back: the window keeps there only the
    table on screen (a person is "here" only there)."""

    def __init__(
        self,
        url: str,
        backoff: tuple[float, float] = (0.25, 15.0),
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        table: str | None = None,
    ) -> None:
        self.url = check_url(url)
        self.address = self.url if table is None else table_address(self.url, table)
        self.backoff = backoff
        self.inbox: Mailbox = queue.Queue()  # what no session listens for
        self.seats: dict[str, str] = {}  # code -> this link's seat token there
        self.watching: set[str] = set()
        self.holders: dict[str, object] = {}  # code -> the session that plays that table now
        self._boxes: dict[str, list[Mailbox]] = {}  # code -> the mailboxes of the sessions listening
        self._chats: dict[str, list[ChatLine]] = {}  # code -> the lines heard there, oldest first
        self.problem = ""  # why the link is down, in words ("" while it is up)
        self.connects = 0  # how many times it has connected
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._arrivals = itertools.count(1)
        self._waiting: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._up = threading.Event()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cribtiles-link", daemon=True)
        self._thread.start()

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    def wait_connected(self, timeout: float) -> bool:
        return self._up.wait(timeout)

    @property
    def idle(self) -> bool:
        """Whether the link holds nothing: no seat, no table watched, no session playing or listening."""
        with self._lock:
            listened = bool(self._boxes)
        return not (self.seats or self.watching or self.holders or listened)

    # --- the thread ---

    def _run(self) -> None:
        """Connect, serve, and connect again until closed: at once after a connection that was lost,
        after a growing pause after one that could not be made or that failed in an unforeseen way (a
        fault of this client's, logged: the link goes on rather than die with its thread)."""
        pause = self.backoff[0]
        while not self._closed.is_set():
            try:
                if self._connection():
                    pause = self.backoff[0]
                    continue
            except Exception as e:  # the thread is the link: whatever happens, it must not end
                log.exception("the link to %s failed; it connects again", self.address)
                self.problem = f"the connection to the server failed ({type(e).__name__}); trying again"
            self._closed.wait(pause * (0.5 + self._rng.random()))
            pause = min(self.backoff[1], pause * 2)

    def _connection(self) -> bool:
        """One connection, served until it ends: True when it was made and then lost, False when it
        could not be made (`problem` says why)."""
        try:
            opened = connect(self.address, compression=None, max_size=MAX_FRAME, open_timeout=10, proxy=None)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed) as e:
            self.problem = _words(e)
            return False
        with opened as ws:  # as the library wants it used: closed when served, however that ends
            self._ws = ws
            try:
                self._serve(ws)
            except OtherVersion as e:  # told as it is, and tried again only after a pause (an update)
                self.problem = str(e)
                return False
            except (ConnectionClosed, OSError, ProtocolError):  # a server gone mid-handshake too
                self.problem = "the connection to the server was lost" if not self._closed.is_set() else ""
            finally:
                self._up.clear()
                self._ws = None
                self._fail_waiting()
        return True

    def _serve(self, ws: ClientConnection) -> None:
        read_welcome(ws.recv(timeout=10))  # a server of another version is told in words (OtherVersion)
        self._return_to_tables(ws)
        while True:
            self._dispatch(ws.recv())

    def _return_to_tables(self, ws: ClientConnection) -> None:
        """Back at every table held (a seat, or watching), then up. A table held while this went on (a
        seat taken on another thread as the link connected) is returned to as well: the link is up only
        once none is left, under the lock `come_back` holds, so each table held is returned to here or,
        once the link is up, by `come_back` itself; none is left for the next connection."""
        done: set[tuple[str, str | None]] = set()
        while True:
            with self._lock:
                held = [*self.seats.items(), *((code, None) for code in self.watching)]
                todo = [(code, token) for code, token in held if (code, token) not in done]
                if not todo:
                    self.problem = ""
                    self.connects += 1
                    self._up.set()
                    return
            for code, token in todo:
                if token is None:
                    self._rejoin(ws, "watch", code=code)
                else:
                    self._rejoin(ws, "resume", code=code, token=token)
                done.add((code, token))

    def _rejoin(self, ws: ClientConnection, kind: str, **fields: Any) -> None:
        """Return to one table and read until the server has answered (what it sends meanwhile is
        dispatched): the server sends each table's state and recent lines in a burst, and a burst for
        every table at once was more than it lets wait for a connection, which it then closed (issue
        44, defect 2)."""
        number = next(self._ids)
        ws.send(write(kind, id=number, **fields))
        end = time.monotonic() + REJOIN_WAIT
        while time.monotonic() < end:
            try:
                frame = ws.recv(timeout=max(0.0, end - time.monotonic()))
            except TimeoutError:
                return  # no answer yet: the next table is not held up for ever
            if self._dispatch(frame) == number:
                return

    def _dispatch(self, frame: str | bytes) -> int | None:
        """One frame from the server, to whoever waits for it; the `re` it answers, if any."""
        try:
            message = read(frame, "server")
        except ProtocolError:
            return None  # a newer server's message this client does not know: passed over
        message[ARRIVAL] = next(self._arrivals)
        re = message.get("re")
        waiter = self._waiting.pop(re, None) if isinstance(re, int) else None
        if waiter is not None:
            waiter.put(message)
        elif message["type"] not in ("pong", "ok", "joined", "watching") or re is None:
            self._deliver(message)
        return re if isinstance(re, int) else None

    def _deliver(self, message: dict[str, Any]) -> None:
        code = message.get("code")
        if not isinstance(code, str):
            self.inbox.put(message)
            return
        if message["type"] == "said":
            self._heard(code, chat_line(message))
        with self._lock:
            boxes = list(self._boxes.get(code, ()))
        for box in boxes or [self.inbox]:
            box.put(message)

    def _heard(self, code: str, line: ChatLine) -> None:
        """A line said at `code`, kept once (a link coming back to a table hears its last lines again)."""
        with self._lock:
            lines = self._chats.setdefault(code, [])
            if line in lines:
                return
            lines.append(line)
            lines.sort(key=lambda told: told.at)
            del lines[:-CHAT_KEPT]

    def _fail_waiting(self) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, {}
        for waiter in waiting.values():
            waiter.put({"type": "lost"})

    # --- the caller's side ---

    def send(self, kind: str, **fields: Any) -> int:
        """Send a message and return its id (its answer arrives in `inbox`); NotConnected in words."""
        number = next(self._ids)
        self._put(write(kind, id=number, **fields))
        return number

    def _put(self, frame: str) -> None:
        ws = self._ws
        if ws is None or not self._up.is_set():
            raise NotConnected(self.problem or "not connected to the server yet")
        try:
            ws.send(frame)
        except (ConnectionClosed, OSError):
            raise NotConnected("the connection to the server was lost") from None

    def request(self, kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """Send a message and wait for its answer; Refused with the server's words, NotConnected when
        the server cannot be reached or does not answer in `timeout` seconds."""
        number = next(self._ids)
        waiter: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=1)
        with self._lock:
            self._waiting[number] = waiter
        try:
            self._put(write(kind, id=number, **fields))
            answer = waiter.get(timeout=timeout)
        except queue.Empty:
            raise NotConnected(f"the server did not answer in {timeout:g} seconds") from None
        finally:
            with self._lock:
                self._waiting.pop(number, None)
        if answer["type"] == "lost":
            raise NotConnected("the connection to the server was lost")
        if answer["type"] == "refused":
            raise Refused(answer["reason"])
        return answer

    def sit(self, code: str, token: str) -> None:
        """Hold the seat `token` opens at `code`: come back to it whenever the link does (if it is up now,
        the seat is taken already: this link joined or came back there; else `come_back`)."""
        with self._lock:
            self.seats[code] = token

    def watch(self, code: str) -> None:
        with self._lock:
            self.watching.add(code)

    def holds(self, code: str) -> bool:
        """Whether the link is at the table `code` now (seated or watching): it returns there when it
        comes back."""
        return code in self.seats or code in self.watching

    def come_back(self, code: str, token: str | None) -> None:
        """Be at the table `code` again: the seat `token` opens (None: watching); the server sends its
        state. Sent at once if the link is up, else when it comes back."""
        with self._lock:  # held before the link is up: `_return_to_tables` sends it; after: sent here
            if token is not None:
                self.seats[code] = token
            else:
                self.watching.add(code)
            up = self._up.is_set()
        if up:
            fields: dict[str, Any] = {} if token is None else {"token": token}
            with contextlib.suppress(NotConnected):  # lost meanwhile: the next connection comes back to it
                self.send("resume" if token is not None else "watch", code=code, **fields)

    def step_away(self, code: str) -> None:
        """Leave the table `code` (the seat stays this player's; the others see them away) and do not
        return to it when the link comes back."""
        self.seats.pop(code, None)
        self.watching.discard(code)
        with contextlib.suppress(NotConnected):  # gone already: the server counts the seat away
            self.send("leave", code=code)

    def listen(self, code: str) -> Mailbox:
        """A mailbox of its own for what the server sends of the table `code` (each listener gets every
        message: a session opened again at a table is made before the older one lets go)."""
        box: Mailbox = queue.Queue()
        with self._lock:
            self._boxes.setdefault(code, []).append(box)
        return box

    def unlisten(self, code: str, box: Mailbox) -> None:
        with self._lock:
            boxes = [b for b in self._boxes.get(code, ()) if b is not box]
            if boxes:
                self._boxes[code] = boxes
            else:
                self._boxes.pop(code, None)

    def chat_lines(self, code: str) -> tuple[ChatLine, ...]:
        """The lines heard at the table `code` while this link ran, oldest first."""
        with self._lock:
            return tuple(self._chats.get(code, ()))

    def messages(self, box: Mailbox | None = None) -> list[dict[str, Any]]:
        """What the server sent by itself since last asked (to `box`, else to the inbox), oldest first."""
        return drain(self.inbox if box is None else box)

    def next_message(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._closed.set()
        ws = self._ws
        if ws is not None:
            ws.close()
        self._thread.join(timeout=5)


class ServerLinks:
    """The links a client keeps to the server at `url`: its own (`lobby`, at `url`) for what concerns no
    one table, and one for each table (`table`, at `URL/t/CODE`), opened when first asked for and closed
    once it has held nothing for `IDLE_KEPT` seconds; the server's own too, once nothing was asked on it
    for as long and it holds nothing (each window holding one connection a table, not one more: a
    server counts an address's connections), and opened again when next asked for. A thread of its own
    looks for idle links every `LOOK_EVERY` seconds. `request` sends each message on the link it
    concerns; a session of a table is given that table's link."""

    def __init__(
        self, url: str, backoff: tuple[float, float] = (0.25, 15.0), clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.url = check_url(url)
        self.backoff = backoff
        self._clock = clock
        self._lock = threading.Lock()
        self._lobby: Link | None = Link(self.url, backoff)  # None: closed while idle
        self._lobby_asked = clock()  # when the server's own link was last asked for, or last answered
        self._lobby_busy = 0  # requests waiting for their answer on it
        self._lobby_connects = 0  # connections made by the server's own links closed since
        self._tables: dict[str, Link] = {}  # code -> its table's link
        self._asked: dict[str, float] = {}  # code -> when its link was last asked for
        self._closed = threading.Event()
        self._looker = threading.Thread(target=self._look, name="cribtiles-links", daemon=True)
        self._looker.start()

    # --- the server's own link ---

    @property
    def lobby(self) -> Link:
        """The server's own link, opened again if it was closed while idle."""
        with self._lock:
            return self._open_lobby()

    def _open_lobby(self) -> Link:
        """(Under `_lock`.) The server's own link, opened if it is closed, asked for now."""
        if self._lobby is None:
            self._lobby = Link(self.url, self.backoff)
        self._lobby_asked = self._clock()
        return self._lobby

    @property
    def connected(self) -> bool:
        """Whether the server's own link is open and connected (False while it is closed, idle)."""
        with self._lock:
            return self._lobby is not None and self._lobby.connected

    @property
    def connects(self) -> int:
        """How many times the server's own links connected, those closed while idle included."""
        with self._lock:
            return self._lobby_connects + (0 if self._lobby is None else self._lobby.connects)

    @property
    def problem(self) -> str:
        with self._lock:
            return "" if self._lobby is None else self._lobby.problem

    def wait_connected(self, timeout: float) -> bool:
        """The server's own link connected within `timeout` seconds (opened again if it was closed)."""
        return self.lobby.wait_connected(timeout)

    # --- the tables' links ---

    def table(self, code: str, wait: float = 0.0) -> Link:
        """The link of the table `code`, opened if none is; with `wait`, connected within that many
        seconds (NotConnected in words if not). Links that held nothing long enough are closed first."""
        code = _normal(code)
        idle = self._idle()
        with self._lock:
            link = self._tables.get(code)
            if link is None:
                link = self._tables[code] = Link(self.url, self.backoff, table=code)
            self._asked[code] = self._clock()
        for old in idle:
            old.close()
        if wait and not link.wait_connected(wait):
            raise NotConnected(link.problem or f"the table {code} did not answer in {wait:g} seconds")
        return link

    def opened(self, code: str) -> Link | None:
        """The link of the table `code` if one is open (none is opened)."""
        with self._lock:
            return self._tables.get(_normal(code))

    @property
    def seats(self) -> dict[str, str]:
        """The seats held on the tables' links: code -> seat token."""
        with self._lock:
            links = list(self._tables.values())
        return {code: token for link in links for code, token in list(link.seats.items())}

    def close_idle(self) -> None:
        """Close the links that held nothing long enough (`_idle`); the looking thread calls it."""
        for link in self._idle():
            link.close()

    def _idle(self) -> list[Link]:
        """The links that held nothing since they were last asked for `IDLE_KEPT` seconds ago, taken out
        of the pool (to be closed): the tables', and the server's own when no request waits on it."""
        now = self._clock()
        with self._lock:
            gone = [c for c, link in self._tables.items() if now - self._asked.get(c, now) >= IDLE_KEPT and link.idle]
            for code in gone:
                self._asked.pop(code, None)
            idle = [self._tables.pop(code) for code in gone]
            lobby = self._lobby
            if lobby is not None and not self._lobby_busy and now - self._lobby_asked >= IDLE_KEPT and lobby.idle:
                self._lobby, self._lobby_connects = None, self._lobby_connects + lobby.connects
                idle.append(lobby)
            return idle

    def _look(self) -> None:
        while not self._closed.wait(LOOK_EVERY):
            self.close_idle()

    # --- messages ---

    def request(self, kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """`Link.request` on the link `kind` concerns: the server's own for `LOBBY`'s, else the link of the
        table its `code` names, which has `timeout` seconds to connect (and answer) when opened for it. A
        table made with its creator seated (`sit`): the seat is held on the table's link and the server's
        own link leaves it (a process of several would go on serving the table for it, where the proxy
        does not send the table's connections)."""
        code = fields.get("code")
        if kind in LOBBY or not isinstance(code, str):
            with self._lock:
                lobby = self._open_lobby()
                self._lobby_busy += 1
            try:
                end = time.monotonic() + timeout
                if not lobby.connects and not lobby.wait_connected(timeout):  # opened again just now
                    raise NotConnected(lobby.problem or f"the server did not answer in {timeout:g} seconds")
                answer = lobby.request(kind, max(0.1, end - time.monotonic()), **fields)
                token = answer.get("token")
                if kind == "create" and isinstance(token, str):
                    made = str(answer["code"])
                    with contextlib.suppress(NotConnected):  # gone already: the server counts the seat away
                        lobby.send("leave", code=made)
                    self.table(made).come_back(made, token)  # its link may be up already: sat there now
            finally:
                with self._lock:
                    self._lobby_busy -= 1
                    self._lobby_asked = self._clock()
            return answer
        end = time.monotonic() + timeout
        link = self.table(code, wait=timeout)
        return link.request(kind, max(0.1, end - time.monotonic()), **fields)

    def sit(self, code: str, token: str) -> None:
        """Hold the seat `token` opens at `code` on the table's link (it returns there when it comes back)."""
        self.table(code).sit(_normal(code), token)

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            links = [*([] if self._lobby is None else [self._lobby]), *self._tables.values()]
            self._lobby, self._tables = None, {}
            self._asked.clear()
        for link in links:
            link.close()


def _normal(code: str) -> str:
    """A code as the server keeps it ("kxq-mwd" is "KXQMWD")."""
    return "".join(ch for ch in code.upper() if ch.isalnum())[:12]


def drain(box: Mailbox) -> list[dict[str, Any]]:
    """Every message waiting in `box`, oldest first."""
    out = []
    while True:
        try:
            out.append(box.get_nowait())
        except queue.Empty:
            return out


def _words(e: BaseException) -> str:
    if isinstance(e, ConnectionRefusedError):
        return "no server answers at that address"
    if isinstance(e, TimeoutError):
        return "the server did not answer in time"
    if isinstance(e, InvalidURI):
        return "that is not a server's address"
    if isinstance(e, InvalidHandshake):
        return f"the server would not let this game in ({str(e)[:80]})"
    if isinstance(e, ConnectionClosed):
        return "the server closed the connection as it was being made"
    return f"the server cannot be reached ({str(e)[:80]})"


class ConnectionWatch:
    """The link's connection between two looks, told in words when it changed: lost, back, or lost and back
    again in between (a session of either game tells its window so)."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self._seen = (link.connected, link.connects)

    def news(self) -> str | None:
        now = connected, connects = self.link.connected, self.link.connects
        was_connected, was_connects = self._seen
        self._seen = now
        if connected != was_connected:
            return (
                "Back in touch with the server."
                if connected
                else "The connection to the server was lost: the game comes back by itself as soon as the server "
                "answers again."
            )
        if connected and connects != was_connects:  # down and up again between two looks
            return "The connection to the server was lost for a moment; it is back."
        return None
