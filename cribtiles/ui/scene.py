"""The contract of a scene on the window's stack (Tuxemon's state lifecycle, pared down).

The window reads the events once and hands each to the top scene (`handle`), moves time on (`update`),
draws the top scene (`draw`, which changes nothing), and calls `shutdown` once when a scene leaves the
stack for good: closed, replaced by a new game, or the window closing. A scene that started something
(a worker process, an analysis) stops it there, never through a finalizer.
"""

from __future__ import annotations

from typing import Protocol

import pygame


class Scene(Protocol):
    def handle(self, event: pygame.event.Event) -> None: ...

    def update(self, dt: float) -> None: ...

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw; return the rectangles that changed, or None when the whole window did."""
        ...

    def shutdown(self) -> None:
        """The scene leaves the window for good: stop whatever it started (called once)."""
        ...
