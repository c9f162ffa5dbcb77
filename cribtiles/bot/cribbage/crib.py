"""Hard's crib values: for each pair of discarded ranks, the crib's expected points when the crib is its
own and when it is the opponent's, computed once by `python -m cribtiles.bot.cribbage.make_crib_table` into
`data/crib_table.json`. A missing or damaged file gives Medium's plain values, with a warning.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from cribtiles.cribbage.cards import Card

from .discard import RANKS, CribWorth, one_card_worth, rank_points

DATA_FILE = "crib_table.json"
RANK_SYMBOLS = "A23456789TJQK"

RankPair = tuple[int, int]


def pair_key(a: int, b: int) -> str:
    """The table's name for two discarded ranks, lower first.

    >>> pair_key(13, 5), pair_key(1, 1)
    ('5K', 'AA')
    """
    lo, hi = sorted((a, b))
    return RANK_SYMBOLS[lo - 1] + RANK_SYMBOLS[hi - 1]


@dataclass(frozen=True)
class CribTable:
    """Expected crib points by discarded ranks (lower rank first), for the bot's crib and the opponent's."""

    own: dict[RankPair, float]
    opponent: dict[RankPair, float]
    own_one: dict[int, float] = field(init=False, repr=False, compare=False)
    opponent_one: dict[int, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # one card laid away (three or four players): its mean with any other card as the pair's partner
        object.__setattr__(self, "own_one", one_card_worth(self.own))
        object.__setattr__(self, "opponent_one", one_card_worth(self.opponent))

    def worth(self, own_crib: bool) -> CribWorth:
        """What a discard is worth to the bot: the crib's points when it is its own (or its partner's),
        minus them when not. One card laid away (three or four players) is worth its mean over the pairs
        it makes with any other card: the table was made for two players' cribs, an estimate here."""
        table, one, sign = (self.own, self.own_one, 1.0) if own_crib else (self.opponent, self.opponent_one, -1.0)

        def worth(*cards: Card) -> float:
            if len(cards) == 1:
                return sign * one[cards[0].rank]
            a, b = cards
            lo, hi = (a.rank, b.rank) if a.rank <= b.rank else (b.rank, a.rank)
            return sign * table[(lo, hi)]

        return worth


def _pairs(values: object) -> dict[RankPair, float]:
    if not isinstance(values, dict):
        raise ValueError("a crib table must be an object of rank pairs")
    out: dict[RankPair, float] = {}
    for key, v in values.items():
        a, b = (RANK_SYMBOLS.index(ch) + 1 for ch in str(key))
        out[(min(a, b), max(a, b))] = float(v)
    if len(out) != 91:
        raise ValueError(f"a crib table needs all 91 pairs of ranks, not {len(out)}")
    return out


def load_table(text: str) -> CribTable:
    data = json.loads(text)
    return CribTable(_pairs(data["own"]), _pairs(data["opponent"]))


def plain_table() -> CribTable:
    """Medium's values (the points the two cards make together), for when the file cannot be read."""
    values = {(a, b): float(rank_points((a, b))) for a in RANKS for b in RANKS if a <= b}
    return CribTable(values, values)


@lru_cache(maxsize=1)
def default_table() -> CribTable:
    """The shipped table (Medium's plain values, with a warning, if it cannot be read)."""
    try:
        text = resources.files("cribtiles.bot.cribbage").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
        return load_table(text)
    except (OSError, ValueError, KeyError, TypeError) as e:
        warnings.warn(f"the cribbage crib table could not be read ({e}); discarding without it", stacklevel=2)
        return plain_table()
