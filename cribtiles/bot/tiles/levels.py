"""The difficulty ladder in one table: each level's name, how it plays, where it thinks, how it
keeps the Joker rule, and how to make it (Macondo keeps its bots' configurations the same way)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cribtiles.quoting import quoted

from .base import Bot, JokerManners
from .equity import HardBot
from .findability import BEGINNER, EASY, FindabilityBot
from .greedy import GreedyBot
from .simulate import DEFAULT_BUDGET, ExpertBot


@dataclass(frozen=True)
class Level:
    name: str
    description: str
    make: Callable[[float | None], Bot]  # the bot, given Expert's budget in seconds (None: its default)
    in_process: bool  # thinks in a process of its own, so the window's frames keep their pace
    manners: JokerManners  # how often it under-counts its own plays and misses a call on others'
    budget: float | None = None  # its seconds a move when none is given (None: it needs no budget)


TABLE: tuple[Level, ...] = (
    Level(
        "beginner",
        "overlooks many plays, above all long ones and ones that cross other lines",
        lambda budget: FindabilityBot("beginner", BEGINNER),
        False,
        JokerManners(undercount=0.3, oversight=0.5),
    ),
    Level(
        "easy",
        "sees most short plays and misses some long ones",
        lambda budget: FindabilityBot("easy", EASY),
        False,
        JokerManners(undercount=0.2, oversight=0.3),
    ),
    Level(
        "medium",
        "always takes the play that scores the most now",
        lambda budget: GreedyBot(),
        False,
        JokerManners(undercount=0.1, oversight=0.15),
    ),
    Level(
        "hard",
        "weighs the score against the tiles it keeps and what it opens for you",
        lambda budget: HardBot(),
        True,
        JokerManners(undercount=0.03, oversight=0.05),
    ),
    Level(
        "expert",
        "simulates the next turns of its best candidates within a time budget",
        lambda budget: ExpertBot(budget=DEFAULT_BUDGET if budget is None else budget),
        True,
        JokerManners(),  # never misses a point, its own or another's
        DEFAULT_BUDGET,
    ),
)
BY_NAME = {level.name: level for level in TABLE}
LEVELS = tuple(level.name for level in TABLE)
DESCRIPTIONS = {level.name: level.description for level in TABLE}
PROCESS_LEVELS = tuple(level.name for level in TABLE if level.in_process)
#: The bot a new player meets first, and the level of a seat turned from a person to a bot.
DEFAULT_LEVEL = "medium"


def level(name: str) -> Level:
    """The level called `name` (any case)."""
    found = BY_NAME.get(name.strip().lower())
    if found is None:
        raise ValueError(f"there is no bot level {quoted(name)}; the levels are {', '.join(LEVELS)}")
    return found


def make_bot(name: str, budget: float | None = None) -> Bot:
    """A fresh bot of that level (`budget`: Expert's seconds per move, default 1.5)."""
    return level(name).make(budget)
