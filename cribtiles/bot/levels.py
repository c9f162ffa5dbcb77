"""The difficulty ladder, by name: beginner, easy, medium, hard, expert."""

from __future__ import annotations

from .base import Bot
from .equity import HardBot
from .findability import BEGINNER, EASY, FindabilityBot
from .greedy import GreedyBot
from .simulate import DEFAULT_BUDGET, ExpertBot

LEVELS = ("beginner", "easy", "medium", "hard", "expert")
DESCRIPTIONS = {
    "beginner": "overlooks many plays, above all long ones and ones that cross other lines",
    "easy": "sees most short plays and misses some long ones",
    "medium": "always takes the play that scores the most now",
    "hard": "weighs the score against the tiles it keeps and what it opens for you",
    "expert": "simulates the next turns of its best candidates within a time budget",
}


def make_bot(level: str, budget: float | None = None) -> Bot:
    """A fresh bot of that level (`budget`: Expert's seconds per move, default 1.5)."""
    name = level.strip().lower()
    if name == "beginner":
        return FindabilityBot("beginner", BEGINNER)
    if name == "easy":
        return FindabilityBot("easy", EASY)
    if name == "medium":
        return GreedyBot()
    if name == "hard":
        return HardBot()
    if name == "expert":
        return ExpertBot(budget=DEFAULT_BUDGET if budget is None else budget)
    raise ValueError(f"there is no bot level {level!r}; the levels are {', '.join(LEVELS)}")
