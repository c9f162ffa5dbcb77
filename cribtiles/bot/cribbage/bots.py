"""The classic cribbage bots, Easy, Medium and Hard: each a way to discard and a way to play a card, and
counting manners for muggins (how often it forgets points of its own count, how often it misses a wrong
count of yours). Bots see a `CribbageView` only: never the other hand, the crib before it is turned up to be
counted, or the order of the deck.
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
from cribtiles.cribbage.peg import peg_items
from cribtiles.cribbage.show import score_show
from cribtiles.cribbage.view import CribbageView

from .crib import default_table
from .discard import Split, best_split, plain_split, plain_worth
from .guess import guess_hands, opponent_gone
from .peg import MAX_COUNT, answer_card, greedy_card, highest_card, lookahead_card

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
class CountingManners:
    """How a bot keeps muggins: the chance that it forgets one item of its own count (a fifteen, a pair, a
    run, a card's pair in the play) when it says it aloud, and the chance that it lets a wrong count of its
    opponent's stand. It never says more than the cards make, and never calls a right count."""

    miscount: float = 0.0
    oversight: float = 0.0

    def say(self, items: list[int], rng: random.Random) -> int:
        """What it says for a count made of `items`: their total, or now and then one item short."""
        total = sum(items)
        if not items or rng.random() >= self.miscount:
            return total
        return total - rng.choice(items)

    def count(self, view: CribbageView, rng: random.Random) -> int:
        """Its count of the hand (or crib) laid face up to be counted, from its view."""
        assert view.starter is not None
        crib = view.show_step == len(view.names)
        return self.say([item.points for item in score_show(view.to_count, view.starter, crib).items], rng)

    def claim(self, view: CribbageView, card: Card, rng: random.Random) -> int:
        """What it says the card it lays scores in the play."""
        return self.say([item.points for item in peg_items((*view.pile, card))], rng)

    def should_call(self, view: CribbageView, rng: random.Random) -> bool:
        """Call muggins when the opponent's score said aloud is not what the cards make (and it notices)."""
        claim = view.claim
        if claim is None or claim.counter == view.player or claim.declared == claim.worth:
            return False
        return rng.random() >= self.oversight


#: Counting without a slip: every point of its own, every wrong count of yours called.
EXACT = CountingManners()


@dataclass(frozen=True)
class PolicyBot:
    """A bot made of a discard policy, a play policy and its counting manners (used only under muggins)."""

    name: str
    discard: DiscardPolicy
    play: PlayPolicy
    manners: CountingManners = EXACT

    def choose(self, view: CribbageView, rng: random.Random) -> Move:
        if view.claim is not None:
            return Muggins(self.manners.should_call(view, rng))
        if view.phase is Phase.DISCARD:
            return Discard(self.discard(view, rng).discarded)
        if view.phase is Phase.PLAY:
            if not any(view.count + c.value <= MAX_COUNT for c in view.hand):
                return Go()
            card = self.play(view, rng)
            if view.options.play_muggins:
                return PlayCard(card, self.manners.claim(view, card, rng))
            return PlayCard(card)
        if view.options.muggins:
            return Count(self.manners.count(view, rng))
        return Count()


def own_crib(view: CribbageView) -> bool:
    """Whether the crib is the bot's side's: its own, or its partner's."""
    return view.side_of(view.dealer) == view.side_of(view.player)


# --- the policies ---


def easy_discard(view: CribbageView, rng: random.Random) -> Split:
    return plain_split(view.hand, rng, view.options.variant.to_crib)


def medium_discard(view: CribbageView, rng: random.Random) -> Split:
    return best_split(view.hand, plain_worth(own_crib(view)), view.options.variant.to_crib)


def hard_discard(view: CribbageView, rng: random.Random) -> Split:
    return best_split(view.hand, default_table().worth(own_crib(view)), view.options.variant.to_crib)


def easy_play(view: CribbageView, rng: random.Random) -> Card:
    return highest_card(view.hand, view.pile, view.count)


def medium_play(view: CribbageView, rng: random.Random) -> Card:
    return greedy_card(view.hand, view.pile, view.count)


def hard_play(view: CribbageView, rng: random.Random) -> Card:
    """Hard's card: with two players its look-ahead over guesses at the opponent's hand (five-card's play
    ending at its first 31 or go); with three or four, one ply: the points now minus what the next player
    may answer (`answer_card`)."""
    if len(view.names) > 2:
        return answer_card(view.hand, view.pile, view.unseen, view.cards_left[view.opponent])
    guesses = guess_hands(view, PEG_GUESSES, rng)
    once = view.options.variant.play_once
    return lookahead_card(view.hand, view.pile, opponent_gone(view), guesses, needs_near_the_end(view), once)


def needs_near_the_end(view: CribbageView) -> tuple[int, int] | None:
    """The points the bot and the opponent still need, when either could peg out in this play."""
    target = view.options.target
    needs = (target - view.scores[view.side_of(view.player)], target - view.scores[view.side_of(view.opponent)])
    return needs if min(needs) <= RACE_WITHIN else None


# --- the levels' bots, and a choice that never stops a game ---


def easy_bot(manners: CountingManners = EXACT) -> CribbageBot:
    return PolicyBot("easy", easy_discard, easy_play, manners)


def medium_bot(manners: CountingManners = EXACT) -> CribbageBot:
    return PolicyBot("medium", medium_discard, medium_play, manners)


def hard_bot(manners: CountingManners = EXACT) -> CribbageBot:
    return PolicyBot("hard", hard_discard, hard_play, manners)


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
