"""A connection to a Crib Tiles server that comes back by itself (`Link`): a thread reads the server's
messages into an inbox; `request` sends one and waits for its answer; a dropped connection is tried
again with growing pauses, and once back it returns to every seat it holds (`resume` with the seat's
token) and every table it watches. `ws://` and `wss://` both work (TLS by the system's certificates)
(issue 31)."""

from __future__ import annotations

import itertools
import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from .protocol import MAX_FRAME, OtherVersion, ProtocolError, read, read_welcome, write

CLIENT_NAME = "cribtiles"

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


class Link:
    """A connection kept open to `url` in a thread of its own. Messages the server sends by itself
    (states, chat) wait in `inbox`; answers to `request` go to their caller."""

    def __init__(
        self,
        url: str,
        backoff: tuple[float, float] = (0.25, 15.0),
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.url = check_url(url)
        self.backoff = backoff
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seats: dict[str, str] = {}  # code -> this link's seat token there
        self.watching: set[str] = set()
        self.problem = ""  # why the link is down, in words ("" while it is up)
        self.connects = 0  # how many times it has connected
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
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
                log.exception("the link to %s failed; it connects again", self.url)
                self.problem = f"the connection to the server failed ({type(e).__name__}); trying again"
            self._closed.wait(pause * (0.5 + self._rng.random()))
            pause = min(self.backoff[1], pause * 2)

    def _connection(self) -> bool:
        """One connection, served until it ends: True when it was made and then lost, False when it
        could not be made (`problem` says why)."""
        try:
            opened = connect(self.url, compression=None, max_size=MAX_FRAME, open_timeout=10, proxy=None)
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
        for code, token in list(self.seats.items()):
            ws.send(write("resume", code=code, token=token))
        for code in list(self.watching):
            ws.send(write("watch", code=code))
        self.problem = ""
        self.connects += 1
        self._up.set()
        while True:
            frame = ws.recv()
            try:
                message = read(frame, "server")
            except ProtocolError:
                continue  # a newer server's message this client does not know: passed over
            re = message.get("re")
            waiter = self._waiting.pop(re, None) if isinstance(re, int) else None
            if waiter is not None:
                waiter.put(message)
            elif message["type"] not in ("pong", "ok", "joined", "watching") or re is None:
                self.inbox.put(message)

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
        """Hold the seat `token` opens at `code`: come back to it whenever the link does."""
        self.seats[code] = token

    def watch(self, code: str) -> None:
        self.watching.add(code)

    def messages(self) -> list[dict[str, Any]]:
        """What the server sent by itself since last asked, oldest first."""
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

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
                else "The connection to the server was lost: the game reconnects by itself."
            )
        if connected and connects != was_connects:  # down and up again between two looks
            return "The connection to the server was lost for a moment; it is back."
        return None
