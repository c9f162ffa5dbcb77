"""The classic cribbage bots, Easy, Medium and Hard: each a way to discard and a way to play a card,
the show counted exactly (and muggins always claimed). Bots see a `CribbageView` only: never the other
hand, the crib before it is counted, or the order of the deck.
"""

from __future__ import annotations

import logging
import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.moves import Count, Discard, Go, Move, Muggins, PlayCard
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.view import CribbageView

from .cribbage_crib import default_table
from .cribbage_discard import Split, best_split, plain_split, plain_worth
from .cribbage_guess import guess_hands, opponent_gone
from .cribbage_peg import MAX_COUNT, greedy_card, highest_card, lookahead_card

#: Hard's guesses at the opponent's hand for each card it lays (more: steadier, slower).
PEG_GUESSES = 24
#: Within this many points of the target, Hard's look-ahead plays to peg out first (or stop the opponent).
RACE_WITHIN = 24


class CribbageBot(Protocol):
    @property
    def name(self) -> str:
        """The level's name, as the arena and the window show it."""
        ...

    def choose(self, view: CribbageView, rng: random.Random) -> Move:
        """The move to make in `view` (whose player is to act), deterministic for a given `rng`."""
        ...


DiscardPolicy = Callable[[CribbageView, random.Random], Split]
PlayPolicy = Callable[[CribbageView, random.Random], Card]


@dataclass(frozen=True)
class PolicyBot:
    """A bot made of a discard policy and a play policy; the show it counts exactly."""

    name: str
    discard: DiscardPolicy
    play: PlayPolicy

    def choose(self, view: CribbageView, rng: random.Random) -> Move:
        if view.phase is Phase.DISCARD:
            return Discard(self.discard(view, rng).discarded)
        if view.phase is Phase.PLAY:
            if not any(view.count + c.value <= MAX_COUNT for c in view.hand):
                return Go()
            return PlayCard(self.play(view, rng))
        if view.muggins_due:
            return Muggins(True)  # the points the opponent missed are there for the taking
        return Count()


def own_crib(view: CribbageView) -> bool:
    return view.dealer == view.player


# --- the policies ---


def easy_discard(view: CribbageView, rng: random.Random) -> Split:
    return plain_split(view.hand, rng)


def medium_discard(view: CribbageView, rng: random.Random) -> Split:
    return best_split(view.hand, plain_worth(own_crib(view)))


def hard_discard(view: CribbageView, rng: random.Random) -> Split:
    return best_split(view.hand, default_table().worth(own_crib(view)))


def easy_play(view: CribbageView, rng: random.Random) -> Card:
    return highest_card(view.hand, view.pile, view.count)


def medium_play(view: CribbageView, rng: random.Random) -> Card:
    return greedy_card(view.hand, view.pile, view.count)


def hard_play(view: CribbageView, rng: random.Random) -> Card:
    guesses = guess_hands(view, PEG_GUESSES, rng)
    return lookahead_card(view.hand, view.pile, opponent_gone(view), guesses, needs_near_the_end(view))


def needs_near_the_end(view: CribbageView) -> tuple[int, int] | None:
    """The points the bot and the opponent still need, when either could peg out in this play."""
    target = view.options.target
    needs = (target - view.scores[view.player], target - view.scores[view.opponent])
    return needs if min(needs) <= RACE_WITHIN else None


# --- the levels' bots, and a choice that never stops a game ---


def easy_bot() -> CribbageBot:
    return PolicyBot("easy", easy_discard, easy_play)


def medium_bot() -> CribbageBot:
    return PolicyBot("medium", medium_discard, medium_play)


def hard_bot() -> CribbageBot:
    return PolicyBot("hard", hard_discard, hard_play)


def choose_reporting(bot: CribbageBot, view: CribbageView, rng: random.Random) -> tuple[Move, str]:
    """`bot.choose`, or the first legal move if the bot fails or proposes an illegal one, and the
    failure in words with its traceback ("" when the bot did not fail)."""
    fallback = view.legal[0]
    try:
        move = bot.choose(view, rng)
    except Exception:
        trace = traceback.format_exc().rstrip()
        return fallback, f"the {bot.name} cribbage bot failed; it makes the first legal move instead\n{trace}"
    if move not in view.legal:
        return fallback, f"the {bot.name} cribbage bot proposed an illegal move ({move}); it makes {fallback}"
    return move, ""


def choose_safely(bot: CribbageBot, view: CribbageView, rng: random.Random) -> Move:
    """`bot.choose`, falling back to the first legal move (the failure logged, `cribtiles.bot`)."""
    move, failure = choose_reporting(bot, view, rng)
    if failure:
        logging.getLogger("cribtiles.bot").error("%s", failure)
    return move
