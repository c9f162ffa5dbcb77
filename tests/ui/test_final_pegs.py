"""At the end of a game the peg board settles on the final scores once the racks are counted off (the
front pegs go back by what was left on each rack), also when the end card is put away before."""

from __future__ import annotations

import random

import pygame

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.options import RuleOptions
from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.tiles import endcard
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.panel import peg_number
from cribtiles.ui.window import App


def play_round(table: Table) -> None:
    n = 0
    while not table.round_over:
        move = greedy_move(table.view(table.state.current), random.Random(n))
        table.play_bot(move) if table.bot_to_move else table.play(move)
        n += 1


def frames(app: App, n: int = 4, dt: float = 1 / 60) -> None:
    for _ in range(n):
        app.frame(dt)


def test_the_peg_board_shows_the_final_scores_once_the_racks_are_counted() -> None:
    table = Table.new(parse_players("Ann,Ben,hard"), RuleOptions.parse("rounds=3"), seed=5)
    play_round(table)
    o = table.state.outcome
    assert o is not None and any(o.deductions)
    app = App(table, Preferences(speed="normal"), NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        for _ in range(200):  # the pegs settle, the end card appears
            app.frame(1 / 30)
            if isinstance(app.scenes[-1], EndScene):
                break
        end = app.scenes[-1]
        assert isinstance(end, EndScene) and not endcard.all_counted(game.snapshot(), end.elapsed)
        snap = game.snapshot()
        assert [peg_number(snap, p) for p in range(3)] == list(table.state.scores)  # before the count
        tiles = sum(len(r) for r in table.state.racks)
        frames(app, round((endcard.COUNT_START + endcard.COUNT_EACH * tiles) * 30) + 60, 1 / 30)
        snap = game.snapshot()
        assert snap.racks_counted and [p.moving for p in snap.pegs] == [False] * 3
        assert [peg_number(snap, p) for p in range(3)] == list(o.final_scores) == [120, 173, 141]
        assert [round(p.shown) for p in snap.pegs] == [120, 173, 141]  # the front pegs went back too
    finally:
        app.close()


def test_escape_before_the_count_ends_still_leaves_the_final_scores() -> None:
    table = Table.new(parse_players("Ann,Ben,hard"), RuleOptions.parse("rounds=3"), seed=5)
    play_round(table)
    app = App(table, Preferences(speed="normal"), NoKeeper(), size=(1280, 800))
    try:
        for _ in range(200):
            app.frame(1 / 30)
            if isinstance(app.scenes[-1], EndScene):
                break
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
        frames(app, 60, 1 / 30)
        snap = app.game.snapshot()
        assert not isinstance(app.scenes[-1], EndScene)
        assert [peg_number(snap, p) for p in range(3)] == list(table.state.final_scores())
    finally:
        app.close()
