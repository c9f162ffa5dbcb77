"""The show scorer against the published distribution of all 12,994,800 hands with their starter.

Source of the table: Steven S. Lumetta, "Amusing Cribbage Facts" (University of Illinois),
http://lumetta.web.engr.illinois.edu/humor/cribbage.html (first at www.crhc.uiuc.edu/~steve/humor/cribbage.html;
cited by Wikipedia's "Cribbage statistics", which also gives 1,022,208 zero-scoring cribs): the number of
four-card hands and starters with each score, from 1,009,008 zeros to the 29 four times; 19, 25, 26 and 27 never.

Every one of the 12,994,800 is counted, by class rather than one by one: a hand's score depends only on
(a) the multiset of the hand's ranks, (b) the starter's rank, and (c) of the suits only whether the four
hand cards share one (and the starter too: the flush) and whether the hand holds the jack of the
starter's suit (nobs). For each rank multiset and starter rank the suits are enumerated once per shape
(how many cards of each rank, which group is the jacks, which is the starter's rank: 97 shapes), giving
how many ways each (flush, nobs) pattern happens and one real set of cards for it; that set is scored
with the engine's own `show_total` and `score_show` and weighted by its count. A sample of random
hands checks that every member of a class scores as its representative does.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement, product

from cribtiles.cribbage.cards import DECK, JACK, SUITS, Card, Suit
from cribtiles.cribbage.show import score_show, show_total

PUBLISHED = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324,
    8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168,
    16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680,
    25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}  # fmt: skip
ALL_HANDS = 12_994_800  # C(52, 4) hands times the 48 starters left
ZERO_CRIBS = 1_022_208

# (flush, nobs) -> (how many suit choices, one of them: the suits of each rank group, the starter's suit)
Patterns = dict[tuple[int, bool], tuple[int, tuple[tuple[Suit, ...], ...], Suit]]


@cache
def suit_patterns(mults: tuple[int, ...], jack_group: int | None, starter_group: int | None) -> Patterns:
    """Every choice of suits for rank groups of these sizes and a starter, by (flush, nobs)."""
    found: dict[tuple[int, bool], list[object]] = {}
    for choice in product(*(combinations(SUITS, m) for m in mults)):
        hand_suits = {s for group in choice for s in group}
        taken = choice[starter_group] if starter_group is not None else ()
        for starter_suit in SUITS:
            if starter_suit in taken:
                continue  # that card is in the hand
            flush = 0 if len(hand_suits) > 1 else (5 if starter_suit in hand_suits else 4)
            nobs = jack_group is not None and starter_suit in choice[jack_group]
            if (flush, nobs) in found:
                found[flush, nobs][0] += 1  # type: ignore[operator]
            else:
                found[flush, nobs] = [1, choice, starter_suit]
    return {k: (int(v[0]), v[1], v[2]) for k, v in found.items()}  # type: ignore[misc,arg-type]


def classes() -> list[tuple[int, list[Card], Card]]:
    """(how many hands, a hand, its starter) for every class; the counts add up to all 12,994,800."""
    found = []
    for ranks in combinations_with_replacement(range(1, 14), 4):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        groups = sorted(counts)
        mults = tuple(counts[g] for g in groups)
        jack_group = groups.index(JACK) if JACK in counts else None
        for starter_rank in range(1, 14):
            if counts[starter_rank] == 4:
                continue
            starter_group = groups.index(starter_rank) if starter_rank in counts else None
            for weight, choice, starter_suit in suit_patterns(mults, jack_group, starter_group).values():
                hand = [Card(rank, suit) for rank, suits in zip(groups, choice, strict=True) for suit in suits]
                found.append((weight, hand, Card(starter_rank, starter_suit)))
    return found


CLASSES = classes()


def test_the_classes_cover_every_hand_and_starter_once() -> None:
    assert sum(weight for weight, _, _ in CLASSES) == ALL_HANDS
    assert len(CLASSES) == 44825


def test_the_distribution_of_all_hands_is_the_published_one() -> None:
    counted: Counter[int] = Counter()
    for weight, hand, starter in CLASSES:
        counted[show_total(hand, starter)] += weight
    assert {score: counted[score] for score in range(30)} == PUBLISHED
    assert sum(counted.values()) == ALL_HANDS
    assert max(counted) == 29 and counted[29] == 4
    assert [s for s in range(30) if counted[s] == 0] == [19, 25, 26, 27]


def test_the_full_count_agrees_with_the_fast_total_on_every_class() -> None:
    counted: Counter[int] = Counter()
    for weight, hand, starter in CLASSES:
        score = score_show(hand, starter)
        assert score.total == sum(item.points for item in score.items)
        counted[score.total] += weight
    assert {score: counted[score] for score in range(30)} == PUBLISHED


def test_as_cribs_the_zeros_are_the_published_1022208() -> None:
    counted: Counter[int] = Counter()
    for weight, hand, starter in CLASSES:
        counted[show_total(hand, starter, crib=True)] += weight
    assert counted[0] == ZERO_CRIBS
    assert sum(counted.values()) == ALL_HANDS


def test_every_hand_scores_as_its_class_does() -> None:
    """The classes are sound: random hands score what their class's representative scores."""
    by_class = {}
    for _, hand, starter in CLASSES:
        by_class[class_key(hand, starter)] = show_total(hand, starter)
    rng = random.Random(29)
    for _ in range(20000):
        cards = rng.sample(DECK, 5)
        assert show_total(cards[:4], cards[4]) == by_class[class_key(cards[:4], cards[4])]


def class_key(hand: list[Card], starter: Card) -> tuple[object, ...]:
    suits = {c.suit for c in hand}
    flush = 0 if len(suits) > 1 else (5 if starter.suit in suits else 4)
    nobs = any(c.rank == JACK and c.suit is starter.suit for c in hand)
    return (tuple(sorted(c.rank for c in hand)), starter.rank, flush, nobs)
