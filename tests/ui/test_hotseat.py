"""Hot seat: people take turns at one window; a curtain hides the racks between two people's turns."""

from __future__ import annotations

import random
import time

import pygame

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.window import App


def frames(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def test_the_curtain_falls_between_two_people_and_never_for_one() -> None:
    table = Table.new(parse_players("Ann,Ben,easy"), seed=5)
    app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        frames(app)
        first = game.state.current
        assert game.curtain == first and not game.my_turn  # the first person's rack waits for them
        post_key(pygame.K_x)  # other keys wait behind the curtain
        frames(app)
        assert not game.hand.exchanging and game.curtain == first
        post_click(centre(app.layout.rack))
        frames(app)
        assert game.curtain is None and game.my_turn and game.human == first
        seen = {first}
        for _ in range(6):  # each person plays; between two people the curtain falls again
            while not game.my_turn and game.curtain is None:
                frames(app)
            if game.curtain is not None:
                assert game.curtain == game.state.current != game.human or game.curtain == game.human
                post_key(pygame.K_RETURN)
                frames(app)
                assert game.curtain is None
            for _ in range(600):  # the curtain may be lifted while a bot still thinks: its move comes first
                if game.my_turn:
                    break
                frames(app)
                time.sleep(0.01)
            assert game.my_turn
            seen.add(game.human)
            game.commit(greedy_move(game.session.view(game.human), random.Random(0)))
            frames(app)
        assert seen == {0, 1}  # both people had their rack shown in turn
    finally:
        app.close()
    alone = Table.new(parse_players("Ann,easy"), seed=5)
    app = App(alone, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        for _ in range(60):
            frames(app)
            assert app.game.curtain is None
            if app.game.my_turn:
                app.game.commit(greedy_move(app.game.session.view(0), random.Random(0)))
    finally:
        app.close()
