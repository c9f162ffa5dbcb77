"""The title screen: the game's name on the felt, a hand of tiles scored by the engine, and the menu:
Continue, New game, Rules, Tutorial, History, Statistics, Settings, Quit.

The window builds the items (what each one does is the window's); this scene draws them and reads the
keys and the mouse. Escape goes back to the game when there is one to go back to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from cribtiles import __version__
from cribtiles.rules import score_hand
from cribtiles.rules.moves import parse_rack

from . import art
from .paint import CREAM, DIM, GOLD, write
from .screens import Item, Menu, backdrop, fit, text_size

#: The hand shown under the name: two fives and a jack, two fifteens and a pair.
SHOWN_HAND = "5L JD 5D"


class TitleScene:
    """The menu on the felt; `on_back` (Escape) returns to the game, when there is one to return to."""

    def __init__(
        self, items: Sequence[Item], on_back: Callable[[], None] | None = None, greeting: str = "", focus: int = 0
    ) -> None:
        self.menu = Menu(items)
        if 0 <= focus < len(self.menu.items) and self.menu.items[focus].enabled:
            self.menu.focus = focus
        self.on_back = on_back
        self.greeting = greeting  # said at the top on the first start (the tutorial offered)
        self.hand = parse_rack(SHOWN_HAND)
        scored = score_hand([t.rank for t in self.hand])
        self.hand_score = scored.total
        parts = [(scored.fifteens, "fifteens"), (scored.pairs, "pairs"), (scored.runs, "runs")]
        self.hand_words = "every line is a cribbage hand: " + ", ".join(f"{w} {p}" for p, w in parts if p)

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def tell(self, text: str) -> None:
        """A word from the window (a turn that came at a table online), said at the top."""
        self.greeting = text

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            if self.on_back is not None:
                self.on_back()
            return
        self.menu.handle(event)

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        size = surface.get_size()
        s = text_size(size)
        backdrop(surface)
        cx = size[0] // 2
        y = max(12, round(size[1] * 0.05))
        name = art.engraved_text("Crib Tiles", round(s * 3.2), GOLD, light=False)
        surface.blit(name, name.get_rect(midtop=(cx, y)))
        y += name.get_height()
        write(surface, "Kings Cribbage · the crossword game scored like cribbage", s - 2, CREAM, (cx, y), "midtop")
        y += round(s * 1.6)
        y = self._hand(surface, cx, y, s)
        if self.greeting:
            write(surface, fit(self.greeting, s - 1, size[0] - 4 * s), s - 1, GOLD, (cx, y), "midtop")
            y += round(s * 1.6)
        left = len(self.menu.items)
        bh = max(28, round(s * 1.9))
        gap = max(6, round(s * 0.4))
        room = size[1] - y - round(s * 3.2)
        while left and left * (bh + gap) > room and bh > 24:  # a short window: thinner buttons
            bh -= 2
            gap = max(4, gap - 1)
        bw = max(220, min(420, round(size[0] * 0.28)))
        bottom = self.menu.lay_out(cx - bw // 2, y, bw, bh, gap)
        self.menu.draw(surface, s)
        note = self.menu.note()
        if note:
            write(surface, fit(note, s - 2, size[0] - 4 * s), s - 2, CREAM, (cx, bottom + gap), "midtop")
        hint = "Up/Down or the mouse · Enter takes · the letters too · Esc goes back · Ctrl+Q quits"
        write(surface, fit(hint, s - 4, size[0] - 4 * s), s - 4, DIM, (cx, size[1] - round(s * 0.6)), "midbottom")
        write(surface, f"version {__version__}", s - 5, DIM, (size[0] - s, size[1] - round(s * 0.6)), "bottomright")
        return None

    def _hand(self, surface: pygame.Surface, cx: int, y: int, s: int) -> int:
        """The hand of tiles and what the engine scores it; the y under it."""
        t = max(28, round(s * 2.2))
        gap = max(3, t // 10)
        n = len(self.hand)
        x = cx - (n * t + (n - 1) * gap) // 2 - t // 2
        for i, tile in enumerate(self.hand):
            surface.blit(art.tile_face(tile, t), (x + i * (t + gap), y))
        right = x + n * (t + gap) + gap
        write(surface, f"= {self.hand_score}", round(s * 1.4), GOLD, (right, y + t // 2), "midleft")
        words = self.hand_words
        write(surface, words, s - 3, DIM, (cx, y + t + max(2, s // 4)), "midtop")
        return y + t + round(s * 2.0)
