"""Quitting while this computer hosts a server: the window asks first whether the server stops with it
(friends at its tables wait until it is hosted again) or keeps running in the background (they play on,
and the next window takes it back), and says which it did (issue 44, defect 6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from ..paint import CREAM, DIM, GOLD, write
from ..screens import Item, Menu, fit, screen_card
from .services import Host


class QuitHostingScene:
    """Keep it running and quit (K), Stop it and quit (S), or Cancel (Escape)."""

    def __init__(self, host: Host, quit: Callable[[], None], cancel: Callable[[], None]) -> None:
        self.host, self._quit, self._cancel = host, quit, cancel
        self.menu = Menu(
            [
                Item(
                    "Keep it running and quit",
                    self.keep,
                    key=pygame.K_k,
                    note="Your friends play on; the next time you start Crib Tiles it is yours again",
                ),
                Item(
                    "Stop it and quit",
                    self.stop,
                    key=pygame.K_s,
                    note="Its tables wait in its folder; your friends come back when you host again",
                ),
                Item("Cancel", cancel, key=pygame.K_c, note="Back to what you were doing"),
            ]
        )

    def keep(self) -> None:
        self.host.keep_running()
        self._quit()

    def stop(self) -> None:
        self._quit()  # the window's closing stops the server it hosts

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self._cancel()
            return
        self.menu.handle(event)

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        hint = "Up/Down choose · Enter takes · K keeps it · S stops it · Esc cancels"
        rect, s, top = screen_card(surface, "You host a game here", hint, 0.62, 0.74)
        x, _, w, _ = rect
        cx = x + w // 2
        where = self.host.lan_url or self.host.url or "this computer"
        lines: list[tuple[str, Any]] = [
            ("This computer runs a server for online play:", CREAM),
            (where, GOLD),
            ("Quitting can leave it running in the background, or stop it.", CREAM),
            ("While it is stopped, the games at its tables wait for you to host again.", DIM),
        ]
        y = top + round(s * 0.4)
        for line, colour in lines:
            write(surface, fit(line, s - 1, w - 2 * s), s - 1, colour, (cx, y), "midtop")
            y += round(s * 1.5)
        bh = max(28, round(s * 1.8))
        bw = max(240, round(w * 0.5))
        below = self.menu.lay_out(cx - bw // 2, y + round(s * 0.8), bw, bh, max(6, round(s * 0.4)))
        self.menu.draw(surface, s)
        note = self.menu.note()
        if note:
            write(surface, fit(note, s - 2, w - 3 * s), s - 2, DIM, (cx, below + round(s * 0.4)), "midtop")
        return None
