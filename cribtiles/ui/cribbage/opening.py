"""The title's way into classic cribbage (the registry's `OPENED` part of Cribbage): its own table over
the title, the saved game if unfinished, else the choice of a new one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ..screens import Item

if TYPE_CHECKING:
    from .scene import Host


def title_item(window: Host) -> Item:
    """The title's Cribbage: the saved game if unfinished, else a choice of bot and muggins (its modules
    imported only once it is chosen, as the title is shown at every start)."""

    def open_it() -> None:
        from .setup import open_cribbage

        open_cribbage(window)

    return Item("Cribbage", open_it, key=pygame.K_k, note="Classic cribbage: two, three or four")
