"""The window and its loop: one reader of the event queue, scenes on a stack, resizing, full screen.

`App.frame(dt)` runs one frame (events, update, draw); `run` loops it at 60 frames a second. Tests
and the self-test call `frame` themselves with posted events.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import random
import time
import warnings
from typing import Protocol

import pygame

from cribtiles.rules.game import GameState, new_game
from cribtiles.rules.options import RuleOptions

from . import endcard, paint
from .botworker import PROCESS_LEVELS, BotWorker
from .config import SPEEDS, Keeper, Preferences
from .game_scene import GameScene
from .geometry import MIN_HEIGHT, MIN_WIDTH, Layout, contains
from .sound import Sounds

TITLE = "Crib Tiles"
HEADLESS_DRIVERS = ("offscreen", "dummy")


class Scene(Protocol):
    def handle(self, event: pygame.event.Event) -> None: ...

    def update(self, dt: float) -> None: ...

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw; return the rectangles that changed, or None when the whole window did."""
        ...


class EndScene:
    """The end of the game over the table: rack deductions, final scores, the winner, New game."""

    def __init__(self, app: App, game: GameScene) -> None:
        self.app = app
        self.game = game
        self.mouse = (0, 0)
        self.shown_at = game.now
        self.clicks = 0

    @property
    def elapsed(self) -> float:
        """Seconds since the card appeared, at normal pace (the speed setting shortens the count)."""
        pace = self.app.prefs.pace
        return math.inf if pace <= 0 else (self.game.now - self.shown_at) / pace

    def handle(self, event: pygame.event.Event) -> None:
        _, button = endcard.end_rects(self.game)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and contains(button, event.pos):
            self.app.new_game()
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_n):
                self.app.new_game()
            elif event.key == pygame.K_ESCAPE:  # look at the final board; N starts a new game
                self.app.scenes.pop()

    def update(self, dt: float) -> None:
        self.game.update(dt)
        n = endcard.counted(self.game, self.elapsed)
        if n > self.clicks and self.elapsed != math.inf:  # a knock for each tile counted off
            self.app.sounds.click()
        self.clicks = n

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        self.game.draw(surface, full=True)  # the veil darkens everything: redraw it all
        _, button = endcard.end_rects(self.game)
        endcard.draw_end(surface, self.game, contains(button, self.mouse), self.elapsed)
        return None


class App:
    """The window, the scenes, the preferences, the bot worker and the sounds."""

    def __init__(
        self,
        state: GameState | None,
        prefs: Preferences,
        keeper: Keeper,
        options: RuleOptions | None = None,
        notice: str = "",
        size: tuple[int, int] | None = None,
        seed: int | None = None,
    ) -> None:
        self.prefs = prefs
        self.keeper = keeper
        self.options = options or RuleOptions()
        self.seed = seed
        pygame.display.init()
        if not os.environ.get("SDL_VIDEODRIVER") and pygame.display.get_driver() in HEADLESS_DRIVERS:
            # SDL found no screen and fell back to drawing nowhere: say so rather than run unseen
            pygame.display.quit()
            raise pygame.error("no display was found (is DISPLAY or WAYLAND_DISPLAY set?)")
        pygame.font.init()
        os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "cribtiles")
        w, h = size or prefs.window
        self.windowed = (max(MIN_WIDTH, w), max(MIN_HEIGHT, h))
        with contextlib.suppress(pygame.error):  # the icon: a maple 5, drawn like every other tile
            from cribtiles.rules.tiles import Colour, Tile

            from . import art

            pygame.display.set_icon(art.tile_face(Tile(5, Colour.LIGHT), 64))
        self.screen = self._open(prefs.fullscreen)
        pygame.display.set_caption(TITLE)
        self.layout = Layout.of(*self.screen.get_size())
        self._warm = paint.warm_faces(self.layout)
        self.sounds = Sounds(prefs.sound)
        self.worker = BotWorker()
        self.scenes: list[Scene] = []
        self._full = True  # the next frame redraws and presents the whole window
        self._last_top: Scene | None = None
        self.running = True
        self.frames = 0
        if state is None:
            state = self._fresh_state()
            keeper.save_game(state)
        self.game = GameScene(self, state, notice=notice)
        self.scenes.append(self.game)
        self.caption(state)
        if self.game.level in PROCESS_LEVELS:  # start the bot's process while the player looks
            self.worker.warm_up()
        # the rules' and bots' tables are built and live for good: keep the collector from walking
        # them again and again, which showed as 8 ms pauses in frames
        gc.collect()
        gc.freeze()

    # --- the window ---

    def _open(self, fullscreen: bool) -> pygame.Surface:
        if fullscreen:
            sizes = pygame.display.get_desktop_sizes()
            screen = pygame.display.set_mode(sizes[0] if sizes else self.windowed, pygame.FULLSCREEN)
            with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                pygame.Window.from_display_module().position = (0, 0)  # no window manager to place it (Xvfb)
            return screen
        screen = pygame.display.set_mode(self.windowed, pygame.RESIZABLE)
        with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the only way to reach the window in 2.5
            pygame.Window.from_display_module().minimum_size = (MIN_WIDTH, MIN_HEIGHT)  # kept readable
        return screen

    def toggle_fullscreen(self) -> None:
        self.prefs.fullscreen = not self.prefs.fullscreen
        self.screen = self._open(self.prefs.fullscreen)
        self._relayout()
        self.keeper.save_preferences(self.prefs)

    def _relayout(self) -> None:
        self._full = True
        self.layout = Layout.of(*self.screen.get_size())
        self._warm = paint.warm_faces(self.layout)
        self.game.relayout()

    def _resized(self, w: int, h: int) -> None:
        if self.prefs.fullscreen:
            return
        self.windowed = (w, h)
        if w < MIN_WIDTH or h < MIN_HEIGHT:  # keep the table readable: the window cannot shrink below it
            self.windowed = (max(MIN_WIDTH, w), max(MIN_HEIGHT, h))
            self.screen = pygame.display.set_mode(self.windowed, pygame.RESIZABLE)
        else:
            self.screen = pygame.display.get_surface() or self.screen
        self.prefs.window = self.windowed
        self._relayout()

    # --- games ---

    def _fresh_state(self) -> GameState:
        seed = self.seed if self.seed is not None else random.randrange(2**31)
        self.seed = None  # only the first game takes the command line's seed
        return new_game(2, self.options, seed, ("You", self.prefs.level.capitalize()))

    def new_game(self) -> None:
        self.worker.cancel()
        state = self._fresh_state()
        self.keeper.save_game(state)
        self.game = GameScene(self, state)
        self.scenes = [self.game]
        self.caption(state)

    def caption(self, state: GameState) -> None:
        """The window's title carries the score, for the task bar."""
        names = ["You" if p == self.game.human else n for p, n in enumerate(state.names)]
        scores = " · ".join(f"{n} {s}" for n, s in zip(names, state.final_scores(), strict=True))
        pygame.display.set_caption(f"{TITLE} — {scores}")

    def show_end(self, game: GameScene) -> None:
        if self.scenes and self.scenes[-1] is game:
            game.toasts.clear()
            self.scenes.append(EndScene(self, game))

    def cycle_speed(self) -> None:
        names = list(SPEEDS)
        self.prefs.speed = (
            names[(names.index(self.prefs.speed) + 1) % len(names)] if self.prefs.speed in names else names[0]
        )
        self.keeper.save_preferences(self.prefs)
        self.game.toast(f"Animation speed: {self.prefs.speed}")

    def toggle_sound(self) -> None:
        self.prefs.sound = self.sounds.enabled = not self.prefs.sound
        self.keeper.save_preferences(self.prefs)
        self.game.toast("Sound on" if self.prefs.sound else "Sound off")

    def cycle_level(self) -> None:
        from cribtiles.bot import LEVELS

        i = LEVELS.index(self.prefs.level) if self.prefs.level in LEVELS else 2
        self.prefs.level = LEVELS[(i + 1) % len(LEVELS)]
        self.keeper.save_preferences(self.prefs)
        self.game.toast(f"Next game against the {self.prefs.level} bot (Ctrl+N starts it now)")

    # --- the loop ---

    def frame(self, dt: float) -> None:
        events = pygame.event.get()
        resizes = [e for e in events if e.type == pygame.VIDEORESIZE]
        for event in events:  # dragging a window's edge sends many sizes: lay out only the last
            if event.type != pygame.VIDEORESIZE or event is resizes[-1]:
                self.handle(event)
        top = self.scenes[-1]
        top.update(dt)
        full = self._full or top is not self._last_top
        self._full, self._last_top = False, top
        changed = top.draw(self.screen, full)
        if changed is None:
            pygame.display.flip()
        elif changed:
            pygame.display.update(changed)
        self.frames += 1
        if self._warm:  # draw one tile face ahead of need per frame, so no frame waits for many
            tile, size = self._warm.pop()
            from . import art

            art.tile_face(tile, size)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.VIDEORESIZE:
            self._resized(event.w, event.h)
            return
        if event.type in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED):
            self._full = True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_F11:
                self.toggle_fullscreen()
                return
            if event.key == pygame.K_a and not event.mod & pygame.KMOD_CTRL:
                self.cycle_speed()
                return
            if event.key == pygame.K_m:
                self.toggle_sound()
                return
            if event.key == pygame.K_l:
                self.cycle_level()
                return
            if event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                self.running = False
                return
        self.scenes[-1].handle(event)

    def run(self, max_seconds: float | None = None) -> None:
        clock = pygame.time.Clock()
        start = time.perf_counter()
        while self.running:
            dt = clock.tick(60) / 1000.0
            self.frame(min(dt, 0.1))
            if max_seconds is not None and time.perf_counter() - start > max_seconds:
                break
        self.close()

    def close(self) -> None:
        self.keeper.save_preferences(self.prefs)
        self.worker.close()
        pygame.display.quit()
