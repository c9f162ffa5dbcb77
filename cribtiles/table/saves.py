"""A table saved and resumed, whatever its game: one format (`core.SAVE_FORMAT`, an envelope naming the
game, its version and the seats) and one loader that asks the game it names to read it (its `SAVED`
part, `cribtiles/games.py`).

Saves written before it still load: each game's reader knows its formats of before (the tile game's
table of version 1 and bare records, a cribbage table of version 1), and `load_saved` also reads the bare
record of a game of cribbage, as the history keeps it (`cribtiles replay` and `cribtiles review` take
either game's file).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cribtiles.games import GAMES, SAVED, game_named
from cribtiles.rules.errors import RecordError

from .core import SAVE_FORMAT, read_envelope
from .cribbage.table import CribbageSaveError, CribbageTable
from .tiles.table import Table

SavedTable = Table | CribbageTable


def save_table(table: Table | CribbageTable) -> str:
    """The save of a table of either game, in the one format."""
    return table.to_json()


def load_saved(text: str) -> SavedTable:
    """The table of a save, of whichever game it names (or of an older save of either game, or the bare
    record of a game of cribbage, as the history keeps it: the engine's, without seats); a RecordError
    (a tile game's) or a CribbageSaveError (a cribbage game's) in words otherwise (`unusable` says either
    to a player)."""
    data = _parsed(text)
    if data.get("format") == SAVE_FORMAT:
        game = data.get("game")
        kind = GAMES.get(game) if isinstance(game, str) else None
        if kind is None:
            try:
                read_envelope(data)  # it says what is wrong (the version, the game)
            except ValueError as e:
                raise RecordError(str(e)) from None
            raise RecordError("this file is not a Crib Tiles game")
        readers = [kind.part(SAVED)]  # which reads the envelope in its own words
    else:  # a format of before: the game whose it is knows it
        readers = [kind.part(SAVED) for kind in GAMES.values()]
    for read in readers:
        table: SavedTable | None = read(data, text)
        if table is not None:
            return table
    raise RecordError("this file is not a Crib Tiles game")


def unusable(error: ValueError) -> str:
    """Why `load_saved` refused a save, in a player's words: a game of cribbage's refusal says whose it is
    (the tile game's words already do).

    >>> unusable(CribbageSaveError("it has no record of its moves"))
    'the saved game of cribbage cannot be used: it has no record of its moves'
    """
    what = "the saved game of cribbage cannot be used: " if isinstance(error, CribbageSaveError) else ""
    return f"{what}{error}"


def load_table(text: str) -> Table:
    """The tile game's table of a save; RecordError in words otherwise (another game's save too)."""
    table = load_saved(text)
    if not isinstance(table, Table):
        raise RecordError(f"this file is a saved game of {game_named(table.game).title.lower()}, not of Crib Tiles")
    return table


def load_cribbage(text: str) -> CribbageTable:
    """The cribbage table of a save (of either format); CribbageSaveError in cribbage's words otherwise
    (a tile game's save too)."""
    return CribbageTable.from_json(text)


def _parsed(text: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"the saved game is damaged (not valid JSON: {str(e)[:60]})") from None
    if not isinstance(data, dict):
        raise RecordError("this file is not a Crib Tiles game")
    return data
