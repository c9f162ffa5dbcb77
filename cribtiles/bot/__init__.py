"""Computer players, from Beginner to Expert. Bots see a `PlayerView` only; they import the rules and
the standard library, never pygame."""

from .base import Bot, JokerManners, choose_safely
from .levels import DESCRIPTIONS, LEVELS, make_bot

__all__ = ["DESCRIPTIONS", "LEVELS", "Bot", "JokerManners", "choose_safely", "make_bot"]
