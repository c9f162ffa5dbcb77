"""The cribbage window's tests; `table_of` reaches past a scene's session to the game itself, as only a
test may (the scene sees what its session says all may see)."""

from __future__ import annotations

from cribtiles.table.cribbage.session import CribbageSession
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.ui.cribbage.scene import CribbageScene


def table_of(scene: CribbageScene) -> CribbageTable:
    """The table behind `scene`'s session here (a local one)."""
    session = scene.session
    assert isinstance(session, CribbageSession)
    return session.table
