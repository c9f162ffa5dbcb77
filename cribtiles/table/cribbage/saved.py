"""Classic cribbage's reading of a save (its `SAVED` part, `cribtiles/games.py`): its table in the one
format (`core.SAVE_FORMAT`) or in its own of before, and the bare record of a game as the history keeps it
(the engine's, without seats: `cribtiles replay` and `cribtiles review` take such a file)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cribtiles.cribbage.game import RECORD_GAME

from ..core import is_envelope
from .table import SAVE_FORMAT, CribbageTable


def saved_cribbage_table(data: Mapping[str, Any], text: str) -> CribbageTable | None:
    """The cribbage table of the save `data` (`text` parsed): None when it is in none of cribbage's
    formats; a CribbageSaveError in words when it is one of them but cannot be used."""
    if data.get("game") == RECORD_GAME and "format" not in data:
        return CribbageTable.from_record(data)
    if (is_envelope(data) and data.get("game") == CribbageTable.game) or data.get("format") == SAVE_FORMAT:
        return CribbageTable.from_data(data)
    return None
