"""Pointing at a row of the breakdown lights its squares on the board and leaves each tile's colour as
it is (a wash over the tiles hid whether they were walnut or maple)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pygame
import pytest

from cribtiles.rules import Board, Square, new_game, parse_move
from cribtiles.rules.moves import Play
from cribtiles.rules.scoring import score_play
from cribtiles.table.settings import Preferences
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.tiles.panel import info_rows
from cribtiles.ui.tiles.snapshot import Breakdown
from cribtiles.ui.tiles.table import LIT, TableView
from cribtiles.ui.window import App


@pytest.fixture
def app() -> Iterator[App]:
    a = App(new_game(2, seed=1, names=("You", "Medium")), Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    yield a
    a.close()


def test_pointing_at_a_row_lights_the_squares_and_keeps_the_tiles_colour(app: App) -> None:
    play = parse_move("i7=JD")
    assert isinstance(play, Play)
    score = score_play(Board.empty().place(parse_move("f7=AL g7=4D h7=JL").placements), play)
    board = Board.empty().place(parse_move("f7=AL g7=4D h7=JL i7=JD").placements)
    game = app.game
    game.anims.breakdown = Breakdown(1, score)
    snap = replace(game.snapshot(), state=replace(game.state, board=board))
    surf = pygame.Surface(app.screen.get_size())
    dark = Square(6, 6)  # the walnut 4 of the fifteen A + 4 + J
    x, y, c, _ = app.layout.square_rect(dark)
    tx, ty, tw, _ = app.layout.tile_rect(dark)
    diagonal = [(tx + tw // 2 + d, ty + tw // 2 + d) for d in range(-tw // 3, tw // 3)]
    TableView().draw(surf, snap, full=True)
    before = [surf.get_at(p) for p in diagonal]
    edge = surf.get_at((x, y + c // 2))
    lit = next(r.squares for r in info_rows(snap) if r.left.startswith("fifteen"))
    assert dark in lit
    TableView().draw(surf, replace(snap, hover_rows=lit), full=True)
    assert [surf.get_at(p) for p in diagonal] == before  # the tile is drawn as it was: no wash over it
    glow = surf.get_at((x, y + c // 2))  # the square's edge, round the tile, is lit
    assert glow != edge and all(abs(glow[i] - LIT[i]) <= 24 for i in range(3))
