"""The cribbage bots' discard arithmetic: a kept hand's exact expected show over every starter it may
meet, the discarded cards' own worth, and the ways to split the cards dealt into hand and crib (fifteen
of six, two to the crib; ten of five in five-card cribbage; five of five with three or four players, one
to the crib).

Fast because the show's fifteens, pairs and runs depend only on the ranks (the hand tables both
games share, `cribtiles.counting`, which the engine's scorer uses too): the starters are grouped by rank, and the
flush and his nobs are counted from the suits left in the deck.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple, Protocol

from cribtiles.counting import HANDS, RANK_KEY
from cribtiles.cribbage.cards import DECK, Card, Suit

RANKS = range(1, 14)
SUITS = tuple(Suit)
JACK = 11
HAND_SIZE = 4
RANK_POINTS: dict[int, int] = {key: e.fifteens + e.pairs + e.runs for key, e in HANDS.items()}


class Split(NamedTuple):
    """One way to discard: the cards kept and those laid away to the crib (two, or one with three or four
    players)."""

    kept: tuple[Card, ...]
    discarded: tuple[Card, ...]


def splits(six: Sequence[Card], to_crib: int = 2) -> tuple[Split, ...]:
    """The ways to lay `to_crib` of the cards dealt away (fifteen of six, two to the crib), in a fixed
    order (by the discarded positions)."""
    out = []
    for laid in combinations(range(len(six)), to_crib):
        kept = tuple(c for k, c in enumerate(six) if k not in laid)
        out.append(Split(kept, tuple(six[i] for i in laid)))
    return tuple(out)


def rank_points(ranks: Iterable[int]) -> int:
    """Fifteens, pairs and runs of 1-5 ranks (no flush, no nobs): what the ranks alone are worth.

    >>> rank_points([5, 5, 5, 11, 5])
    28
    """
    return RANK_POINTS[sum(RANK_KEY[r] for r in ranks)]


def pair_points(a: Card, b: Card) -> int:
    """What two cards score on their own (a fifteen 2, a pair 2): the plain worth of a discard."""
    return rank_points((a.rank, b.rank))


class Remaining(NamedTuple):
    """The cards a starter may be, counted by rank and by suit (what the show's expectation needs)."""

    size: int
    by_rank: tuple[int, ...]  # index 1..13
    by_suit: dict[Suit, int]

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Remaining:
        by_rank = [0] * 14
        by_suit = dict.fromkeys(SUITS, 0)
        size = 0
        for c in cards:
            by_rank[c.rank] += 1
            by_suit[c.suit] += 1
            size += 1
        return cls(size, tuple(by_rank), by_suit)


def show_sum(cards: Sequence[Card], left: Remaining, crib: bool = False) -> int:
    """The sum, over every starter `left`, of the show of `cards` (four; three in five-card cribbage) with
    that starter.

    Divided by `left.size` it is the exact expected show. `left` must not hold any of `cards`."""
    base = sum(RANK_KEY[c.rank] for c in cards)
    total = 0
    for r in RANKS:
        n = left.by_rank[r]
        if n:
            total += n * RANK_POINTS[base + RANK_KEY[r]]
    suit = cards[0].suit
    if all(c.suit == suit for c in cards):
        # four of a suit count 4 in a hand with any starter and 5 with one of the suit; a crib only 5
        # (five-card's hand of three: 3, and 4 with the starter)
        n = len(cards)
        total += (n + 1) * left.by_suit[suit] if crib else n * left.size + left.by_suit[suit]
    for c in cards:
        if c.rank == JACK:
            total += left.by_suit[c.suit]  # his nobs: a starter of the jack's suit
    return total


def expected_show(cards: Sequence[Card], known: Iterable[Card], crib: bool = False) -> float:
    """The exact expected show of `cards` (four) over every starter that is not among `known`
    (which should include `cards`): the 46 starters of a six-card deal, say."""
    left = Remaining.of(unseen_after(known))
    return show_sum(cards, left, crib) / left.size


def unseen_after(known: Iterable[Card]) -> tuple[Card, ...]:
    """The deck without the cards named: where the starter may come from, for a player who knows `known`."""
    seen = set(known)
    return tuple(c for c in DECK if c not in seen)


def hand_sums(six: Sequence[Card], to_crib: int = 2) -> list[tuple[Split, int]]:
    """Each split of the cards dealt with the sum of its kept hand's show over the starters left (46 of a
    six-card deal)."""
    left = Remaining.of(unseen_after(six))
    return [(s, show_sum(s.kept, left)) for s in splits(six, to_crib)]


class CribWorth(Protocol):
    """What the cards laid away (two, or one) are worth to the crib, from the bot's side (minus for an
    opponent's crib)."""

    def __call__(self, *cards: Card) -> float: ...


def one_card_worth(pair_worth: dict[tuple[int, int], float]) -> dict[int, float]:
    """What one card laid away is worth, from the worth of two ranks (lower first): the mean over the
    other card, any of the deck's other 51 (the three or four players' crib: one card of each, and the
    deck's)."""
    out = {}
    for r in RANKS:
        total = sum((3 if x == r else 4) * pair_worth[(min(r, x), max(r, x))] for x in RANKS)
        out[r] = total / 51
    return out


_PLAIN_PAIRS = {(a, b): float(rank_points((a, b))) for a in RANKS for b in RANKS if a <= b}
_PLAIN_ONE = one_card_worth(_PLAIN_PAIRS)

#: Easy keeps one of the splits whose plain points are within this much of the best, at random.
EASY_SLACK = 2


def best_split(six: Sequence[Card], crib_worth: CribWorth, to_crib: int = 2) -> Split:
    """The split with the best expected hand (exact, over the starters left: 46 of six cards dealt) plus
    what the discard is worth to the crib; among equals, the first in `splits` order."""
    n = len(unseen_after(six))
    best: tuple[float, Split] | None = None
    for s, total in hand_sums(six, to_crib):
        worth = total / n + crib_worth(*s.discarded)
        if best is None or worth > best[0]:
            best = (worth, s)
    assert best is not None
    return best[1]


def plain_worth(own_crib: bool) -> CribWorth:
    """Medium's crib: the points the two cards make on their own, for its own crib or against it."""
    sign = 1 if own_crib else -1

    def worth(*cards: Card) -> float:
        if len(cards) == 1:  # one card of a crib of three or four players: its mean with any other
            return sign * _PLAIN_ONE[cards[0].rank]
        return sign * pair_points(*cards)

    return worth


def plain_points(kept: Sequence[Card]) -> int:
    """Easy's measure of the cards kept: their fifteens, pairs and runs and a flush, no starter, no crib."""
    flush = len(kept) if all(c.suit == kept[0].suit for c in kept) else 0
    return rank_points(c.rank for c in kept) + flush


def plain_split(six: Sequence[Card], rng: random.Random, to_crib: int = 2) -> Split:
    """Easy's discard: one of the splits that keep nearly the most plain points, picked at random."""
    scored = [(plain_points(s.kept), s) for s in splits(six, to_crib)]
    top = max(points for points, _ in scored)
    near = [s for points, s in scored if points >= top - EASY_SLACK]
    return rng.choice(near)
