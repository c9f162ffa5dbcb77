"""The window's own game, the tile game at the bottom of its stack: the first table when there is none to
resume, and the New game screen over it, whose choices start the next game and are remembered.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from cribtiles.rules.options import Mode, RuleOptions
from cribtiles.table import Seat
from cribtiles.table.seats import lone_bot
from cribtiles.table.session import Session
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table

from ..config import Keeper
from ..scene import Scene
from .game_scene import GameScene
from .newgame import NewGameScene
from .newgame_form import NewGameForm, again, remembered_seats, table_pairs, with_level


class Window(Protocol):
    """What the New game screen asks of the window: its game, its settings, and a new game started."""

    prefs: Preferences
    keeper: Keeper
    scenes: list[Scene]
    session: Session
    game: GameScene

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


def open_new_game(window: Window) -> None:
    """The New game screen over the table (it says so when a game in progress would be lost), offering
    the seats and rules of the game at the table (a lone bot at the level L chose), not older choices."""
    if any(isinstance(s, NewGameScene) for s in window.scenes):
        return
    session, prefs = window.session, window.prefs
    in_progress = not session.match.is_over
    seats, options = session.seats, session.match.options
    pairs = table_pairs(again(seats, prefs.level), prefs.seats, options.solitaire)
    form = NewGameForm.offered(pairs, options, in_progress)
    window.scenes.append(
        NewGameScene(form, window.game, lambda chosen: _start(window, chosen), lambda: _cancel(window))
    )


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
