"""Chance in cribbage, all from the game's seed: the cut for deal and each deal's shuffle.

A string seed is hashed the same way on every run and machine (unlike Python's salted hash of str).
"""

from __future__ import annotations

import random

from .cards import DECK, Card

HAND = 6

#: The cut for deal, round by round: the first round has a card for every player (in seat order), each later
#: round a card for each player still tied for the lowest (in seat order).
Cuts = tuple[tuple[Card, ...], ...]


def _rng(seed: int, what: str) -> random.Random:
    return random.Random(f"classic cribbage {seed} {what}")


def _lowest(cards: tuple[Card, ...], cutting: list[int]) -> list[int]:
    low = min(c.rank for c in cards)
    return [p for p, c in zip(cutting, cards, strict=True) if c.rank == low]


def cut_for_deal(seed: int, players: int = 2) -> Cuts:
    """Each player cuts a card; the lowest rank deals, and the players tied for the lowest cut again from a
    fresh shuffle (with two players: both).

    >>> cuts = cut_for_deal(3)
    >>> cuts[-1][0].rank != cuts[-1][1].rank and all(a.rank == b.rank for a, b in cuts[:-1])
    True
    >>> cuts = cut_for_deal(3, 4)
    >>> len(cuts[0]), 0 <= first_dealer(cuts) < 4
    (4, True)
    """
    rng = _rng(seed, "cut for deal")
    cuts: list[tuple[Card, ...]] = []
    cutting = list(range(players))
    while True:
        cards = tuple(rng.sample(DECK, len(cutting)))
        cuts.append(cards)
        cutting = _lowest(cards, cutting)
        if len(cutting) == 1:
            return tuple(cuts)


def first_dealer(cuts: Cuts) -> int:
    """Who deals first: the one left alone with the lowest card."""
    cutting = list(range(len(cuts[0])))
    for cards in cuts:
        cutting = _lowest(cards, cutting)
    return cutting[0]


class Deal:
    """One deal's cards: `dealt` to each player (sorted), one at a time from the dealer's left, the dealer
    last; then `from_deck` cards from the top of the deck to the crib (the three-player game's), and the stock."""

    def __init__(
        self, seed: int, number: int, dealer: int, players: int = 2, dealt: int = HAND, from_deck: int = 0
    ) -> None:
        deck = list(DECK)
        _rng(seed, f"deal {number}").shuffle(deck)
        hands: list[tuple[Card, ...]] = [()] * players
        for i in range(players):
            hands[(dealer + 1 + i) % players] = tuple(sorted(deck[i : players * dealt : players]))
        self.hands = tuple(hands)
        end = players * dealt
        self.crib = tuple(deck[end : end + from_deck])
        self.stock = tuple(deck[end + from_deck :])  # the starter is cut from these
