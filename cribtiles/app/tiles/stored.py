"""The tile game's details in the history database (its `STORED` part in `cribtiles.games`): its row of
`tile_details`, written and read back, every value checked by kind (a history may have been edited by hand)."""

from __future__ import annotations

from cribtiles.table.game_summary import TileDetails

from ..history_rows import Rows, Stored, one
from ..sqlrows import Row, text, whole


def tile_rows(d: TileDetails) -> dict[str, tuple[Row, ...]]:
    """`d` as its row of `tile_details` (without the game's id)."""
    return {"tile_details": ((d.mode, d.options, d.rounds, d.turns, d.undos, d.hints, d.best_play, d.highest_line),)}


def tile_details(children: Rows) -> TileDetails:
    """The details of a game's row of `tile_details`; TypeError or ValueError in words."""
    mode, options, rounds, turns, undos, hints, best, line = one(children, "tile_details")
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


STORED = Stored(words="This game", rows=tile_rows, details=tile_details)
