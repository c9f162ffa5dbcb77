"""Choosing a new game of classic cribbage (the bot's level, muggins on or off), and the title
screen's way in: the saved game if it is unfinished, else the choice.
"""

from __future__ import annotations

import random

import pygame

from cribtiles.bot.cribbage_levels import DESCRIPTIONS, LEVELS
from cribtiles.cribbage.options import CribbageOptions
from cribtiles.table.cribbage_table import DEFAULT_LEVEL, CribbageTable

from .cribbage_scene import CribbageScene, Host
from .paint import CREAM, DIM, GOLD, wrap, write
from .screens import Item, Menu, foot, screen_card


class CribbageSetupScene:
    """A small choice before a new game: the bot's level and muggins on or off; Start or Escape."""

    def __init__(
        self,
        app: Host,
        level: str = DEFAULT_LEVEL,
        muggins: bool = False,
        replace_table: bool = False,
        notice: str = "",
    ) -> None:
        self.app = app
        self.level = level if level in LEVELS else DEFAULT_LEVEL
        self.muggins = muggins
        self.replace_table = replace_table  # opened over a table: Start replaces it, Escape returns to it
        self.notice = notice  # a damaged save set aside, say
        self.menu = self._menu(0)

    def _menu(self, focus: int) -> Menu:
        muggins = (
            "On: you count your own hands, and the bot may claim what you miss (muggins!)"
            if self.muggins
            else "Off: every hand is counted for you, exactly"
        )
        items = [
            Item(
                f"Bot: {self.level.capitalize()}",
                self._next_level,
                note=f"The {self.level} bot {DESCRIPTIONS[self.level]}",
            ),
            Item(f"Muggins: {'on' if self.muggins else 'off'}", self._toggle_muggins, note=muggins),
            Item("Start", self.start, key=pygame.K_s, note="The cut decides who deals first; 121 up wins."),
            Item("Tutorial", self.tutorial, key=pygame.K_t, note="One guided deal: the crib, the play, the show."),
        ]
        menu = Menu(items)
        menu.focus = focus
        return menu

    def _next_level(self, step: int = 1) -> None:
        i = LEVELS.index(self.level)
        self.level = LEVELS[(i + step) % len(LEVELS)]
        self.menu = self._menu(0)

    def _toggle_muggins(self) -> None:
        self.muggins = not self.muggins
        self.menu = self._menu(1)

    def start(self) -> None:
        """Deal a new game (a fresh seed) in place of this choice, and of the table it was opened over."""
        table = CribbageTable.new(random.randrange(2**31), self.level, CribbageOptions(muggins=self.muggins))
        self.app.keeper.save_cribbage(table)
        self.app.close_top()  # this choice
        if self.replace_table:
            self.app.close_top()  # the table it was opened over
        self.app.push(table_scene(self.app, table))

    def tutorial(self) -> None:
        """The guided first deal over this choice (Escape comes back to it)."""
        from .cribbage_tutorial_scene import open_cribbage_tutorial

        open_cribbage_tutorial(self.app)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.app.close_top()
                return
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT) and self.menu.focus in (0, 1):
                if self.menu.focus == 0:
                    self._next_level(-1 if event.key == pygame.K_LEFT else 1)
                else:
                    self._toggle_muggins()
                return
        self.menu.handle(event)

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        hint = "Up/Down choose · Enter or Left/Right changes · S starts · Esc goes back"
        rect, s, top = screen_card(surface, "New cribbage game", hint, 0.5, 0.62)
        x, _, w, _ = rect
        bw = min(w - 4 * s, max(280, round(w * 0.6)))
        bh = max(34, round(s * 2.0))
        y = self.menu.lay_out(x + (w - bw) // 2, top + s, bw, bh, max(8, s // 2)) + s // 2
        self.menu.draw(surface, s)
        for line in wrap(self.menu.note(), s - 2, w - 4 * s)[:3]:
            write(surface, line, s - 2, CREAM, (x + w // 2, y), "midtop")
            y += round(s * 1.3)
        for line in wrap(self.notice, s - 3, w - 3 * s)[:4]:
            write(surface, line, s - 3, GOLD, (x + w // 2, y + s // 2), "midtop")
            y += round(s * 1.2)
        if self.replace_table and not self.notice:
            foot(surface, rect, s, "Start replaces the game at the table.", DIM)
        return None


def table_scene(app: Host, table: CribbageTable, notice: str = "") -> CribbageScene:
    """The table for `table`, its N opening this choice over it."""

    def new_game(scene: CribbageScene) -> None:
        app.push(CribbageSetupScene(app, scene.table.level, scene.table.options.muggins, replace_table=True))

    return CribbageScene(app, table, notice, new_game)


def open_cribbage(app: Host) -> None:
    """The title's Cribbage: the saved game if unfinished, else the New cribbage game choice (offering
    the last game's level and muggins, and saying why a damaged save was set aside)."""
    table, notice = app.keeper.load_cribbage()
    if table is not None and not table.is_over:
        app.push(table_scene(app, table, notice))
        return
    level = table.level if table is not None else DEFAULT_LEVEL
    muggins = table.options.muggins if table is not None else False
    app.push(CribbageSetupScene(app, level, muggins, notice=notice))
