"""The play ("pegging"): what the latest card laid scores among the cards since the count was reset.

Fifteen 2, thirty-one 2, a pair 2 / pair royal 6 / double pair royal 12 of the latest cards, and a
run of the latest three or more cards in any order. The go and the last card are the game's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from .cards import Card, CardError, format_cards

MAX_COUNT = 31
FIFTEEN = 15


class PegKind(StrEnum):
    """What scores in the play."""

    FIFTEEN = "fifteen"
    THIRTY_ONE = "thirty-one"
    PAIR = "pair"
    PAIR_ROYAL = "pair royal"
    DOUBLE_PAIR_ROYAL = "double pair royal"
    RUN = "run"
    GO = "go"
    LAST_CARD = "last card"


class PegItem(NamedTuple):
    """One thing the latest card scores: its kind, the cards that make it and its points."""

    kind: PegKind
    cards: tuple[Card, ...]
    points: int


#: Cards of one rank at the end of the pile -> what they score (the pairs among them, 2 each).
_SETS = {2: (PegKind.PAIR, 2), 3: (PegKind.PAIR_ROYAL, 6), 4: (PegKind.DOUBLE_PAIR_ROYAL, 12)}


def count_of(sequence: Sequence[Card]) -> int:
    return sum(c.value for c in sequence)


def _check(sequence: Sequence[Card]) -> None:
    if not sequence:
        raise CardError("the play needs at least one card")
    if len(set(sequence)) != len(sequence):
        raise CardError(f"{format_cards(sequence)}: a card is named twice (a deck holds each card once)")
    count = count_of(sequence)
    if count > MAX_COUNT:
        raise CardError(f"{format_cards(sequence)} counts {count}: the count in the play never passes {MAX_COUNT}")


def _same_rank_tail(sequence: Sequence[Card]) -> int:
    last = sequence[-1].rank
    n = 0
    for card in reversed(sequence):
        if card.rank != last:
            break
        n += 1
    return n


def _run_length(sequence: Sequence[Card]) -> int:
    """The longest n >= 3 such that the latest n cards are n consecutive ranks in any order (else 0)."""
    best = 0
    ranks: set[int] = set()
    low, high = 14, 0
    for n, card in enumerate(reversed(sequence), start=1):
        if card.rank in ranks:
            break  # a repeated rank breaks every longer run too
        ranks.add(card.rank)
        low, high = min(low, card.rank), max(high, card.rank)
        if n >= 3 and high - low == n - 1:
            best = n
    return best


def peg_items(sequence: Sequence[Card]) -> tuple[PegItem, ...]:
    """What the last card of `sequence` (the cards since the last reset, in the order laid) scores.

    >>> from .cards import parse_cards
    >>> [(i.kind.value, i.points) for i in peg_items(parse_cards("6H 4D 5S"))]
    [('fifteen', 2), ('run', 3)]
    """
    _check(sequence)
    items: list[PegItem] = []
    count = count_of(sequence)
    if count == FIFTEEN:
        items.append(PegItem(PegKind.FIFTEEN, tuple(sequence), 2))
    elif count == MAX_COUNT:
        items.append(PegItem(PegKind.THIRTY_ONE, tuple(sequence), 2))
    same = _same_rank_tail(sequence)
    if same >= 2:
        kind, points = _SETS[same]
        items.append(PegItem(kind, tuple(sequence[-same:]), points))
    run = _run_length(sequence)
    if run:
        items.append(PegItem(PegKind.RUN, tuple(sequence[-run:]), run))
    return tuple(items)


def peg_points(sequence: Sequence[Card]) -> int:
    """The points the last card of `sequence` scores.

    >>> from .cards import parse_cards
    >>> peg_points(parse_cards("7H 7D 7S")), peg_points(parse_cards("4H 7D 4S"))
    (6, 2)
    """
    return sum(item.points for item in peg_items(sequence))


def item_words(item: PegItem) -> str:
    """A scoring as a player calls it: 'fifteen two', 'a pair', 'run of three', '31 for two'."""
    if item.kind is PegKind.RUN:
        return f"run of {len(item.cards)}"
    return _WORDS[item.kind]


_WORDS = {
    PegKind.FIFTEEN: "fifteen two",
    PegKind.THIRTY_ONE: "31 for two",
    PegKind.PAIR: "a pair for two",
    PegKind.PAIR_ROYAL: "pair royal for six",
    PegKind.DOUBLE_PAIR_ROYAL: "double pair royal for twelve",
    PegKind.GO: "go for one",
    PegKind.LAST_CARD: "last card for one",
}
