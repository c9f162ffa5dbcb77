"""Choosing a new game of classic cribbage (the bots' level, how the show is counted, muggins in the play,
which cribbage: six-card, five-card, three players, four in partnerships, and the target, 121 or 61), and
the title screen's way in: the saved game if it is unfinished, else the choice.
"""

from __future__ import annotations

import random
from typing import Protocol

import pygame

from cribtiles.bot.cribbage.levels import DESCRIPTIONS, LEVELS
from cribtiles.cribbage.options import CribbageOptions, Variant
from cribtiles.table.cribbage.session import BotThinker, CribbageDriver, CribbageSession
from cribtiles.table.cribbage.table import DEFAULT_LEVEL, CribbageTable

from ..paint import CREAM, DIM, GOLD, wrap, write
from ..screens import Item, Menu, foot, screen_card
from .scene import CribbageScene, Host

#: The games the New game screen offers, in order, and what its line calls each.
GAMES = {
    Variant.SIX_CARD: "six-card, two players",
    Variant.FIVE_CARD: "five-card, two players",
    Variant.THREE: "three players",
    Variant.PARTNERSHIP: "four in partnerships",
}
GAME_NOTES = {
    Variant.SIX_CARD: "The standard game: six cards each, two to the crib; you against a bot.",
    Variant.FIVE_CARD: "The older game, to 61 by custom: five cards, two to the crib, hands of three; "
    "the non-dealer pegs 3 to start, and the play goes once to 31.",
    Variant.THREE: "You and two bots, each for themselves: five cards, one each to the crib and one from the pack.",
    Variant.PARTNERSHIP: "You and North (a bot) against West and East: five cards, one each to the crib; "
    "partners peg together.",
}
#: The targets offered: the long game and the short one (five-card's by custom).
TARGETS = (121, 61)


def default_target(variant: Variant) -> int:
    """The target a game starts with when chosen: 61 for five-card cribbage, else 121."""
    return 61 if variant is Variant.FIVE_CARD else 121


class CribbageSetupScene:
    """A small choice before a new game: the bots' level (one for every bot at the table, your partner in
    partnerships too), how the show is counted (by the table, by hand with wrong counts corrected, or
    muggins), muggins in the play, which game and to what target; Start or Escape."""

    def __init__(
        self,
        app: Host,
        level: str = DEFAULT_LEVEL,
        muggins: bool = False,
        replace_table: bool = False,
        notice: str = "",
        play_muggins: bool = False,
        manual_count: bool = False,
        variant: Variant = Variant.SIX_CARD,
        target: int | None = None,
    ) -> None:
        self.app = app
        self.variant = variant
        self.target = target if target in TARGETS else default_target(variant)
        self.level = level if level in LEVELS else DEFAULT_LEVEL
        self.muggins = muggins
        self.manual_count = manual_count and not muggins
        self.play_muggins = play_muggins
        self.replace_table = replace_table  # opened over a table: Start replaces it, Escape returns to it
        self.notice = notice  # a damaged save set aside, say
        self.menu = self._menu(0)

    def _menu(self, focus: int) -> Menu:
        counting = (
            "Muggins: each of you counts your own hands aloud, and a wrong count may be called (muggins!), "
            "by you or by the bot"
            if self.muggins
            else "By hand: you count your own hand and crib; a wrong count is corrected and shown, no points lost"
            if self.manual_count
            else "By the table: every hand is counted for you, exactly"
        )
        in_play = (
            "On: you say what each card you lay scores, and a wrong score may be called"
            if self.play_muggins
            else "Off: the play is pegged for you, exactly"
        )
        many = self.variant.players > 2
        items = [
            Item(
                f"{'Bots' if many else 'Bot'}: {self.level.capitalize()}",
                self._next_level,
                note=f"The {self.level} bot {DESCRIPTIONS[self.level]}"
                + (" Every bot at the table plays at this level." if many else ""),
            ),
            Item(f"Counting: {self.counting_words}", self._next_counting, note=counting),
            Item(f"Muggins in the play: {'on' if self.play_muggins else 'off'}", self._toggle_play, note=in_play),
            Item(f"Game: {GAMES[self.variant]}", self._next_game, note=GAME_NOTES[self.variant]),
            Item(
                f"Game to: {self.target}",
                self._next_target,
                note=f"The first to {self.target} wins"
                + ("; 121 is twice round the board." if self.target == 121 else ", once round the board."),
            ),
            Item("Start", self.start, key=pygame.K_s, note=f"The cut decides who deals first; {self.target} up wins."),
            Item("Tutorial", self.tutorial, key=pygame.K_t, note="One guided deal: the crib, the play, the show."),
        ]
        menu = Menu(items)
        menu.focus = focus
        return menu

    def _next_level(self, step: int = 1) -> None:
        i = LEVELS.index(self.level)
        self.level = LEVELS[(i + step) % len(LEVELS)]
        self.menu = self._menu(0)

    @property
    def counting_words(self) -> str:
        return "muggins" if self.muggins else "by hand" if self.manual_count else "by the table"

    def _next_counting(self, step: int = 1) -> None:
        """By the table, by hand, muggins, round again (`step` -1 the other way)."""
        ways = [(False, False), (False, True), (True, False)]  # (muggins, by hand)
        i = ways.index((self.muggins, self.manual_count))
        self.muggins, self.manual_count = ways[(i + step) % len(ways)]
        self.menu = self._menu(1)

    def _toggle_play(self) -> None:
        self.play_muggins = not self.play_muggins
        self.menu = self._menu(2)

    def _next_game(self, step: int = 1) -> None:
        """The next game (`step` -1: the one before); its usual target with it (61 for five-card)."""
        order = list(GAMES)
        self.variant = order[(order.index(self.variant) + step) % len(order)]
        self.target = default_target(self.variant)
        self.menu = self._menu(3)

    def _next_target(self, step: int = 1) -> None:
        self.target = TARGETS[(TARGETS.index(self.target) + step) % len(TARGETS)]
        self.menu = self._menu(4)

    def start(self) -> None:
        """Deal a new game (a fresh seed) in place of this choice, and of the table it was opened over."""
        options = CribbageOptions(
            muggins=self.muggins,
            play_muggins=self.play_muggins,
            manual_count=self.manual_count,
            variant=self.variant,
            target=self.target,
        )
        table = CribbageTable.new(random.randrange(2**31), self.level, options)
        self.app.keeper.save(table)
        self.app.close_top()  # this choice
        if self.replace_table:
            self.app.close_top()  # the table it was opened over
        self.app.push(table_scene(self.app, table))

    def tutorial(self) -> None:
        """The guided first deal over this choice (Escape comes back to it)."""
        from .tutorial_scene import open_cribbage_tutorial

        open_cribbage_tutorial(self.app)

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.app.close_top()
                return
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT) and self.menu.focus in (0, 1, 2, 3, 4):
                step = -1 if event.key == pygame.K_LEFT else 1
                if self.menu.focus == 0:
                    self._next_level(step)
                elif self.menu.focus == 1:
                    self._next_counting(step)
                elif self.menu.focus == 2:
                    self._toggle_play()
                elif self.menu.focus == 3:
                    self._next_game(step)
                else:
                    self._next_target(step)
                return
        self.menu.handle(event)

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        hint = "Up/Down choose · Enter or Left/Right changes · S starts · Esc goes back"
        rect, s, top = screen_card(surface, "New cribbage game", hint, 0.5, 0.94)
        x, y0, w, h = rect
        bw = min(w - 4 * s, max(280, round(w * 0.6)))
        # seven lines and the note under them (three lines, and a notice's) inside the card at any size
        room = y0 + h - top - s - round(s * 1.3 * 4) - 2 * s
        gap = max(6, s // 3)
        bh = max(26, min(round(s * 2.0), room // len(self.menu.items) - gap))
        y = self.menu.lay_out(x + (w - bw) // 2, top + s, bw, bh, gap) + s // 2
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
    """The table for `table`, its N opening this choice over it: the window's seat at it is a session
    (the bot thinking beside the frames, every move kept by the window's keeper)."""

    def new_game(scene: CribbageScene) -> None:
        options = scene.pub.options
        app.push(
            CribbageSetupScene(
                app,
                scene.pub.level,
                options.muggins,
                replace_table=True,
                play_muggins=options.play_muggins,
                manual_count=options.manual_count,
                variant=options.variant,
                target=options.target,
            )
        )

    return CribbageScene(app, CribbageSession(table, BotThinker(), app.keeper), notice, new_game)


#: What N (and the end card's New game) says at a table online.
def online_table_scene(app: Host, driver: CribbageDriver, notice: str = "") -> CribbageScene:
    """The table for a seat online (`driver` speaks to the server): the same scene as at one window;
    its next game is asked of the others there (Play again), and L leaves the table once over."""
    return CribbageScene(app, driver, notice, lambda scene: scene.ending.again(True), asks_again=True)


class Seats(Host, Protocol):
    """What opening a seat online asks of the window besides the table's needs."""

    def back_to_game(self) -> None: ...

    def open_title(self) -> None: ...


def seat_online(app: Seats, driver: CribbageDriver) -> None:
    """A seat at a table online, in the window (the registry's `SEATED` part of classic cribbage): its own
    table over the title, as the title's Cribbage opens one at this window."""
    app.back_to_game()
    app.open_title()
    app.push(online_table_scene(app, driver))


def open_cribbage(app: Host) -> None:
    """The title's Cribbage: the saved game if unfinished, else the New cribbage game choice (offering
    the last game's level and muggins, and saying why a damaged save was set aside)."""
    table, notice = app.keeper.load_cribbage()
    if table is not None and not table.is_over:
        app.push(table_scene(app, table, notice))
        return
    level = table.level if table is not None else DEFAULT_LEVEL
    options = table.options if table is not None else CribbageOptions()
    app.push(
        CribbageSetupScene(
            app,
            level,
            options.muggins,
            notice=notice,
            play_muggins=options.play_muggins,
            manual_count=options.manual_count,
            variant=options.variant,
            target=options.target,
        )
    )
