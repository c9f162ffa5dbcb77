"""The tile game as a window or the text mode drives it: its `Session` interface, and `LocalSession` over a
`Table` with its bots thinking here. A remote table is one more Session (`cribtiles.online.remote`): the
drivers never ask which one they hold (issues 30, 31).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from cribtiles.bot.tiles.base import Bot, choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import JokerCall, PlayerView
from cribtiles.rules.match import Match
from cribtiles.rules.moves import Move
from cribtiles.rules.options import RuleOptions

from ..again import EndsAtOneWindow, TableEnds
from ..chat import AtOneWindow
from ..keeping import Keeps
from ..seats import Seat
from ..session import GameSession, UndoAsked
from ..thinking import InlineThinker as Inline
from ..thinking import Thinker
from .history import TurnRecord
from .joker import Item
from .public import PublicMatch, PublicState, public_match
from .seen import SeenScore
from .table import BotRequest, Table


class Session(TableEnds, GameSession[PlayerView, Move, Move, TurnRecord], Protocol):
    """What a driver needs of a tile game at a table for the seats it controls (`mine`): the game-neutral
    verbs (`GameSession`), the tile game's own questions,
    the acts of those seats, how the table ends besides the rules (`TableEnds`), and `poll`, which
    advances what the table does by itself (the others' moves: bots thinking here, players elsewhere).
    A move of another seat is announced by `poll` before it is made, so that it may be shown on its
    way; `land` makes it. A driver polls on its own seats' turns too: a table elsewhere may move for
    one of them (its turn timer ran out), announced the same way."""

    @property
    def seats(self) -> tuple[Seat, ...]: ...

    @property
    def match(self) -> PublicMatch:
        """The match as the table sees it (a single game is a match of one round), its round in play
        last: no rack, no bag's order, no seed."""
        ...

    @property
    def state(self) -> PublicState:
        """The round in play (or the last one, once the match is over), as the table sees it."""
        ...

    @property
    def history(self) -> Sequence[TurnRecord]:
        """The turns of the round so far, oldest first, with the Joker calls made on them (another
        seat's exchange without its tiles while the round is on)."""
        ...

    @property
    def mine(self) -> tuple[int, ...]:
        """The seats this driver plays (the people at a table of this window)."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, None when the round is over."""
        ...

    @property
    def is_over(self) -> bool:
        """The round is over (the match may have more)."""
        ...

    @property
    def hints(self) -> int:
        """The hints asked for in this game (kept with it, counted apart in the history)."""
        ...

    @property
    def thinking(self) -> bool:
        """Another seat's move is on its way (`poll` to advance it)."""
        ...

    @property
    def coach_allowed(self) -> bool:
        """The coach (hints, the review) may help at this table: always at one of this process; online,
        where its creator allowed it. (Taking back a turn is not the coach's: online the others agree.)"""
        ...

    @property
    def spectator(self) -> bool:
        """The window watches this table from no seat (a table online watched): no rack, nothing to play."""
        ...

    def time_left(self) -> float | None:
        """Seconds left on the turn timer of the seat to move (None: no timer runs)."""
        ...

    @property
    def plays_again(self) -> bool:
        """`again` starts a new game here (a table of this process); online it does not: a new table is
        made from the title screen."""
        ...

    def view(self, seat: int) -> PlayerView:
        """The round as `seat` (one of `mine`) sees it: its rack, no other, no bag's order;
        IllegalMove for another seat (at a table of bots only, which a person watches, any seat)."""
        ...

    def seen(self, record: TurnRecord) -> SeenScore | None:
        """The score of `record`'s play as the table lets it be seen now (Joker: its declaration only
        while it may be called)."""
        ...

    def may_call(self, seat: int) -> bool: ...

    def undo_turns(self, seat: int) -> tuple[TurnRecord, ...]:
        """The turns `undo(seat)` would take back; IllegalMove, in words, when none may be."""
        ...

    def can_undo(self, seat: int) -> bool: ...

    def act(self, seat: int, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> TurnRecord:
        """`seat` plays, passes or exchanges (declaring under the Joker rule); IllegalMove in words."""
        ...

    def call_joker(self, seat: int) -> JokerCall: ...

    def undo(self, seat: int) -> tuple[TurnRecord, ...]:
        """Take back `seat`'s last turn and the others' after it (a reply on its way is dropped); where
        others must agree, as `undo_request`."""
        ...

    @property
    def pending_undo(self) -> UndoAsked | None:
        """The request to take back a turn that waits for answers (None: none). Never at a table of this
        process: its people share one window, and its turns are taken back at once."""
        ...

    def undo_request(self, seat: int) -> tuple[TurnRecord, ...]:
        """`seat` (one of `mine`) asks to take back its last turn (`undo_turns`): the turns taken back when
        nobody else need agree; else () and `pending_undo` holds the request until every other person
        has agreed (the turns then go back as they went: `poll`), one refuses, or a move is made.
        IllegalMove in words."""
        ...

    def answer_undo(self, seat: int, yes: bool) -> None:
        """`seat` (one of `mine`) answers `pending_undo`: yes agrees (the last yes takes the turns back),
        no refuses it; the asker's no withdraws it. IllegalMove in words (no request waits)."""
        ...

    def count_hint(self) -> int: ...

    def poll(self) -> Move | None:
        """Advance the others' turn: the move of the seat to move, once it is ready (not yet made)."""
        ...

    def land(self) -> TurnRecord:
        """Make the move `poll` announced."""
        ...

    def next_round(self) -> None: ...

    def again(self, seats: Sequence[Seat], seed: int) -> Session:
        """A new game at this table for `seats` (its people, its bots at their levels): the same
        rules, a new shuffle from `seed`; this session is not driven any more."""
        ...

    def record(self) -> Table:
        """The whole game, every rack and bag, once its round is over (nothing is hidden then): for its
        review, its replay, its export; IllegalMove while the round is on. A match not over keeps its
        seed (the next rounds' bags) to itself."""
        ...

    def close(self) -> None:
        """Stop what runs for the game (a bot thinking); the session is not driven any more."""
        ...


#: Who chooses the tile game's bots' moves (the window's `BotWorker`, a script, `InlineThinker`), from a
#: bot's level, what its seat sees and a seed.
TileThinker = Thinker[[str, PlayerView, int], Move]


class _Bots:
    """The tile game's bots, one per level, made when first asked for: each move chosen safely (a bot
    that fails is replaced by a legal move)."""

    def __init__(self) -> None:
        self._bots: dict[str, Bot] = {}

    def __call__(self, level: str, view: PlayerView, seed: int) -> Move:
        if level not in self._bots:
            self._bots[level] = make_bot(level)
        return choose_safely(self._bots[level], view, random.Random(seed))


class InlineThinker(Inline[[str, PlayerView, int], Move]):
    """The tile game's bots choosing at `start`, in this thread (the text mode): the move is ready at once."""

    def __init__(self) -> None:
        super().__init__(_Bots())


class LocalSession(AtOneWindow, EndsAtOneWindow):
    """A `Session` over a `Table` of this process: its people are this driver's seats, its bots think
    in `thinker`, and `keeper` (None: nowhere) keeps it."""

    def __init__(
        self, table: Table, thinker: TileThinker | None = None, keeper: Keeps[Table, Table] | None = None
    ) -> None:
        self.table = table
        self.thinker: TileThinker = thinker if thinker is not None else InlineThinker()
        self.keeper = keeper
        self._request: BotRequest | None = None
        self._coming: Move | None = None
        self._match: tuple[Match, PublicMatch] | None = None

    @classmethod
    def new(
        cls,
        seats: Sequence[Seat],
        options: RuleOptions,
        seed: int,
        thinker: TileThinker | None = None,
        keeper: Keeps[Table, Table] | None = None,
    ) -> LocalSession:
        return cls(Table.new(seats, options, seed), thinker, keeper)

    # --- the questions ---

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.table.seats

    @property
    def match(self) -> PublicMatch:
        match = self.table.match
        if self._match is None or self._match[0] is not match:  # built once per position: drivers ask often
            self._match = (match, public_match(match, self._shown))
        return self._match[1]

    @property
    def state(self) -> PublicState:
        return self.match.game

    @property
    def history(self) -> Sequence[TurnRecord]:
        records = tuple(self.table.history)
        if self.table.state.is_over:
            return records
        shown = self.state.turns
        return tuple(r if r.turn == t else replace(r, turn=t) for r, t in zip(records, shown, strict=True))

    @property
    def mine(self) -> tuple[int, ...]:
        return self.table.people

    @property
    def to_move(self) -> int | None:
        return self.table.to_move

    @property
    def is_over(self) -> bool:
        return self.table.state.is_over

    @property
    def hints(self) -> int:
        return self.table.hints

    @property
    def thinking(self) -> bool:
        return self._request is not None

    @property
    def coach_allowed(self) -> bool:
        return True

    def time_left(self) -> float | None:
        return None

    @property
    def plays_again(self) -> bool:
        return True

    def view(self, seat: int) -> PlayerView:
        if seat not in self._shown:
            raise IllegalMove(f"seat {seat + 1} is not played here")
        return self.table.view(seat)

    @property
    def _shown(self) -> tuple[int, ...]:
        """The seats whose racks this driver may see: its own; every one at a table of bots only, which
        hides nothing from the person watching it."""
        return self.mine or tuple(range(len(self.table.seats)))

    def seen(self, record: TurnRecord) -> SeenScore | None:
        return self.table.seen(record)

    def may_call(self, seat: int) -> bool:
        return self.table.may_call(seat)

    def undo_turns(self, seat: int) -> tuple[TurnRecord, ...]:
        return self.table.undo_turns(seat)

    def can_undo(self, seat: int) -> bool:
        return self.table.can_undo(seat)

    # --- the acts of this driver's seats ---

    def _check_mine(self, seat: int) -> None:
        if seat not in self.mine:
            raise IllegalMove(f"seat {seat + 1} is not played here")

    def act(self, seat: int, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> TurnRecord:
        self._check_mine(seat)
        if self.table.to_move is not None and self.table.to_move != seat:
            raise IllegalMove(f"it is {self.table.seats[self.table.to_move].name}'s turn")
        return self.table.play(move, declared, claimed)

    def call_joker(self, seat: int) -> JokerCall:
        self._check_mine(seat)
        return self.table.call_joker(seat)

    def undo(self, seat: int) -> tuple[TurnRecord, ...]:
        taken = self.table.undo_turns(seat)
        self._drop()  # a bot thinking about a reply that will never be made
        self.table.undo(seat)
        return taken

    @property
    def pending_undo(self) -> UndoAsked | None:
        return None

    def undo_request(self, seat: int) -> tuple[TurnRecord, ...]:
        self._check_mine(seat)
        return self.undo(seat)

    def answer_undo(self, seat: int, yes: bool) -> None:
        raise IllegalMove("no one is asking to take back a move at this table")

    def count_hint(self) -> int:
        return self.table.count_hint()

    def resign(self, seat: int) -> None:
        """`seat` (a person here) gives the game up: the bots (or the others here) win; a bot thinking stops."""
        self._check_mine(seat)
        self.table.resign(seat)
        self._drop()

    # --- what the table does by itself ---

    def poll(self) -> Move | None:
        if self._coming is not None:
            return self._coming
        if not self.table.bot_to_move:
            self._request = None
            return None
        if self._request is None:
            self._request = self.table.bot_request()
            self.thinker.start(self._request.level, self._request.view, self._request.seed)
            return None
        move = self.thinker.result()
        if move is None:
            if not self.thinker.busy:  # the request was dropped (a cancelled move): ask again
                self._request = None
            return None
        self._coming = move
        return move

    def land(self) -> TurnRecord:
        move, request = self._coming, self._request
        if move is None:
            raise IllegalMove("no move is on its way")
        self._coming = self._request = None
        return self.table.play_bot(move, request)

    def _drop(self) -> None:
        self.thinker.cancel()
        self._request = self._coming = None

    def next_round(self) -> None:
        self._drop()
        self.table.next_round()

    def again(self, seats: Sequence[Seat], seed: int) -> LocalSession:
        self.close()
        return LocalSession.new(seats, self.table.options, seed, self.thinker, self.keeper)

    def save(self) -> None:
        if self.keeper is not None:
            self.keeper.save(self.table)

    def finish(self) -> None:
        if self.keeper is not None and self.table.round_over and self.table.match_over:
            self.keeper.record(self.table)

    def incidents(self) -> tuple[str, ...]:
        told = tuple(self.thinker.incidents)
        self.thinker.incidents.clear()
        return told

    def record(self) -> Table:
        if not self.table.state.is_over:
            raise IllegalMove("the round is still being played")
        if self.table.match.is_over:
            return self.table
        table = self.table
        return Table(table.seats, replace(table.match, seed=0), table.history, undos=table.undos, hints=table.hints)

    def close(self) -> None:
        self._drop()
