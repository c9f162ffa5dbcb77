"""`RemoteSession`: the tile game at an online table, as a `Session` for one seat (or a spectator). What it
knows came over the `Link` as that seat's states; the others' moves wait in order until the window shows
them (`poll` then `land`), and every act goes to the server with the ply it was made on (issue 31). What
both games' sessions do alike is `RemoteCore`'s, the states waiting to be shown among it; this is the tile
game's decoder: how its states are read and shown, its moves announced and told (issue 45)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cribtiles.rules.board import parse_square
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import JokerCall, PlayerView
from cribtiles.rules.moves import Move, Play, format_move, parse_rack
from cribtiles.table.keeping import Keeps
from cribtiles.table.seats import Seat
from cribtiles.table.session import UndoAsked
from cribtiles.table.tiles.history import TurnRecord, history_of
from cribtiles.table.tiles.joker import Item
from cribtiles.table.tiles.public import PublicMatch, PublicState, match_from_json, player_view
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.seen import SeenScore, seen_in
from cribtiles.table.tiles.session import Session
from cribtiles.table.tiles.table import Table

from .client import ARRIVAL, Link, NotConnected, Refused
from .remote_core import FIRST_STATE_WAIT, MOVE, OLD, QUIET, RemoteCore, plain
from .taking_back import asked, why_not_asked

AGAIN_WORDS = (
    "a game at an online table is not played again from here: make a new table (or join one) from Online "
    "on the title screen"
)


@dataclass(frozen=True)
class Told:
    """One state the server sent this seat, decoded once: the raw message's fields, the match, and the
    local time it arrived."""

    data: dict[str, Any]
    match: PublicMatch
    received: float
    order: int = 0  # its place among the messages the link read (`ARRIVAL`)

    @property
    def ply(self) -> int:
        return int(self.data["ply"])

    @property
    def rounds_done(self) -> int:
        return len(self.match.finished)

    @property
    def turns(self) -> int:
        return len(self.match.game.turns)


def told_of(data: dict[str, Any], received: float, order: int = 0) -> Told | None:
    """A state of a game under way (None for a table still waiting for its players)."""
    if data.get("match") is None:
        return None
    return Told(data, match_from_json(data["match"]), received, order)


def _items(told: object) -> tuple[Item, ...]:
    """The Joker items a state says this seat pointed at, as the table kept them."""
    items = []
    for entry in told if isinstance(told, list) else []:
        try:
            squares = frozenset(parse_square(s) for s in entry["squares"])
            items.append(Item(str(entry["what"]), squares, int(entry["points"])))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(items)


def items_json(items: Sequence[Item]) -> list[dict[str, Any]]:
    """Joker items as an act carries them: what, its squares ("f7"), its points."""
    return [{"what": i.what, "squares": sorted(str(s) for s in i.squares), "points": i.points} for i in items]


class RemoteSession(RemoteCore[Told, Move, TurnRecord]):
    """A `Session` for `seat` (None: a spectator) at the online table `code`, over `link`, which already
    holds the seat (`link.sit`). `keeper` takes the finished game into this player's history."""

    def __init__(
        self,
        link: Link,
        code: str,
        seat: int | None,
        keeper: Keeps[Table, Table] | None = None,
        clock: Callable[[], float] = time.time,
        first_wait: float = FIRST_STATE_WAIT,
        forget: Callable[[], None] | None = None,
    ) -> None:
        """`forget` drops the table from this player's list when it is left (`leave`)."""
        super().__init__(link, code, seat, forget, clock)
        self.keeper = keeper
        self._latest: dict[str, Any] | None = None  # the newest state's fields (the timer, a request)
        self._latest_order = 0  # the place of `_latest` among the messages the link read
        self._offset: float | None = None  # the server's clock less this one's, once seen
        self._record: tuple[int, Table] | None = None
        try:
            self._shown = self._first(first_wait)
        except IllegalMove:
            link.unlisten(code, self._box)
            raise
        self._history = self._records(self._shown)
        self._told = []  # what was said before this window sat down is not news
        self._hold()

    # --- the states that arrive ---

    def _first(self, wait: float) -> Told:
        """The table's state as it stands, asked for (the server answers the seat, or a spectator, with
        it): never a state some earlier look at the table left behind."""
        try:
            self._ask_table(wait)
        except Refused as e:
            raise IllegalMove(plain(str(e))) from None
        except NotConnected as e:
            raise IllegalMove(f"the table could not be reached ({plain(str(e))})") from None

        def enough(message: dict[str, Any]) -> bool:
            self._take(message)
            return bool(self._queue) or self._latest is not None

        self._wait_for(wait, enough)
        self._pump()
        if not self._queue:
            if self._latest is not None and self._latest.get("aborted"):
                raise IllegalMove("the table was aborted before its first move: there is no game to play at it")
            if self._latest is not None and self._latest.get("phase") == "waiting":
                raise IllegalMove("the game starts once every seat is taken")
            raise IllegalMove("the server did not send the table")
        last = self._queue[-1]
        self._queue.clear()
        return last

    def _heard_state(self, data: dict[str, Any], order: int) -> None:
        """A state arrived: queued, in order, to be shown."""
        self._arrived(data, self.clock(), order)

    def _newest_data(self) -> dict[str, Any]:
        return self._latest or self.data

    def _arrived(self, data: dict[str, Any], now: float, order: int) -> None:
        if order < self._latest_order:  # pushed before the answer already shown: nothing new
            return
        self._seats_news(data.get("seats"))
        self._heard_end(data)
        previous = self._latest
        self._latest, self._latest_order = data, order
        if previous is not None and data.get("ply", 0) > previous.get("ply", 0) and data.get("last_change"):
            # a state sent as the table changed: its time less the time it arrived is the clocks' offset
            offset = float(data["last_change"]) - now
            self._offset = offset if self._offset is None else max(self._offset, offset)
        told = told_of(data, now, order)
        if told is not None:
            self._queue.append(told)

    def _kind(self, told: Told) -> str:
        """How a state stands to the one shown: `OLD`, `QUIET` (no turn made or taken back: seats, a Joker
        call), `MOVE` (moves made), "back" (turns taken back) or "round" (a new round)."""
        shown = self._shown
        if told.ply < shown.ply or told.order < shown.order:
            return OLD
        if told.rounds_done != shown.rounds_done:
            return "round" if told.rounds_done > shown.rounds_done else OLD
        if told.turns > shown.turns:
            return MOVE
        return "back" if told.turns < shown.turns else QUIET

    def _show(self, told: Told) -> None:
        if told.rounds_done != self._shown.rounds_done:
            self._hints_at_least = 0
        self._undo_news(self._shown.data, told.data, [s.name for s in self.seats])
        self._shown = told
        self._history = self._records(told)

    def _records(self, told: Told) -> tuple[TurnRecord, ...]:
        records = history_of(told.match.game)
        claimed = _items(told.data.get("claimed"))
        if claimed and records and records[-1].player == self.seat and records[-1].is_play:
            records = (*records[:-1], replace(records[-1], claimed=claimed))
        return records

    def _answered(self, answer: dict[str, Any]) -> None:
        """The state the server answered an act with: shown, and what queued before it dropped."""
        if answer.get("type") != "state":
            return
        data = answer["state"]
        now, order = self.clock(), int(answer.get(ARRIVAL, 0))
        if order >= self._latest_order:
            self._seats_news(data.get("seats"))
            self._heard_end(data)
            self._latest, self._latest_order = data, order
        told = told_of(data, now, order)
        if told is None:
            return
        while self._queue and self._queue[0].order <= told.order:
            self._queue.popleft()
        self._show(told)

    # --- the questions ---

    @property
    def data(self) -> dict[str, Any]:
        """The fields of the state shown (`Room.shown`, `TilesGame.shown`)."""
        return self._shown.data

    @property
    def match(self) -> PublicMatch:
        return self._shown.match

    @property
    def state(self) -> PublicState:
        return self._shown.match.game

    @property
    def history(self) -> Sequence[TurnRecord]:
        return self._history

    @property
    def to_move(self) -> int | None:
        to_move = self.data.get("to_move")
        return None if to_move is None else int(to_move)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def thinking(self) -> bool:
        return self.to_move is not None and self.to_move not in self.mine

    @property
    def plays_again(self) -> bool:
        return False

    def time_left(self) -> float | None:
        """Seconds left on the turn timer of the seat to move (None: no timer runs)."""
        latest = self._latest or self.data
        deadline = latest.get("deadline")
        if deadline is None or latest.get("ply") != self.data.get("ply"):
            return None
        return max(0.0, float(deadline) - (self._offset or 0.0) - self.clock())

    def view(self, seat: int) -> PlayerView:
        if self.seat is None:  # a spectator sees no rack: the round as any seat sees it, rack empty
            return player_view(self.state, seat, ())
        if seat != self.seat:
            raise IllegalMove(f"seat {seat + 1} is not played here")
        return player_view(self.state, seat, tuple(parse_rack(self.data.get("rack") or "")))

    def seen(self, record: TurnRecord) -> SeenScore | None:
        return seen_in(self.state, record)

    def may_call(self, seat: int) -> bool:
        return seat == self.seat and bool(self.data.get("may_call"))

    def undo_turns(self, seat: int) -> tuple[TurnRecord, ...]:
        if seat != self.seat:
            raise IllegalMove(f"seat {seat + 1} is not played here")
        if self.is_over:
            raise IllegalMove("the game is over: it is kept as it was played")
        turns = self.state.turns
        last = next((i for i in range(len(turns) - 1, -1, -1) if turns[i].player == seat), None)
        if last is None:
            raise IllegalMove("you have no turn to take back in this round")
        why = why_not_asked(self._newest(), seat, "that turn may not be taken back now")
        if why:
            raise IllegalMove(why)
        coming = self._queue[-1] if self._queue else None  # the bots' replies on their way go back too
        if coming is not None and coming.rounds_done == self._shown.rounds_done and coming.turns > self._shown.turns:
            return tuple(self._records(coming)[last:])
        return tuple(self._history[last:])

    def can_undo(self, seat: int) -> bool:
        return seat == self.seat and bool(self._newest().get("can_undo"))

    def _newest(self) -> dict[str, Any]:
        """The newest state heard (a bot's reply may still be on its way to the screen): a take-back is
        asked of the table as it stands, the reply with the move, never of a ply gone by."""
        return self._latest if self._latest is not None and self._latest.get("ply", 0) >= self._shown.ply else self.data

    # --- this seat's acts ---

    def act(self, seat: int, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> TurnRecord:
        self._check_mine(seat)
        self._settle()
        n = self._shown.turns
        fields: dict[str, Any] = {"ply": self._shown.ply, "move": format_move(move)}
        if declared is not None:
            fields["declared"] = declared
        if claimed and isinstance(move, Play):
            fields["claimed"] = items_json(claimed)
        self._answered(self._send("act", **fields))
        if len(self._history) <= n:
            raise IllegalMove("the server did not make the move")
        return self._history[n]

    def call_joker(self, seat: int) -> JokerCall:
        self._check_mine(seat)
        self._settle()
        self._answered(self._send("call", ply=self._shown.ply))
        calls = [c for _, c in self.state.calls if c.caller == seat]
        if not calls:
            raise IllegalMove("the call was not made")
        return calls[-1]

    def undo(self, seat: int) -> tuple[TurnRecord, ...]:
        return self.undo_request(seat)

    @property
    def pending_undo(self) -> UndoAsked | None:
        """The request the newest state tells of, while it waits."""
        return asked(self._newest_data())

    def undo_request(self, seat: int) -> tuple[TurnRecord, ...]:
        self._check_mine(seat)
        self._settle()
        taken = self.undo_turns(seat)
        turns = self._shown.turns
        self._answered(self._send("undo", ply=int(self._newest().get("ply", self._shown.ply))))
        return taken if self._shown.turns < turns else ()

    # --- what the table does by itself ---

    def _announced(self, told: Told) -> Move:
        return told.match.game.turns[self._shown.turns].move

    def _made(self, before: Told, told: Told) -> TurnRecord:
        return self._history[before.turns]

    def _went_on(self, told: Told, kind: str) -> None:
        """Turns taken back by another seat, or states missed while away (the table in a later round):
        shown as the table stands; a new round waits until this window goes on to it (`next_round`)."""
        if kind == "back":
            self._queue.popleft()
            taken = self._shown.turns - told.turns
            self._show(told)
            if (told.data.get("undo") or {}).get("ended") != "made":  # else told as the request ended
                self._told.append(f"{taken} turn{'s' if taken != 1 else ''} taken back at the table.")
        elif kind == "round" and not self.is_over:
            self._queue.popleft()
            self._show(told)
            self._told.append(f"The table went on to round {self.match.round} meanwhile.")

    def next_round(self) -> None:
        if not self.is_over or self.match.is_over:
            raise IllegalMove("there is no next round now")
        head = self._settle()
        if head is None or self._kind(head) != "round":
            try:
                self._answered(self._send("next_round", ply=self._shown.ply))
                return
            except IllegalMove:
                head = self._settle()  # another seat began it first: its state is here
                if head is None or self._kind(head) != "round":
                    raise
        self._queue.popleft()
        self._show(head)

    def again(self, seats: Sequence[Seat], seed: int) -> Session:
        raise IllegalMove(AGAIN_WORDS)

    # --- the table's end besides the rules ---

    def _took(self, answer: dict[str, Any]) -> None:
        self._answered(answer)

    def _before_resign(self) -> None:
        self._settle()

    def finish(self) -> None:
        if self._finished or self.keeper is None or not (self.is_over and self.match.is_over):
            return
        self._finished = True
        self.keeper.record(self.record())

    def record(self) -> Table:
        if not self.is_over or not self.data.get("record"):
            raise IllegalMove("the round is still being played")
        if self._record is None or self._record[0] != self._shown.ply:
            self._record = (self._shown.ply, load_table(self.data["record"]))
        return self._record[1]
