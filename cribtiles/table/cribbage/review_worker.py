"""The review of a cribbage game run beside the window: the `ReviewRunner` of both games, given the
cribbage review's job (`review_saved`, in a spawned process of its own or a thread).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from cribtiles.background import Report
from cribtiles.cribbage.record import replay

from ..review_worker import ReviewRunner
from .review import DEFAULT_GUESSES, CribbageReview, ReviewRefused, decision_plies, refusal, review_game
from .table import CribbageTable

#: Seconds of silence allowed per guess a card is weighed over (a card takes about a millisecond a
#: guess), beside the runner's grace for the process to start.
STALL_PER_GUESS = 0.05


def review_saved(record: str, guesses: int, seed: int, report: Report) -> CribbageReview:
    """The review of a cribbage game's record (JSON), its progress reported decision by decision."""
    data = json.loads(record)
    why = refusal(data)
    if why:
        raise ReviewRefused(why)
    return review_game(replay(data), random.Random(seed), guesses, report)


class CribbageReviewWorker(ReviewRunner[CribbageReview]):
    """Cribbage's review runner: each card laid weighed over `budget` guesses at the opponent's hand."""

    stall_per_budget = STALL_PER_GUESS

    def __init__(
        self,
        budget: int = DEFAULT_GUESSES,
        seed: int = 0,
        use_process: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(budget, seed, use_process, clock)

    def start(self, table: CribbageTable) -> None:
        """Start reviewing `table`'s game (a review under way is dropped); ReviewRefused in words for a
        variant the review does not take."""
        why = refusal(table.state.record())
        if why:
            raise ReviewRefused(why)
        record = json.dumps(table.state.record())
        self.start_job(review_saved, (record, int(self.budget), self.seed), len(decision_plies(table.state)))
