"""The errors of the rules engine, by kind: bad notation is not an illegal move.

Every message is written for a player: it says what is wrong in the words of the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .squares import Square

#: A message quotes at most this many characters of what it was given (a 100 KB option, a line of a
#: binary file): enough to recognise it, never a screenful.
QUOTE = 40


def quoted(value: object, limit: int = QUOTE) -> str:
    r"""`value` as a message quotes it: text in quotes, control characters as their escapes (`repr`),
    cut to `limit` characters with "…" when longer, so that no message echoes a whole huge value or
    passes an escape or a bell to the terminal. Anything else (read from a file) as its short `repr`.

    >>> quoted("f7=4L"), quoted("x" * 100, 10), quoted("Ann\x1b]0;PWNED\x07"), quoted([1, 2])
    ("'f7=4L'", "'xxxxxxxxx…'", "'Ann\\x1b]0;PWNED\\x07'", '[1, 2]')
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        cut = repr(value[: limit - 1])
        return f"{cut[:-1]}…{cut[-1]}"
    try:
        shown = repr(value)
    except ValueError:  # an integer of more digits than Python will write out
        return f"a {type(value).__name__} far too large"
    return shown if len(shown) <= limit else f"{shown[: limit - 1]}…"


def unquoted(text: str, limit: int = QUOTE) -> str:
    r"""`quoted(text)` without its quotes, for a part of a value the message has quoted already.

    >>> unquoted("X"), unquoted("\x07")
    ('X', '\\x07')
    """
    return quoted(text, limit)[1:-1]


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
