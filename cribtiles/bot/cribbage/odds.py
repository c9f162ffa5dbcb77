"""The chance of winning a game of cribbage from the scores, for Expert's play to win near the end.

A deal's points come from measured distributions (`data/deal_odds.json`, made from Hard's own games by
`python -m cribtiles.bot.cribbage.make_deal_odds`): what the pone and the dealer peg together in the play,
the pone's hand, the dealer's hand and the crib. The order of a deal decides close games: the play first
(whoever reaches the target there wins at once), then the pone's hand, then the dealer's hand and crib.
From these, `WinOdds.dealer_wins(x, y)` is the chance that the dealer of the next deal wins when they
still need x points and the pone y, solved over every deal to the end of the game (each deal pegs at
least the last card's point, so the needs always fall and the solution is exact for the distributions).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

DATA_FILE = "deal_odds.json"
#: The most points anyone can still need (a game to 121 from 0).
MOST_NEEDED = 121
#: Outcomes rarer than this are left out of the distributions (they cannot change a choice).
RARE = 1e-4

Dist = tuple[tuple[int, float], ...]  # (points, chance), the chances summing to 1


def _dist(counts: dict[int, int] | Sequence[int]) -> Dist:
    items = counts.items() if isinstance(counts, dict) else enumerate(counts)
    total = sum(n for _, n in items)
    if total <= 0:
        raise ValueError("a distribution needs at least one deal")
    kept = [(int(k), n / total) for k, n in items if n / total >= RARE]
    norm = sum(p for _, p in kept)
    return tuple((k, p / norm) for k, p in kept)


def convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of the sum of two independent amounts."""
    out: dict[int, float] = {}
    for x, p in a:
        for y, q in b:
            out[x + y] = out.get(x + y, 0.0) + p * q
    return tuple(sorted(out.items()))


def shifted(dist: Dist, by: float) -> Dist:
    """`dist` moved by `by` points (a fraction is shared between the two whole shifts around it), never
    below 0: a crib worth more or less than the average crib, say."""
    low = int(by // 1)
    part = by - low
    out: dict[int, float] = {}
    for x, p in dist:
        for step, weight in ((low, 1 - part), (low + 1, part)):
            if weight:
                k = max(0, x + step)
                out[k] = out.get(k, 0.0) + p * weight
    return tuple(sorted(out.items()))


@dataclass(frozen=True)
class DealOdds:
    """A deal's points: the play's (pone's, dealer's) together, the pone's hand, the dealer's hand, the crib."""

    play: tuple[tuple[tuple[int, int], float], ...]
    pone_hand: Dist
    dealer_hand: Dist
    crib: Dist

    @property
    def dealer_show(self) -> Dist:
        return convolve(self.dealer_hand, self.crib)


def load_odds(text: str) -> DealOdds:
    data = json.loads(text)
    play: dict[tuple[int, int], int] = {}
    for key, n in data["play"].items():
        pone, dealer = (int(v) for v in str(key).split(","))
        play[(pone, dealer)] = int(n)
    total = sum(play.values())
    if total <= 0:
        raise ValueError("the play's distribution is empty")
    if any(pone + dealer < 1 for pone, dealer in play):
        raise ValueError("every play pegs at least the last card's point")
    kept = [(k, n / total) for k, n in play.items() if n / total >= RARE]
    norm = sum(p for _, p in kept)

    def counts(name: str) -> dict[int, int]:
        return {int(k): int(v) for k, v in data[name].items()}

    return DealOdds(
        tuple(sorted((k, p / norm) for k, p in kept)),
        _dist(counts("pone_hand")),
        _dist(counts("dealer_hand")),
        _dist(counts("crib")),
    )


class WinOdds:
    """The dealer's chance to win from the needs of both, over the distributions of `odds`; solved once,
    in order of the needs' sum (a deal always lowers it)."""

    def __init__(self, odds: DealOdds, most: int = MOST_NEEDED) -> None:
        self.odds = odds
        self.most = most
        n = most + 1
        # f[x][y]: the dealer (needing x) wins, the pone needing y, before the deal; h: after the play and
        # the pone's hand (the dealer's hand and crib to count); g: after the play (the pone's hand to count)
        self.f = [[0.0] * n for _ in range(n)]
        h = [[0.0] * n for _ in range(n)]
        g = [[0.0] * n for _ in range(n)]
        play, pone_hand, dealer_show = odds.play, odds.pone_hand, odds.dealer_show
        f = self.f
        for total in range(2, 2 * most + 1):
            cells = [(x, total - x) for x in range(max(1, total - most), min(most, total - 1) + 1)]
            for x, y in cells:
                win = 0.0
                for (pone, dealer), p in play:
                    if dealer >= x:
                        win += p * (0.5 if pone >= y else 1.0)  # both out in the play: either may be first
                    elif pone < y:
                        win += p * g[x - dealer][y - pone]
                f[x][y] = win
            for x, y in cells:
                win = 0.0
                for k, p in dealer_show:
                    win += p * (1.0 if k >= x else 1.0 - f[y][x - k])  # the pone deals next
                h[x][y] = win
            for x, y in cells:
                win = 0.0
                for k, p in pone_hand:
                    if k < y:
                        win += p * h[x][y - k]
                g[x][y] = win

    def dealer_wins(self, x: int, y: int) -> float:
        """The chance that the next deal's dealer wins, needing `x`, the pone needing `y` (both at least 1)."""
        return self.f[min(x, self.most)][min(y, self.most)]

    def wins(self, mine: int, theirs: int, i_deal: bool) -> float:
        """The chance that a player needing `mine` wins against one needing `theirs`, before a deal that
        they deal (`i_deal`) or that the other deals."""
        if mine <= 0:
            return 1.0
        if theirs <= 0:
            return 0.0
        return self.dealer_wins(mine, theirs) if i_deal else 1.0 - self.dealer_wins(theirs, mine)


def _fallback() -> DealOdds:
    """Rough distributions for when the data file cannot be read (the game goes on, a little weaker)."""
    play = {(1, 2): 1, (2, 2): 1, (2, 3): 1, (3, 2): 1, (1, 4): 1, (4, 3): 1}
    hand = {2: 2, 4: 3, 6: 3, 8: 3, 10: 2, 12: 1, 16: 1}
    crib = {0: 1, 2: 3, 4: 3, 6: 2, 8: 1, 12: 1}
    norm = sum(play.values())
    return DealOdds(tuple((k, n / norm) for k, n in sorted(play.items())), _dist(hand), _dist(hand), _dist(crib))


@lru_cache(maxsize=1)
def default_odds() -> DealOdds:
    try:
        text = resources.files("cribtiles.bot.cribbage").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
        return load_odds(text)
    except (OSError, ValueError, KeyError, TypeError) as e:
        warnings.warn(f"the cribbage deal odds could not be read ({e}); playing the end on rough odds", stacklevel=2)
        return _fallback()


@lru_cache(maxsize=1)
def default_win_odds() -> WinOdds:
    """The win chances from the shipped distributions, solved on first use (about a second) and kept."""
    return WinOdds(default_odds())
