"""The side panel's breakdown: every line, fifteen, pair and run, and pointing at one lights its tiles."""

from __future__ import annotations

import pygame

from cribtiles.rules import Board, new_game, parse_move
from cribtiles.rules.moves import Play
from cribtiles.rules.scoring import score_play
from cribtiles.table.settings import Preferences
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.breakdown import breakdown_rows
from cribtiles.ui.tiles.panel import info_rows
from cribtiles.ui.tiles.snapshot import Breakdown
from cribtiles.ui.window import App


def test_breakdown_rows_name_every_combination_and_point_at_its_tiles() -> None:
    board = Board.empty().place(parse_move("f7=4L g7=5D h7=6L i7=5D").placements)
    play = parse_move("j7=4D")
    assert isinstance(play, Play)
    score = score_play(board, play)  # row 7: 4 5 6 5 4 = 24
    a = App(new_game(2, seed=1, names=("You", "Medium")), Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        game = a.game
        game.anims.breakdown = Breakdown(1, score)
        rows = info_rows(game.snapshot())
        texts = [r.left for r in rows]
        assert texts[0] == "Medium scored" and rows[0].right == "24"
        assert texts[1].startswith("row 7:") and rows[1].right == "24"
        combos = [r for r in rows if r.left.startswith(("fifteen", "pair", "run"))]
        assert len(combos) == len(score.lines[0].combinations) == breakdown_rows(score) - 2
        assert sum(int(r.right) for r in combos) == 24
        for r, c in zip(combos, score.lines[0].combinations, strict=True):
            assert r.squares == tuple(score.lines[0].line.squares[i] for i in c.positions)
        # pointing at the first run lights its three tiles on the board
        run = next(r for r in combos if r.left.startswith("run"))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre(run.rect), rel=(0, 0), buttons=(0, 0, 0)))
        a.frame(1 / 60)
        assert game.turn_list.hover_rows == run.squares and len(run.squares) == 3
    finally:
        a.close()


def test_h_shows_how_to_play_and_hides_it_again() -> None:
    from cribtiles.ui.tiles.autopilot import post_key

    a = App(new_game(2, seed=1, names=("You", "Medium")), Preferences(speed="instant"), NoKeeper(), size=(960, 640))
    try:
        post_key(pygame.K_h)
        a.frame(1 / 60)
        rows = info_rows(a.game.snapshot())
        assert rows[0].left == "How to play" and any("Bonuses" in r.left for r in rows)
        post_key(pygame.K_h)
        a.frame(1 / 60)
        assert not any("Bonuses" in r.left for r in info_rows(a.game.snapshot()))
    finally:
        a.close()
