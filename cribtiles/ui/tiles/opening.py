"""The title's way into the tile game (the registry's `OPENED` part of Kings Cribbage): its New game
screen, over the table the window holds.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from ..screens import Item


class Home(Protocol):
    """What the way in asks of the window: the New game screen over its table."""

    def open_new_game(self) -> None: ...


def title_item(window: Home) -> Item:
    """The title's New game: the players and the rules of a tile game, in place of the one at the table."""
    return Item("New game", window.open_new_game, key=pygame.K_n, note="Choose the players and the rules")
