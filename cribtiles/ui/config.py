"""What the window needs from the app: the player's preferences and where to keep the game.

The app owns files and folders; the window only calls `Keeper` (so the ui never imports the app).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.table.model import Table

from .newgame_form import DEFAULT_SEATS, SeatPair

#: Animation speeds by name: a factor on every animation and pause (0 = instant).
SPEEDS = {"normal": 1.0, "fast": 0.5, "instant": 0.0}


@dataclass
class Preferences:
    level: str = "medium"  # the bot of the next new game
    speed: str = "normal"  # a key of SPEEDS
    sound: bool = True
    fullscreen: bool = False
    window: tuple[int, int] = (1280, 800)
    # the last choices of the New game screen, offered next time: each seat's person's name (kept
    # while a bot sits there) and its bot's level (None: a person sits there); the rule options as
    # in --rules ("" for the defaults). A lone bot among the seats plays at `level` (L changes it).
    seats: tuple[SeatPair, ...] = DEFAULT_SEATS
    rules: str = ""
    # the Settings screen: sound volume in percent (`sound` is the mute switch), letters on the tiles
    # telling light from dark for those who cannot tell the colours, a confirmation before each play,
    # whether a play can be taken back against bots, whether the coach may give hints, and whether
    # the first-game tutorial was offered (at the first start, once)
    volume: int = 80
    colour_marks: bool = False
    confirm_play: bool = False
    undo: bool = True
    hints: bool = True
    tutorial_offered: bool = False

    @property
    def pace(self) -> float:
        return SPEEDS.get(self.speed, 1.0)


class Keeper(Protocol):
    """Saves for the window: the game after every turn, the preferences when they change."""

    def save_game(self, game: Table | GameState | Match) -> None:
        """Save the game at the table (its seats and its match), or a bare game or match."""
        ...

    def save_preferences(self, prefs: Preferences) -> None: ...


class NoKeeper:
    """Keeps nothing (the self-test and benchmarks)."""

    def __init__(self) -> None:
        self.saved: list[GameState] = []

    def save_game(self, game: Table | GameState | Match) -> None:
        self.saved.append(game.state if isinstance(game, Table) else game.game if isinstance(game, Match) else game)

    def save_preferences(self, prefs: Preferences) -> None:
        pass
