"""What reaches the terminal: every control character of data written as its escape, every message cut
to a bounded length, and a command-line parser whose refusals do the same. Standard library only,
below every other layer (the arenas' parsers in `table` use it as the commands in `app` do)."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO, TypeVar

#: characters: the most of a message (an error, a refusal) that reaches the terminal. Each value a
#: message quotes is cut far shorter where it is quoted (`cribtiles.quoting.quoted`); this is
#: the last bound, for what nobody foresaw (a path, an argument argparse echoes unquoted).
MAX_MESSAGE = 500
#: characters: the most of one quoted value in argparse's own refusals ("invalid int value: '…'").
QUOTE = 60

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def for_terminal(text: str) -> str:
    r"""`text` with every control character but the line break written as its escape, so that nothing
    read from a file (a name in the history) can retitle, clear or ring the terminal it is printed on.

    >>> for_terminal("Ann\x1b]0;PWNED\x07 won")
    'Ann\\x1b]0;PWNED\\x07 won'
    """
    return "".join(c if c == "\n" or c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def json_for_terminal(text: str) -> str:
    r"""A JSON document with every control character written as a JSON escape (`\u0085`), so that it
    stays the same JSON and passes nothing to the terminal (`json.dumps(..., ensure_ascii=False)`
    escapes only those below 0x20).

    >>> json_for_terminal('{"name": "Ann\x85\u2028"}')
    '{"name": "Ann\\u0085\\u2028"}'
    """
    return "".join(c if c == "\n" or c.isprintable() else _json_escape(c) for c in text)


def _json_escape(c: str) -> str:
    code = ord(c)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a character beyond the first plane: its UTF-16 surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def cut_quotes(text: str, limit: int = QUOTE) -> str:
    """`text` with each part in quotes cut to `limit` characters ("…" before its closing quote).

    >>> cut_quotes("invalid int value: '" + "9x" * 50 + "'", 12)
    "invalid int value: '9x9x9x9x9…'"
    """

    def cut(m: re.Match[str]) -> str:
        part = m[0]
        return part if len(part) <= limit else f"{part[: limit - 2]}…{part[0]}"

    return _QUOTED.sub(cut, text)


def bounded(message: str, limit: int = MAX_MESSAGE) -> str:
    r"""A message as it may reach the terminal: control characters as their escapes, at most `limit`
    characters ("…" when cut).

    >>> bounded("no file \x1b[2J" + "x" * 100, 20)
    'no file \\x1b[2Jxxxx…'
    """
    text = for_terminal(message)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def say(message: str) -> None:
    """Print a message (an error, a note) on standard error, bounded and with no control character."""
    print(bounded(message), file=sys.stderr)


class Parser(argparse.ArgumentParser):
    """argparse, whose refusals quote at most QUOTE characters of a value and no control character:
    `--seed` of 100 KB is not echoed whole, nor an escape given as `--level`."""

    def error(self, message: str) -> NoReturn:
        head, unknown, rest = message.partition("unrecognized arguments: ")  # argparse quotes none of them
        if unknown and len(rest) > QUOTE:
            message = f"{head}{unknown}{rest[: QUOTE - 1]}…"
        super().error(bounded(cut_quotes(message)))


def parsed(
    prog: str, add_arguments: Callable[[argparse.ArgumentParser], None], argv: Sequence[str]
) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """A command's own parser (`prog`, its arguments added by `add_arguments`) and what it made of
    `argv`, for a command run on its own (`python -m cribtiles.table.arena`) rather than as a
    subcommand of `cribtiles`; refusals exit with code 2."""
    ap = Parser(prog=prog)
    add_arguments(ap)
    return ap, ap.parse_args(list(argv))


class ProgressLine:
    """'Reviewing turn 12 of 41…' on one line of a terminal, rewritten as the work goes (`unit`: what is
    counted)."""

    def __init__(self, stream: TextIO, unit: str = "turn") -> None:
        self.stream = stream
        self.unit = unit
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        unit = self.unit
        text = f"Reviewing {unit} {min(done + 1, total)} of {total}…" if done < total else f"Reviewed {total} {unit}s."
        self.width = max(self.width, len(text))
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()

    def clear(self) -> None:
        self.stream.write("\r" + " " * self.width + "\r")
        self.stream.flush()


Reviewed = TypeVar("Reviewed")


def print_review(
    review: Callable[[ProgressLine | None], Reviewed],
    as_json: Callable[[Reviewed], object],
    as_text: Callable[[Reviewed], str],
    json_wanted: bool,
    stderr: TextIO,
    unit: str,
) -> int:
    """`cribtiles review` of either game: `review(progress)` made, its progress a line on `stderr` when that
    is a terminal (not with JSON), then printed as JSON or as text with no control character from the data;
    0, or 130 when Ctrl-C stopped it (said in words)."""
    import json

    progress = ProgressLine(stderr, unit) if stderr.isatty() and not json_wanted else None
    try:
        made = review(progress)
    except KeyboardInterrupt:
        if progress is not None:
            progress.clear()
        say("cribtiles review: interrupted")
        return 130
    if progress is not None:
        progress.clear()
    if json_wanted:
        print(json_for_terminal(json.dumps(as_json(made), ensure_ascii=False)))
    else:
        print(for_terminal(as_text(made)))
    return 0
