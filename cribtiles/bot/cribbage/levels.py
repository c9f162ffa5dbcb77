"""The classic cribbage bots' ladder in one table: each level's name, how it plays, how it keeps muggins
(its counting manners: the top level, like the tile game's Expert, never miscounts), how to make it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cribtiles.quoting import quoted

from .bots import EXACT, CountingManners, CribbageBot, easy_bot, hard_bot, medium_bot
from .expert import expert_bot


@dataclass(frozen=True)
class CribbageLevel:
    name: str
    description: str
    make: Callable[[CountingManners], CribbageBot]
    manners: CountingManners  # how often it forgets points of its own count and misses a wrong count of yours


TABLE: tuple[CribbageLevel, ...] = (
    CribbageLevel(
        "easy",
        "keeps the four cards that score most on their own and plays its highest card, taking a 15 or 31 it sees",
        easy_bot,
        CountingManners(miscount=0.25, oversight=0.4),
    ),
    CribbageLevel(
        "medium",
        "keeps the hand worth most over every starter, minding the crib a little, and plays the card that scores now",
        medium_bot,
        CountingManners(miscount=0.1, oversight=0.15),
    ),
    CribbageLevel(
        "hard",
        "weighs its crib or yours from a table of expected cribs, and plays each card looking ahead at your replies"
        " (with three or four, one card ahead: its points against the next player's best answer)",
        hard_bot,
        EXACT,  # never misses a point, its own or yours
    ),
    CribbageLevel(
        "expert",
        "plays as Hard, over twice as many guesses at your cards, until the end is near, then weighs each"
        " discard and card by its chance to win the game (in the variants, as Hard)",
        expert_bot,
        EXACT,
    ),
)
BY_NAME = {level.name: level for level in TABLE}
LEVELS = tuple(level.name for level in TABLE)
DESCRIPTIONS = {level.name: level.description for level in TABLE}


def cribbage_level(name: str) -> CribbageLevel:
    """The level called `name` (any case); a ValueError in words for another name."""
    found = BY_NAME.get(name.strip().lower())
    if found is None:
        raise ValueError(f"there is no cribbage bot level {quoted(name)}; the levels are {', '.join(LEVELS)}")
    return found


def make_cribbage_bot(name: str) -> CribbageBot:
    """A fresh bot of that level, with its level's counting manners."""
    level = cribbage_level(name)
    return level.make(level.manners)
