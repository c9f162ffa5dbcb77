"""The value of the tiles a player keeps ("leave"), learned by self-play (see `learn_leaves`).

The table maps every multiset of 0-4 rack tiles, by rank (a 6/9 is one kind, written 6), to points:
how much better than average the next turns go when a player keeps those tiles. It ships as
`data/leaves.json`; a missing or damaged file gives a table of zeros, never a crash.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from cribtiles.rules.movegen import ranks_key
from cribtiles.rules.tiles import RANK_SYMBOLS, Tile

MAX_LEAVE = 4
KINDS = tuple(r for r in range(1, 14) if r != 9)  # rack kinds: the 6/9 tile is kind 6
DATA_FILE = "leaves.json"


def leave_key(ranks: Sequence[int]) -> str:
    """`[5, 12, 1]` -> `'A5Q'`: the table's key for a leave (rack-form ranks, sorted)."""
    return "".join(RANK_SYMBOLS[r - 1] for r in sorted(ranks))


class LeaveTable:
    """Leave values by rack-form ranks; a callable on a sequence of tiles."""

    def __init__(self, values: dict[str, float]) -> None:
        self._values = {tuple(sorted(_ranks_of_key(k))): float(v) for k, v in values.items()}
        #: The same values by `movegen.ranks_key` of the ranks, for `movegen.best_keeping`.
        self.by_rank_key = {ranks_key(r): v for r, v in self._values.items() if len(r) <= MAX_LEAVE}

    def __call__(self, tiles: Sequence[Tile]) -> float:
        if len(tiles) > MAX_LEAVE:
            return 0.0  # keeping all 5 only happens when passing; nothing to compare it with
        key = tuple(sorted(t.rack_form.rank for t in tiles))
        return self._values.get(key, 0.0)

    def of_ranks(self, ranks: tuple[int, ...]) -> float:
        """The value of a leave given as sorted rack-form ranks (the hot path of the simulations)."""
        return self._values.get(ranks, 0.0) if len(ranks) <= MAX_LEAVE else 0.0

    def __len__(self) -> int:
        return len(self._values)


def _ranks_of_key(key: str) -> list[int]:
    return [RANK_SYMBOLS.index(ch) + 1 for ch in key]


def load_table(text: str) -> LeaveTable:
    data = json.loads(text)
    values = data["values"]
    if not isinstance(values, dict):
        raise ValueError("values must be an object")
    return LeaveTable({str(k): float(v) for k, v in values.items()})


@lru_cache(maxsize=1)
def default_leave() -> LeaveTable:
    """The shipped table (zeros, with a warning, if it cannot be read)."""
    try:
        text = resources.files("cribtiles.bot.tiles").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
        return load_table(text)
    except (OSError, ValueError, KeyError, TypeError) as e:
        warnings.warn(f"the bots' leave table could not be read ({e}); playing without it", stacklevel=2)
        return LeaveTable({})
