"""Every table this player sits at, as its server last told it: each table's status is asked for in the
background every few seconds while the window runs (a finished one once), whichever screen is shown, so
that Your online games is never long behind, and so that the window knows when it becomes this player's
turn anywhere (the table on screen is told by its session at once) and when a move's time is nearly out:
`news` hands those out, once each (issue 44)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from cribtiles.online.standing import is_yours, time_left, warn_at

from .services import HeldSeat

#: Seconds between two questions to a table's server (the table on screen's session hears at once).
STATUS_EVERY = 5.0
#: Seconds before a table whose server could not be asked is asked again.
RETRY_EVERY = 20.0

Key = tuple[str, str]


@dataclass(frozen=True)
class Heard:
    """What a table's server last said of it (`table`), when it was heard (this window's clock), or why
    it could not be asked (`problem`; the last status heard is kept)."""

    table: dict[str, Any] | None
    at: float
    problem: str = ""


class Kind(StrEnum):
    TURN = "turn"  # it became this player's turn
    LATE = "late"  # and the move's time is nearly out


@dataclass(frozen=True)
class News:
    """Something the player is told wherever they are: `kind` at `held`'s table (`left`: seconds)."""

    kind: Kind
    held: HeldSeat
    left: float | None = None


class Asker(Protocol):
    """What the standings need of the lobby: its seats and a background question."""

    def held_seats(self) -> list[HeldSeat]: ...

    def ask_status(self, held: HeldSeat, done: Callable[[dict[str, Any] | None, str], None]) -> None: ...


class Standings:
    """The tables' statuses, asked for as they fall due (`update`, each frame), and the news of them."""

    def __init__(self, asker: Asker, clock: Callable[[], float] = time.monotonic) -> None:
        self.asker = asker
        self.clock = clock
        self.heard: dict[Key, Heard] = {}
        self._asking: set[Key] = set()
        self._due: dict[Key, float] = {}
        self._yours: dict[Key, bool] = {}  # whether it is this player's turn, as last known
        self._warned: set[tuple[Key, int]] = set()  # (table, ply): warned of that move's time
        self._news: list[News] = []
        self._live: tuple[Key, bool] | None = None  # the table on screen: whether it is your turn there

    # --- asking ---

    def update(self) -> None:
        """Ask every table whose turn it is to be asked; tell what became news."""
        now = self.clock()
        for held in self.asker.held_seats():
            key = held.key
            if key in self._asking or now < self._due.get(key, 0.0):
                continue
            self._ask(held, now)
        self._late(now)

    def ask_now(self) -> None:
        """Ask every table again at once (R on Your online games)."""
        self._due.clear()
        self.update()

    def ask_one(self, held: HeldSeat) -> None:
        """Ask `held`'s table again at once (its seats changed: one given to a bot), unless it is being asked."""
        if held.key not in self._asking:
            self._ask(held, self.clock())

    def _ask(self, held: HeldSeat, now: float) -> None:
        self._asking.add(held.key)
        self._due[held.key] = now + STATUS_EVERY
        self.asker.ask_status(held, lambda table, problem: self._heard(held, table, problem))

    def _heard(self, held: HeldSeat, table: dict[str, Any] | None, problem: str) -> None:
        key, now = held.key, self.clock()
        self._asking.discard(key)
        if table is None:
            old = self.heard.get(key)
            self.heard[key] = Heard(old.table if old else None, old.at if old else now, problem or "no answer")
            self._due[key] = now + RETRY_EVERY
            return
        self.heard[key] = Heard(table, now)
        if table.get("phase") == "over":
            self._due[key] = float("inf")  # a finished table says nothing new
        if self._live is None or self._live[0] != key:  # the table on screen is told by its session
            self._turn(held, is_yours(held.seat, table))

    # --- what the window is told ---

    def live(self, held: HeldSeat | None, yours: bool) -> None:
        """The table on screen (None: none), and whether it is this player's turn there now."""
        if held is None:
            self._live = None
            return
        self._live = (held.key, yours)
        self._turn(held, yours)

    def _turn(self, held: HeldSeat, yours: bool) -> None:
        if yours and not self._yours.get(held.key, False):
            self._news.append(News(Kind.TURN, held))
        self._yours[held.key] = yours

    def _late(self, now: float) -> None:
        """A warning, once a move, when a turn of this player's has little time left."""
        for held in self.asker.held_seats():
            key = held.key
            heard = self.heard.get(key)
            if not self._yours.get(key) or heard is None or heard.table is None:
                continue
            table = heard.table
            if not is_yours(held.seat, table):  # what is heard of the table on screen lags its session
                continue
            left, warn = time_left(table, now - heard.at), warn_at(table)
            ply = int(table.get("ply") or 0)
            if left is not None and warn is not None and left <= warn and (key, ply) not in self._warned:
                self._warned.add((key, ply))
                self._news.append(News(Kind.LATE, held, left))

    def yours(self) -> int:
        """How many tables wait for this player's move."""
        return sum(1 for held in self.asker.held_seats() if self._yours.get(held.key))

    def is_yours(self, held: HeldSeat) -> bool:
        return self._yours.get(held.key, False)

    def news(self) -> list[News]:
        """What became news since last asked, oldest first."""
        told, self._news = self._news, []
        return told

    def left(self, held: HeldSeat) -> float | None:
        """Seconds until a stand-in moves for the person to move at `held`'s table, as last heard."""
        heard = self.heard.get(held.key)
        if heard is None or heard.table is None:
            return None
        return time_left(heard.table, self.clock() - heard.at)
