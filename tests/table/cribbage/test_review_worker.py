"""A cribbage game's review run beside the window (issue 32): the runner both games share, given the
cribbage review's job; in a process of its own as in the window, or in a thread; a variant refused in
words."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

import pytest

from cribtiles.table.cribbage.review import CribbageReview, ReviewRefused, review_game
from cribtiles.table.cribbage.review_worker import CribbageReviewWorker, review_saved
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.review_worker import ReviewError

#: Seconds a test waits for the analysis, before calling it a failure (never reached when all is well).
PATIENCE = 120.0


def finished_table(seed: int) -> CribbageTable:
    """A whole game, the person's moves the first legal, the bot Medium's."""
    table = CribbageTable.new(seed, "medium")
    while not table.is_over:
        if table.bot_to_move:
            table.bot_move()
        else:
            table.play(table.state.legal_actions()[0])
    return table


def finish(worker: CribbageReviewWorker, seen: list[tuple[int, int]]) -> CribbageReview:
    give_up = time.monotonic() + PATIENCE
    while (review := worker.result()) is None:
        seen.append(worker.progress())
        assert time.monotonic() < give_up, "the review worker did not get there"
        time.sleep(0.01)
    seen.append(worker.progress())
    return review


@pytest.mark.parametrize("use_process", [False, True])
def test_the_worker_gives_the_review_of_the_game(use_process: bool) -> None:
    table = finished_table(4)
    worker = CribbageReviewWorker(budget=8, seed=3, use_process=use_process)
    try:
        worker.start(table)
        seen: list[tuple[int, int]] = []
        review = finish(worker, seen)
    finally:
        worker.close()
    assert review == review_game(table.state, random.Random(3), 8)
    total = len(review.decisions)
    assert seen[-1] == (total, total) and all(t == total for _, t in seen)


def test_a_variant_is_refused_in_words() -> None:
    record = finished_table(4).state.record()
    record["options"] = {"target": 121, "variant": "partnership"}
    with pytest.raises(ReviewRefused, match=r"two-player cribbage .* only"):
        review_saved(json.dumps(record), 8, 0, lambda done, total: None)


def test_a_failed_analysis_is_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribtiles.table.cribbage import review_worker

    def broken(*args: object) -> CribbageReview:
        raise ValueError("a bug in the analysis")

    broke: Callable[..., CribbageReview] = broken
    monkeypatch.setattr(review_worker, "review_game", broke)
    worker = CribbageReviewWorker(budget=8, use_process=False)
    try:
        worker.start(finished_table(4))
        give_up = time.monotonic() + PATIENCE
        with pytest.raises(ReviewError, match="a bug in the analysis"):
            while worker.result() is None:
                assert time.monotonic() < give_up
                time.sleep(0.01)
    finally:
        worker.close()
