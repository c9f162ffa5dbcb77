"""A message in a small window of its own, for what must be said before (or instead of) the table:
another Crib Tiles already uses this data folder, say. Closed by OK, Enter, Escape or the close box.
"""

from __future__ import annotations

import contextlib
import os

import pygame

from . import art
from .geometry import contains
from .paint import CREAM, GOLD, button, wrap, write

SIZE = (560, 240)
HEADLESS = ("dummy", "offscreen")
TIMEOUT_MS = 120_000  # nobody there: the program does not wait for ever


def show_message(title: str, text: str) -> None:
    """Show `text` until the player closes it; returns at once where nobody could see it (headless)."""
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "cribtiles")
    pygame.display.init()
    try:
        if pygame.display.get_driver() in HEADLESS:
            return
        pygame.font.init()
        screen = pygame.display.set_mode(SIZE)
        pygame.display.set_caption(art.clip(title, 80))
        _loop(screen, title, text)
    finally:
        with contextlib.suppress(pygame.error):
            pygame.display.quit()


def _ok_rect() -> tuple[int, int, int, int]:
    w, h = SIZE
    return (w - 140) // 2, h - 66, 140, 44


def _loop(screen: pygame.Surface, title: str, text: str) -> None:
    clock = pygame.time.Clock()
    waited, hover = 0, False
    while waited < TIMEOUT_MS:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
                return
            if event.type == pygame.MOUSEMOTION:
                hover = contains(_ok_rect(), event.pos)
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and contains(_ok_rect(), event.pos):
                return
        _draw(screen, title, text, hover)
        pygame.display.flip()
        waited += clock.tick(30)


def _draw(screen: pygame.Surface, title: str, text: str, hover: bool) -> None:
    screen.blit(art.felt(*SIZE), (0, 0))
    write(screen, title, 26, GOLD, (24, 20))
    size = 20
    for i, line in enumerate(wrap(text, size, SIZE[0] - 48)[:5]):
        write(screen, line, size, CREAM, (24, 62 + i * round(size * 1.35)))
    button(screen, _ok_rect(), "OK", True, hover, strong=True)
