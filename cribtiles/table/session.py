"""A game as a window or the text mode drives it, whichever game: `GameSession`, the verbs both games'
sessions answer (each game's adds its own: the tile game's `tiles.session.Session`, cribbage's
`cribbage.session.CribbageDriver`), and `UndoAsked`. A remote table is one more session
(`cribtiles.online`): the drivers never ask which one they hold (issues 30, 31, 45).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

from .chat import Talker
from .seats import Seat

V_co = TypeVar("V_co", covariant=True)  # what a seat sees of the game
A_contra = TypeVar("A_contra", contravariant=True)  # a seat's action
A_co = TypeVar("A_co", covariant=True)  # another seat's action, announced
R_co = TypeVar("R_co", covariant=True)  # what an action made of the game, as the table tells it


class GameSession(Talker, Protocol[V_co, A_contra, A_co, R_co]):
    """The game-neutral verbs of a game at a table, for the seats a driver controls (`mine`): both
    games' sessions have them; each adds its own (the tile game's Joker calls and declarations,
    cribbage's muggins)."""

    @property
    def seats(self) -> tuple[Seat, ...]: ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def thinking(self) -> bool: ...

    def view(self, seat: int) -> V_co:
        """What `seat`, one of `mine`, sees; IllegalMove (in words) for another seat."""
        ...

    def act(self, seat: int, action: A_contra) -> R_co: ...

    def poll(self) -> A_co | None: ...

    def land(self) -> R_co: ...

    def save(self) -> None:
        """Keep the game as it stands (after every turn: quitting never loses one)."""
        ...

    def finish(self) -> None:
        """The game (or match) is over: it goes into the history (once, however often asked)."""
        ...

    def incidents(self) -> tuple[str, ...]:
        """What happened at the table since last asked, in words: what went wrong with another seat's
        move (a bot replaced); online, the connection lost and back, who went away, the lines said."""
        ...

    def here(self, present: bool) -> None:
        """Whether the player looks at this table now: online, only the table on screen is "here" for the
        others (a table of this window has no one elsewhere to tell)."""
        ...

    def about(self, seat: int) -> tuple[str, ...]:
        """What the table says of `seat` beside its name, a few words each (online: "away 3 min"); nothing
        at a table of this window."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class UndoAsked:
    """A request to take back `asker`'s last turn that waits for the other people at the table: those who
    have `agreed`, those still `waiting` to answer (a table elsewhere: every other person seated must
    agree; its bots agree by themselves)."""

    asker: int
    agreed: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()
