"""Quoting what a message was given, for both games and every layer above them: never a whole huge
value, never a control character. Standard library only, beneath both engines."""

from __future__ import annotations

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
