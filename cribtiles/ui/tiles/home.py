"""The window's own game, the tile game at the bottom of its stack (the registry's `HOME` part of Kings
Cribbage, `TileHome`): the first table when there is none to resume, the saved one resumed, the window's
title over it, its end card, its next round, playing it again, and the New game screen over it, whose
choices start the next game and are remembered.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

import pygame

from cribtiles.bot import PROCESS_LEVELS
from cribtiles.bot.worker import BotWorker
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.options import Mode, RuleOptions
from cribtiles.rules.tiles import Colour, Tile
from cribtiles.table import Seat
from cribtiles.table.seats import lone_bot, seats_from_names
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.public import PublicState
from cribtiles.table.tiles.session import LocalSession, Session
from cribtiles.table.tiles.table import Table

from .. import art
from ..config import Keeper
from ..scene import Scene
from ..screens import Item
from .end_scene import EndScene, Router
from .game_scene import GameScene, Host
from .game_words import round_words, sentence
from .newgame import NewGameScene
from .newgame_form import NewGameForm, again, options_of, remembered_seats, table_pairs, with_level

#: The title's welcome at the first start: the tutorial offered, or once it is done, what comes next.
WELCOME = "Welcome! New to Kings Cribbage? The tutorial teaches it in a short game."
WELCOME_BACK = "Tutorial done. New game sets up a game of your own: the players and the rules."


def welcome_line(prefs: Preferences) -> str:
    """The welcome on the title: it offers the tutorial only until the tutorial has been played to its end."""
    return WELCOME_BACK if prefs.tutorial_done else WELCOME


class Window(Protocol):
    """What the New game screen asks of the window: its game, its settings, and a new game started."""

    prefs: Preferences
    keeper: Keeper
    scenes: list[Scene]

    def close_top(self) -> None: ...

    def start(self, seats: Sequence[Seat], options: RuleOptions, seed: int | None = None) -> None: ...


def first_table(
    prefs: Preferences, options: RuleOptions, seats: Sequence[Seat] | None, seed: int | None
) -> tuple[Table, RuleOptions]:
    """The first game when there is none to resume, and the rules it is played under: the seats of the
    command line, or those last chosen on the New game screen (a lone bot at the level of `prefs`);
    Standard rules when players named on the command line are not the two Solitaire takes."""
    seed = seed if seed is not None else random.randrange(2**31)
    seats = seats or remembered_seats(with_level(prefs.seats, prefs.level), options)
    if options.solitaire and len(seats) != 2:  # players named on the command line, Solitaire remembered
        options = replace(options, mode=Mode.STANDARD)
    return Table.new(seats, options, seed), options


def open_new_game(window: Window, game: GameScene) -> None:
    """The New game screen over the table (it says so when a game in progress would be lost), offering
    the seats and rules of the game at the table (a lone bot at the level L chose), not older choices."""
    if any(isinstance(s, NewGameScene) for s in window.scenes):
        return
    session, prefs = game.session, window.prefs
    in_progress = not session.match.is_over
    seats, options = session.seats, session.match.options
    pairs = table_pairs(again(seats, prefs.level), prefs.seats, options.solitaire)
    form = NewGameForm.offered(pairs, options, in_progress)
    window.scenes.append(NewGameScene(form, game, lambda chosen: _start(window, chosen), lambda: _cancel(window)))


def _start(window: Window, form: NewGameForm) -> None:
    """Start what the New game screen chose, and remember the choices for next time."""
    seats = form.table_seats()
    prefs = window.prefs
    prefs.seats = form.remembered()
    prefs.rules = form.options.to_text()
    level = lone_bot(seats)
    if level is not None:  # the bot of the next one-bot game, as L would have set it
        prefs.level = level
    window.keeper.save_preferences(prefs)
    window.start(seats, form.options, form.seed_value())


def _cancel(window: Window) -> None:
    """Cancel: back to the game (or its end card) exactly as it was."""
    if window.scenes and isinstance(window.scenes[-1], NewGameScene):
        window.close_top()


class Home(Window, Host, Router, Protocol):
    """What the tile game asks of the window it is the own game of: the New game screen's, the table's
    and the end card's needs, its bot worker, and the seat it plays."""

    worker: BotWorker

    def take_seat(self, session: Session, notice: str = "") -> None: ...

    def open_title(self, first_start: bool = False, greeting: str = "") -> None: ...

    def push(self, scene: Scene) -> None: ...


def as_table(saved: Table | GameState | Match) -> Table:
    """A table for a saved game or match (its seats told by name: only tables save their seats)."""
    if isinstance(saved, Table):
        return saved
    match = saved if isinstance(saved, Match) else Match(saved.options, saved.seed, saved.names, (), saved)
    return Table(seats_from_names(match.names), match)


class TileHome:
    """The tile game as the window's own (the registry's `HOME` part of Kings Cribbage): what the window
    starts with and comes back to, and what it does at the table's end, its next round and again. Made
    of the window and the first game's rules, seats and seed (None: as the New game screen last chose)."""

    def __init__(
        self, window: Home, options: RuleOptions | None, seats: Sequence[Seat] | None, seed: int | None
    ) -> None:
        self.window = window
        self.options = options if options is not None else options_of(window.prefs.rules)
        self.first_seats = tuple(seats) if seats is not None else None
        self.seed = seed
        self._game: GameScene | None = None

    @staticmethod
    def icon() -> pygame.Surface:
        """The window's icon: a maple 5, drawn like every other tile."""
        return art.tile_face(Tile(5, Colour.LIGHT), 64)

    def first_session(self, saved: Table | GameState | Match | None) -> Session:
        """The session the window opens on: the `saved` game resumed, else a fresh table (saved at once)."""
        table = as_table(saved) if saved is not None else self.fresh_table()
        session = LocalSession(table, self.window.worker, self.window.keeper)
        if table is not saved:
            session.save()
        return session

    def fresh_session(self) -> Session:
        """A fresh table here, as the first one is made (back from a table online with none kept aside)."""
        return LocalSession(self.fresh_table(), self.window.worker, self.window.keeper)

    def fresh_table(self) -> Table:
        """The first game when there is none to resume (only the first takes the command line's seed)."""
        table, self.options = first_table(self.window.prefs, self.options, self.first_seats, self.seed)
        self.seed = None
        return table

    def scene(self, session: Session, notice: str = "") -> GameScene:
        """The table's scene playing `session`, from now on the window's game (`game`)."""
        self._game = GameScene(self.window, session, notice=notice)
        return self._game

    @property
    def game(self) -> GameScene:
        """The table's scene the window plays (made by `scene`)."""
        if self._game is None:
            raise RuntimeError("the tile table is asked of before its scene was made")
        return self._game

    def at_table(self, scene: object) -> bool:
        """`scene` is the table or its end card, whose keys are the table's (the other screens have their own)."""
        return isinstance(scene, (GameScene, EndScene))

    def takes_text(self, scene: object) -> bool:
        """`scene` is one where a name is typed (the New game screen)."""
        return isinstance(scene, NewGameScene)

    def warm_up(self) -> None:
        """Start the bot's process while the player looks, when the table's bot plays in one."""
        if self.game.level in PROCESS_LEVELS:
            self.window.worker.warm_up()

    def scores(self, state: PublicState) -> str:
        """The score for the window's title: "You 12 · Hard 9"."""
        you = self.game.you
        names = ["You" if p == you else art.clip(n, 24) for p, n in enumerate(state.names)]
        return " · ".join(f"{n} {s}" for n, s in zip(names, state.final_scores(), strict=True))

    @property
    def next_is_round(self) -> bool:
        """The game over the table is a round of a match with rounds still to play."""
        session = self.game.session
        return session.state.is_over and not session.match.is_over

    @property
    def unfinished(self) -> bool:
        """The match at the table is not over: the title offers to Continue it."""
        return not self.game.session.match.is_over

    def start(self, seats: Sequence[Seat], options: RuleOptions, seed: int | None = None) -> None:
        """Start a new game (or match) at a table of `seats` under `options`, in place of the one in play."""
        window = self.window
        self.options = options
        seed = seed if seed is not None else random.randrange(2**31)
        window.take_seat(LocalSession.new(seats, options, seed, window.worker, window.keeper))
        self.warm_up()

    def new_game(self) -> None:
        """The next round of the match, once a round is over; otherwise a new game at the same table:
        its seats (a lone bot at the level chosen) and rules, a new shuffle."""
        window = self.window
        session = self.game.session
        try:
            if not self.next_is_round:
                window.take_seat(session.again(again(session.seats, window.prefs.level), random.randrange(2**31)))
                return
            session.next_round()
        except IllegalMove as e:  # a table online: not played again from here, or not reachable now
            window.open_title(greeting=sentence(str(e)))
            return
        window.take_seat(session, round_words(session.match, self.game.you))

    def open_new_game(self) -> None:
        """The New game screen over the table."""
        open_new_game(self.window, self.game)

    def show_end(self, game: GameScene) -> None:
        """The round at the table is over: its end card; a finished game (or match) goes into the history
        (once, however often its end is shown: the history knows each game by its record)."""
        window = self.window
        if game.session is self.game.session:
            game.session.finish()
        if window.scenes and window.scenes[-1] is game:
            game.anims.toasts.clear()
            window.scenes.append(EndScene(window, game))

    # --- the title's words and items of the tile game, and its bot's level (L) ---

    def welcome(self) -> tuple[str, str]:
        """The title's welcome at the first start, and the item it points to: the tutorial, until the
        tutorial has been played to its end, then New game."""
        prefs = self.window.prefs
        return welcome_line(prefs), "New game" if prefs.tutorial_done else "Tutorial"

    def title_items(self) -> list[Item]:
        """The title's items of the tile game beside each game's way in: its tutorial and its puzzles."""
        return [
            Item("Tutorial", self.open_tutorial, key=pygame.K_t, note="A short guided game on a fixed board"),
            Item("Puzzles", self.open_puzzles, key=pygame.K_p, note="Find the best play: positions from Hard's games"),
        ]

    def open_tutorial(self) -> None:
        from .tutorial_scene import TutorialScene

        self.window.push(TutorialScene(self.window, self.close_tutorial))

    def close_tutorial(self) -> None:
        """Back from the tutorial: a welcome line that offered it says, once it is done, what comes next."""
        from ..title import TitleScene

        window = self.window
        window.close_top()
        for scene in window.scenes:
            if isinstance(scene, TitleScene) and scene.greeting:
                scene.greeting = welcome_line(window.prefs)
                if window.prefs.tutorial_done:
                    scene.menu.focus = next(i for i, item in enumerate(scene.menu.items) if item.label == "New game")

    def open_puzzles(self) -> None:
        from .puzzle_scene import PuzzleScene

        self.window.push(PuzzleScene(self.window, self.window.close_top))

    def takes_level_key(self, top: object) -> bool:
        """L at `top` changes the bot's level: not on an end card online, where L leaves the table."""
        return not (isinstance(top, EndScene) and top.asks_again)

    def cycle_level(self) -> None:
        """L: the next level of the bot of one-bot games, said at the table."""
        from cribtiles.bot import DEFAULT_LEVEL, LEVELS

        window, prefs = self.window, self.window.prefs
        i = LEVELS.index(prefs.level if prefs.level in LEVELS else DEFAULT_LEVEL)
        prefs.level = LEVELS[(i + 1) % len(LEVELS)]
        window.keeper.save_preferences(prefs)
        if lone_bot(self.game.session.seats) is not None:
            self.game.toast(f"Next game against the {prefs.level} bot (Ctrl+N: other players and rules)")
        else:
            self.game.toast(f"A game against one bot will play the {prefs.level} bot (Ctrl+N chooses players)")
