"""`RemoteCore`: what a seat's session at an online table does alike in both games (issue 45): its
mailbox on the `Link` and the connection's news, the states heard waiting behind the one shown until
the window takes the others' moves (`poll` announces the next, `land` makes it), the seats and who is
away, the chat, the hints, the requests sent in the server's words, taking back a move by agreement,
the incidents, and letting the table go. Each game's session (`remote.RemoteSession`,
`cribbage_remote.RemoteCribbageSession`) is its decoder: how its states are read (`_heard_state`),
how one waiting stands to the one shown (`_kind`), what it announces and makes, and its own verbs."""

from __future__ import annotations

import contextlib
import queue
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from cribtiles.rules.errors import IllegalMove
from cribtiles.table.chat import chat_text
from cribtiles.table.seats import Seat

from .client import ARRIVAL, ConnectionWatch, Link, NotConnected
from .ending import SeatOnline, TableEnding
from .presence import Presence, seat_words
from .taking_back import ended_words, waiting

#: Seconds a session waits for its table's state, asked for when it is made.
FIRST_STATE_WAIT = 10.0
#: Why a spectator's window makes no move.
WATCHING_WORDS = "you are watching this table: the players move"


def plain(text: str) -> str:
    """The server's words as a refusal's (the window makes a sentence of them)."""
    return text.strip().rstrip(".")


def seats_of(data: dict[str, Any]) -> tuple[Seat, ...]:
    """The seats a state tells of: each person's name (or "Seat n"), each bot's level."""
    seats = data.get("seats")
    return tuple(
        Seat(s.get("name") or f"Seat {i + 1}", s.get("level") if s.get("kind") == "bot" else None)
        for i, s in enumerate(seats if isinstance(seats, list) else [])
        if isinstance(s, dict)
    )


class Heard(Protocol):
    """One state the server sent, as a game's session read it: its fields, the table's ply (every
    change), and its place among the messages the link read (`ARRIVAL`)."""

    @property
    def data(self) -> dict[str, Any]: ...

    @property
    def ply(self) -> int: ...

    @property
    def order(self) -> int: ...


S = TypeVar("S", bound=Heard)  # a state heard, as the game reads it
A = TypeVar("A")  # another seat's move, announced
R = TypeVar("R")  # a move made, as the game tells it

#: How a state waiting stands to the one shown (`RemoteCore._kind`): older (dropped), changing no move
#: (shown at once), or bringing another's move (announced, then landed); a game may say more (turns taken
#: back, a later round), which its `_went_on` shows.
OLD, QUIET, MOVE = "old", "quiet", "move"


class RemoteCore(SeatOnline, Generic[S, A, R]):
    """The game-neutral part of the session of `seat` (None: a spectator) at the online table `code`,
    over `link` (which already holds the seat, `link.sit`); `forget` drops the table from this player's
    list when it is left, `clock` says when what the server sent arrived. The state shown is `_shown`
    (each game's session reads its first); those heard after it wait in `_queue`, oldest first."""

    _shown: S

    def __init__(
        self,
        link: Link,
        code: str,
        seat: int | None,
        forget: Callable[[], None] | None,
        clock: Callable[[], float],
    ) -> None:
        self.link = link
        self.code = code
        self.seat = seat
        self.clock = clock
        self._token = link.seats.get(code) if seat is not None else None  # to come back to the seat
        self._box = link.listen(code)
        self._queue: deque[S] = deque()  # states heard, not shown yet, oldest first
        self._end = TableEnding(link, code, seat, forget)
        self._watch = ConnectionWatch(link)
        self._presence = Presence(seat)  # who comes and goes, in words
        self._told: list[str] = []  # incidents not yet told
        self._seats_told: list[Any] = []  # who is here, as the newest state taken said
        self._seats_at = 0.0  # when it came (`clock`)
        self._hints_at_least = 0  # a hint counted by the server, before a state says so
        self._finished = False
        self._closed = False

    # --- what each game's session says: its decoder ---

    def _heard_state(self, data: dict[str, Any], order: int) -> None:
        """A state the server sent (`order`: its place among the messages the link read, `ARRIVAL`)."""
        raise NotImplementedError

    def _kind(self, heard: S) -> str:
        """How `heard`, the first state waiting, stands to the one shown: `OLD`, `QUIET`, `MOVE`, or
        another of the game's own (which `_went_on` shows, or leaves waiting)."""
        raise NotImplementedError

    def _show(self, heard: S) -> None:
        """`heard` is the state shown now."""
        raise NotImplementedError

    def _announced(self, heard: S) -> A:
        """The move `heard` brings, as `poll` announces it (not made yet)."""
        raise NotImplementedError

    def _made(self, before: S, heard: S) -> R:
        """The move `heard`, now shown, made after `before`, as `land` tells it."""
        raise NotImplementedError

    def _went_on(self, heard: S, kind: str) -> None:
        """The first state waiting is of the game's own `kind` (neither old, quiet nor a move): shown as
        the game says, or left waiting (by default)."""

    def _newest_data(self) -> dict[str, Any]:
        """The fields of the newest state heard (moves on their way to the screen among them)."""
        return self._last().data

    def _let_go(self) -> None:
        """Drop what waits to be shown, as the session closes."""
        self._queue.clear()

    # --- the states waiting to be shown ---

    def _shown_data(self) -> dict[str, Any]:
        """The fields of the state shown."""
        return self._shown.data

    def _last(self) -> S:
        """The newest state heard: the last waiting, else the one shown."""
        return self._queue[-1] if self._queue else self._shown

    def _settle(self) -> S | None:
        """Show at once every state that makes no move, up to the first that does (returned, still
        waiting), or None."""
        self._pump()
        while self._queue:
            head = self._queue[0]
            kind = self._kind(head)
            if kind == OLD:
                self._queue.popleft()
            elif kind == QUIET:
                self._show(self._queue.popleft())
            else:
                return head
        return None

    def poll(self) -> A | None:
        """The move the first state waiting brings, once it has come (the states before it that make no
        move shown meanwhile), announced: not made here yet, `land` makes it."""
        head = self._settle()
        if head is None:
            return None
        kind = self._kind(head)
        if kind == MOVE:
            return self._announced(head)
        self._went_on(head, kind)
        return None

    def land(self) -> R:
        """Make the move `poll` announced, the next that came."""
        head = self._settle()
        if head is None or self._kind(head) != MOVE:
            raise IllegalMove("no move is on its way")
        before = self._shown
        self._queue.popleft()
        self._show(head)
        return self._made(before, head)

    def _undo_news(self, before: dict[str, Any], after: dict[str, Any], names: Sequence[str]) -> None:
        """How a request to take back a move ended, told in words (once: in the state that ended it)."""
        words = ended_words(before.get("undo"), after.get("undo"), names, self.seat)
        if words:
            self._told.append(words)

    # --- the states that arrive ---

    def _ask_table(self, wait: float) -> None:
        """Ask for the table's state as it stands (the server answers the seat, or a spectator, with it):
        `Refused` or `NotConnected` as the link raises them."""
        fields: dict[str, Any] = {"token": self._token} if self._token is not None else {}
        self.link.request("resume" if self._token is not None else "watch", timeout=wait, code=self.code, **fields)

    def _wait_for(self, wait: float, enough: Callable[[dict[str, Any]], bool]) -> None:
        """Take the messages of this table's mailbox as they come (the link's thread puts them there)
        until `enough` says so of one, or `wait` seconds have gone."""
        end = time.monotonic() + wait
        while time.monotonic() < end:
            try:
                message = self._box.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                return
            if enough(message):
                return

    def _pump(self) -> None:
        """Take what the server sent of this table (its mailbox: never another table's) and the
        connection's news (the lines said are the link's to keep, `chat_lines`)."""
        news = self._watch.news()
        if news is not None:
            self._told.append(news)
        for message in self.link.messages(self._box):
            self._take(message)

    def _take(self, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            self._heard_state(message["state"], int(message.get(ARRIVAL, 0)))
        else:  # a place at the table played again (`rematched`), this seat's alone
            self._end.heard_message(message)

    def _seats_news(self, seats: object) -> None:
        """Seats going away, coming back or first sat at, told in words; who is here, kept for `away`."""
        if not isinstance(seats, list):
            return
        before, self._seats_told, self._seats_at = self._seats_told, list(seats), self.clock()
        self._told.extend(self._presence.news(before or None, seats))

    def _heard_end(self, data: dict[str, Any]) -> None:
        """What a state newer than any heard says of the table's end (a request to play again, the table
        aborted), told in words."""
        self._end.heard(data)
        self._told.extend(self._end.take_words())

    def _send(self, kind: str, **fields: Any) -> dict[str, Any]:
        """`kind` sent for this table: its answer; IllegalMove in the server's words when refused."""
        return self._end.send(kind, **fields)

    def _hold(self) -> None:
        """This session plays the table now: one replaced by a newer one at the same table (opened again
        from Your online games) leaves it in the newer one's hands."""
        self.link.holders[self.code] = self

    def _catch_up(self) -> None:
        self._pump()

    # --- the questions ---

    @property
    def seats(self) -> tuple[Seat, ...]:
        return seats_of(self._shown_data())

    @property
    def mine(self) -> tuple[int, ...]:
        return () if self.seat is None else (self.seat,)

    @property
    def hints(self) -> int:
        """The hints counted at this table for this game (the server keeps them with it)."""
        return max(int(self._shown_data().get("hints") or 0), self._hints_at_least)

    @property
    def coach_allowed(self) -> bool:
        """Its creator allowed the coach at this table (the server refuses a hint otherwise)."""
        settings = self._shown_data().get("settings")
        return isinstance(settings, dict) and bool(settings.get("coach"))

    def away(self, seat: int) -> float | None:
        """Seconds the person at `seat` has been away (None: here, or a bot's seat), from the last state."""
        if not 0 <= seat < len(self._seats_told) or not isinstance(self._seats_told[seat], dict):
            return None
        told = self._seats_told[seat]
        if told.get("present") or told.get("away") is None:
            return None
        return float(told["away"]) + max(0.0, self.clock() - self._seats_at)

    def about(self, seat: int) -> tuple[str, ...]:
        """What the table says of `seat` beside its name (`presence.seat_words`)."""
        told = self._seats_told[seat] if 0 <= seat < len(self._seats_told) else None
        return seat_words(told, self.away(seat))

    def _check_mine(self, seat: int) -> None:
        if self.seat is None:
            raise IllegalMove(f"seat {seat + 1} is not played here: {WATCHING_WORDS}")
        if seat != self.seat:
            raise IllegalMove(f"seat {seat + 1} is not played here")

    # --- the acts every game has ---

    def say(self, text: str) -> None:
        """A line to the table (its control characters left out, cut to the server's limit); it comes
        back among the incidents, as everyone's does. IllegalMove in words when it was not sent."""
        line = chat_text(text).strip()
        if not line:
            raise IllegalMove("there is nothing to send: type a line first")
        self._send("chat", text=line)

    def count_hint(self) -> int:
        """The hint counted by the server (IllegalMove in words when it refuses or cannot be reached)."""
        self._send("hint")
        self._hints_at_least = self.hints + 1
        return self.hints

    def answer_undo(self, seat: int, yes: bool) -> None:
        """`seat` answers the request to take back a move that waits: yes agrees (the last yes takes the
        move back), no refuses it, or withdraws its own. IllegalMove in words."""
        self._check_mine(seat)
        self._pump()
        told = waiting(self._newest_data())
        if told is None:
            raise IllegalMove("no one is asking to take back a move now")
        self._took(self._send("undo_answer", ply=int(told["ply"]), yes=yes))

    def save(self) -> None:
        """Nothing to keep here: the server kept every move before it answered."""

    def incidents(self) -> tuple[str, ...]:
        """What happened since last asked, in words: the connection lost and back, another gone away or
        back, a line said ("Name: text", this seat's own among them), how a request ended."""
        self._pump()
        told, self._told = tuple(self._told), []
        return told

    # --- letting the table go ---

    def close(self) -> None:
        """Leave the table (the link stays with its owner, who may come back to the seat later) and let go
        of the moves not shown."""
        self._let_go()
        if self._closed:
            return
        self._closed = True
        self.link.unlisten(self.code, self._box)
        if self.link.holders.get(self.code) is not self:  # a newer session plays this table now: it stays
            return
        del self.link.holders[self.code]
        self.link.step_away(self.code)

    def leave(self) -> None:
        """Let the table go: closed here, no more of its states on the link (unless a newer session plays
        it), and off this player's list of online games."""
        self.close()
        if self.link.holders.get(self.code) is None and self.link.seats.pop(self.code, None) is not None:
            with contextlib.suppress(NotConnected):  # gone already: the server counts the seat away
                self.link.send("leave", code=self.code)
        self._end.leave()
