"""The window's own game as the window and its screens know it, whichever game it is (issue 45): the part
of the registry that plays it (`OwnGame`, the entry's `HOME`), the session at its table (`HomeSession`)
and the scene over it (`HomeScene`). The game's own verbs are its part's and its scene's: the window, the
title's menus and online play ask only these."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cribtiles.table import Seat
from cribtiles.table.session import GameSession

from .scene import Scene
from .screens import Item


class HomeSession(GameSession[object, Any, object, object], Protocol):
    """The session at the table of the window's own game: here, or a table online of that game."""

    @property
    def state(self) -> object:
        """The game at the table as its seats are shown it (the window's title scores it: `OwnGame.scores`)."""
        ...

    @property
    def plays_again(self) -> bool:
        """This window's own table, which it keeps aside while one online is played."""
        ...

    @property
    def where(self) -> tuple[str, str] | None:
        """The server and the code of a table online (None: a table of this window)."""
        ...

    def leave(self) -> None:
        """Let a table online go for good (aborted, or left once over)."""
        ...


class HomeScene(Scene, Protocol):
    """The scene of the window's own game at its table."""

    def relayout(self) -> None: ...

    def toast(self, text: str, seconds: float = ...) -> None: ...

    def nothing_to_cancel(self) -> bool:
        """Escape has nothing of the table's own to cancel (a drag, a pending Joker): it opens the title."""
        ...


class OwnGame(Protocol):
    """The window's own game, at the bottom of its stack, as its registry part (`HOME`) plays it."""

    def first_session(self, saved: object | None) -> HomeSession:
        """The session the window opens on: `saved` resumed, else a fresh one."""
        ...

    def fresh_session(self) -> HomeSession: ...

    def scene(self, session: Any, notice: str = "") -> HomeScene:
        """The table's scene playing `session` (one of this game's), from now on the window's game."""
        ...

    def at_table(self, scene: object) -> bool:
        """`scene` is the game's table or its end card, whose keys are the table's."""
        ...

    def takes_text(self, scene: object) -> bool: ...

    def warm_up(self) -> None: ...

    def scores(self, state: object) -> str:
        """The score of `state` for the window's title: "You 12 · Hard 9"."""
        ...

    @property
    def unfinished(self) -> bool:
        """The game (or match) at the table is not over: the title offers to Continue it."""
        ...

    @property
    def next_is_round(self) -> bool: ...

    def welcome(self) -> tuple[str, str]:
        """The title's welcome at the window's first start, and the label of the item it points to."""
        ...

    def title_items(self) -> list[Item]:
        """The title's items of this game beside each game's way in (the tile game: its tutorial, puzzles)."""
        ...

    def takes_level_key(self, top: object) -> bool:
        """L at `top` (the table or its end card) changes the bot's level (`cycle_level`)."""
        ...

    def cycle_level(self) -> None: ...

    def start(self, seats: Sequence[Seat], options: object, seed: int | None = None) -> None: ...

    def new_game(self) -> None: ...

    def open_new_game(self) -> None: ...

    def show_end(self, game: object) -> None: ...
