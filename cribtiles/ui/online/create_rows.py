"""What a game's rows of the online Create screen answer (its `CREATE_FORM` part in `cribtiles.games`, made
with the function that lays the screen's rows out again when the game's own rows change, given the row to
keep in focus): its rows after the Game row, the other seats it shows, its rules as `--rules` writes them,
and its own of the table's settings."""

from __future__ import annotations

from typing import Any, Protocol

from .form import Row

#: An open seat, for a friend to take with the table's code: a choice of every game's seat rows.
FRIEND = ("friend", "a friend (an open seat)")


class GameForm(Protocol):
    """A game's rows of the Create screen."""

    words: str  # the game as the Game row names it: "Classic cribbage"

    def rows(self, timer: Row, absent: Row) -> list[Row]:
        """Its rows after the Game row, with the table's turn timer and absent-bot rows where it has them."""
        ...

    def shown_seats(self) -> list[Row]:
        """The rows of the seats besides yours that it shows, in order (a friend, a bot's level, or "none")."""
        ...

    def rules_text(self) -> str:
        """The rules as `--rules` writes them (ValueError in words)."""
        ...

    def settings(self) -> dict[str, Any]:
        """Its own of the table's settings, beside the rules, the timer and the absent bot."""
        ...
