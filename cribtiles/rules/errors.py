"""The errors of the rules engine, by kind: bad notation is not an illegal move.

Every message is written for a player: it says what is wrong in the words of the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .squares import Square


class NotationError(ValueError):
    """Text that does not follow the notation of rules.md section 7."""


class IllegalMove(ValueError):
    """A move the rules do not allow; the message says why in a player's words.

    `lines` holds, for a play, the squares of each line at fault (each bad line, or the placed
    tiles when their placement itself is wrong), so that a window can mark them."""

    def __init__(self, message: str, lines: tuple[tuple[Square, ...], ...] = ()) -> None:
        super().__init__(message)
        self.lines = lines


class RecordError(ValueError):
    """A game record that cannot be read: damaged, of an unknown version, or not replayable."""
