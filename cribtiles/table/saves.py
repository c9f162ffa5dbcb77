"""A table saved and resumed, whatever its game: one format (`core.SAVE_FORMAT`, an envelope naming the
game, its version and the seats) and one loader that asks the game it names to read it (its `SAVED`
part, `cribtiles/games.py`). No game's own module is imported here: a game's table of its save is its
own to read (the tile game's `tiles.saved.load_table`, cribbage's `CribbageTable.from_json`).

Saves written before it still load: each game's reader knows its formats of before (the tile game's
table of version 1 and bare records, a cribbage table of version 1), and `load_saved` also reads the bare
record of a game of cribbage, as the history keeps it (`cribtiles replay` and `cribtiles review` take
either game's file).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeAlias

from cribtiles.games import GAMES, SAVED
from cribtiles.rules.errors import RecordError

from .core import SAVE_FORMAT, GameTable, SaveRefused, read_envelope

SavedTable: TypeAlias = GameTable[Any, Any, Any]


def save_table(table: SavedTable) -> str:
    """The save of a table of any game, in the one format."""
    return table.to_json()


def load_saved(text: str) -> SavedTable:
    """The table of a save, of whichever game it names (or of an older save of a game, or the bare
    record of a game of cribbage, as the history keeps it: the engine's, without seats): a ValueError in
    words otherwise, a RecordError or the game's own (`unusable` says either to a player)."""
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
    """Why `load_saved` refused a save, in a player's words: a game whose refusal does not say whose save
    it was has it said before (`SaveRefused.whose`; the tile game's words already say it).

    >>> from cribtiles.table.cribbage.table import CribbageSaveError
    >>> unusable(CribbageSaveError("it has no record of its moves"))
    'the saved game of cribbage cannot be used: it has no record of its moves'
    >>> unusable(RecordError("the saved game is damaged: it holds no game"))
    'the saved game is damaged: it holds no game'
    """
    whose = error.whose if isinstance(error, SaveRefused) else ""
    return f"{whose}{error}"


def _parsed(text: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"the saved game is damaged (not valid JSON: {str(e)[:60]})") from None
    if not isinstance(data, dict):
        raise RecordError("this file is not a Crib Tiles game")
    return data
