"""Computer players, from Beginner to Expert. Bots see a `PlayerView` only; they import the rules and
the standard library, never pygame."""

from .tiles.base import Bot, JokerManners, choose_safely
from .tiles.levels import DEFAULT_LEVEL, DESCRIPTIONS, LEVELS, PROCESS_LEVELS, Level, level, make_bot

__all__ = [
    "DEFAULT_LEVEL",
    "DESCRIPTIONS",
    "LEVELS",
    "PROCESS_LEVELS",
    "Bot",
    "JokerManners",
    "Level",
    "choose_safely",
    "level",
    "make_bot",
]
