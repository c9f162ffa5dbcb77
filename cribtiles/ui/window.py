"""The window and its loop: one reader of the event queue, scenes on a stack, resizing, full screen.

`App.frame(dt)` runs one frame (events, update, draw); `run` loops it at 60 frames a second. Tests
and the self-test call `frame` themselves with posted events. The window holds the scene stack and a
session, and hosts any game the same way: the game it opens with and keeps at the bottom of its stack is
the registry's `FIRST_GAME`, played by that game's `HOME` part (its first table or the saved one, its
scene, its end, next round and again); what a game opens (its way in from the title, its replay, its
review, its seat online) is asked of the game's entry in the registry (`cribtiles.games`); the title and
the settings are `Menus`' (`menus`), online play beside the screen shown is `OnlineSide`'s (`online.side`).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import signal
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from cribtiles.bot.worker import BotWorker
from cribtiles.games import FIRST_GAME, HOME, REPLAYED, REVIEWED, SEATED, game_named
from cribtiles.signals import handling
from cribtiles.table import Seat
from cribtiles.table.again import NextTable
from cribtiles.table.settings import Preferences

from . import art, paint
from .chat import Mutes
from .config import AnyTable, Keeper
from .geometry import HEADLESS_SCREEN, MIN_HEIGHT, MIN_WIDTH, Layout, fit_window
from .home_game import HomeScene, HomeSession, OwnGame
from .menus import Menus
from .online.side import OnlineSide
from .scene import Scene
from .sound import Sounds

if TYPE_CHECKING:
    from .online.lobby import Lobby
    from .online.services import OnlineServices

TITLE = "Crib Tiles"
#: Seconds after the last change of size before the settings are written (an edge dragged sends many).
PREFS_SETTLE = 1.0
log = logging.getLogger("cribtiles.window")
HEADLESS_DRIVERS = ("offscreen", "dummy")


def flash_window() -> None:
    """Ask the task bar to show the window wants attention, until it has the focus (nothing where the
    window manager cannot, or there is no window)."""
    with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the only way to reach the window in 2.5
        pygame.Window.from_display_module().flash(pygame.FLASH_UNTIL_FOCUSED)


def screen_size() -> tuple[int, int]:
    """The desktop's size, or a generous one where there is no screen to measure (headless)."""
    if pygame.display.get_driver() in HEADLESS_DRIVERS:
        return HEADLESS_SCREEN
    with contextlib.suppress(pygame.error):
        sizes = pygame.display.get_desktop_sizes()
        if sizes and min(sizes[0]) > 0:
            return sizes[0]
    return HEADLESS_SCREEN


class Seated(Protocol):
    """A seat at a table, of either game, as the window opens it and lets it go."""

    def leave(self) -> None: ...


class Finishing(Protocol):
    """A game's session whose finished game can be reviewed once its record has come."""

    def finished_table(self) -> AnyTable | None: ...


def open_display(icon: Callable[[], pygame.Surface] | None = None) -> None:
    """Start pygame's display and fonts, and give the window its `icon` (the own game's: a maple 5, drawn
    like every other tile); pygame.error in words when SDL found no screen and fell back to drawing nowhere."""
    pygame.display.init()
    if not os.environ.get("SDL_VIDEODRIVER") and pygame.display.get_driver() in HEADLESS_DRIVERS:
        pygame.display.quit()
        raise pygame.error("no display was found (is DISPLAY or WAYLAND_DISPLAY set?)")
    pygame.font.init()
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "cribtiles")
    if icon is not None:
        with contextlib.suppress(pygame.error):
            pygame.display.set_icon(icon())


def fitted(requested: tuple[int, int]) -> tuple[tuple[int, int], str]:
    """The window's size for the size `requested` (within the screen, and readable), and why it is not
    that size, in words ("" when it is)."""
    requested = (requested[0], requested[1])  # the settings may hold a list
    windowed = fit_window(requested, screen_size())
    if windowed == tuple(requested):
        return windowed, ""
    w, h = windowed
    why = (
        "does not fit the screen"
        if w < requested[0] or h < requested[1]
        else f"is smaller than the table can be read at ({MIN_WIDTH}x{MIN_HEIGHT})"
    )
    return windowed, f"The window size {requested[0]}x{requested[1]} {why}; it opens at {w}x{h}."


def open_screen(fullscreen: bool, windowed: tuple[int, int]) -> pygame.Surface:
    """The window's surface: the whole desktop, or a resizable window of the size `windowed`."""
    if fullscreen:
        sizes = pygame.display.get_desktop_sizes()
        screen = pygame.display.set_mode(sizes[0] if sizes else windowed, pygame.FULLSCREEN)
        with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().position = (0, 0)  # no window manager to place it (Xvfb)
        return screen
    screen = pygame.display.set_mode(windowed, pygame.RESIZABLE)
    with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the only way to reach the window in 2.5
        pygame.Window.from_display_module().minimum_size = (MIN_WIDTH, MIN_HEIGHT)  # kept readable
    return screen


def takes_text(top: Scene, own: OwnGame) -> bool:
    """The scene takes typed text now: a name on the New game screen, a chat line at a table."""
    return own.takes_text(top) or bool(getattr(top, "typing", False))


def caption_text(game_caption: str, scenes: Sequence[Scene], online: OnlineSide) -> str:
    """The title the window shows: that of the topmost screen with its own (a game of cribbage: its
    score), else `game_caption`, the window's own game's score (online, as fresh as the window knows it),
    after how many tables wait for this player's move: "(1) Your turn — Crib Tiles — …"."""
    text = game_caption
    if online.away_from_home():
        text = f"{TITLE} — {online.table_scores()}"
    for scene in reversed(scenes):
        own = getattr(scene, "window_caption", None)
        if own is not None:
            text = f"{TITLE} — {own()}"
            break
    waiting = online.your_turns()
    return f"({waiting}) Your turn — {text}" if waiting else text


class App:
    """The window, the scenes, the preferences, the bot worker and the sounds; the window's own game (the
    registry's `FIRST_GAME`, at the bottom of the stack, played by its `HOME` part) and what any game opens
    over it."""

    def __init__(
        self,
        saved: object | None,
        prefs: Preferences,
        keeper: Keeper,
        options: object | None = None,
        notice: str = "",
        size: tuple[int, int] | None = None,
        seed: int | None = None,
        seats: Sequence[Seat] | None = None,
        title: bool = False,
        online: OnlineServices | None = None,
    ) -> None:
        """`saved`: the own game's saved game to resume (None: a fresh one). `options` and `seats` are the
        own game's rules and seats for the first game when there is no `saved` one to resume (None: the
        choices last made on the New game screen, kept in `prefs`). `title`: open on the
        title screen (over the game, which Continue or Escape returns to). `online`: what online play
        needs (None: the title offers none); given here, so that the first title already offers it."""
        self.prefs = prefs
        self.keeper = keeper
        own = game_named(FIRST_GAME).part(HOME)
        open_display(own.icon)
        self.windowed, note = fitted(size or prefs.window)
        if note:
            notice = f"{note} {notice}".strip()
            log.info(note)
        self.screen = open_screen(prefs.fullscreen, self.windowed)
        pygame.display.set_caption(TITLE)
        self._game_caption = self._caption_shown = TITLE
        self.layout = Layout.of(*self.screen.get_size())
        self._warm = paint.warm_faces(self.layout)
        self.sounds = Sounds(prefs.sound, prefs.volume)
        art.set_letter_marks(prefs.colour_marks)
        self.worker = BotWorker()
        self.own: OwnGame = own(self, options, seats, seed)
        self.online = online
        self.online_side = OnlineSide(self)
        self.menus = Menus(self)
        self.flasher: Callable[[], None] = flash_window  # the task bar's call for attention
        self._home: HomeSession | None = None  # this window's own game, while a table online is played
        self.scenes: list[Scene] = []
        self._full = True  # the next frame redraws and presents the whole window
        self._last_top: Scene | None = None
        self.running = True
        self.stopped_by: str | None = None  # the signal that ended the loop, if one did
        self._prefs_changed: float | None = None
        self.frames = 0
        # a finished game (or round) is shown with its end card until the player starts the next one
        self.session: HomeSession = self.own.first_session(saved)
        self.game: HomeScene = self.own.scene(self.session, notice)
        self.scenes.append(self.game)
        self.caption(self.session.state)
        if title:
            self.open_title(first_start=not prefs.tutorial_offered)
        self.own.warm_up()  # start the bot's process while the player looks
        # the rules' and bots' tables are built and live for good: keep the collector from walking
        # them again and again, which showed as 8 ms pauses in frames
        gc.collect()
        gc.freeze()

    # --- the window ---

    def refit(self) -> None:
        """Open the window again as the settings say (full screen or not), and lay it out."""
        self.screen = open_screen(self.prefs.fullscreen, self.windowed)
        self.relayout()

    def relayout(self) -> None:
        """Lay out everything anew for the window's size (and the tile faces drawn ahead for it)."""
        self._full = True
        self.layout = Layout.of(*self.screen.get_size())
        self._warm = paint.warm_faces(self.layout)
        self.game.relayout()

    def _resized(self, w: int, h: int) -> None:
        if self.prefs.fullscreen:
            return
        self.windowed = fit_window((w, h), screen_size())
        if self.windowed != (w, h):  # keep the table readable, and within the screen
            self.screen = pygame.display.set_mode(self.windowed, pygame.RESIZABLE)
        else:
            self.screen = pygame.display.get_surface() or self.screen
        self.prefs.window = self.windowed
        self._prefs_changed = time.monotonic()  # written once the edge is let go (see frame)
        self.relayout()

    # --- the screens on the stack ---

    def push(self, scene: Scene) -> None:
        """Show `scene` over what is shown; closing it comes back to what was there."""
        self.scenes.append(scene)
        self._full = True

    def close_top(self) -> None:
        """Close the screen on top (never the game itself)."""
        if len(self.scenes) > 1:
            self._set_scenes(self.scenes[:-1])

    def back_to_game(self) -> None:
        """Close every screen over the game (the title's Continue, and Escape there)."""
        self._set_scenes(self.scenes[:1])

    def _set_scenes(self, stack: list[Scene]) -> None:
        """The stack becomes `stack`; each scene that leaves it is shut down, the top one first."""
        staying = {id(s) for s in stack}
        leaving = [s for s in reversed(self.scenes) if id(s) not in staying]
        self.scenes = stack
        self._full = True
        for scene in leaving:
            scene.shutdown()

    def open_title(self, first_start: bool = False, greeting: str = "") -> None:
        """The title screen over the game (`Menus.open_title`)."""
        self.menus.open_title(first_start, greeting)

    def quit(self) -> None:
        """Quit (the title's Quit, Ctrl+Q, the window's close button); while this computer hosts a
        server, the window asks first whether it stops or keeps running (issue 44, defect 6)."""
        host = self.online.host if self.online is not None else None
        if host is None or not host.running:
            self.running = False
            return
        from .online.quit_hosting import QuitHostingScene

        if not isinstance(self.scenes[-1], QuitHostingScene):
            self.push(QuitHostingScene(host, lambda: setattr(self, "running", False), self.close_top))

    # --- what any game opens, asked of its entry in the registry ---

    def open_replay(self, table: AnyTable, quit_on_close: bool = False) -> None:
        """`table`'s game step by step, over what is shown, by its game's own scene (`REPLAYED`);
        `quit_on_close`: the window was opened for it (`cribtiles replay FILE`), so closing it quits."""
        scene = game_named(table.game).part(REPLAYED)
        self.push(scene(self, table, self.quit if quit_on_close else self.close_top, self.export_game))

    def open_review(self, table: AnyTable) -> None:
        """The review of `table`'s game over what is shown, by its game's own scene (`REVIEWED`): every
        decision against the best found, analysed in a process of its own while the window goes on."""
        self.push(game_named(table.game).part(REVIEWED)(self, table, self.close_top))

    def review_ended(self, session: Finishing) -> str:
        """The review of `session`'s game just ended (an end card's V), or why not yet in words."""
        table = session.finished_table()
        if table is None:
            return "The game's record has not come yet: ask for the review again in a moment."
        self.open_review(table)
        return ""

    def export_game(self, table: AnyTable) -> str:
        """Write `table`'s record to a file of its own; where it went, or why it could not, in words."""
        return self.keeper.export_game(table)

    def exports_folder(self) -> Path | None:
        """Where files made for the player go (a review's chart): the data folder's exports; None when
        the keeper keeps no folder (the self-test, benchmarks)."""
        folder = getattr(self.keeper, "folder", None)
        return Path(folder) / "exports" if folder is not None else None

    # --- online play (`OnlineSide`), as the screens and the tables ask it of the window ---

    @property
    def lobby(self) -> Lobby:
        """Online play's links and jobs, made on first use (the services must have been given)."""
        return self.online_side.lobby

    @property
    def chat_mutes(self) -> Mutes:
        """Whose lines this window hides at each online table."""
        return self.online_side.chat_mutes

    def open_online_table(self, server: str, code: str, name: str | None = None) -> None:
        """Straight to the table `code` at `server`, seated (`cribtiles online play`)."""
        self.online_side.open_table(server, code, name)

    def watch_table(self, server: str, code: str) -> None:
        """Watch the table `code` at `server` (one watched here was played again): opened over the screens
        shown once its state came; why not, said on the screen shown."""
        self.lobby.watch(server, code, self.online_side.tell)

    def take_online_seat(self, session: Seated, game: str = FIRST_GAME) -> None:
        """Play a seat at a table online, as its game opens one in the window (`SEATED`: the tile game in
        place of the game in play, classic cribbage at its own table over the title)."""
        game_named(game).part(SEATED)(self, session)

    def open_next_table(self, table: NextTable) -> None:
        """Everyone agreed to play a finished table online again: on to the new one."""
        self.online_side.open_next(table)

    def leave_table(self, session: Seated, words: str) -> None:
        """Let a table online go (aborted, or left once its game is over): off the player's list, and back
        to the title over this window's own game, saying `words`."""
        session.leave()
        if session is self.session:
            home, self._home = self._home, None
            self.take_seat(home if home is not None else self.own.fresh_session())
        else:
            self.back_to_game()  # a game of cribbage online, over the title: closed with it
        self.open_title(greeting=words)

    # --- the window's own game, as its part (`HOME`) plays it ---

    @property
    def next_is_round(self) -> bool:
        """The game over the table is a round of a match with rounds still to play."""
        return self.own.next_is_round

    def take_seat(self, session: HomeSession, notice: str = "") -> None:
        """Play `session` from now on, in place of the game in play (whose bot stops thinking): a new
        game here, the next round, or a table elsewhere; the window never asks which."""
        if session is not self.session:
            if self.session.plays_again and not session.plays_again:  # this window's own game, kept aside
                self._home = self.session
            self.session.close()
        self.session = session
        session.save()
        self.game = self.own.scene(session, notice)
        self._set_scenes([self.game])
        self.caption(session.state)
        log.info("at a table of %d (%s)", len(session.seats), type(session).__name__)

    def start(self, seats: Sequence[Seat], options: object, seed: int | None = None) -> None:
        """Start a new game (or match) at a table of `seats` under `options`, in place of the one in play."""
        self.own.start(seats, options, seed)

    def new_game(self) -> None:
        """The next round of the match, once a round is over; otherwise a new game at the same table:
        its seats (a lone bot at the level chosen) and rules, a new shuffle."""
        self.own.new_game()

    def open_new_game(self) -> None:
        """The New game screen over the table (it says so when a game in progress would be lost)."""
        self.own.open_new_game()

    def caption(self, state: object) -> None:
        """The window's title carries the score, for the task bar."""
        self._game_caption = f"{TITLE} — {self.own.scores(state)}"
        self._show_caption()

    def _show_caption(self) -> None:
        """The title the window shows (`caption_text`), set only when it changes."""
        text = caption_text(self._game_caption, self.scenes, self.online_side)
        if text != self._caption_shown:
            self._caption_shown = text
            pygame.display.set_caption(text)

    def show_end(self, game: object) -> None:
        """The round at the table is over: its end card; a finished game (or match) goes into the history
        (once, however often its end is shown: the history knows each game by its record)."""
        self.own.show_end(game)

    # --- the loop ---

    def frame(self, dt: float) -> None:
        events = pygame.event.get()
        resizes = [e for e in events if e.type == pygame.VIDEORESIZE]
        opened_by_key = False
        for event in events:  # dragging a window's edge sends many sizes: lay out only the last
            if event.type == pygame.TEXTINPUT and opened_by_key:
                # the text of the key that just opened another screen (O for Online): not the new one's to type
                opened_by_key = False
                continue
            if event.type != pygame.VIDEORESIZE or event is resizes[-1]:
                top = self.scenes[-1] if self.scenes else None
                self.handle(event)
                opened_by_key = event.type == pygame.KEYDOWN and bool(self.scenes) and self.scenes[-1] is not top
        self.online_side.frame()
        top = self.scenes[-1]
        top.update(dt)
        self.online_side.after_update()  # a table online opened from a table (played again): its job's end
        self._show_caption()
        full = self._full or top is not self._last_top
        self._full, self._last_top = False, top
        changed = top.draw(self.screen, full)
        if changed is None:
            pygame.display.flip()
        elif changed:
            pygame.display.update(changed)
        self.frames += 1
        # what went wrong with a bot (replaced after it hung or died) is told at the table; online, the
        # connection lost and back, who went away (the lines said are the scene's chat to tell)
        for text in self.session.incidents():
            self.game.toast(text, 8.0)
        if self._prefs_changed is not None and time.monotonic() - self._prefs_changed > PREFS_SETTLE:
            self._prefs_changed = None
            self.keeper.save_preferences(self.prefs)
        if self._warm:  # draw one tile face ahead of need per frame, so no frame waits for many
            art.tile_face(*self._warm.pop())

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == pygame.VIDEORESIZE:
            self._resized(event.w, event.h)
            return
        if event.type in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED):
            self._full = True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_F11:
                self.menus.toggle_fullscreen()
                return
            if event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                self.quit()
                return
            if takes_text(self.scenes[-1], self.own):  # a line typed to the table: its letters are no shortcuts
                self.scenes[-1].handle(event)
                return
            if not self.own.at_table(self.scenes[-1]):  # the screens have letters of their own
                if event.key == pygame.K_n and event.mod & pygame.KMOD_CTRL:
                    self.open_new_game()
                else:
                    self.scenes[-1].handle(event)
                return
            if self.menus.table_key(event):
                return
        self.scenes[-1].handle(event)

    def run(self, max_seconds: float | None = None, ready: Callable[[], None] | None = None) -> None:
        """Loop frames until the window is closed, Ctrl+Q, or a signal (Ctrl-C, SIGTERM, SIGHUP) asks
        the game to stop; then close it properly whatever happened (the game is saved every turn).
        `ready` is called once the signals are handled (a signal before then is the caller's)."""
        clock = pygame.time.Clock()
        start = time.perf_counter()
        try:
            with handling(("SIGINT", "SIGTERM", "SIGHUP"), self._stop):
                if ready is not None:
                    ready()
                while self.running:
                    dt = clock.tick(60) / 1000.0
                    self.frame(min(dt, 0.1))
                    if max_seconds is not None and time.perf_counter() - start > max_seconds:
                        break
        finally:
            self.close()

    def _stop(self, signum: int, _frame: object) -> None:
        """Ctrl-C, SIGTERM and SIGHUP end the loop after the frame being drawn, like closing the window."""
        self.stopped_by = signal.Signals(signum).name
        self.running = False

    def close(self) -> None:
        """Write the settings (and the game once more if its latest save failed: the disk may have room
        again), end the bot worker at once, close the window: never waits on a bot."""
        self.keeper.save_preferences(self.prefs)
        if getattr(self.keeper, "unsaved", None) is not None:
            self.session.save()
        self._set_scenes([])  # each scene stops what it started
        self.session.close()
        self.online_side.close()  # its links, and a server hosted here, stop with the window
        self.worker.close()
        pygame.display.quit()
        log.info("window closed%s", f" ({self.stopped_by})" if self.stopped_by else "")
