"""A finished game of either game as rows of the history database (schema 8 of `cribtiles.app.history`): its
row of `games`, its seats, and its game's own details in tables keyed by the game's id. How a game is
stored (in one transaction, once by its key) and read back, every value checked by kind (a history may
have been edited by hand). Each game's own details are written and read by its `STORED` part
(`app/tiles/stored.py`, `app/cribbage/stored.py`). To change how a game is stored: its migration in
`history`, the tables' columns here, and the game's part.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from cribtiles.games import STORED, game_named
from cribtiles.quoting import quoted
from cribtiles.table.game_summary import Details, Game, GameSummary

from .sqlrows import Row, each_understood, rows_and_children, stored_id, text, whole, writing

#: Rows by the table they go in (a game's rows of `seats`, `tile_details`, ..., without the game's id).
Rows = Mapping[str, Sequence[Row]]

GAME_COLUMNS = ("id", "key", "game", "finished_at", "seed", "record", "unfinished")
#: The tables of a game's rows beside `games`: their columns (the game's id first) and their order.
CHILDREN: dict[str, tuple[tuple[str, ...], str]] = {
    "seats": (("game_id", "seat", "name", "level", "score", "winner"), "seat"),
    "tile_details": (
        ("game_id", "mode", "options", "rounds", "turns", "undos", "hints", "best_play", "highest_line"),
        "game_id",
    ),
    "cribbage_details": (
        ("game_id", "muggins", "target", "margin", "deals", "pegged_0", "pegged_1", "undos", "hints"),
        "game_id",
    ),
    "cribbage_counts": (
        ("game_id", "deal", "step", "owner", "crib", "cards", "starter", "points", "declared"),
        "deal, step",
    ),
    "cribbage_figures": (("game_id", "counting", "muggins_0", "muggins_1"), "game_id"),  # schema 7: none before
    # schema 8: a game of another variant than six-card only; its third and fourth seats' figures
    "cribbage_variants": (("game_id", "variant", "pegged_2", "pegged_3", "muggins_2", "muggins_3"), "game_id"),
}
_SEED = re.compile(r"-?[0-9]{1,4000}")
D = TypeVar("D", bound=Details)


@dataclass(frozen=True)
class Stored(Generic[D]):
    """A game's part of the history database (its `STORED` part in `cribtiles.games`): its details as its
    rows (by table, without the game's id, in `CHILDREN`'s tables), read back from them (every value checked
    by kind; TypeError or ValueError in words), and how the history's messages name a game of it."""

    words: str  # "This game of cribbage"
    rows: Callable[[D], dict[str, tuple[Row, ...]]]
    details: Callable[[Rows], D]


# --- writing ---


def rows_of(s: GameSummary) -> tuple[Row, dict[str, tuple[Row, ...]]]:
    """`s` as its row of `games` (its id first) and its other rows by table (without the game's id), as
    `read` gets them back and `summary_of` rebuilds `s` from them."""
    row = (s.id, s.key, s.game.value, s.finished_at, str(s.seed), s.record, int(s.unfinished))
    seats = tuple((i, name, level, s.scores[i], int(i in s.winners)) for i, (name, level) in enumerate(s.seats))
    stored: Stored[Details] = game_named(s.game).part(STORED)
    return row, {"seats": seats, **stored.rows(s.details)}


def insert(conn: sqlite3.Connection, s: GameSummary) -> int:
    """Store `s` in one transaction; its id (the stored game's, when one with its key is there)."""
    row, children = rows_of(s)
    with writing(conn):
        stored = stored_id(conn, "games", s.key)
        if stored is not None:
            return stored
        columns = GAME_COLUMNS[1:]
        cur = conn.execute(f"INSERT INTO games ({', '.join(columns)}) VALUES ({_marks(columns)})", row[1:])
        game_id = int(cur.lastrowid or 0)
        for table, rows in children.items():
            names = CHILDREN[table][0]
            sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({_marks(names)})"
            conn.executemany(sql, [(game_id, *r) for r in rows])
    return game_id


def _marks(columns: Sequence[str]) -> str:
    return ", ".join("?" * len(columns))


# --- reading ---


def read(
    conn: sqlite3.Connection, where: str, params: tuple[object, ...], say: Callable[[str], None]
) -> list[GameSummary]:
    """The games (of `where`, on `id`), oldest first, read in one transaction; a game whose rows cannot be
    understood is left out, and said."""
    child_where = where.replace("WHERE id", "WHERE game_id")
    children = {
        table: f"SELECT {', '.join(names)} FROM {table} {child_where} ORDER BY game_id, {order}"
        for table, (names, order) in CHILDREN.items()
    }
    rows, kids = rows_and_children(
        conn, f"SELECT {', '.join(GAME_COLUMNS)} FROM games {where} ORDER BY id", children, params
    )
    return each_understood(rows, kids, summary_of, "Game", say)


def summary_of(row: Row, children: Rows) -> GameSummary:
    """The game of its row of `games` and its other rows, every value checked by kind; TypeError or
    ValueError in words."""
    if len(row) != len(GAME_COLUMNS):
        raise ValueError("it is not a row of a game")
    game_id, key, game, finished_at, seed, record, unfinished = row
    try:
        kind = Game(text(game, "game"))
    except ValueError:
        raise ValueError(f"its game {quoted(game)} is not one this version of Crib Tiles knows") from None
    stored: Stored[Details] = game_named(kind).part(STORED)
    seed_text = text(seed, "seed")
    if not _SEED.fullmatch(seed_text):
        raise ValueError("its seed is not a whole number")
    seats = list(children.get("seats", ()))
    if [whole(s[0], "seat") for s in seats] != list(range(len(seats))):
        raise ValueError("its seats are not numbered in order")
    return GameSummary(
        id=whole(game_id, "id"),
        key=text(key, "key"),
        game=kind,
        finished_at=text(finished_at, "time"),
        seed=int(seed_text),
        seats=tuple(
            (text(name, "player's name"), None if lv is None else text(lv, "level")) for _, name, lv, *_ in seats
        ),
        scores=tuple(whole(s[3], "score") for s in seats),
        winners=tuple(i for i, s in enumerate(seats) if whole(s[4], "winner")),
        record=text(record, "record"),
        details=stored.details(children),
        unfinished=bool(whole(unfinished, "unfinished mark")),
    )


def one(children: Rows, table: str) -> Row:
    """The one row of a game's rows of `table`; ValueError in words for none or more."""
    rows = children.get(table, ())
    if len(rows) != 1:
        raise ValueError(f"it has {len(rows)} rows of {table}, not one")
    return rows[0]


# --- a kept write (`history_pending`) ---


def tagged(children: Mapping[str, Sequence[Row]]) -> tuple[Row, ...]:
    """A game's other rows in one list, each with its table's name first (as a kept write holds them)."""
    return tuple((table, *r) for table, rows in children.items() for r in rows)


def untagged(rows: Sequence[Row]) -> dict[str, list[Row]]:
    """`tagged`'s rows by their table again; ValueError for a row of no table of a game."""
    out: dict[str, list[Row]] = {}
    for r in rows:
        if not r or r[0] not in CHILDREN:
            raise ValueError("a row of it is of no table of a game")
        out.setdefault(str(r[0]), []).append(r[1:])
    return out


def legacy_summary(kind: str, row: Row, children: Sequence[Row]) -> GameSummary:
    """A game kept for the history by a Crib Tiles before schema 5, in the rows it wrote then: a tile game
    ("game": its row of the old `games` and its seats) or a game of cribbage ("cribbage": its row of
    `cribbage_games` and its counts); TypeError or ValueError in words."""
    if kind == "game":
        if len(row) != 14:
            raise ValueError("it is not a row of a game")
        game_id, key, finished_at, mode, options, seed, *figures, record, unfinished = row
        new = (game_id, key, Game.TILES.value, finished_at, seed, record, unfinished)
        return summary_of(new, {"seats": children, "tile_details": [(mode, options, *figures)]})
    if len(row) != 18:
        raise ValueError("it is not a row of a game of cribbage")
    (game_id, key, finished_at, seed, level, muggins, target, person, name_0, name_1, score_0, score_1, winner,
     margin, deals, pegged_0, pegged_1, record) = row  # fmt: skip
    seats = [
        (seat, name, None if person == seat else level, score, int(winner == seat))
        for seat, name, score in ((0, name_0, score_0), (1, name_1, score_1))
    ]
    new = (game_id, key, Game.CRIBBAGE.value, finished_at, seed, record, 0)
    details = (muggins, target, margin, deals, pegged_0, pegged_1)
    return summary_of(new, {"seats": seats, "cribbage_details": [details], "cribbage_counts": children})
