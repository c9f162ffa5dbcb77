"""A tile game of the history rebuilt to be replayed (the registry's `REBUILT` part of the tile game, as
`table/cribbage/replay.py`'s `past_cribbage_table` is classic cribbage's)."""

from __future__ import annotations

from cribtiles.table.game_summary import GameSummary
from cribtiles.table.tiles.saved import load_table

from .table import Table


def past_tile_table(game: GameSummary) -> Table:
    """The table of a tile game of the history, from its record (a RecordError in words when the record
    cannot be replayed)."""
    return load_table(game.record)
