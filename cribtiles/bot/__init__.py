"""Computer players, from Beginner to Expert. Bots see a `PlayerView` only; they import the rules and
the standard library, never pygame."""

from .base import Bot, JokerManners, choose_safely
from .levels import DESCRIPTIONS, LEVELS, PROCESS_LEVELS, Level, level, make_bot

__all__ = [
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
