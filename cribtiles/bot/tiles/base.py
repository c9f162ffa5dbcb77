"""What every computer player is: a policy from a player's view to a move, deterministic for a given
random generator, within an optional time budget.

Bots are given a `PlayerView` only (never the game state), so they cannot see another rack or the
order of the bag.
"""

from __future__ import annotations

import logging
import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move, Play

#: A clock returning seconds (time.perf_counter in play; a fake one in tests).
Clock = Callable[[], float]


class Bot(Protocol):
    @property
    def name(self) -> str:
        """The level's name, as the arena and the window show it."""
        ...

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        """The move to make in `view` (whose player is to move); `budget` is seconds to think."""
        ...


@dataclass(frozen=True)
class JokerManners:
    """How a bot keeps the Joker rule: the chance that it forgets one item of its own play's score
    (a fifteen, a run, a bonus) when it declares (it never over-declares), and the chance that it
    fails to call "Joker" when another player's play was declared wrong, missed points or claimed
    too many alike. Without a random generator it never slips."""

    undercount: float = 0.0
    oversight: float = 0.0

    def declare(self, view: PlayerView, play: Play, rng: random.Random | None = None) -> int:
        result = view.scorer.score(view.board, play)
        if rng is None or rng.random() >= self.undercount:
            return result.total
        items = [c.points for line in result.lines for c in line.combinations] + [b.points for b in result.bonuses]
        return result.total - rng.choice(items) if items else result.total

    def should_call(self, view: PlayerView, rng: random.Random | None = None) -> bool:
        """Call "Joker" when the last play, by someone else and not called on yet, was declared wrong:
        points left unclaimed or points claimed beyond its score (and the bot sees it). The bot counts
        the play itself, on the board: the view withholds its worth while it may be called."""
        if not view.options.joker or not view.turns:
            return False
        last = view.turns[-1]
        if not last.is_play or last.player == view.player or view.last_called:
            return False
        missed = view.last_play_worth() != last.points
        return missed and (rng is None or rng.random() >= self.oversight)


def choose_safely(bot: Bot, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
    """`bot.choose`, falling back to the greedy move if the bot fails: a game never stops on a bot.
    The failure is logged with its traceback (`cribtiles.bot`)."""
    move, failure = choose_reporting(bot, view, rng, budget)
    if failure:
        logging.getLogger("cribtiles.bot").error("%s", failure)
    return move


def choose_reporting(bot: Bot, view: PlayerView, rng: random.Random, budget: float | None = None) -> tuple[Move, str]:
    """`bot.choose`, or the greedy move if the bot fails, and the failure in words with its traceback
    ("" when the bot did not fail), for a worker process to send to the game, which logs it."""
    from .greedy import greedy_move

    try:
        return bot.choose(view, rng, budget), ""
    except MemoryError:  # not the bot's failure but the machine's: the game decides (the text mode saves)
        raise
    except Exception:
        failure = f"the {bot.name} bot failed; it plays the greedy move instead\n{traceback.format_exc().rstrip()}"
        return greedy_move(view, rng), failure
