"""The errors of the rules engine, by kind: bad notation is not an illegal move.

Every message is written for a player: it says what is wrong in the words of the rules.
"""

from __future__ import annotations


class NotationError(ValueError):
    """Text that does not follow the notation of rules.md section 7."""


class IllegalMove(ValueError):
    """A move the rules do not allow; the message says why in a player's words."""


class RecordError(ValueError):
    """A game record that cannot be read: damaged, of an unknown version, or not replayable."""
