"""What the window needs from the app: the player's preferences and where to keep the game.

The app owns files and folders; the window only calls `Keeper` (so the ui never imports the app).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.table.model import Table

#: Animation speeds by name: a factor on every animation and pause (0 = instant).
SPEEDS = {"normal": 1.0, "fast": 0.5, "instant": 0.0}


@dataclass
class Preferences:
    level: str = "medium"  # the bot of the next new game
    speed: str = "normal"  # a key of SPEEDS
    sound: bool = True
    fullscreen: bool = False
    window: tuple[int, int] = (1280, 800)

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
