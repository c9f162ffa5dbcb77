"""Chance in cribbage, all from the game's seed: the cut for deal and each deal's shuffle.

A string seed is hashed the same way on every run and machine (unlike Python's salted hash of str).
"""

from __future__ import annotations

import random

from .cards import DECK, Card

HAND = 6


def _rng(seed: int, what: str) -> random.Random:
    return random.Random(f"classic cribbage {seed} {what}")


def cut_for_deal(seed: int) -> tuple[tuple[Card, Card], ...]:
    """Each player cuts a card; the lower rank deals, and a tie cuts again from a fresh shuffle.

    >>> cuts = cut_for_deal(3)
    >>> cuts[-1][0].rank != cuts[-1][1].rank and all(a.rank == b.rank for a, b in cuts[:-1])
    True
    """
    rng = _rng(seed, "cut for deal")
    cuts: list[tuple[Card, Card]] = []
    while True:
        a, b = rng.sample(DECK, 2)
        cuts.append((a, b))
        if a.rank != b.rank:
            return tuple(cuts)


def first_dealer(cuts: tuple[tuple[Card, Card], ...]) -> int:
    a, b = cuts[-1]
    return 0 if a.rank < b.rank else 1


class Deal:
    """One deal's cards: six to each player (sorted), dealt one at a time from the non-dealer, and the stock."""

    def __init__(self, seed: int, number: int, dealer: int) -> None:
        deck = list(DECK)
        _rng(seed, f"deal {number}").shuffle(deck)
        to_pone, to_dealer = tuple(sorted(deck[0 : 2 * HAND : 2])), tuple(sorted(deck[1 : 2 * HAND : 2]))
        self.hands = (to_dealer, to_pone) if dealer == 0 else (to_pone, to_dealer)
        self.stock = tuple(deck[2 * HAND :])  # the starter is cut from these
