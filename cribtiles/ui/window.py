"""The window and its loop: one reader of the event queue, scenes on a stack, resizing, full screen.

`App.frame(dt)` runs one frame (events, update, draw); `run` loops it at 60 frames a second. Tests
and the self-test call `frame` themselves with posted events.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import random
import signal
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from cribtiles.bot import PROCESS_LEVELS
from cribtiles.bot.worker import BotWorker
from cribtiles.games import REMOTE, SEATED, game_named
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.options import Mode, RuleOptions
from cribtiles.signals import handling
from cribtiles.table import Seat
from cribtiles.table.again import NextTable
from cribtiles.table.seats import lone_bot, seats_from_names
from cribtiles.table.session import LocalSession, Session
from cribtiles.table.settings import SPEEDS, Preferences
from cribtiles.table.tiles.public import PublicState
from cribtiles.table.tiles.table import Table

from . import paint
from .chat import MemoryMutes, Mutes
from .config import Keeper
from .geometry import HEADLESS_SCREEN, MIN_HEIGHT, MIN_WIDTH, Layout, fit_window
from .scene import Scene
from .screens import Item
from .sound import Sounds
from .tiles.end_scene import EndScene
from .tiles.game_scene import GameScene
from .tiles.game_words import round_words, sentence
from .tiles.newgame import NewGameScene
from .tiles.newgame_form import NewGameForm, again, options_of, remembered_seats, table_pairs, with_level

if TYPE_CHECKING:
    from cribtiles.online.client import Link
    from cribtiles.table.cribbage.session import CribbageDriver
    from cribtiles.table.cribbage.table import CribbageTable

    from .online.lobby import Lobby
    from .online.services import HeldSeat, OnlineServices
    from .online.standings import News

TITLE = "Crib Tiles"
#: Seconds after the last change of size before the settings are written (an edge dragged sends many).
PREFS_SETTLE = 1.0
#: Seconds between looks for a table handed to this window by a second program (an invitation clicked).
HANDED_EVERY = 0.5
log = logging.getLogger("cribtiles.window")
HEADLESS_DRIVERS = ("offscreen", "dummy")


#: The title's welcome at the first start: the tutorial offered, or once it is done, what comes next.
WELCOME = "Welcome! New to Kings Cribbage? The tutorial teaches it in a short game."
WELCOME_BACK = "Tutorial done. New game sets up a game of your own: the players and the rules."


def flash_window() -> None:
    """Ask the task bar to show the window wants attention, until it has the focus (nothing where the
    window manager cannot, or there is no window)."""
    with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the only way to reach the window in 2.5
        pygame.Window.from_display_module().flash(pygame.FLASH_UNTIL_FOCUSED)


def raise_window() -> None:
    """Bring the window to the front with the keyboard's focus (a table handed to it from an invitation
    clicked elsewhere); nothing where the window manager will not, or there is no window."""
    with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
        window.restore()
        window.focus()


def welcome_line(prefs: Preferences) -> str:
    """The welcome on the title: it offers the tutorial only until the tutorial has been played to its end."""
    return WELCOME_BACK if prefs.tutorial_done else WELCOME


def _as_table(saved: Table | GameState | Match) -> Table:
    """A table for a saved game or match (its seats told by name: only tables save their seats)."""
    if isinstance(saved, Table):
        return saved
    match = saved if isinstance(saved, Match) else Match(saved.options, saved.seed, saved.names, (), saved)
    return Table(seats_from_names(match.names), match)


class App:
    """The window, the scenes, the preferences, the bot worker and the sounds."""

    def __init__(
        self,
        saved: Table | GameState | Match | None,
        prefs: Preferences,
        keeper: Keeper,
        options: RuleOptions | None = None,
        notice: str = "",
        size: tuple[int, int] | None = None,
        seed: int | None = None,
        seats: Sequence[Seat] | None = None,
        title: bool = False,
        online: OnlineServices | None = None,
    ) -> None:
        """`options` and `seats` are those of the first game when there is no `saved` one to resume
        (None: the choices last made on the New game screen, kept in `prefs`). `title`: open on the
        title screen (over the game, which Continue or Escape returns to). `online`: what online play
        needs (None: the title offers none); given here, so that the first title already offers it."""
        self.prefs = prefs
        self.keeper = keeper
        self.options = options if options is not None else options_of(prefs.rules)
        self.seed = seed
        self.first_seats = tuple(seats) if seats is not None else None
        pygame.display.init()
        if not os.environ.get("SDL_VIDEODRIVER") and pygame.display.get_driver() in HEADLESS_DRIVERS:
            # SDL found no screen and fell back to drawing nowhere: say so rather than run unseen
            pygame.display.quit()
            raise pygame.error("no display was found (is DISPLAY or WAYLAND_DISPLAY set?)")
        pygame.font.init()
        os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "cribtiles")
        requested = size or prefs.window
        self.windowed = fit_window(requested, self.screen_size())
        if self.windowed != tuple(requested):
            w, h = self.windowed
            why = (
                "does not fit the screen"
                if w < requested[0] or h < requested[1]
                else f"is smaller than the table can be read at ({MIN_WIDTH}x{MIN_HEIGHT})"
            )
            note = f"The window size {requested[0]}x{requested[1]} {why}; it opens at {w}x{h}."
            notice = f"{note} {notice}".strip()
            log.info(note)
        with contextlib.suppress(pygame.error):  # the icon: a maple 5, drawn like every other tile
            from cribtiles.rules.tiles import Colour, Tile

            from . import art

            pygame.display.set_icon(art.tile_face(Tile(5, Colour.LIGHT), 64))
        self.screen = self._open(prefs.fullscreen)
        pygame.display.set_caption(TITLE)
        self._game_caption = self._caption_shown = TITLE
        self.layout = Layout.of(*self.screen.get_size())
        self._warm = paint.warm_faces(self.layout)
        self.sounds = Sounds(prefs.sound, prefs.volume)
        from . import art

        art.set_letter_marks(prefs.colour_marks)
        self.worker = BotWorker()
        self.online = online
        self._lobby: Lobby | None = None
        self._memory_mutes = MemoryMutes()
        self._here: Any = None  # the session of the online table on screen (a person is "here" only there)
        self._lobby_started = False  # the lobby made at the first frame when seats are held online
        self._handed_at = 0.0  # when the data folder was last looked at for a table handed to this window
        self.flasher: Callable[[], None] = flash_window  # the task bar's call for attention
        self._home: Session | None = None  # this window's own game, while a table online is played
        self._moving: set[tuple[str, int]] = set()  # the seats at tables played again, being opened
        self.scenes: list[Scene] = []
        self._full = True  # the next frame redraws and presents the whole window
        self._last_top: Scene | None = None
        self.running = True
        self.stopped_by: str | None = None  # the signal that ended the loop, if one did
        self._prefs_changed: float | None = None
        self.frames = 0
        # a finished game (or round) is shown with its end card until the player starts the next one
        table = _as_table(saved) if saved is not None else self._fresh_table()
        self.session: Session = LocalSession(table, self.worker, self.keeper)
        if table is not saved:
            self.session.save()
        self.game = GameScene(self, self.session, notice=notice)
        self.scenes.append(self.game)
        self.caption(self.session.state)
        if title:
            self.open_title(first_start=not prefs.tutorial_offered)
        if self.game.level in PROCESS_LEVELS:  # start the bot's process while the player looks
            self.worker.warm_up()
        # the rules' and bots' tables are built and live for good: keep the collector from walking
        # them again and again, which showed as 8 ms pauses in frames
        gc.collect()
        gc.freeze()

    # --- the window ---

    @staticmethod
    def screen_size() -> tuple[int, int]:
        """The desktop's size, or a generous one where there is no screen to measure (headless)."""
        if pygame.display.get_driver() in HEADLESS_DRIVERS:
            return HEADLESS_SCREEN
        with contextlib.suppress(pygame.error):
            sizes = pygame.display.get_desktop_sizes()
            if sizes and min(sizes[0]) > 0:
                return sizes[0]
        return HEADLESS_SCREEN

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
        self.windowed = fit_window((w, h), self.screen_size())
        if self.windowed != (w, h):  # keep the table readable, and within the screen
            self.screen = pygame.display.set_mode(self.windowed, pygame.RESIZABLE)
        else:
            self.screen = pygame.display.get_surface() or self.screen
        self.prefs.window = self.windowed
        self._prefs_changed = time.monotonic()  # written once the edge is let go (see frame)
        self._relayout()

    # --- the screens around the game ---

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
        """The title screen over the game; at the first start it offers the tutorial (once). `greeting`:
        what it says at its top (why the window came to it)."""
        from .title import TitleScene

        if any(isinstance(s, TitleScene) for s in self.scenes):
            return
        items = self.title_items()
        focus = 0
        if first_start:
            greeting = welcome_line(self.prefs)
            wanted = "New game" if self.prefs.tutorial_done else "Tutorial"
            focus = next(i for i, item in enumerate(items) if item.label == wanted)
            self.prefs.tutorial_offered = True
            self.keeper.save_preferences(self.prefs)
        self.push(TitleScene(items, on_back=self.close_top, greeting=greeting, focus=focus))

    def title_items(self) -> list[Item]:
        """The title screen's menu: Continue only while the game at the table is unfinished."""
        unfinished = not self.session.match.is_over
        state = self.session.state
        names = ["You" if p == self.game.you else n for p, n in enumerate(state.names)]
        scores = " · ".join(f"{n} {sc}" for n, sc in zip(names, state.final_scores(), strict=True))
        items = [
            Item("Continue", self.back_to_game, key=pygame.K_c, note=f"The game at the table: {scores}"),
            Item("New game", self.open_new_game, key=pygame.K_n, note="Choose the players and the rules"),
            Item("Cribbage", self.open_cribbage, key=pygame.K_k, note="Classic cribbage: two, three or four"),
            *self.online_items(),
            Item("Rules", self.open_rules, key=pygame.K_r, note="How Kings Cribbage is played, page by page"),
            Item("Tutorial", self.open_tutorial, key=pygame.K_t, note="A short guided game on a fixed board"),
            Item("Puzzles", self.open_puzzles, key=pygame.K_p, note="Find the best play: positions from Hard's games"),
            Item("History", self.open_history, key=pygame.K_h, note="Every finished game: replay any of them"),
            Item("Statistics", self.open_statistics, key=pygame.K_s, note="Wins, averages and bests, by opponent"),
            Item("Settings", self.open_settings, key=pygame.K_e, note="Sound, speed, full screen, undo, hints"),
            Item("Quit", self.quit, key=pygame.K_q, note=self.quit_note()),
        ]
        return items if unfinished else items[1:]

    def online_items(self) -> list[Item]:
        """Online play's items on the title, when the app gave the window its services."""
        if self.online is None:
            return []
        return [
            Item("Online", self.open_online, key=pygame.K_o, note="Play friends over the network: host, create, join"),
            Item(
                "Your online games",
                self.open_online_games,
                key=pygame.K_y,
                note="Every table you sit at: whose turn it is, and back to your seat",
            ),
        ]

    @property
    def lobby(self) -> Lobby:
        """Online play's links and jobs, made on first use (the services must have been given)."""
        if self._lobby is None:
            from .online.lobby import Lobby

            assert self.online is not None
            self._lobby = Lobby(self.online, self._remote_session, self.take_online_seat)
        return self._lobby

    @property
    def chat_mutes(self) -> Mutes:
        """Whose lines this window hides at each online table: kept in the data folder when the app gave
        a place for them, else for as long as the window runs."""
        mutes = self.online.mutes if self.online is not None else None
        return mutes if mutes is not None else self._memory_mutes

    def open_online(self) -> None:
        from .online.screens import OnlineScene

        self.push(OnlineScene(self, self.lobby))

    def open_online_games(self) -> None:
        from .online.games_list import GamesScene

        self.push(GamesScene(self, self.lobby))

    def open_online_table(self, server: str, code: str, name: str | None = None) -> None:
        """Straight to the table `code` at `server`, seated (`cribtiles online play`): the Online screen's
        Join with a code, filled in and pressed, so it takes the open seat (or the one kept for `name`),
        or goes back to a seat held there; what goes wrong is said on that screen, which stays open."""
        from .online.screens import JoinScene, OnlineScene

        online = OnlineScene(self, self.lobby)
        online.address.text = server
        if name:
            online.name.text = name
        self.push(online)
        join = JoinScene(self, self.lobby, server, online.name.text)
        join.code.text = code.upper()
        self.push(join)
        join.join()

    def watch_table(self, server: str, code: str) -> None:
        """Watch the table `code` at `server` (one watched here was played again): opened over the screens
        shown once its state came; why not, said on the screen shown."""
        self.lobby.watch(server, code, self._tell)

    def _remote_session(self, link: Link, code: str, seat: int | None, game: str = "tiles") -> Session | CribbageDriver:
        """The session of `seat` (None: a spectator's) at the table `code` of `game`, through `link`
        (which holds the seat); made in a job, as it waits for the table's state."""
        book = self.online.book if self.online is not None else None
        forget = None if book is None else (lambda: book.remove(link.url, code))
        remote = game_named(game).part(REMOTE)  # its module only once a table online is opened
        session: Session | CribbageDriver = remote(link, code, seat, keeper=self.keeper, forget=forget)
        return session

    def take_online_seat(self, session: Session | CribbageDriver, game: str = "tiles") -> None:
        """Play a seat at a table online, as its game opens one in the window (the tile game in place of
        the game in play, classic cribbage at its own table over the title)."""
        game_named(game).part(SEATED)(self, session)

    def open_next_table(self, table: NextTable) -> None:
        """Everyone agreed to play a finished table online again: this player's seat there is kept in
        place of the old one on their list (its name, game and host token carried over) and opened; why
        it could not be, said on the title screen."""
        from .online.services import HeldSeat

        if (table.code, table.seat) in self._moving or self.online is None:
            return
        self._moving.add((table.code, table.seat))
        book = self.online.book
        old = next((s for s in book.seats() if s.key == (table.server, table.left)), None)
        held = HeldSeat(
            table.server,
            table.code,
            table.seat,
            table.name if old is None else old.name,
            table.game,
            table.token,
            "" if old is None else old.host_token,
        )
        book.remove(table.server, table.left)
        book.add(held)

        def not_opened(problem: str) -> None:
            self._moving.discard((table.code, table.seat))
            self.open_title(greeting=f"The new table {table.code} could not be opened: {problem}")

        self.lobby.open(held, not_opened)

    def leave_table(self, session: Session | CribbageDriver, words: str) -> None:
        """Let a table online go (aborted, or left once its game is over): off the player's list, and back
        to the title over this window's own game, saying `words`."""
        session.leave()
        if session is self.session:
            home, self._home = self._home, None
            self.take_seat(home if home is not None else LocalSession(self._fresh_table(), self.worker, self.keeper))
        else:
            self.back_to_game()  # a game of cribbage online, over the title: closed with it
        self.open_title(greeting=words)

    def quit(self) -> None:
        """Quit (the title's Quit, Ctrl+Q, the window's close button); while this computer hosts a
        server, the window asks first whether it stops or keeps running (issue 44, defect 6)."""
        host = self.online.host if self.online is not None else None
        if host is None or not host.running:
            self.running = False
            return
        from .online.quit_hosting import QuitHostingScene

        if not isinstance(self.scenes[-1], QuitHostingScene):
            self.push(QuitHostingScene(host, self._quit_now, self.close_top))

    def _quit_now(self) -> None:
        self.running = False

    @property
    def unsaved(self) -> str | None:
        """Why the game in play is not saved as it stands, or None (a keeper that keeps no files: None)."""
        why: str | None = getattr(self.keeper, "unsaved", None)
        return why

    def quit_note(self) -> str:
        """What quitting does to the game: never "saved" when its latest save failed."""
        if self.unsaved is None:
            return "Your game is saved; it goes on when you come back"
        return "Your game could not be saved: quitting loses its last turns"

    def open_settings(self) -> None:
        from .settings_scene import SettingsScene

        self.push(SettingsScene(self.prefs, self.setting_changed, self.close_top))

    def setting_changed(self, name: str) -> None:
        """A setting changed on the Settings screen: apply it at once, and save the settings."""
        if name == "sound":
            self.sounds.enabled = self.prefs.sound
            self.sounds.click()
        elif name == "volume":
            self.sounds.set_volume(self.prefs.volume)
            self.sounds.click()
        elif name == "fullscreen":
            self.screen = self._open(self.prefs.fullscreen)
            self._relayout()
        elif name == "colour_marks":
            from . import art

            art.set_letter_marks(self.prefs.colour_marks)
            self._relayout()
        self.keeper.save_preferences(self.prefs)

    def open_rules(self, page: int = 0) -> None:
        from .rules_scene import RulesScene

        self.push(RulesScene(self, self.close_top, page))

    def open_cribbage(self) -> None:
        """Classic cribbage over the title: the saved game if unfinished, else a choice of bot and muggins."""
        from .cribbage.setup import open_cribbage

        open_cribbage(self)

    def open_tutorial(self) -> None:
        from .tiles.tutorial_scene import TutorialScene

        self.push(TutorialScene(self, self.close_tutorial))

    def close_tutorial(self) -> None:
        """Back from the tutorial: a welcome line that offered it says, once it is done, what comes next."""
        from .title import TitleScene

        self.close_top()
        for scene in self.scenes:
            if isinstance(scene, TitleScene) and scene.greeting:
                scene.greeting = welcome_line(self.prefs)
                if self.prefs.tutorial_done:
                    scene.menu.focus = next(i for i, item in enumerate(scene.menu.items) if item.label == "New game")

    def open_puzzles(self) -> None:
        from .tiles.puzzle_scene import PuzzleScene

        self.push(PuzzleScene(self, self.close_top))

    def open_history(self) -> None:
        from .history_scene import HistoryScene

        self.push(HistoryScene(self, self.close_top))

    def open_statistics(self) -> None:
        from .history_scene import StatisticsScene

        self.push(StatisticsScene(self, self.close_top))

    def open_replay(self, table: Table, quit_on_close: bool = False) -> None:
        """A game step by step on the board, over what is shown; `quit_on_close`: the window was opened
        for it (`cribtiles replay FILE`), so closing it quits."""
        from .tiles.replay_scene import ReplayScene

        self.push(ReplayScene(self, table, self.quit if quit_on_close else self.close_top, self.export_game))

    def open_cribbage_replay(self, table: CribbageTable, quit_on_close: bool = False) -> None:
        """A game of cribbage step by step on the felt, over what is shown; `quit_on_close`: the window
        was opened for it (`cribtiles replay FILE`), so closing it quits."""
        from .cribbage.replay_scene import CribbageReplayScene

        self.push(CribbageReplayScene(self, table, self.quit if quit_on_close else self.close_top, self.export_game))

    def export_game(self, table: Table | CribbageTable) -> str:
        """Write `table`'s record to a file of its own; where it went, or why it could not, in words."""
        return self.keeper.export_game(table)

    def open_review(self, table: Table) -> None:
        """The review of `table`'s game over what is shown: every turn against the best play found,
        analysed in a process of its own while the window goes on."""
        from .tiles.review_scene import ReviewScene

        self.push(ReviewScene(self, table, self.close_top))

    def open_cribbage_review(self, table: CribbageTable) -> None:
        """The review of `table`'s game of cribbage over what is shown: every discard and card laid
        against the best found, analysed in a process of its own while the window goes on."""
        from .cribbage.review_scene import CribbageReviewScene

        self.push(CribbageReviewScene(self, table, self.close_top))

    def review_cribbage(self, session: CribbageDriver) -> str:
        """The review of `session`'s game just ended (the cribbage end card's V), or why not yet in words."""
        table = session.finished_table()
        if table is None:
            return "The game's record has not come yet: ask for the review again in a moment."
        self.open_cribbage_review(table)
        return ""

    def exports_folder(self) -> Path | None:
        """Where files made for the player go (a review's chart): the data folder's exports; None when
        the keeper keeps no folder (the self-test, benchmarks)."""
        folder = getattr(self.keeper, "folder", None)
        return Path(folder) / "exports" if folder is not None else None

    # --- games ---

    def _fresh_table(self) -> Table:
        """The first game when there is none to resume: the seats of the command line, or those last
        chosen on the New game screen (a lone bot at the level of the preferences)."""
        seed = self.seed if self.seed is not None else random.randrange(2**31)
        self.seed = None  # only the first game takes the command line's seed
        seats = self.first_seats or remembered_seats(with_level(self.prefs.seats, self.prefs.level), self.options)
        if self.options.solitaire and len(seats) != 2:  # players named on the command line, Solitaire remembered
            self.options = replace(self.options, mode=Mode.STANDARD)
        return Table.new(seats, self.options, seed)

    @property
    def next_is_round(self) -> bool:
        """The game over the table is a round of a match with rounds still to play."""
        return self.session.state.is_over and not self.session.match.is_over

    def take_seat(self, session: Session, notice: str = "") -> None:
        """Play `session` from now on, in place of the game in play (whose bot stops thinking): a new
        game here, the next round, or a table elsewhere; the window never asks which."""
        if session is not self.session:
            if self.session.plays_again and not session.plays_again:  # this window's own game, kept aside
                self._home = self.session
            self.session.close()
        self.session = session
        session.save()
        self.game = GameScene(self, session, notice=notice)
        self._set_scenes([self.game])
        self.caption(session.state)
        log.info("at a table of %d (%s)", len(session.seats), type(session).__name__)

    def start(self, seats: Sequence[Seat], options: RuleOptions, seed: int | None = None) -> None:
        """Start a new game (or match) at a table of `seats` under `options`, in place of the one in play."""
        self.options = options
        seed = seed if seed is not None else random.randrange(2**31)
        self.take_seat(LocalSession.new(seats, options, seed, self.worker, self.keeper))
        if self.game.level in PROCESS_LEVELS:
            self.worker.warm_up()

    def new_game(self) -> None:
        """The next round of the match, once a round is over; otherwise a new game at the same table:
        its seats (a lone bot at the level chosen) and rules, a new shuffle."""
        session = self.session
        try:
            if not self.next_is_round:
                self.take_seat(session.again(again(session.seats, self.prefs.level), random.randrange(2**31)))
                return
            session.next_round()
        except IllegalMove as e:  # a table online: not played again from here, or not reachable now
            self.open_title(greeting=sentence(str(e)))
            return
        self.take_seat(session, round_words(session.match, self.game.you))

    def open_new_game(self) -> None:
        """The New game screen over the table (it says so when a game in progress would be lost)."""
        if any(isinstance(s, NewGameScene) for s in self.scenes):
            return
        in_progress = not self.session.match.is_over
        # the seats and rules of the game at the table (a lone bot at the level L chose), not older choices
        seats, options = self.session.seats, self.session.match.options
        pairs = table_pairs(again(seats, self.prefs.level), self.prefs.seats, options.solitaire)
        form = NewGameForm.offered(pairs, options, in_progress)
        self.scenes.append(NewGameScene(form, self.game, self._start_from_form, self._close_new_game))

    def _start_from_form(self, form: NewGameForm) -> None:
        """Start what the New game screen chose, and remember the choices for next time."""
        seats = form.table_seats()
        self.prefs.seats = form.remembered()
        self.prefs.rules = form.options.to_text()
        level = lone_bot(seats)
        if level is not None:  # the bot of the next one-bot game, as L would have set it
            self.prefs.level = level
        self.keeper.save_preferences(self.prefs)
        self.start(seats, form.options, form.seed_value())

    def _close_new_game(self) -> None:
        """Cancel: back to the game (or its end card) exactly as it was."""
        if self.scenes and isinstance(self.scenes[-1], NewGameScene):
            self.close_top()

    def caption(self, state: PublicState) -> None:
        """The window's title carries the score, for the task bar."""
        from .art import clip

        names = ["You" if p == self.game.you else clip(n, 24) for p, n in enumerate(state.names)]
        scores = " · ".join(f"{n} {s}" for n, s in zip(names, state.final_scores(), strict=True))
        self._game_caption = f"{TITLE} — {scores}"
        self._show_caption()

    def _show_caption(self) -> None:
        """The title the window shows: that of the topmost screen with its own (a game of cribbage:
        its score), else the tile game's score (online, as fresh as the window knows it), after how many
        tables wait for this player's move: "(1) Your turn — Crib Tiles — …". Set only when it changes."""
        text = self._game_caption
        if self._lobby is not None and self.session.where is not None and self._here is not self.session:
            text = f"{TITLE} — {self._table_scores()}"
        for scene in reversed(self.scenes):
            own = getattr(scene, "window_caption", None)
            if own is not None:
                text = f"{TITLE} — {own()}"
                break
        waiting = self.your_turns()
        if waiting:
            text = f"({waiting}) Your turn — {text}"
        if text != self._caption_shown:
            self._caption_shown = text
            pygame.display.set_caption(text)

    def show_end(self, game: GameScene) -> None:
        """The round at the table is over: its end card; a finished game (or match) goes into the history
        (once, however often its end is shown: the history knows each game by its record)."""
        if game.session is self.session:
            self.session.finish()
        if self.scenes and self.scenes[-1] is game:
            game.anims.toasts.clear()
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
        from cribtiles.bot import DEFAULT_LEVEL, LEVELS

        i = LEVELS.index(self.prefs.level if self.prefs.level in LEVELS else DEFAULT_LEVEL)
        self.prefs.level = LEVELS[(i + 1) % len(LEVELS)]
        self.keeper.save_preferences(self.prefs)
        if lone_bot(self.session.seats) is not None:
            self.game.toast(f"Next game against the {self.prefs.level} bot (Ctrl+N: other players and rules)")
        else:
            self.game.toast(f"A game against one bot will play the {self.prefs.level} bot (Ctrl+N chooses players)")

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
        self._online_frame()
        top = self.scenes[-1]
        top.update(dt)
        if self._lobby is not None:  # a table online opened from a table (played again): its job's end
            self._lobby.update()
        self._show_caption()
        full = self._full or top is not self._last_top
        self._full, self._last_top = False, top
        changed = top.draw(self.screen, full)
        if changed is None:
            pygame.display.flip()
        elif changed:
            pygame.display.update(changed)
        self.frames += 1
        self._tell_incidents()
        if self._prefs_changed is not None and time.monotonic() - self._prefs_changed > PREFS_SETTLE:
            self._prefs_changed = None
            self.keeper.save_preferences(self.prefs)
        if self._warm:  # draw one tile face ahead of need per frame, so no frame waits for many
            tile, size = self._warm.pop()
            from . import art

            art.tile_face(tile, size)

    # --- online play, whichever screen is shown ---

    def _on_screen(self) -> Any:
        """The session of the table the top screen shows (its end card's too), or None."""
        top = self.scenes[-1] if self.scenes else None
        shown = top.game if isinstance(top, EndScene) else top
        session = getattr(shown, "session", None)
        return session if callable(getattr(session, "here", None)) else None

    def _presence(self, session: Any) -> None:
        """Only the table on screen is "here": the one the window showed before is left as the screen
        changes, and come back to when it is shown again (issue 44, defect 5)."""
        if session is self._here:
            return
        if self._here is not None:
            self._here.here(False)
        if session is not None:
            session.here(True)
        self._here = session

    def _online_frame(self) -> None:
        """A frame of online play beside the screen shown: presence, the jobs, the tables' standings,
        and what is news of them (a turn that came, a move's time nearly out)."""
        if not self._lobby_started and self.online is not None:
            self._lobby_started = True
            if self.online.book.seats():  # the tables sat at are watched from the start
                _ = self.lobby
        self._take_handed()
        if self._lobby is not None:
            self._lobby.update()  # a table opened in a job is taken now: it is on screen below
        session = self._on_screen()
        self._presence(session)
        if self._lobby is None:
            return
        held = self._held_at(session.where if session is not None else None)
        yours = held is not None and session is not None and session.to_move in session.mine
        self._lobby.standings.live(held, yours)
        for news in self._lobby.standings.news():
            self._alert(news)
        self._refresh_title()

    def _take_handed(self) -> None:
        """Twice a second: a table handed to this window by an invitation clicked while it was open (the
        second program gives it here rather than refuse): the window comes to the front, seated there."""
        if self.online is None or self.online.handed is None:
            return
        now = time.monotonic()
        if now - self._handed_at < HANDED_EVERY:
            return
        self._handed_at = now
        table, problem = self.online.handed()
        if problem:
            log.warning("%s", problem)
            self._tell(problem)
        if table is not None:
            log.info("a table was handed to this window: %s", table[1])
            raise_window()
            self.open_online_table(*table)

    def _held_at(self, where: tuple[str, str] | None) -> HeldSeat | None:
        """The seat this player holds at the online table `where` (None: none, or a table of this window)."""
        if where is None or self.online is None:
            return None
        return next((h for h in self.online.book.seats() if h.key == where), None)

    def _alert(self, news: News) -> None:
        """A turn that came, or a move's time nearly out, at any table: the task bar flashes, a chime (the
        sound setting allowing), and the screen shown says where."""
        from .online.screens import code_words
        from .online.standings import Kind
        from .tiles.game_words import clock_words

        self.flasher()
        self.sounds.chime()
        here = self._held_at(self._here.where if self._here is not None else None)
        at = "" if here is not None and here.key == news.held.key else f" at {code_words(news.held.code)}"
        if news.kind is Kind.TURN:
            listed = getattr(self.scenes[-1], "lists_tables", False)  # Your online games shows it already
            if at:
                self._tell(f"Your turn{at}." if listed else f"Your turn{at}: Your online games takes you there.")
        else:
            left = clock_words(news.left).removesuffix(" left")
            self._tell(f"Your move{at}: {left} left before it is made for you.")

    def _tell(self, text: str) -> None:
        """A word to the player on the screen shown, whichever it is (one without a place for it: the
        caption and the chime said it)."""
        tell = getattr(self.scenes[-1], "tell", None)
        if callable(tell):
            tell(text)

    def your_turns(self) -> int:
        """How many online tables wait for this player's move."""
        return self._lobby.standings.yours() if self._lobby is not None else 0

    def _table_scores(self) -> str:
        """The scores at the table the window holds: as its server last told them when the table is not
        on screen (its session hears nothing then), else as the table shows them."""
        where = self.session.where
        if where is not None and self._here is not self.session and self._lobby is not None:
            held = self._held_at(where)
            heard = self._lobby.standings.heard.get(where)
            if held is not None and heard is not None and heard.table is not None:
                from cribtiles.online.standing import table_scores

                told = table_scores(held.seat, heard.table)
                if told:
                    return told
        state = self.session.state
        names = ["You" if p == self.game.you else n for p, n in enumerate(state.names)]
        return " · ".join(f"{n} {sc}" for n, sc in zip(names, state.final_scores(), strict=True))

    def _refresh_title(self) -> None:
        """The title's words that go stale: the scores of the game at the table, and the tables that wait
        for this player (issue 44, defect 8)."""
        from .title import TitleScene

        title = next((s for s in self.scenes if isinstance(s, TitleScene)), None)
        if title is None:
            return
        waiting = self.your_turns()
        for i, item in enumerate(title.menu.items):
            if item.label == "Continue":
                note = f"The game at the table: {self._table_scores()}"
            elif item.label.startswith("Your online games"):
                note = item.note
                label = "Your online games" + (f" ({waiting} your turn)" if waiting else "")
                if label != item.label:
                    title.menu.items[i] = replace(item, label=label)
                continue
            else:
                continue
            if note != item.note:
                title.menu.items[i] = replace(item, note=note)

    def _tell_incidents(self) -> None:
        """What went wrong with a bot (replaced after it hung or died) is told at the table; online, the
        connection lost and back, who went away (the lines said are the scene's chat to tell)."""
        for text in self.session.incidents():
            self.game.toast(text, 8.0)

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
                self.toggle_fullscreen()
                return
            if event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                self.quit()
                return
            if self._typing():  # a line typed to the table: its letters are no shortcuts
                self.scenes[-1].handle(event)
                return
            if not isinstance(self.scenes[-1], (GameScene, EndScene)):  # the screens have letters of their own
                if event.key == pygame.K_n and event.mod & pygame.KMOD_CTRL and not self._typing():
                    self.open_new_game()
                else:
                    self.scenes[-1].handle(event)
                return
            if event.key == pygame.K_ESCAPE and self.scenes[-1] is self.game and self.game.nothing_to_cancel():
                self.open_title()
                return
            if event.key == pygame.K_n and event.mod & pygame.KMOD_CTRL:  # asks before throwing a game away
                self.open_new_game()
                return
            if event.key == pygame.K_a and not event.mod & pygame.KMOD_CTRL:
                self.cycle_speed()
                return
            if event.key == pygame.K_m:
                self.toggle_sound()
                return
            top = self.scenes[-1]
            if event.key == pygame.K_l and not (isinstance(top, EndScene) and top.asks_again):  # online: L leaves
                self.cycle_level()
                return
        self.scenes[-1].handle(event)

    def _typing(self) -> bool:
        """The top scene takes typed text now: a name on the New game screen, a chat line at a table."""
        top = self.scenes[-1]
        return isinstance(top, NewGameScene) or bool(getattr(top, "typing", False))

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
        if self.unsaved is not None:
            self.session.save()
        self._set_scenes([])  # each scene stops what it started
        self.session.close()
        if self._lobby is not None:  # its links, and a server hosted here, stop with the window
            self._lobby.close()
        elif self.online is not None and self.online.host is not None:  # one an earlier window left running
            self.online.host.stop()  # (unless the player chose to keep it running)
        self.worker.close()
        pygame.display.quit()
        log.info("window closed%s", f" ({self.stopped_by})" if self.stopped_by else "")
