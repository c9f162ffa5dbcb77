"""What Hard guesses of the opponent's hand in the play, from what it has seen: the opponent kept four
good cards of six (so their hand is drawn from deals discarded as a sensible player would), the cards
they have laid are among those four, and each "go" they said bounds the cards they still hold.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.peg import MAX_COUNT
from cribtiles.cribbage.view import CribbageView

from .crib import default_table
from .discard import CribWorth, best_split, plain_worth
from .peg import VALUE, Ranks, sample_hands

#: The most deals tried for the guesses of one decision (the rest are drawn from every card they may hold).
MAX_DEALS = 200


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


def guess_hands(view: CribbageView, guesses: int, rng: random.Random) -> list[Ranks]:
    """`guesses` guesses at the ranks the opponent (of two players) still holds. Each deals the opponent
    the cards they have laid and others the bot has not seen, six in all (five in five-card cribbage), and
    keeps the guess when discarding them as a sensible player does (`best_split`, the crib's plain value)
    keeps the cards laid, and what is left agrees with their go's. Too few kept in `MAX_DEALS` deals: the
    rest from the cards they may hold."""
    return guesses_by(view, guesses, rng, plain_worth(view.dealer == view.opponent))


def table_guess_hands(view: CribbageView, guesses: int, rng: random.Random) -> list[Ranks]:
    """`guess_hands`, the opponent taken to discard as Hard does (the crib table), not by the cards' plain
    worth: the Expert's guesses in the play."""
    return guesses_by(view, guesses, rng, default_table().worth(view.dealer == view.opponent))


def guesses_by(view: CribbageView, guesses: int, rng: random.Random, worth: CribWorth) -> list[Ranks]:
    """`guesses` guesses at the opponent's hand, their discard choosing by `worth` (the crib's value to
    them: their own crib, or ours)."""
    size = view.opponent_cards_left
    if size == 0:
        return [()] * guesses
    laid = tuple(c for p, c in view.played if p == view.opponent)
    least = lowest_value_held(view.played, view.opponent, view.pile)
    variant = view.options.variant
    pool = list(view.unseen)
    found: list[Ranks] = []
    for _ in range(MAX_DEALS):
        kept = best_split((*laid, *rng.sample(pool, variant.dealt - len(laid))), worth, variant.to_crib).kept
        held = tuple(sorted(c.rank for c in kept if c not in laid))
        if len(held) == size and all(VALUE[r] >= least for r in held):
            found.append(held)
            if len(found) == guesses:
                return found
    return found + sample_hands(possible_cards(view), size, guesses - len(found), rng)
