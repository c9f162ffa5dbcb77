"""The show: a four-card hand (or the crib) counted with the starter; in five-card cribbage a hand of three.

Fifteens, pairs and runs come from the counting both games share (cribtiles.counting), which
tables every multiset of ranks; the cards add only what suits bring: the flush and his nobs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from cribtiles.counting import HANDS, RANK_KEY, CombinationKind, combinations_of

from .cards import JACK, Card, CardError, format_cards

HAND_SIZE = 4
#: The hand sizes the show counts: four, and five-card cribbage's three (its crib holds four).
HAND_SIZES = (3, HAND_SIZE)


class ShowKind(StrEnum):
    """What a counted combination of the show is."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"


class ShowItem(NamedTuple):
    """One combination of the show: its kind, its cards and what it scores."""

    kind: ShowKind
    cards: tuple[Card, ...]
    points: int


_FROM_HANDS = {
    CombinationKind.FIFTEEN: ShowKind.FIFTEEN,
    CombinationKind.PAIR: ShowKind.PAIR,
    CombinationKind.RUN: ShowKind.RUN,
}


@dataclass(frozen=True)
class ShowScore:
    """A hand counted with the starter, item by item."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[ShowItem, ...]

    def _points(self, kind: ShowKind) -> int:
        return sum(item.points for item in self.items if item.kind is kind)

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    @property
    def fifteens(self) -> int:
        return self._points(ShowKind.FIFTEEN)

    @property
    def pairs(self) -> int:
        return self._points(ShowKind.PAIR)

    @property
    def runs(self) -> int:
        return self._points(ShowKind.RUN)

    @property
    def flush(self) -> int:
        return self._points(ShowKind.FLUSH)

    @property
    def nobs(self) -> int:
        return self._points(ShowKind.NOBS)


#: The combinations of ranks in a given order, remembered: a game counts a few thousand hands, and a dealt
#: hand is sorted, so the same orders come back (bounded: 13^5 orders are possible).
_combinations = lru_cache(maxsize=1 << 14)(combinations_of)


def _check(hand: Sequence[Card], starter: Card, crib: bool) -> None:
    if len(hand) not in HAND_SIZES or (crib and len(hand) != HAND_SIZE):
        raise CardError(
            f"a hand to count holds {HAND_SIZE} cards (three in five-card cribbage, a crib four), not {len(hand)}"
        )
    if len({*hand, starter}) != len(hand) + 1:
        raise CardError(f"{format_cards([*hand, starter])}: a card is named twice (a deck holds each card once)")


def _flush_points(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    """4 for a hand of one suit, 5 with the starter too; a crib scores a flush only with all five.

    Five-card cribbage's hand of three: 3 of one suit, 4 with the starter (its crib of four: all five)."""
    suit = hand[0].suit
    if any(c.suit is not suit for c in hand[1:]):
        return 0
    if starter.suit is suit:
        return len(hand) + 1
    return 0 if crib else len(hand)


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Count a hand (or, with crib=True, the crib) with the starter, every combination named.

    >>> from .cards import parse_card, parse_cards
    >>> score_show(parse_cards("5H 5D 5S JC"), parse_card("5C")).total
    29
    """
    _check(hand, starter, crib)
    cards = (*hand, starter)
    items = [
        ShowItem(_FROM_HANDS[c.kind], tuple(cards[i] for i in c.positions), c.points)
        for c in _combinations(tuple(card.rank for card in cards))
    ]
    flush = _flush_points(hand, starter, crib)
    if flush:
        items.append(ShowItem(ShowKind.FLUSH, cards[:flush], flush))
    items.extend(ShowItem(ShowKind.NOBS, (c,), 1) for c in hand if c.rank == JACK and c.suit is starter.suit)
    return ShowScore(tuple(hand), starter, crib, tuple(items))


def show_total(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The show's total alone, without building its items (the bots call this millions of times).

    >>> from .cards import parse_card, parse_cards
    >>> show_total(parse_cards("4H 5H 6H JD"), parse_card("5D"))
    17
    >>> show_total(parse_cards("4H 5H 6H"), parse_card("JH"))
    11
    """
    if len(hand) != HAND_SIZE:  # five-card cribbage's hand of three
        return _any_total(hand, starter, crib)
    a, b, c, d = hand
    entry = HANDS[RANK_KEY[a.rank] + RANK_KEY[b.rank] + RANK_KEY[c.rank] + RANK_KEY[d.rank] + RANK_KEY[starter.rank]]
    total = entry.fifteens + entry.pairs + entry.runs
    suit = starter.suit
    if a.suit is b.suit is c.suit is d.suit:
        total += 5 if a.suit is suit else (0 if crib else 4)
    for card in hand:
        if card.rank == JACK and card.suit is suit:
            total += 1
    return total


def _any_total(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    entry = HANDS[sum(RANK_KEY[c.rank] for c in (*hand, starter))]
    total = entry.fifteens + entry.pairs + entry.runs + _flush_points(hand, starter, crib)
    return total + sum(1 for c in hand if c.rank == JACK and c.suit is starter.suit)


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five")


def item_words(item: ShowItem) -> str:
    """A combination as a player names it: 'fifteen', 'pair', 'run of four', 'flush of five', 'his nobs'."""
    if item.kind is ShowKind.RUN:
        return f"run of {_NUMBER_WORDS[len(item.cards)]}"
    if item.kind is ShowKind.FLUSH:
        return f"flush of {_NUMBER_WORDS[len(item.cards)]}"
    if item.kind is ShowKind.NOBS:
        return "his nobs"
    return item.kind.value


def describe_show(score: ShowScore) -> list[str]:
    """One line per combination, then the total.

    >>> from .cards import parse_card, parse_cards
    >>> for line in describe_show(score_show(parse_cards("4H 5H 6H JD"), parse_card("5D"))):
    ...     print(line)
    fifteen for 2: 5H JD
    fifteen for 2: JD 5D
    fifteen for 2: 4H 5H 6H
    fifteen for 2: 4H 6H 5D
    pair for 2: 5H 5D
    run of three for 3: 4H 5H 6H
    run of three for 3: 4H 6H 5D
    his nobs for 1: JD
    total 17
    """
    lines = [f"{item_words(item)} for {item.points}: {format_cards(item.cards)}" for item in score.items]
    lines.append(f"total {score.total}")
    return lines
