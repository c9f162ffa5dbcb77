"""A table saved and resumed: the seats (people and bots by level) with the game or match in play.

Saves written before seats were saved (a game or a match record) still load: a seat named after a
bot level is that bot, any other a person.
"""

from __future__ import annotations

import json
from typing import Any

from cribtiles.rules.errors import RecordError
from cribtiles.rules.match import Match
from cribtiles.rules.record import FORMAT as GAME_FORMAT
from cribtiles.rules.record import MATCH_FORMAT, GameRecord, load_match, record_of, replay, save_match

from .model import Table
from .seats import Seat, seats_from_names

TABLE_FORMAT = "cribtiles-table"
VERSION = 1


def save_table(table: Table) -> str:
    match = table.match
    data: dict[str, Any] = {"format": TABLE_FORMAT, "version": VERSION, "seats": [s.as_dict() for s in table.seats]}
    if table.undos or table.hints:  # absent in a game without them, as in saves written before them
        data["marks"] = {"undos": table.undos, "hints": table.hints}
    if match.options.rounds > 1:
        data["match"] = json.loads(save_match(match))
    else:
        data["game"] = json.loads(record_of(match.game).to_json())
    return json.dumps(data, indent=1)


def load_table(text: str) -> Table:
    """The table of a save (or of an older game or match record); RecordError in words otherwise."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"the saved game is damaged (not valid JSON: {str(e)[:60]})") from None
    if not isinstance(data, dict):
        raise RecordError("this file is not a Crib Tiles game")
    kind = data.get("format")
    if kind == GAME_FORMAT:
        return _with_seats(None, _single(data))
    if kind == MATCH_FORMAT:
        return _with_seats(None, load_match(text))
    if kind != TABLE_FORMAT:
        raise RecordError("this file is not a Crib Tiles game")
    if data.get("version") != VERSION:
        raise RecordError(f"this game was saved in another version of Crib Tiles (this one reads version {VERSION})")
    seats = data.get("seats")
    if not isinstance(seats, list):
        raise RecordError("the saved game is damaged: its seats are missing")
    try:
        parsed = tuple(Seat.from_dict(s) for s in seats)
    except ValueError as e:
        raise RecordError(f"the saved game is damaged: {e}") from None
    if isinstance(data.get("match"), dict):
        table = _with_seats(parsed, load_match(json.dumps(data["match"])))
    elif isinstance(data.get("game"), dict):
        table = _with_seats(parsed, _single(data["game"]))
    else:
        raise RecordError("the saved game is damaged: it holds no game")
    table.undos, table.hints = _marks(data.get("marks", {}))
    return table


def _marks(marks: object) -> tuple[int, int]:
    """The plays taken back and the hints asked for, from a save's `marks` (absent: none)."""
    if not isinstance(marks, dict):
        raise RecordError("the saved game is damaged: its marks are not a table of counts")
    counts = []
    for key in ("undos", "hints"):
        n = marks.get(key, 0)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 1_000_000:
            raise RecordError(f"the saved game is damaged: its count of {key} is not a number of times")
        counts.append(n)
    return counts[0], counts[1]


def _single(record: object) -> Match:
    game = replay(GameRecord.from_dict(record))
    return Match(game.options, game.seed, game.names, (), game)


def _with_seats(seats: tuple[Seat, ...] | None, match: Match) -> Table:
    seats = seats if seats is not None else seats_from_names(match.names)
    if len(seats) != len(match.names) or any(s.name != n for s, n in zip(seats, match.names, strict=True)):
        raise RecordError("the saved game is damaged: its seats do not match its players")
    return Table(seats, match)
