"""The title's way into classic cribbage (the registry's `OPENED` part of Cribbage): its own table over
the title, the saved game if unfinished, else the choice of a new one.
"""

from __future__ import annotations

import pygame

from ..screens import Item
from .scene import Host
from .setup import open_cribbage


def title_item(window: Host) -> Item:
    """The title's Cribbage: the saved game if unfinished, else a choice of bot and muggins."""
    return Item("Cribbage", lambda: open_cribbage(window), key=pygame.K_k, note="Classic cribbage: two, three or four")
