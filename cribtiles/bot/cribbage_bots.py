"""The classic cribbage bots, Easy, Medium and Hard: each a way to discard and a way to play a card,
the show counted exactly (and muggins always claimed). Bots see a `CribbageView` only: never the other
hand, the crib before it is counted, or the order of the deck.
"""

from __future__ import annotations

import logging
import random
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.moves import Count, Discard, Go, Move, Muggins, PlayCard
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.view import CribbageView

from .cribbage_crib import default_table
from .cribbage_discard import Split, best_split, plain_split, plain_worth
from .cribbage_peg import MAX_COUNT, greedy_card, highest_card, lookahead_card, sample_hands

#: Hard's guesses at the opponent's hand for each card it lays (more: steadier, slower).
PEG_GUESSES = 24


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
    guesses = sample_hands(possible_cards(view), view.opponent_cards_left, PEG_GUESSES, rng)
    return lookahead_card(view.hand, view.pile, opponent_gone(view), guesses)


# --- what the play so far tells Hard ---


def opponent_gone(view: CribbageView) -> bool:
    """Whether the opponent has said go (or has nothing left) since the count was last reset: it is the
    bot's turn again straight after its own card."""
    return bool(view.pile) and bool(view.played) and view.played[-1][0] == view.player


def lowest_value_held(played: Sequence[tuple[int, Card]], opponent: int, pile: Sequence[Card]) -> int:
    """The least count value every card the opponent still holds must have, from their go's this deal:
    whenever they could not lay at count c, each card they held (and so each they hold now) is over 31 - c.

    A count ended below 31 only when neither player could lay; a player laid twice in a row only when the
    other could not. The counts are rebuilt from the cards laid: a new count began whenever a card would
    not have fitted the old one, or the old one reached 31."""
    least = 1
    count = 0
    previous: int | None = None
    for player, card in played:
        if count + card.value > MAX_COUNT:  # a count that ended below 31: nobody could lay on it
            least = max(least, MAX_COUNT - count + 1)
            count, previous = 0, None
        if previous == player == 1 - opponent:
            least = max(least, MAX_COUNT - count + 1)
        count += card.value
        previous = player
        if count == MAX_COUNT:
            count, previous = 0, None
    if pile and previous == 1 - opponent:  # the bot is to lay again: the opponent said go at this count
        least = max(least, MAX_COUNT - count + 1)
    if not pile and count:  # the count has just ended below 31: nobody could lay on it
        least = max(least, MAX_COUNT - count + 1)
    return least


def possible_cards(view: CribbageView) -> tuple[Card, ...]:
    """The unseen cards the opponent may hold, given their go's (all unseen cards if the go's leave too few)."""
    least = lowest_value_held(view.played, view.opponent, view.pile)
    fits = tuple(c for c in view.unseen if c.value >= least)
    return fits if len(fits) >= view.opponent_cards_left else view.unseen


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
