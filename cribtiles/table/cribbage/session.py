"""A cribbage game as a window drives it: `CribbageSession`, the game-neutral verbs of `GameSession`
over a `CribbageTable` of this process, with its bot thinking here (`BotThinker` beside the frames,
`InlineThinker` at once: both `Thinker`s of the one protocol) and the muggins calls as cribbage's own
(issue 30)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Protocol, TypeAlias

from cribtiles.background import Background, Done, Failed
from cribtiles.cribbage.game import CribbageState
from cribtiles.cribbage.moves import CribbageError, Move, parse_move
from cribtiles.cribbage.muggins import Claim
from cribtiles.cribbage.view import CribbageView
from cribtiles.rules.errors import IllegalMove

from ..again import EndsAtOneWindow, TableEnds
from ..chat import AtOneWindow
from ..keeping import Keeps
from ..seats import Seat
from ..session import GameSession, UndoAsked
from ..thinking import InlineThinker as Inline
from ..thinking import Thinker
from .public import CribbagePublic, PublicMove, public_of, seat_view, told_move
from .table import BotRequest, CribbageTable, choose

log = logging.getLogger("cribtiles.window")


#: Who chooses cribbage's bot's moves, from the table's request (`BotThinker`, `InlineThinker`, a script).
CribbageThinker = Thinker[[BotRequest], Move]


class BotThinker:
    """Asks the bot beside the frames, one request at a time; the scene polls `answer`.

    The bots answer in milliseconds (Hard at worst about half a second, its first discard), but a frame
    must never wait: the background job's thread is enough (no process), since the answer is a pure
    function of the request."""

    def __init__(self, chooser: Callable[[BotRequest], Move] = choose) -> None:
        self.chooser = chooser
        self.request: BotRequest | None = None
        self.incidents: list[str] = []  # what went wrong with the bot's thinking, in words, oldest first
        self._job: Background[Move] = Background("cribbage bot", use_process=False)

    @property
    def busy(self) -> bool:
        return self.request is not None

    def start(self, request: BotRequest) -> None:
        self.request = request
        self._job.start(self.chooser, (request,), in_thread=True)

    def result(self) -> Move | None:
        request = self.request
        if request is None:
            return None
        state = self._job.poll()
        if isinstance(state, Done):
            self.request = None
            return state.value
        if isinstance(state, Failed):  # choose() already replaces a failing bot; this is for the unforeseen
            log.error("the cribbage bot could not choose; it makes the first legal move: %s", state.details)
            self.incidents.append(f"The cribbage bot could not choose ({state.words}): it made the first legal move.")
            self.request = None
            return request.view.legal[0]
        return None

    def cancel(self) -> None:
        """Drop the answer on its way (its thread ends with it)."""
        self.request = None
        self._job.close()


class InlineThinker(Inline[[BotRequest], Move]):
    """The bot chooses at `start`, in this thread (the tests, a script): the answer is ready at once."""

    def __init__(self, chooser: Callable[[BotRequest], Move] = choose) -> None:
        super().__init__(chooser)


@dataclass(frozen=True)
class FinishedCribbage:
    """What a finished game of cribbage goes into the history as: its `state`, the person at seat `person`
    (this player), the bot of `level` at every other seat (None: another person sat at one, online) and
    the takings back and hints asked for (`marks`)."""

    game: ClassVar[str] = CribbageTable.game  # its game's name, which its keeper asks (`keeping.kept_by`)
    state: CribbageState
    person: int
    level: str | None
    marks: tuple[int, int] = (0, 0)


#: Where a cribbage game is kept: its table's save after every move, the history once it is over.
CribbageKeeps: TypeAlias = Keeps[CribbageTable, FinishedCribbage]


class CribbageDriver(TableEnds, GameSession[CribbageView, Move, Move, PublicMove | None], Protocol):
    """What the cribbage scene asks of its game (the game-neutral verbs of `GameSession` and cribbage's
    own questions): public values and its own seats' views only, so that the game may be far away (a
    `CribbageSession` here, or one over a wire)."""

    def public(self) -> CribbagePublic: ...

    def why_not(self, seat: int, move: Move) -> str: ...

    def call_open(self, seat: int) -> Claim | None: ...

    @property
    def hints(self) -> int:
        """The hints asked for in this game (kept with it and its save, counted apart in the history)."""
        ...

    @property
    def coach_allowed(self) -> bool:
        """The coach may help at this table: always at one of this process; online, where its creator
        allowed it."""
        ...

    def count_hint(self) -> int:
        """Count one hint asked for (online: the server counts it, or refuses in words, IllegalMove)."""
        ...

    def legal_after_answer(self, seat: int) -> tuple[Move, ...]: ...

    def act(self, seat: int, action: Move) -> PublicMove | None:
        """`seat`'s move, told (None: crib cards laid before the others', made when their turn comes);
        CribbageError in words."""
        ...

    def can_undo(self, seat: int) -> bool:
        """`seat` may take back its last decision now (against bots, where the game is of this process;
        online, asked of the others)."""
        ...

    def undo(self, seat: int) -> tuple[Move, ...]:
        """Take back `seat`'s last decision and the bot's replies after it (the moves taken back, oldest
        first: the first is `seat`'s own; online another's crib cards are a discard of no cards); () when
        it is asked of the others (online: `pending_undo` waits for their answers); IllegalMove or
        CribbageError in words when it may not."""
        ...

    @property
    def undos(self) -> int:
        """The moves taken back in this game so far: when it grows (online, by agreement), the scene goes
        back with the table."""
        ...

    @property
    def pending_undo(self) -> UndoAsked | None:
        """A request to take back a move that waits for answers (online only; None: none waits)."""
        ...

    def answer_undo(self, seat: int, yes: bool) -> None:
        """`seat` answers `pending_undo`: yes agrees, no refuses it (the asker's no withdraws it);
        IllegalMove in words."""
        ...

    def poll(self) -> Move | None:
        """The other seat's move once it is ready (not yet made; online, another's crib cards are a
        discard of no cards), `land` to make it: the scene asks only whether one is (a discard's cards
        are the crib's)."""
        ...

    def land(self) -> PublicMove: ...

    def take_pending(self) -> list[PublicMove]: ...

    def changed(self) -> bool:
        """Whether the table changed since last asked otherwise than by a move (`take_pending` tells those):
        a resignation or an abort made elsewhere, who is here. Each change is said once."""
        ...

    def finished_table(self) -> CribbageTable | None:
        """The whole game, every hand, once it is over (for its review); None before (or, online, while
        its record has not come)."""
        ...

    @property
    def spectator(self) -> bool:
        """The window watches this table from no seat (a table online watched): no hand, nothing to play."""
        ...


class CribbageSession(AtOneWindow, EndsAtOneWindow):
    """A `GameSession[CribbageView, Move, Move, PublicMove | None]` over a `CribbageTable` of this process: its
    people are this driver's seats, its bot thinks in `thinker`, `keeper` (None: nowhere) keeps it."""

    def __init__(
        self, table: CribbageTable, thinker: CribbageThinker | None = None, keeper: CribbageKeeps | None = None
    ) -> None:
        self.table = table
        self.thinker: CribbageThinker = thinker if thinker is not None else InlineThinker()
        self.keeper = keeper
        self._request: BotRequest | None = None  # the move the thinker was asked for
        self._coming: tuple[int, Move] | None = None
        self._recorded = False

    # --- the questions ---

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.table.seats

    @property
    def names(self) -> tuple[str, ...]:
        return self.table.state.names

    @property
    def mine(self) -> tuple[int, ...]:
        return self.table.people

    @property
    def to_move(self) -> int | None:
        return self.table.to_move

    @property
    def is_over(self) -> bool:
        return self.table.is_over

    @property
    def thinking(self) -> bool:
        return self.table.bot_to_move and self._asked(self.table.ply)

    def _asked(self, ply: int) -> bool:
        return self._request is not None and self._request.ply == ply

    def public(self) -> CribbagePublic:
        """What both seats may see now: no hand before it is shown, no crib before it is counted."""
        return public_of(self.table)

    def view(self, seat: int) -> CribbageView:
        """What `seat` sees: its own hand, never the other's before the show nor the crib before it
        is counted (`CribbageState.view`, less the other's cards waiting to be counted)."""
        self._check_mine(seat)
        return seat_view(self.table, seat)

    def why_not(self, seat: int, move: Move) -> str:
        """Why `seat` may not make `move` now, in words ("" when it may)."""
        if seat not in self.mine:
            return f"Seat {seat + 1} is not played here."
        return self.table.why_not(move, seat)

    def call_open(self, seat: int) -> Claim | None:
        """Muggins: the other seat's score said aloud that `seat` may call now (None: none)."""
        return self.table.call_open_to(seat) if seat in self.mine else None

    @property
    def hints(self) -> int:
        return self.table.hints

    @property
    def coach_allowed(self) -> bool:
        return True

    def count_hint(self) -> int:
        """Count one hint: the game keeps the mark in its save and takes it into the history."""
        return self.table.count_hint()

    # --- the acts of this driver's seats ---

    def _check_mine(self, seat: int) -> None:
        if seat not in self.mine:
            raise IllegalMove(f"seat {seat + 1} is not played here")

    def legal_after_answer(self, seat: int) -> tuple[Move, ...]:
        """`seat`'s moves once the other's score waiting for its answer stands (its moves now, when
        none waits): what it may lay while it still may call."""
        self._check_mine(seat)
        return self.table.legal_after_answer(seat)

    def act(self, seat: int, action: Move) -> PublicMove | None:
        """`seat` moves (a muggins call or letting a score stand too; crib cards laid before the bots',
        made once they have laid theirs: None); CribbageError in words."""
        self._check_mine(seat)
        happening = self.table.play(action, seat)
        return None if happening is None else told_move(self.table, happening)

    def can_undo(self, seat: int) -> bool:
        return seat in self.mine and self.table.can_undo(seat)

    def undo(self, seat: int) -> tuple[Move, ...]:
        """Take back `seat`'s last decision and the bot's replies (a reply on its way is dropped); the
        game, kept after every move, is kept so."""
        self._check_mine(seat)
        taken = self.table.undo_moves(seat)  # refused in words before anything changes
        self._drop()
        self.table.undo(seat)
        self.save()
        return tuple(parse_move(text) for text in taken)

    @property
    def undos(self) -> int:
        return self.table.undos

    @property
    def pending_undo(self) -> UndoAsked | None:
        """Never: the people at a table of this window share it, and a bot never needs asking."""
        return None

    def answer_undo(self, seat: int, yes: bool) -> None:
        raise IllegalMove("no one is asking to take back a move at this table")

    def resign(self, seat: int) -> None:
        """`seat` (the person here) gives the game up: the bot wins; its thinking stops, the game is kept."""
        self._check_mine(seat)
        try:
            self.table.resign(seat)
        except CribbageError as e:
            raise IllegalMove(str(e)) from None
        self._drop()
        self.save()

    # --- what the table does by itself ---

    def poll(self) -> Move | None:
        """The bot's move once it is chosen (not yet made); it is asked once per position."""
        table = self.table
        if not table.bot_to_move:
            return None
        if self._coming is not None and self._coming[0] == table.ply:
            return self._coming[1]
        if not self._asked(table.ply):
            self._request = table.bot_request()
            self.thinker.start(self._request)
            return None
        move = self.thinker.result()
        if move is None:
            return None
        self._coming = (table.ply, move)
        return move

    def land(self) -> PublicMove:
        """Make the move `poll` announced."""
        coming, self._coming = self._coming, None
        if coming is None:
            raise IllegalMove("no move is on its way")
        happening = self.table.play_bot(coming[1], coming[0])
        if happening is None:
            raise IllegalMove("the bot's move came too late: the game has moved on")
        return told_move(self.table, happening)

    def take_pending(self) -> list[PublicMove]:
        """Every move made since last asked, to be told and pegged (as all may see them: a score said aloud
        and still open to a call without its points)."""
        return [told_move(self.table, h) for h in self.table.take_pending()]

    def changed(self) -> bool:
        """Never: at one window the table changes only by the moves told, and by this window's own acts."""
        return False

    def save(self) -> None:
        if self.keeper is not None:
            self.keeper.save(self.table)

    def finish(self) -> None:
        """The game is over: it goes into the history, once."""
        table = self.table
        if self.keeper is not None and table.is_over and table.person is not None and not self._recorded:
            self._recorded = True
            self.keeper.record(FinishedCribbage(table.state, table.person, table.level, (table.undos, table.hints)))

    def finished_table(self) -> CribbageTable | None:
        """The table itself once its game is over (every hand is shown by then); None before."""
        return self.table if self.table.is_over else None

    def incidents(self) -> tuple[str, ...]:
        """What went wrong with the bot's thinking since last asked, in words."""
        told = tuple(self.thinker.incidents)
        self.thinker.incidents.clear()
        return told

    def _drop(self) -> None:
        """Let the bot's move on its way go (the table moved on without it)."""
        self._request = self._coming = None
        self.thinker.cancel()

    def close(self) -> None:
        self._drop()
