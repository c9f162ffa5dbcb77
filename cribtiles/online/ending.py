"""How a table online ends besides its rules, as a remote session of either game hears it (`TableEnding`):
a request to play it again (who asked, who agreed, how it ended, in words), this seat's place at the new
table once everyone agreed (`rematched`: its token, sent to this connection alone), the table aborted
before its first move; and the requests that resign, ask or answer, sent for the session (issue 44)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cribtiles.rules.errors import IllegalMove
from cribtiles.table.again import AgainAsked, NextTable
from cribtiles.table.chat import ChatLine

from .client import Link, NotConnected, Refused

#: Seconds a request waits for the server's answer before it is told as not sent.
ANSWER_WAIT = 5.0
ABORTED_WORDS = "The table was aborted before its first move: it ends with no result."


def _names(seats: object) -> list[str]:
    if not isinstance(seats, list):
        return []
    return [
        str(s.get("name") or f"Seat {i + 1}") if isinstance(s, dict) else f"Seat {i + 1}" for i, s in enumerate(seats)
    ]


def _whole(value: object) -> int | None:
    return value if type(value) is int else None


def _seats(value: object) -> tuple[int, ...]:
    return tuple(v for v in value if type(v) is int) if isinstance(value, list) else ()


class TableEnding:
    """What the states of table `code` say of its end besides the rules, for `seat` (None: a spectator),
    over `link`; `forget` drops the table from this player's list (None: no list is kept)."""

    def __init__(self, link: Link, code: str, seat: int | None, forget: Callable[[], None] | None = None) -> None:
        self.link, self.code, self.seat, self.forget = link, code, seat, forget
        self.told: list[str] = []  # words not yet taken by the session's incidents
        self._rematch: dict[str, Any] | None = None
        self._names: list[str] = []
        self._next: NextTable | None = None
        self._aborted = False
        self._heard_first = False
        self._game = "tiles"

    # --- what the server sent ---

    def heard(self, data: dict[str, Any]) -> None:
        """A state of the table, newer than any heard before: what changed of its end, told in words (the
        first state heard is how things stand: nothing of it is news)."""
        self._names = _names(data.get("seats")) or self._names
        self._game = str(data.get("game") or self._game)
        rematch = data.get("rematch") if isinstance(data.get("rematch"), dict) else None
        if self._heard_first:
            self._rematch_news(self._rematch, rematch)
            if data.get("aborted") and not self._aborted:
                self.told.append(ABORTED_WORDS)
        self._heard_first = True
        self._rematch = rematch
        self._aborted = self._aborted or bool(data.get("aborted"))

    def heard_message(self, message: dict[str, Any]) -> bool:
        """Take `message` when it is this table's `rematched` (this seat's place at the new table)."""
        if message.get("type") != "rematched" or message.get("code") != self.code:
            return False
        seat, table, token = message.get("seat"), message.get("table"), message.get("token")
        if type(seat) is int and isinstance(table, str) and isinstance(token, str):
            self._next = NextTable(self.link.url, self.code, table, seat, self._name(seat), self._game, token)
        return True

    def _name(self, seat: object) -> str:
        return self._names[seat] if type(seat) is int and 0 <= seat < len(self._names) else "Someone"

    def _rematch_news(self, before: dict[str, Any] | None, after: dict[str, Any] | None) -> None:
        if after is None or after == before:
            return
        asker, ended, by = after.get("seat"), after.get("ended"), after.get("by")
        fresh = before is None or before.get("ended") is not None or before.get("seat") != asker
        if ended is None:
            if fresh and asker != self.seat:
                self.told.append(f"{self._name(asker)} asks to play again: Y or Play again agrees, N says no.")
            return
        if before is not None and before.get("ended") == ended and not fresh:
            return
        if ended == "refused" and by != self.seat:
            self.told.append(f"{self._name(by)} said no: the table is not played again.")
        elif ended == "withdrawn" and asker != self.seat:
            self.told.append(f"{self._name(asker)} no longer asks to play again.")
        elif ended == "gone" and by != self.seat:
            self.told.append(f"{self._name(by)} has left the table: it is not played again.")
        elif ended == "made":
            code = str(after.get("table") or "")
            self.told.append(f"Everyone agreed: the new table is {code[:3]} {code[3:]}.")

    # --- the questions ---

    @property
    def pending(self) -> AgainAsked | None:
        told = self._rematch
        if told is None or told.get("ended") is not None:
            return None
        asker = _whole(told.get("seat"))
        if asker is None:
            return None
        return AgainAsked(asker, _seats(told.get("agreed")), _seats(told.get("waiting")))

    @property
    def next_table(self) -> NextTable | None:
        return self._next

    @property
    def played_again_at(self) -> str | None:
        told = self._rematch
        if told is None or told.get("ended") != "made" or not isinstance(told.get("table"), str):
            return None
        return str(told["table"])

    @property
    def aborted(self) -> bool:
        return self._aborted

    def take_words(self) -> list[str]:
        told, self.told = self.told, []
        return told

    # --- the requests ---

    def _mine(self, seat: int) -> None:
        if seat != self.seat:
            raise IllegalMove(f"seat {seat + 1} is not played here")

    def send(self, kind: str, **fields: Any) -> dict[str, Any]:
        """`kind` sent for this table; its answer (IllegalMove in the server's words when refused)."""
        try:
            return self.link.request(kind, timeout=ANSWER_WAIT, code=self.code, **fields)
        except Refused as e:
            raise IllegalMove(str(e).strip().rstrip(".")) from None
        except NotConnected as e:
            words = str(e).strip().rstrip(".").lower()
            raise IllegalMove(f"that was not sent: {words}; the game reconnects by itself, try again then") from None

    def resign(self, seat: int) -> dict[str, Any]:
        self._mine(seat)
        return self.send("resign")

    def ask(self, seat: int) -> dict[str, Any]:
        self._mine(seat)
        return self.send("rematch")

    def answer(self, seat: int, yes: bool) -> dict[str, Any]:
        self._mine(seat)
        if self.pending is None:
            raise IllegalMove("no one is asking to play again now")
        return self.send("rematch_answer", yes=yes)

    def leave(self) -> None:
        """This player lets the table go: off their list (the session closes it on the server)."""
        if self.forget is not None:
            self.forget()


class EndsElsewhere:
    """`TableEnds` of a table online, as both games' remote sessions answer it: through the table's
    `TableEnding` (`_end`), each question asked once what the link heard is taken in (`_catch_up`), each
    request's answer shown as the table now (`_took`); resigning first shows every state on its way
    (`_before_resign`). Each session says how it leaves a table (`leave`)."""

    _end: TableEnding

    def _catch_up(self) -> None:
        raise NotImplementedError

    def _took(self, answer: dict[str, Any]) -> None:
        raise NotImplementedError

    def _before_resign(self) -> None:
        self._catch_up()

    def resign(self, seat: int) -> None:
        self._before_resign()
        self._took(self._end.resign(seat))

    @property
    def pending_again(self) -> AgainAsked | None:
        self._catch_up()
        return self._end.pending

    def ask_again(self, seat: int) -> None:
        self._took(self._end.ask(seat))

    def answer_again(self, seat: int, yes: bool) -> None:
        self._catch_up()
        self._took(self._end.answer(seat, yes))

    @property
    def next_table(self) -> NextTable | None:
        self._catch_up()
        return self._end.next_table

    @property
    def played_again_at(self) -> str | None:
        self._catch_up()
        return self._end.played_again_at

    @property
    def aborted(self) -> bool:
        self._catch_up()
        return self._end.aborted


class SeatOnline(EndsElsewhere):
    """What both games' remote sessions of a seat (`seat`; None: a spectator's) at table `code` over
    `link` answer alike: the chat, where the table is, whether this is a spectator's, and being "here"
    only while the table is on screen. Each session holds `_token` (its seat's, to come back with) and
    `_closed`, and is the link's holder of its table while it plays it."""

    link: Link
    code: str
    seat: int | None
    _token: str | None
    _closed: bool

    @property
    def chat_allowed(self) -> bool:
        return True

    @property
    def chat_lines(self) -> tuple[ChatLine, ...]:
        """The lines said at the table, as this window heard them (the server sends the last again when
        the table is opened)."""
        return self.link.chat_lines(self.code)

    @property
    def where(self) -> tuple[str, str] | None:
        return self.link.url, self.code

    @property
    def spectator(self) -> bool:
        return self.seat is None

    def here(self, present: bool) -> None:
        """The player looks at this table (`present`), or at something else: only the table on screen
        is "here" for the others (issue 44, defect 5). Coming back, the server sends the table as it
        stands, which the session shows as it shows any state."""
        if self._closed or self.link.holders.get(self.code) is not self:
            return  # a newer session plays this table now: its presence is that one's
        if present and not self.link.holds(self.code):
            self.link.come_back(self.code, self._token)
        elif not present and self.link.holds(self.code):
            self.link.step_away(self.code)
