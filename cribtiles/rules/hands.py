"""Hand scoring: fifteens, pairs and runs of a line of 2-5 tiles, and which tiles contribute.

A hand's score depends only on the multiset of its ranks, and there are only 8,554 multisets of
2-5 ranks, so every one is scored once at import into tables keyed by an additive integer
(`rank_key`): the key of a line is the sum of its tiles' keys, which lets the move generator add
tiles to a line without sorting anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum
from itertools import combinations, combinations_with_replacement, product
from typing import NamedTuple

from .errors import quoted
from .tiles import RANKS, count_value, format_ranks

MAX_LINE = 5
_BITS = 3  # a line holds at most 5 tiles of one rank, so 3 bits a rank suffice


def rank_key(rank: int) -> int:
    return 1 << (_BITS * (rank - 1))


#: RANK_KEY[r] is the additive key of one tile of rank r (index 0 unused).
RANK_KEY: tuple[int, ...] = (0, *tuple(rank_key(r) for r in RANKS))


def key_of(ranks: Iterable[int]) -> int:
    return sum(RANK_KEY[r] for r in ranks)


class HandScore(NamedTuple):
    """The score of a hand and, for each of its tiles in the order given, whether it contributes."""

    ranks: tuple[int, ...]
    fifteens: int
    pairs: int
    runs: int
    contributes: tuple[bool, ...]

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs

    @property
    def is_valid(self) -> bool:
        """A valid line: 2-5 tiles, scores more than 0, every tile contributes."""
        return 2 <= len(self.ranks) <= MAX_LINE and self.total > 0 and all(self.contributes)

    @property
    def dead_ranks(self) -> tuple[int, ...]:
        """The ranks of the tiles that add nothing, each once, in hand order."""
        seen: list[int] = []
        for r, ok in zip(self.ranks, self.contributes, strict=False):
            if not ok and r not in seen:
                seen.append(r)
        return tuple(seen)


class CombinationKind(StrEnum):
    """What a scoring combination is; a str, so a breakdown prints 'fifteen', 'pair' or 'run'."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"


class Combination(NamedTuple):
    """One scoring combination of a hand: which tiles (positions in the hand) make it."""

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


class _Entry(NamedTuple):
    fifteens: int
    pairs: int
    runs: int
    live: frozenset[int]


def _build_tables() -> tuple[dict[int, _Entry], dict[int, int]]:
    entries: dict[int, _Entry] = {}
    valid: dict[int, int] = {}
    for n in range(1, MAX_LINE + 1):
        for ranks in combinations_with_replacement(RANKS, n):
            f, p, r, live = _score_sorted(ranks)
            key = key_of(ranks)
            entries[key] = _Entry(f, p, r, live)
            total = f + p + r
            if n >= 2 and total > 0 and all(x in live for x in ranks):
                valid[key] = total
    return entries, valid


#: Every multiset of 1-5 ranks by key.
HANDS: dict[int, _Entry]
#: Key -> score, only for the keys of valid lines (2-5 tiles, score > 0, every tile contributes).
VALID_LINES: dict[int, int]
HANDS, VALID_LINES = _build_tables()


def score_hand(ranks: Iterable[int]) -> HandScore:
    """Score a hand of 2-5 ranks (1-13) as cribbage hand counting does, without flush or nobs.

    >>> score_hand([3, 4, 4, 5]).total
    8
    >>> score_hand([5, 5, 5, 5, 11]).total
    28
    >>> score_hand([6, 7, 8, 9, 12]).contributes
    (True, True, True, True, False)
    """
    hand = tuple(ranks)
    if not 2 <= len(hand) <= MAX_LINE:
        raise ValueError(f"a hand holds 2 to {MAX_LINE} tiles, not {len(hand)}")
    for r in hand:
        if not isinstance(r, int) or not 1 <= r <= 13:
            raise ValueError(f"{quoted(r)} is not a rank (1 to 13)")
    e = HANDS[key_of(hand)]
    return HandScore(hand, e.fifteens, e.pairs, e.runs, tuple(r in e.live for r in hand))


def why_invalid(ranks: Sequence[int], where: str = "") -> str | None:
    """None for a valid line, else the reason in a player's words; `where` names the line.

    >>> why_invalid([6, 7, 8, 9, 12], "row 7")
    'the Q adds nothing to 6 7 8 9 Q in row 7'
    """
    named = f" {where}" if where else ""
    if len(ranks) > MAX_LINE:
        return f"a line may hold at most {MAX_LINE} tiles, and{named or ' this line'} would hold {len(ranks)}"
    if len(ranks) < 2:
        return "a line needs at least 2 tiles"
    hand = score_hand(ranks)
    if hand.total == 0:
        return f"{where + ' ' if where else ''}({format_ranks(ranks)}) scores nothing"
    dead = hand.dead_ranks  # a dead rank stands once: two of a rank would make a pair
    if dead:
        what = " and the ".join(format_ranks([d]) for d in dead)
        verb = "adds" if len(dead) == 1 else "add"
        return f"the {what} {verb} nothing to {format_ranks(ranks)}{' in ' + where if where else ''}"
    return None
