"""How the data folder's keeper keeps a game of cribbage (its `KEPT` part in `cribtiles.games`): in the
keeper's cribbage game's own file (`save_cribbage`) and history entry (`record_cribbage`, with the person,
the bot's level and the marks); its exported records are "cribbage-…"."""

from __future__ import annotations

from typing import Protocol

from cribtiles.cribbage.game import CribbageState

from ..keeping import Kept
from .session import FinishedCribbage
from .table import CribbageTable


class CribbageKeeper(Protocol):
    """A keeper's own verbs for a game of cribbage (the app's `Store`, the window's `NoKeeper`)."""

    def save_cribbage(self, table: CribbageTable) -> bool: ...

    def record_cribbage(self, state: CribbageState, person: int, level: str | None, marks: tuple[int, int]) -> None: ...


def _save(keeper: CribbageKeeper, table: CribbageTable) -> bool:
    return keeper.save_cribbage(table)


def _record(keeper: CribbageKeeper, game: FinishedCribbage) -> None:
    keeper.record_cribbage(game.state, game.person, game.level, game.marks)


KEPT: Kept[CribbageKeeper, CribbageTable, FinishedCribbage] = Kept("cribbage", _save, _record)
