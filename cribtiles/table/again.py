"""How a game at a table ends besides its rules, and how a finished table is played again, as both games'
sessions share it: a person resigns; a table elsewhere may be aborted before its first move, played again
once every person there agrees (`AgainAsked` while the request waits, `NextTable` once it is made), or let
go of (`leave`). A table at this window has nobody elsewhere to ask: a new game is made here (issue 44)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from cribtiles.rules.errors import IllegalMove

#: Why a table at this window is not played again by asking: nobody is elsewhere, a new game is made here.
NOBODY_TO_ASK = "everyone at this table is at this window: a new game is started here, nobody need be asked"


@dataclass(frozen=True)
class AgainAsked:
    """A request to play the finished table again that waits: who asked, who agreed, who is still to
    answer (the server's bots agree by themselves)."""

    asker: int
    agreed: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()


@dataclass(frozen=True)
class NextTable:
    """Where the people of a finished table play again: its server, the table they leave, the new table's
    code, this seat there (its name, the same as at the table left), the game, and the seat's token (a
    secret: never shown)."""

    server: str
    left: str
    code: str
    seat: int
    name: str
    game: str
    token: str = field(repr=False)


class TableEnds(Protocol):
    """What a driver asks of a game's session about the table's end besides the rules."""

    def resign(self, seat: int) -> None:
        """`seat` (one of the driver's) gives the game up: it ends, the others win. IllegalMove in words."""
        ...

    @property
    def pending_again(self) -> AgainAsked | None:
        """The request to play the finished table again that waits for answers (None: none)."""
        ...

    def ask_again(self, seat: int) -> None:
        """`seat` asks the others to play the finished table again (a table elsewhere; at this window a
        new game is simply started). IllegalMove in words."""
        ...

    def answer_again(self, seat: int, yes: bool) -> None:
        """`seat` agrees to `pending_again`, or refuses it (the asker's no withdraws it)."""
        ...

    @property
    def next_table(self) -> NextTable | None:
        """The new table once everyone agreed to play again (None before, and at this window)."""
        ...

    @property
    def played_again_at(self) -> str | None:
        """The new table's code once the finished table is played again (told to spectators too, who may
        watch it); None before, and at this window."""
        ...

    @property
    def aborted(self) -> bool:
        """The table was aborted before its first move: there is no game to play at it."""
        ...

    def leave(self) -> None:
        """Let the table go for good (a table elsewhere leaves this player's list of games); the session
        is not driven any more."""
        ...


class EndsAtOneWindow:
    """`TableEnds` at a table of this window, less `resign` (each game's own): nobody elsewhere to ask,
    nothing aborted from elsewhere, and leaving is closing."""

    @property
    def pending_again(self) -> AgainAsked | None:
        return None

    def ask_again(self, seat: int) -> None:
        raise IllegalMove(NOBODY_TO_ASK)

    def answer_again(self, seat: int, yes: bool) -> None:
        raise IllegalMove("no one is asking to play again at this table")

    @property
    def next_table(self) -> NextTable | None:
        return None

    @property
    def played_again_at(self) -> str | None:
        return None

    @property
    def aborted(self) -> bool:
        return False

    def close(self) -> None: ...

    def leave(self) -> None:
        self.close()
