"""Hand scoring for the tile game: a line of 2-5 tiles, what it scores and whether it may stand.

The counting itself (fifteens, pairs and runs by the multiset of ranks, tabled at import) is
`cribtiles.counting`, shared with classic cribbage; here is what the tile game adds: a line is valid
when it scores and every tile in it takes part (`VALID_LINES`, `why_invalid`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from cribtiles.counting import HANDS, MAX_HAND, key_of
from cribtiles.quoting import quoted

from .tiles import format_ranks

MAX_LINE = MAX_HAND


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


def _valid_lines() -> dict[int, int]:
    return {
        key: entry.total
        for key, entry in HANDS.items()
        if len(entry.ranks) >= 2 and entry.total > 0 and entry.live.issuperset(entry.ranks)
    }


#: Key -> score, only for the keys of valid lines (2-5 tiles, score > 0, every tile contributes).
VALID_LINES: dict[int, int] = _valid_lines()


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
