"""The turn list: a click shows that turn's breakdown on the board as it was; the wheel scrolls it."""

from __future__ import annotations

import random

import pygame

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.panel import info_rows
from cribtiles.ui.window import App


def frames(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def table_after(seed: int, turns: int) -> Table:
    table = Table.new(parse_players("You,medium"), seed=seed)
    for i in range(turns):
        move = greedy_move(table.view(table.state.current), random.Random(i))
        if table.person_to_move:
            table.play(move)
        else:
            table.play_bot(move)
    return table


def test_a_click_on_a_turn_shows_it_again_and_esc_comes_back() -> None:
    # a position whose last breakdown leaves room for four turns of the list (found once, fixed; five
    # before the rules line under the status took a row of the panel)
    for seed in range(40):
        table = table_after(seed, 12)
        app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
        frames(app)
        if table.person_to_move and len([r for r in info_rows(app.game.snapshot()) if r.turn is not None]) >= 4:
            break
        app.close()
    try:
        game = app.game
        frames(app)
        rows = [r for r in info_rows(game.snapshot()) if r.turn is not None]
        assert rows[0].turn == len(table.history) - 1  # newest first
        target = next(r for r in rows if table.history[r.turn].is_play and r.turn < len(table.history) - 2)
        post_click(centre(target.rect))
        frames(app)
        snap = game.snapshot()
        record = table.history[target.turn]  # type: ignore[index]
        assert snap.past is not None and snap.past.number == target.turn
        assert snap.board == record.board_after != table.state.board  # the board as it was then
        texts = [r.left for r in info_rows(snap)]
        assert texts[0].startswith(f"Turn {target.turn + 1}: ")  # type: ignore[operator]
        assert record.score is not None and record.score.lines[0].name in " ".join(texts)
        post_key(pygame.K_ESCAPE)
        frames(app)
        assert game.snapshot().past is None and game.snapshot().board == table.state.board
        # the wheel over the list scrolls it to older turns
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=centre(target.rect), rel=(0, 0), buttons=(0, 0, 0))
        )
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2))
        frames(app)
        assert game.turn_list.turn_scroll == 2
        rows = [r for r in info_rows(game.snapshot()) if r.turn is not None]
        assert rows[0].turn == len(table.history) - 3
    finally:
        app.close()
