"""How the data folder's keeper keeps a tile game (its `KEPT` part in `cribtiles.games`): in the keeper's
tile game's own file (`save_game`) and history entry (`record_game`); its exported records are "crib-tiles-…"."""

from __future__ import annotations

from typing import Protocol

from ..keeping import Kept
from .table import Table


class TileKeeper(Protocol):
    """A keeper's own verbs for a tile game (the app's `Store`, the window's `NoKeeper`)."""

    def save_game(self, game: Table) -> bool: ...

    def record_game(self, table: Table) -> None: ...


def _save(keeper: TileKeeper, table: Table) -> bool:
    return keeper.save_game(table)


def _record(keeper: TileKeeper, table: Table) -> None:
    keeper.record_game(table)


KEPT: Kept[TileKeeper, Table, Table] = Kept("crib-tiles", _save, _record)
