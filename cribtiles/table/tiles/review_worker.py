"""The review of a tile game run beside the window: the `ReviewRunner` of both games, given the tile
review's job (`review_saved`, in a spawned process of its own or a thread).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from cribtiles.background import Report

from ..review_worker import STALL_FACTOR, STALL_GRACE, ReviewError, ReviewRunner
from ..saves import save_table
from .review import DEFAULT_BUDGET, Review, review_table
from .saved import load_table
from .table import Table

__all__ = ["STALL_FACTOR", "STALL_GRACE", "ReviewError", "ReviewWorker", "review_saved", "turns_of"]


def turns_of(table: Table) -> int:
    """The turns a review of `table` weighs: every turn of every round."""
    return sum(len(g.turns) for g in (*table.match.finished, table.match.game))


def review_saved(saved: str, budget: float, seed: int, report: Report) -> Review:
    """The review of a saved table, its progress reported turn by turn (run in the process or thread)."""
    return review_table(load_table(saved), budget, time.perf_counter, random.Random(seed), report)


class ReviewWorker(ReviewRunner[Review]):
    """The tile game's review runner: `budget` seconds of analysis a turn (a seed reproduces a review
    on a machine fast enough to finish its rounds)."""

    def __init__(
        self,
        budget: float = DEFAULT_BUDGET,
        seed: int = 0,
        use_process: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(budget, seed, use_process, clock)

    def start(self, table: Table) -> None:
        """Start reviewing `table` (a review under way is dropped)."""
        self.start_job(review_saved, (save_table(table), self.budget, self.seed), turns_of(table))
