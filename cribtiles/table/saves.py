"""A table saved and resumed, whatever its game: one format (`core.SAVE_FORMAT`, an envelope naming the
game, its version and the seats) and one loader that dispatches on the game.

Saves written before it still load: a tile table of version 1, a bare game or match record (written
before seats were saved: a seat named after a bot level is that bot, any other a person), and a
cribbage table of version 1. `load_saved` also reads the bare record of a game of cribbage, as the
history keeps it (`cribtiles replay` and `cribtiles review` take either game's file).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cribtiles.cribbage.game import RECORD_GAME
from cribtiles.rules.errors import RecordError
from cribtiles.rules.match import Match
from cribtiles.rules.record import FORMAT as GAME_FORMAT
from cribtiles.rules.record import MATCH_FORMAT, GameRecord, load_match, replay

from .core import SAVE_FORMAT, read_envelope, read_marks
from .cribbage.table import SAVE_FORMAT as CRIBBAGE_V1_FORMAT
from .cribbage.table import CribbageSaveError, CribbageTable
from .seats import Seat, seats_from_names
from .tiles.table import Table

#: The tile table's own format before the one format (version 1), which still loads.
TABLE_FORMAT = "cribtiles-table"
VERSION = 1

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
    if data.get("game") == RECORD_GAME and "format" not in data:
        return CribbageTable.from_record(data)
    return _enveloped(data, text)


def unusable(error: ValueError) -> str:
    """Why `load_saved` refused a save, in a player's words: a game of cribbage's refusal says whose it is
    (the tile game's words already do).

    >>> unusable(CribbageSaveError("it has no record of its moves"))
    'the saved game of cribbage cannot be used: it has no record of its moves'
    """
    what = "the saved game of cribbage cannot be used: " if isinstance(error, CribbageSaveError) else ""
    return f"{what}{error}"


def load_table(text: str) -> Table:
    """The tile game's table of a save; RecordError in words otherwise (a cribbage game's save too)."""
    table = _enveloped(_parsed(text), text)  # a bare record of cribbage is no save of a table
    if not isinstance(table, Table):
        raise RecordError("this file is a saved game of cribbage, not of Crib Tiles")
    return table


def load_cribbage(text: str) -> CribbageTable:
    """The cribbage table of a save (of either format); CribbageSaveError in cribbage's words otherwise
    (a tile game's save too)."""
    return CribbageTable.from_json(text)


def _enveloped(data: Mapping[str, Any], text: str) -> SavedTable:
    """The table of a save in the one format or in one of before, of either game."""
    kind = data.get("format")
    if kind == CRIBBAGE_V1_FORMAT or (kind == SAVE_FORMAT and data.get("game") == CribbageTable.game):
        return CribbageTable.from_data(data)
    return _tiles(data, text)


def _parsed(text: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"the saved game is damaged (not valid JSON: {str(e)[:60]})") from None
    if not isinstance(data, dict):
        raise RecordError("this file is not a Crib Tiles game")
    return data


def _tiles(data: Mapping[str, Any], text: str) -> Table:
    kind = data.get("format")
    if kind == GAME_FORMAT:
        return _with_seats(None, _single(data))
    if kind == MATCH_FORMAT:
        return _with_seats(None, load_match(text))
    if kind == SAVE_FORMAT:
        try:
            envelope = read_envelope(data)
        except ValueError as e:
            raise RecordError(str(e)) from None
        seats, marks, body = envelope.seats, envelope.marks, ("match", "record")
    elif kind == TABLE_FORMAT:
        if data.get("version") != VERSION:
            raise RecordError(
                f"this game was saved in another version of Crib Tiles (this one reads version {VERSION})"
            )
        seats, marks, body = _v1_seats(data), _marks(data.get("marks", {})), ("match", "game")
    else:
        raise RecordError("this file is not a Crib Tiles game")
    if isinstance(data.get(body[0]), dict):
        table = _with_seats(seats, load_match(json.dumps(data[body[0]])))
    elif isinstance(data.get(body[1]), dict):
        table = _with_seats(seats, _single(data[body[1]]))
    else:
        raise RecordError("the saved game is damaged: it holds no game")
    table.undos, table.hints = marks
    return table


def _v1_seats(data: Mapping[str, Any]) -> tuple[Seat, ...]:
    seats = data.get("seats")
    if not isinstance(seats, list):
        raise RecordError("the saved game is damaged: its seats are missing")
    try:
        return tuple(Seat.from_dict(s) for s in seats)
    except ValueError as e:
        raise RecordError(f"the saved game is damaged: {e}") from None


def _marks(marks: object) -> tuple[int, int]:
    try:
        return read_marks(marks)
    except ValueError as e:
        raise RecordError(str(e)) from None


def _single(record: object) -> Match:
    game = replay(GameRecord.from_dict(record))
    return Match(game.options, game.seed, game.names, (), game)


def _with_seats(seats: tuple[Seat, ...] | None, match: Match) -> Table:
    seats = seats if seats is not None else seats_from_names(match.names)
    if len(seats) != len(match.names) or any(s.name != n for s, n in zip(seats, match.names, strict=True)):
        raise RecordError("the saved game is damaged: its seats do not match its players")
    return Table(seats, match)
