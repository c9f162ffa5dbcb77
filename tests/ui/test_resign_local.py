"""Resigning at a table of this window, with posted events through the real window: Ctrl+R asks first
(Esc goes back, nothing given up), Y gives the game up, the end card tells who resigned, and the history
keeps the game as lost to the bot; the same in classic cribbage (issue 44)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.table import Seat
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.game_summary import Game, Result
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.cribbage.setup import table_scene
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.endcard import end_reason
from cribtiles.ui.window import App


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("easy")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    yield a
    a.close()


def key(app: App, k: int, mod: int = 0, frames: int = 2) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    for _ in range(frames):
        app.frame(1 / 60)


def test_ctrl_r_asks_esc_goes_back_and_y_gives_the_game_up(app: App) -> None:
    key(app, pygame.K_r, pygame.KMOD_CTRL)
    asked = app.game.snapshot().undo_asked
    assert asked is not None and asked.text == "Resign this game? Easy wins at once, and it cannot be taken back."
    key(app, pygame.K_ESCAPE)
    assert app.game.snapshot().undo_asked is None and not app.game.state.is_over
    key(app, pygame.K_r, pygame.KMOD_CTRL)
    key(app, pygame.K_y, frames=5)
    assert app.game.state.is_over and isinstance(app.scenes[-1], EndScene)
    assert end_reason(app.game.snapshot()) == "You resigned: the game ends, no rack is counted."
    [game] = app.keeper.past_games()  # type: ignore[attr-defined]
    assert game.game is Game.TILES and game.winners == (1,) and game.result is Result.LOSS


def test_cribbage_at_this_window_is_resigned_too(app: App) -> None:
    table = CribbageTable.new(4, "easy")
    scene = table_scene(app, table)
    app.push(scene)
    app.frame(1 / 60)
    key(app, pygame.K_r, pygame.KMOD_CTRL)
    assert isinstance(app.scenes[-1], CribbageScene) and scene.resigning
    key(app, pygame.K_y)
    assert table.is_over and table.state.outcome is not None and table.state.outcome.resigned == 0
    for _ in range(200):
        if scene.ended:
            break
        app.frame(0.1)
    assert scene.ended and scene.pub.summary is not None
    assert scene.pub.summary.margin_words == "You resigned: no skunk is counted."
    kept = [g for g in app.keeper.past_games() if g.game is Game.CRIBBAGE]  # type: ignore[attr-defined]
    assert len(kept) == 1 and kept[0].result is Result.LOSS
