"""The window's side of online play, off the frame loop: the links to each server (`ServerLinks`: the
server's own, and one for each table open here, each a thread of its own), background jobs for whatever
waits on an answer (connecting, creating, joining, a table's status), and the standings of every table
this player sits at, kept fresh in the background. A job's outcome is handed to the frame that asks for
it (`update`); no frame ever waits on the network. A table sat at with no session to show it (a new
table's code screen gone, a seat taken at a table still waiting) is left: a person is "here" only at the
table on screen (issues 31, 44)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cribtiles.online.client import Link, NotConnected, Refused, ServerLinks, check_url
from cribtiles.rules.errors import IllegalMove

from .services import WATCHING, HeldSeat, Lookout, OnlineServices, SessionMaker
from .standings import Standings


def code_words(code: str) -> str:
    """A code as read out: two groups of three ("KPW RTX")."""
    return f"{code[:3]} {code[3:]}" if len(code) == 6 else code


def normal_code(text: str) -> str:
    """A code as typed ("kxr-mtb ") as the server gives it ("KXRMTB")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


T = TypeVar("T")
#: Seconds a server has to answer a connection before the player is told it cannot be reached.
CONNECT_WAIT = 6.0
#: Seconds a question asked in the background (a table's status) waits for a connection.
POLL_WAIT = 2.0
log = logging.getLogger("cribtiles.lobby")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What a job came to: its value, or why it failed in words."""

    value: T | None
    problem: str = ""


def words_of(error: BaseException) -> str:
    """A job's failure in words a player reads."""
    if isinstance(error, (NotConnected, Refused, IllegalMove, ValueError)):
        text = str(error).strip() or "the server refused"
        return text[0].upper() + text[1:]
    if isinstance(error, OSError):
        return f"The network cannot be used here ({error.strerror or error})"
    log.error("an online job failed", exc_info=error)
    return f"Something went wrong ({type(error).__name__}); the details are in the log"


class Jobs:
    """Work run in two threads; `update` (called by a frame) hands each finished job's outcome to its `done`."""

    def __init__(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="cribtiles-online")
        self._running: list[tuple[concurrent.futures.Future[Any], Callable[[Outcome[Any]], None]]] = []

    def run(self, work: Callable[[], T], done: Callable[[Outcome[T]], None]) -> None:
        self._running.append((self._pool.submit(work), done))

    @property
    def busy(self) -> int:
        return len(self._running)

    def update(self) -> None:
        finished = [(f, d) for f, d in self._running if f.done()]
        if not finished:
            return
        self._running = [(f, d) for f, d in self._running if not f.done()]
        for future, done in finished:
            if future.cancelled():
                continue
            error = future.exception()
            done(Outcome(None, words_of(error)) if error is not None else Outcome(future.result()))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._running = []


class Lobby:
    """The links to servers, the jobs, the look-out for servers on the network, and the services."""

    def __init__(self, services: OnlineServices, make: SessionMaker, take: Callable[[Any, str], None]) -> None:
        """`make` makes a seat's session (in a job: it may wait for the table), `take` plays it (in a
        frame); both are told which game the table is of."""
        self.services = services
        self.make = services.sessions or make
        self.take = take
        self.jobs = Jobs()
        self._links: dict[str, ServerLinks] = {}
        self._lock = threading.Lock()
        self._lookout: Lookout | None = None
        self._starting = False  # a look-out is being started
        self._wanted = False  # and a screen still wants it
        self.watched: list[HeldSeat] = []  # the tables watched in this window, the newest last (seat WATCHING)
        self.standings = Standings(self)

    # --- run in a job's thread ---

    def link(self, url: str, wait: float = CONNECT_WAIT) -> ServerLinks:
        """The links to `url`, the server's own connected (within `wait` seconds); NotConnected in words
        when the server cannot be reached."""
        url = check_url(url)
        with self._lock:
            link = self._links.get(url)
            if link is None:
                link = self._links[url] = ServerLinks(url)
        end = time.monotonic() + wait
        while not link.wait_connected(0.1):
            never = link.connects == 0
            if time.monotonic() > end or (never and link.problem):
                problem = link.problem or "the server did not answer"
                if never:  # a mistyped address is not tried for ever in the background
                    with self._lock:
                        self._links.pop(url, None)
                    link.close()
                raise NotConnected(f"{problem} ({url})")
        return link

    def create(
        self, url: str, name: str, others: list[dict[str, Any]], game: str = "tiles", **settings: Any
    ) -> HeldSeat:
        """A new table of `game` for `name` (seat 0) and `others`; the seat held there."""
        link = self.link(url)
        seats = [{"kind": "person", "name": name}, *others]
        answer = link.request("create", game=game, seats=seats, sit=0, **settings)
        held = HeldSeat(link.url, answer["code"], answer["seat"], name, game, answer["token"], answer["host"])
        link.sit(held.code, held.token)
        return held

    def join(self, url: str, code: str, name: str) -> HeldSeat:
        """The seat taken at the table `code` (which game it is of is asked first: a seat is never taken
        and then lost for want of an answer)."""
        link = self.link(url)
        table = link.request("status", code=code.strip())["table"]
        game = str(table.get("game") or "tiles")
        answer = link.request("join", code=code.strip(), name=name.strip())
        held = HeldSeat(link.url, answer["code"], answer["seat"], name.strip(), game, answer["token"])
        link.sit(held.code, held.token)
        return held

    def table(self, url: str, code: str, wait: float = CONNECT_WAIT) -> Link:
        """The link of the table `code` at `url` (at `URL/t/CODE`), connected within `wait` seconds;
        NotConnected in words when it cannot be."""
        return self.link(url, wait).table(code, wait)

    def abort(self, held: HeldSeat) -> None:
        """End `held`'s table before its first move (with the host token, or from the seat); refused in
        the server's words once a move is made."""
        link = self.link(held.server)
        if held.host_token:
            link.request("abort", code=held.code, host=held.host_token)
            return
        link.request("resume", code=held.code, token=held.token)
        link.request("abort", code=held.code)

    def leave(self, held: HeldSeat) -> None:
        """This player lets `held`'s table go: off their list, and no more of its states on the link that
        holds the seat (if one does; nothing waits on the network)."""
        self.services.book.remove(held.server, held.code)
        link = self._opened(held)
        if link is not None and link.seats.pop(held.code, None) is not None:
            with contextlib.suppress(NotConnected):
                link.send("leave", code=held.code)

    def status(self, held: HeldSeat, wait: float = CONNECT_WAIT) -> dict[str, Any]:
        table: dict[str, Any] = self.link(held.server, wait).request("status", code=held.code)["table"]
        return table

    # --- the standings' questions ---

    def held_seats(self) -> list[HeldSeat]:
        """The seats held (kept in the data folder), and the tables watched in this window."""
        return [*self.services.book.seats(), *self.watched]

    def ask_status(self, held: HeldSeat, done: Callable[[dict[str, Any] | None, str], None]) -> None:
        """`held`'s table's status, asked in a job; `done` hears it (or None and why not) in a frame."""
        self.jobs.run(lambda: self.status(held, POLL_WAIT), lambda outcome: done(outcome.value, outcome.problem))

    def let_go(self, held: HeldSeat) -> None:
        """Leave `held`'s table unless a session shows it now (its seat stays this player's): sat at by a
        code screen gone, or by a join whose table could not be opened (issue 44, defect 5)."""
        link = self._opened(held)
        if link is not None and held.code not in link.holders and link.holds(held.code):
            link.step_away(held.code)

    def _opened(self, held: HeldSeat) -> Link | None:
        """The link of `held`'s table if one is open (none is opened: nothing waits on the network)."""
        with self._lock:
            links = self._links.get(held.server)
        return None if links is None else links.opened(held.code)

    def open_tables(self, url: str) -> list[dict[str, Any]]:
        """The tables anyone may join at `url` that have a seat open, the newest first."""
        tables = self.link(url).request("open_tables")["tables"]
        return [t for t in tables if isinstance(t, dict)]

    def seat_bot(self, held: HeldSeat, seat: int, level: str) -> None:
        """As the host of `held`'s table, give `seat` to the server's bot of `level` (refused in words)."""
        self.link(held.server).request("seat_bot", code=held.code, host=held.host_token, seat=seat, level=level)

    # --- the frame's side ---

    def open(self, held: HeldSeat, said: Callable[[str], None]) -> None:
        """Sit down at `held`'s table in the window: its session is made in a job (the link holds the
        seat, and comes back to it by itself), then played; `said` hears why not, in words."""

        def work() -> Any:
            link = self.table(held.server, held.code)
            link.sit(held.code, held.token)
            return self.make(link, held.code, held.seat, held.game)

        def done(outcome: Outcome[Any]) -> None:
            if outcome.value is None:
                self.let_go(held)
                said(outcome.problem)
            else:
                self.take(outcome.value, held.game)

        self.jobs.run(work, done)

    def watch(self, url: str, code: str, said: Callable[[str], None]) -> None:
        """Watch the table `code` at `url` in the window, as a spectator (its game asked first); it is
        listed in Your online games, to watch again; `said` hears why not, in words."""

        def work() -> tuple[Any, HeldSeat]:
            links = self.link(url)
            table = links.request("status", code=code.strip())["table"]
            watched = HeldSeat(links.url, normal_code(code), WATCHING, "", str(table.get("game") or "tiles"))
            return self.make(self.table(url, watched.code), watched.code, None, watched.game), watched

        def done(outcome: Outcome[tuple[Any, HeldSeat]]) -> None:
            if outcome.value is None:
                said(outcome.problem)
                return
            session, watched = outcome.value
            self.watched = [w for w in self.watched if w.key != watched.key] + [watched]
            self.take(session, watched.game)

        self.jobs.run(work, done)

    def look_out(self) -> Lookout | None:
        """The look-out for servers on the network: started (in a job: it opens sockets) on first
        asking; None until it listens, or when the network is not searched."""
        self._wanted = True
        if self._lookout is None and not self._starting and self.services.lookout is not None:
            self._starting = True
            self.jobs.run(self.services.lookout, self._started)
        return self._lookout

    def _started(self, outcome: Outcome[Lookout]) -> None:
        self._starting = False
        lookout = outcome.value
        if lookout is None:  # no network at all: an address can still be typed
            log.info("servers on the network are not looked for: %s", outcome.problem)
            self.services.lookout = None
        elif self._wanted:
            self._lookout = lookout
        else:
            self.jobs.run(lookout.close, lambda _: None)

    def stop_looking(self) -> None:
        """Stop looking (its sockets close in a job: a goodbye on the network can take a moment)."""
        self._wanted = False
        lookout, self._lookout = self._lookout, None
        if lookout is not None:
            self.jobs.run(lookout.close, lambda _: None)

    def update(self) -> None:
        """A frame: the jobs done are handed on, the tables due are asked about."""
        self.jobs.update()
        self.standings.update()

    def close(self) -> None:
        """The window closes: the jobs, the look-out, the links and a hosted server all stop."""
        self.jobs.close()
        lookout, self._lookout = self._lookout, None
        if lookout is not None:
            lookout.close()
        with self._lock:
            links, self._links = list(self._links.values()), {}
        for link in links:
            link.close()
        if self.services.host is not None:
            self.services.host.stop()
