"""Rows of the history database, written and read with care: a change is one transaction (rolled back
whole if anything fails), a game's row and its rows in other tables are read in one, and every value read
back is checked by kind (a history may have been edited by hand): a row that cannot be understood is left
out, and said.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

from .files import brief

log = logging.getLogger("cribtiles.history")

T = TypeVar("T")
SAID = 3  # rows not understood that are said one by one (more are said in one line)
LOGGED = 5  # rows not understood that the log names one by one (the rest it counts)
Row = tuple[object, ...]


@contextlib.contextmanager
def writing(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: committed when the block ends, rolled back if it raises (anything, even
    Ctrl-C). A block that writes nothing may return early: its commit changes nothing."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


def stored_id(conn: sqlite3.Connection, table: str, key: str) -> int | None:
    """The id of the row of `table` (a name of this module's callers, never the player's) with `key`."""
    row = conn.execute(f"SELECT id FROM {table} WHERE key = ?", (key,)).fetchone()
    return None if row is None else int(row[0])


def rows_and_children(
    conn: sqlite3.Connection, parents: str, children: Mapping[str, str], params: tuple[object, ...]
) -> tuple[list[Row], dict[str, dict[object, list[Row]]]]:
    """The rows of the `parents` query, and by name those of each `children` query (whose first column is
    the parent's id), by parent id, without that column: read in one transaction, so they agree."""
    conn.execute("BEGIN")
    try:
        rows = conn.execute(parents, params).fetchall()
        kids: dict[str, dict[object, list[Row]]] = {}
        for name, query in children.items():
            by_parent = kids[name] = {}
            for child in conn.execute(query, params):
                by_parent.setdefault(child[0], []).append(child[1:])
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("COMMIT")
    return rows, kids


def each_understood(
    rows: list[Row],
    kids: dict[str, dict[object, list[Row]]],
    build: Callable[[Row, dict[str, list[Row]]], T],
    what: str,
    say: Callable[[str], None],
) -> list[T]:
    """`build(row, its children by name)` of every row that can be understood; the others are left out and
    said (`left_out`), in one line when they are many."""
    out = []
    bad: list[tuple[object, str]] = []
    for row in rows:
        try:
            out.append(build(row, {name: by_parent.get(row[0], []) for name, by_parent in kids.items()}))
        except (TypeError, ValueError) as e:
            bad.append((row[0], brief(str(e))))
    for line in left_out(what, bad):
        say(line)
    return out


def left_out(what: str, bad: list[tuple[object, str]]) -> list[str]:
    """The messages for the rows of `what` (by id, with the reason) that could not be read, also logged:
    a line each when they are few ("Game 3 of the history could not be read (…); it is left out."), else
    one line for them all (20,000 lines would bury whatever else there is to say); the log names the
    first few.

    >>> left_out("Game", [(3, "its seed is not a whole number")])
    ['Game 3 of the history could not be read (its seed is not a whole number); it is left out.']
    >>> left_out("Game", [(n, "its score is not a whole number") for n in range(2, 20002)])
    ['20,000 games of the history could not be read (game 2: its score is not a whole number, …); they are left out.']
    """
    for row_id, reason in bad[:LOGGED]:
        log.warning("%s %s of the history could not be read: %s", what.lower(), row_id, reason)
    if len(bad) > LOGGED:
        log.warning("... and %d more %ss of the history could not be read", len(bad) - LOGGED, what.lower())
    if len(bad) <= SAID:
        return [
            f"{what} {row_id} of the history could not be read ({reason}); it is left out." for row_id, reason in bad
        ]
    (first, reason), lower = bad[0], what.lower()
    return [
        f"{len(bad):,} {lower}s of the history could not be read ({lower} {first}: {reason}, …); they are left out."
    ]


def whole(value: object, what: str) -> int:
    """`value` if it is a whole number (not a bool), else TypeError naming `what`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"its {what} is not a whole number")
    return value


def text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"its {what} is not text")
    return value


def flag(value: object, what: str) -> bool:
    """A 0 or 1 as a bool; ValueError for any other number."""
    if whole(value, what) not in (0, 1):
        raise ValueError(f"its {what} is neither 0 nor 1")
    return bool(value)
