"""The finished games of classic cribbage in the history database: their tables (migration 3 of
`cribtiles.app.history`), how a game is stored (in one transaction, once by its key) and read back,
every value checked by kind (a history may have been edited by hand).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

from cribtiles.cribbage.events import MarginKind
from cribtiles.quoting import quoted
from cribtiles.table.cribbage_ledger import CribbageGame, ShowCount

from .sqlrows import each_understood, flag, rows_and_children, stored_id, text, whole, writing

#: Migration 3: a game of cribbage per row, both seats in it (a game has two, always), and the counts
#: of its show apart, one row each, for the average and best hands. A seed is text, as in `games`.
MIGRATION = (
    """CREATE TABLE cribbage_games (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        finished_at TEXT NOT NULL,
        seed TEXT NOT NULL,
        level TEXT NOT NULL,
        muggins INTEGER NOT NULL,
        target INTEGER NOT NULL,
        person INTEGER NOT NULL,
        name_0 TEXT NOT NULL,
        name_1 TEXT NOT NULL,
        score_0 INTEGER NOT NULL,
        score_1 INTEGER NOT NULL,
        winner INTEGER NOT NULL,
        margin TEXT NOT NULL,
        deals INTEGER NOT NULL,
        pegged_0 INTEGER NOT NULL,
        pegged_1 INTEGER NOT NULL,
        record TEXT NOT NULL
    )""",
    """CREATE TABLE cribbage_shows (
        game_id INTEGER NOT NULL REFERENCES cribbage_games (id) ON DELETE CASCADE,
        deal INTEGER NOT NULL,
        step INTEGER NOT NULL,
        owner INTEGER NOT NULL,
        crib INTEGER NOT NULL,
        cards TEXT NOT NULL,
        starter TEXT NOT NULL,
        points INTEGER NOT NULL,
        declared INTEGER NOT NULL,
        PRIMARY KEY (game_id, deal, step)
    ) WITHOUT ROWID""",
    "CREATE INDEX cribbage_games_by_time ON cribbage_games (finished_at)",
)

_COLUMNS = (
    "id, key, finished_at, seed, level, muggins, target, person, name_0, name_1, score_0, score_1, winner, "
    "margin, deals, pegged_0, pegged_1, record"
)
_SHOW_COLUMNS = "game_id, deal, step, owner, crib, cards, starter, points, declared"
_SEED = re.compile(r"-?[0-9]{1,4000}")
_CARDS = re.compile(r"[A2-9TJQK][SHDC]( [A2-9TJQK][SHDC]){3}")
_CARD = re.compile(r"[A2-9TJQK][SHDC]")


def insert(conn: sqlite3.Connection, g: CribbageGame) -> int:
    """Store `g` in one transaction; its id (the stored game's, when one with its key is there)."""
    row, shows = rows_of(g)
    with writing(conn):
        stored = stored_id(conn, "cribbage_games", g.key)
        if stored is not None:
            return stored
        values = row[1:]
        marks = ", ".join("?" * len(values))
        cur = conn.execute(f"INSERT INTO cribbage_games ({_COLUMNS.removeprefix('id, ')}) VALUES ({marks})", values)
        game_id = int(cur.lastrowid or 0)
        conn.executemany(
            f"INSERT INTO cribbage_shows ({_SHOW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, *show) for show in shows],
        )
    return game_id


def rows_of(g: CribbageGame) -> tuple[tuple[object, ...], tuple[tuple[object, ...], ...]]:
    """`g` as its row of `cribbage_games` (its id first) and its rows of `cribbage_shows` (without the game's
    id): as `read` gets them back, so that `game_of` rebuilds `g` from them."""
    row = (
        g.id,
        g.key,
        g.finished_at,
        str(g.seed),
        g.level,
        int(g.muggins),
        g.target,
        g.person,
        *g.names,
        *g.scores,
        g.winner,
        g.margin.value,
        g.deals,
        *g.pegged,
        g.record,
    )
    shows = tuple((s.deal, s.step, s.owner, int(s.crib), s.cards, s.starter, s.points, s.declared) for s in g.shows)
    return row, shows


def read(
    conn: sqlite3.Connection, where: str, params: tuple[object, ...], say: Callable[[str], None]
) -> list[CribbageGame]:
    """The games of cribbage (of `where`, on `id`), oldest first, read in one transaction; a game whose
    rows cannot be understood is left out, and said."""
    show_where = where.replace("WHERE id", "WHERE game_id")
    rows, shows = rows_and_children(
        conn,
        f"SELECT {_COLUMNS} FROM cribbage_games {where} ORDER BY id",
        f"SELECT {_SHOW_COLUMNS} FROM cribbage_shows {show_where} ORDER BY game_id, deal, step",
        params,
    )
    return each_understood(rows, shows, game_of, "Cribbage game", say)


def _show(row: tuple[object, ...]) -> ShowCount:
    deal, step, owner, crib, cards, starter, points, declared = row
    if not _CARDS.fullmatch(text(cards, "show's cards")) or not _CARD.fullmatch(text(starter, "starter")):
        raise ValueError("a count of its show does not name four cards and a starter")
    if whole(step, "show's step") not in (0, 1, 2):
        raise ValueError("a count of its show is not one of a deal's three")
    return ShowCount(
        deal=whole(deal, "deal"),
        step=whole(step, "show's step"),
        owner=whole(owner, "show's owner"),
        crib=flag(crib, "crib mark"),
        cards=text(cards, "show's cards"),
        starter=text(starter, "starter"),
        points=whole(points, "show's points"),
        declared=whole(declared, "count declared"),
    )


def game_of(row: tuple[object, ...], shows: list[tuple[object, ...]]) -> CribbageGame:
    """The game of cribbage of a row and its shows' rows, every value checked by kind; TypeError or
    ValueError in words."""
    (game_id, key, finished_at, seed, level, muggins, target, person, name_0, name_1, score_0, score_1, winner,
     margin, deals, pegged_0, pegged_1, record) = row  # fmt: skip
    seed_text = text(seed, "seed")
    if not _SEED.fullmatch(seed_text):
        raise ValueError("its seed is not a whole number")
    try:
        margin_kind = MarginKind(text(margin, "margin"))
    except ValueError:
        raise ValueError(f"its margin {quoted(margin)} is not win, skunk or double skunk") from None
    return CribbageGame(
        id=whole(game_id, "id"),
        key=text(key, "key"),
        finished_at=text(finished_at, "time"),
        seed=int(seed_text),
        level=text(level, "level"),
        muggins=flag(muggins, "muggins mark"),
        target=whole(target, "target"),
        person=whole(person, "person's seat"),
        names=(text(name_0, "player's name"), text(name_1, "player's name")),
        scores=(whole(score_0, "score"), whole(score_1, "score")),
        winner=whole(winner, "winner"),
        margin=margin_kind,
        deals=whole(deals, "number of deals"),
        pegged=(whole(pegged_0, "points pegged"), whole(pegged_1, "points pegged")),
        shows=tuple(_show(s) for s in shows),
        record=text(record, "record"),
    )
