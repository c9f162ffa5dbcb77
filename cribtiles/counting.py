"""Counting a cribbage hand by its ranks: fifteens, pairs and runs, shared by both games.

Kings Cribbage (`cribtiles.rules`) scores a line of 2-5 tiles and classic cribbage
(`cribtiles.cribbage`) a four-card hand with its starter by these same three combinations, and
neither game's engine may import the other's: this module lies beneath both, standard library only.

A hand's fifteens, pairs and runs depend only on the multiset of its ranks, and there are only 8,567
multisets of 1-5 ranks, so every one is counted once at import into a table keyed by an additive
integer (`rank_key`): the key of a hand is the sum of its ranks' keys, which lets the tile game's move
generator add tiles to a line, and the cribbage bots add a starter to a hand, without sorting anything.
Suits (the flush, his nobs) and what makes a line of tiles legal belong to each game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum
from itertools import combinations, combinations_with_replacement, product
from typing import NamedTuple

RANKS = tuple(range(1, 14))
MAX_HAND = 5  # the longest line of tiles; four cards and the starter


def count_value(rank: int) -> int:
    """The value of a rank for fifteens (and the tile game's end-of-game deductions): A = 1, 2-10 face,
    J Q K = 10."""
    return rank if rank < 10 else 10


_BITS = 3  # a hand holds at most 5 of one rank, so 3 bits a rank suffice


def rank_key(rank: int) -> int:
    return 1 << (_BITS * (rank - 1))


#: RANK_KEY[r] is the additive key of one tile or card of rank r (index 0 unused).
RANK_KEY: tuple[int, ...] = (0, *tuple(rank_key(r) for r in RANKS))


def key_of(ranks: Iterable[int]) -> int:
    return sum(RANK_KEY[r] for r in ranks)


class CombinationKind(StrEnum):
    """What a scoring combination is; a str, so a breakdown prints 'fifteen', 'pair' or 'run'."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"


class Combination(NamedTuple):
    """One scoring combination of a hand: which tiles or cards (positions in the hand) make it."""

    kind: CombinationKind
    positions: tuple[int, ...]
    points: int


def _run_blocks(counts: Counter[int]) -> list[list[int]]:
    blocks: list[list[int]] = []
    current: list[int] = []
    for r in RANKS:
        if counts[r]:
            current.append(r)
        else:
            if len(current) >= 3:
                blocks.append(current)
            current = []
    if len(current) >= 3:
        blocks.append(current)
    return blocks


def combinations_of(ranks: Sequence[int]) -> tuple[Combination, ...]:
    """Every fifteen, pair and run of a hand, each naming its tiles by position."""
    n = len(ranks)
    found: list[Combination] = []
    for size in range(2, n + 1):
        for pos in combinations(range(n), size):
            if sum(count_value(ranks[i]) for i in pos) == 15:
                found.append(Combination(CombinationKind.FIFTEEN, pos, 2))
    for pos in combinations(range(n), 2):
        if ranks[pos[0]] == ranks[pos[1]]:
            found.append(Combination(CombinationKind.PAIR, pos, 2))
    counts = Counter(ranks)
    for block in _run_blocks(counts):
        choices = [[i for i in range(n) if ranks[i] == r] for r in block]
        for pick in product(*choices):
            found.append(Combination(CombinationKind.RUN, tuple(sorted(pick)), len(block)))
    return tuple(found)


def _score_sorted(ranks: tuple[int, ...]) -> tuple[int, int, int, frozenset[int]]:
    """(fifteens, pairs, runs, ranks that contribute) for a sorted multiset of ranks."""
    n = len(ranks)
    fifteens = 0
    live: set[int] = set()
    # subset sums by bitmask, each from a smaller one: the tables are built at import, so this is
    # part of every start of the game
    sums = [0] * (1 << n)
    in_fifteen = 0
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + count_value(ranks[low.bit_length() - 1])
        if sums[mask] == 15 and mask != low:
            fifteens += 2
            in_fifteen |= mask
    live.update(ranks[i] for i in range(n) if in_fifteen >> i & 1)
    counts = Counter(ranks)
    pairs = 0
    for r, k in counts.items():
        pairs += k * (k - 1)  # 2 points for each of k*(k-1)/2 pairs
        if k >= 2:
            live.add(r)
    runs = 0
    for block in _run_blocks(counts):
        mult = 1
        for r in block:
            mult *= counts[r]
        runs += len(block) * mult
        live.update(block)
    return fifteens, pairs, runs, frozenset(live)


class HandEntry(NamedTuple):
    """A multiset of ranks (sorted), what it counts, and which of its ranks take part in a combination."""

    ranks: tuple[int, ...]
    fifteens: int
    pairs: int
    runs: int
    live: frozenset[int]

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs


def _build_table() -> dict[int, HandEntry]:
    return {
        key_of(ranks): HandEntry(ranks, *_score_sorted(ranks))
        for n in range(1, MAX_HAND + 1)
        for ranks in combinations_with_replacement(RANKS, n)
    }


#: Every multiset of 1-5 ranks by its key: what it counts.
HANDS: dict[int, HandEntry] = _build_table()
