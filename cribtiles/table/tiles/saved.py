"""The tile game's reading of a save (its `SAVED` part, `cribtiles/games.py`): its table in the one format
(`core.SAVE_FORMAT`), and in the formats of before, which still load: its own table of version 1, and a
bare game or match record (written before seats were saved: a seat named after a bot level is that bot,
any other a person); and `load_table`, the tile table of a save of any format, refusing another game's."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cribtiles.games import game_named
from cribtiles.rules.errors import RecordError
from cribtiles.rules.match import Match
from cribtiles.rules.record import FORMAT as GAME_FORMAT
from cribtiles.rules.record import MATCH_FORMAT, GameRecord, load_match, replay

from ..core import SAVE_FORMAT, read_envelope, read_marks
from ..saves import load_saved
from ..seats import Seat, seats_from_names
from .table import Table

#: The tile table's own format before the one format (version 1), which still loads.
TABLE_FORMAT = "cribtiles-table"
VERSION = 1


def load_table(text: str) -> Table:
    """The tile game's table of a save; RecordError in words otherwise (another game's save too)."""
    table = load_saved(text)
    if not isinstance(table, Table):
        raise RecordError(f"this file is a saved game of {game_named(table.game).title.lower()}, not of Crib Tiles")
    return table


def saved_tile_table(data: Mapping[str, Any], text: str) -> Table | None:
    """The tile table of the save `data` (parsed from `text`): None when it is in none of the tile game's
    formats; a RecordError in words when it is one of them but cannot be used."""
    kind = data.get("format")
    if kind == GAME_FORMAT:
        return _with_seats(None, _single(data))
    if kind == MATCH_FORMAT:
        return _with_seats(None, load_match(text))
    if kind == SAVE_FORMAT:
        if data.get("game") != Table.game:  # another game's, in the one format
            return None
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
        return None
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
