"""While tiles are chosen for an exchange the buttons show one state: "Exchange 2 tiles" and one Cancel,
not a dimmed "Exchange..." beside them."""

from __future__ import annotations

import pygame

from cribtiles.rules import new_game
from cribtiles.rules.options import RuleOptions
from cribtiles.table.settings import Preferences
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre, contains
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.panel import panel_buttons
from cribtiles.ui.window import App


def test_exchanging_shows_one_state_of_the_buttons() -> None:
    state = new_game(2, RuleOptions.parse("exchange=any-time"), seed=3, names=("You", "Medium"))
    a = App(state, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        game = a.game
        for _ in range(200):
            a.frame(1 / 60)
            if game.my_turn:
                break
        assert [b[1:] for b in panel_buttons(game.snapshot())] == [
            ("Play", False),
            ("Pass", True),
            ("Exchange...", True),
        ]
        post_key(pygame.K_x)
        a.frame(1 / 60)
        buttons = panel_buttons(game.snapshot())
        assert [b[1:] for b in buttons] == [("Choose tiles to exchange", False), ("Cancel", True)]
        post_key(pygame.K_1)
        post_key(pygame.K_2)
        a.frame(1 / 60)
        buttons = panel_buttons(game.snapshot())
        assert [b[1:] for b in buttons] == [("Exchange 2 tiles", True), ("Cancel", True)]
        cancel = buttons[1][0]
        assert cancel[0] == a.layout.buttons["pass"][0] and contains(cancel, centre(a.layout.buttons["exchange"]))
        post_click(centre(a.layout.buttons["exchange"]))  # either half of the wide Cancel cancels
        a.frame(1 / 60)
        assert not game.hand.exchanging and len(panel_buttons(game.snapshot())) == 3
    finally:
        a.close()
