"""A finished game of either game as rows of the history database (schema 8 of `cribtiles.app.history`): its
row of `games`, its seats, and its game's own details in tables keyed by the game's id. How a game is
stored (in one transaction, once by its key) and read back, every value checked by kind (a history may
have been edited by hand). To change how a game is stored: its migration in `history`, and this module.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence

from cribtiles.cribbage.events import MarginKind
from cribtiles.quoting import quoted
from cribtiles.table.game_summary import (
    SIX_CARD,
    Counting,
    CribbageDetails,
    Game,
    GameSummary,
    ShowCount,
    TileDetails,
)

from .sqlrows import Row, each_understood, flag, rows_and_children, stored_id, text, whole, writing

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
_CARDS = re.compile(r"[A2-9TJQK][SHDC]( [A2-9TJQK][SHDC]){2,3}")  # a five-card game's hand is three
#: The most counts of a deal's show: four hands and the crib (four in partnerships).
MOST_COUNTS = 5
_CARD = re.compile(r"[A2-9TJQK][SHDC]")


# --- writing ---


def rows_of(s: GameSummary) -> tuple[Row, dict[str, tuple[Row, ...]]]:
    """`s` as its row of `games` (its id first) and its other rows by table (without the game's id), as
    `read` gets them back and `summary_of` rebuilds `s` from them."""
    row = (s.id, s.key, s.game.value, s.finished_at, str(s.seed), s.record, int(s.unfinished))
    seats = tuple((i, name, level, s.scores[i], int(i in s.winners)) for i, (name, level) in enumerate(s.seats))
    d = s.details
    if isinstance(d, TileDetails):
        tile = (d.mode, d.options, d.rounds, d.turns, d.undos, d.hints, d.best_play, d.highest_line)
        return row, {"seats": seats, "tile_details": (tile,)}
    details = (int(d.muggins), d.target, d.margin.value, d.deals, *d.pegged[:2], d.undos, d.hints)
    counts = tuple((c.deal, c.step, c.owner, int(c.crib), c.cards, c.starter, c.points, c.declared) for c in d.shows)
    children: dict[str, tuple[Row, ...]] = {"seats": seats, "cribbage_details": (details,), "cribbage_counts": counts}
    if d.counting is not None and d.muggins_won is not None:
        children["cribbage_figures"] = ((d.counting.value, *d.muggins_won[:2]),)
    if d.variant != SIX_CARD:  # its seats past the second: None where there are fewer
        more = (*d.pegged[2:], None, None)[:2]
        won = (*(d.muggins_won or ())[2:], None, None)[:2]
        children["cribbage_variants"] = ((d.variant, *more, *won),)
    return row, children


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
        details=_tile_details(children) if kind is Game.TILES else _cribbage_details(children),
        unfinished=bool(whole(unfinished, "unfinished mark")),
    )


def _one(children: Rows, table: str) -> Row:
    rows = children.get(table, ())
    if len(rows) != 1:
        raise ValueError(f"it has {len(rows)} rows of {table}, not one")
    return rows[0]


def _tile_details(children: Rows) -> TileDetails:
    mode, options, rounds, turns, undos, hints, best, line = _one(children, "tile_details")
    return TileDetails(
        mode=text(mode, "mode"),
        options=text(options, "rule options"),
        rounds=whole(rounds, "number of rounds"),
        turns=whole(turns, "number of turns"),
        undos=whole(undos, "number of undos"),
        hints=whole(hints, "number of hints"),
        best_play=whole(best, "best play"),
        highest_line=whole(line, "highest line"),
    )


def _cribbage_details(children: Rows) -> CribbageDetails:
    row = _one(children, "cribbage_details")
    if len(row) == 6:  # kept for the history by a version before schema 6: no marks
        row = (*row, 0, 0)
    muggins, target, margin, deals, pegged_0, pegged_1, undos, hints = row
    counting, won = _figures(children)
    variant, more_pegged, more_won = _variant(children)
    if won is not None:
        won = (*won, *more_won)
    try:
        margin_kind = MarginKind(text(margin, "margin"))
    except ValueError:
        raise ValueError(f"its margin {quoted(margin)} is not win, skunk or double skunk") from None
    return CribbageDetails(
        muggins=flag(muggins, "muggins mark"),
        target=whole(target, "target"),
        margin=margin_kind,
        deals=whole(deals, "number of deals"),
        pegged=(whole(pegged_0, "points pegged"), whole(pegged_1, "points pegged"), *more_pegged),
        shows=tuple(_count(c) for c in children.get("cribbage_counts", ())),
        undos=whole(undos, "number of undos"),
        hints=whole(hints, "number of hints"),
        counting=counting,
        muggins_won=won,
        variant=variant,
    )


def _variant(children: Rows) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """Schema 8's variant of a game of cribbage (six-card, with no row), and its third and fourth seats'
    points pegged and taken by muggins (none for two)."""
    if not children.get("cribbage_variants", ()):
        return SIX_CARD, (), ()
    variant, pegged_2, pegged_3, won_2, won_3 = _one(children, "cribbage_variants")
    name = text(variant, "variant")
    if name == SIX_CARD or not name:
        raise ValueError(f"its variant {quoted(name)} is not one besides six-card cribbage")
    pegged = tuple(whole(p, "points pegged") for p in (pegged_2, pegged_3) if p is not None)
    won = tuple(whole(w, "muggins points") for w in (won_2, won_3) if w is not None)
    return name, pegged, won


def _figures(children: Rows) -> tuple[Counting | None, tuple[int, ...] | None]:
    """Schema 6's figures of a game of cribbage (None for a game stored before): its counting, the calls."""
    if not children.get("cribbage_figures", ()):
        return None, None
    counting, won_0, won_1 = _one(children, "cribbage_figures")
    try:
        kind = Counting(text(counting, "counting"))
    except ValueError:
        raise ValueError(f"its counting {quoted(counting)} is not auto, manual or muggins") from None
    return kind, (whole(won_0, "muggins points"), whole(won_1, "muggins points"))


def _count(row: Row) -> ShowCount:
    deal, step, owner, crib, cards, starter, points, declared = row
    if not _CARDS.fullmatch(text(cards, "show's cards")) or not _CARD.fullmatch(text(starter, "starter")):
        raise ValueError("a count of its show does not name three or four cards and a starter")
    if not 0 <= whole(step, "show's step") < MOST_COUNTS:
        raise ValueError(f"a count of its show is not one of a deal's {MOST_COUNTS} at most")
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
