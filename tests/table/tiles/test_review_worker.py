"""The review beside the window: in a process of its own (or a thread where none can start), polled
without waiting, with its progress; cancelled or closed at once; a process that dies or stops
answering is said in words, never waited for."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator

import pytest

from cribtiles import background
from cribtiles.table.tiles import review_worker
from cribtiles.table.tiles.review import Review
from cribtiles.table.tiles.review_worker import ReviewError, ReviewWorker, turns_of
from cribtiles.table.tiles.table import Table
from tests.table.tiles.test_review import FakeClock, bot_game
from tests.test_background import gone

#: Seconds a test waits for something a process does, before calling it a failure (never reached
#: when all is well: no assertion is about speed).
PATIENCE = 120.0


@pytest.fixture(scope="module")
def game() -> Table:
    return bot_game("medium,medium", seed=2)


@pytest.fixture
def worker() -> Iterator[ReviewWorker]:
    made = ReviewWorker(budget=0.02, seed=1)
    yield made
    made.close()


def wait_for(condition: Callable[[], bool]) -> None:
    give_up = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < give_up, "the review worker did not get there"
        time.sleep(0.01)


def finish(worker: ReviewWorker, seen: list[tuple[int, int]] | None = None) -> Review:
    found: list[Review] = []

    def done() -> bool:
        if seen is not None:
            seen.append(worker.progress())
        review = worker.result()
        if review is not None:
            found.append(review)
        return bool(found)

    wait_for(done)
    return found[0]


def check(review: Review, table: Table) -> None:
    assert len(review.turns) == turns_of(table) == len(table.state.turns)
    assert [t.played for t in review.turns] == [t.move for t in table.state.turns]
    assert review.finals == (table.state.final_scores(),)


def test_a_review_is_made_in_a_process_of_its_own_with_its_progress(game: Table, worker: ReviewWorker) -> None:
    assert worker.result() is None and worker.progress() == (0, 0)  # nothing started
    worker.start(game)
    assert worker.progress()[1] == turns_of(game)
    seen: list[tuple[int, int]] = []
    review = finish(worker, seen)
    check(review, game)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)  # progress only goes forward
    assert worker.progress() == (len(review.turns), len(review.turns))
    assert not worker.incidents and not worker.running


def test_cancel_and_close_end_the_process_at_once(game: Table, worker: ReviewWorker) -> None:
    worker.start(game)
    pid = worker.pid
    assert pid is not None
    wait_for(lambda: worker.progress()[0] >= 1)
    worker.cancel()
    assert gone(pid) and worker.pid is None  # killed and reaped
    assert worker.result() is None and not worker.running
    worker.start(game)  # and a new review can be started at once
    pid = worker.pid
    assert pid is not None
    worker.close()
    assert gone(pid)


def test_a_process_that_dies_is_said_in_words(game: Table, worker: ReviewWorker) -> None:
    worker.start(game)
    pid = worker.pid
    assert pid is not None
    wait_for(lambda: worker.progress()[0] >= 1)
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(ReviewError, match="lost its process, which was ended by SIGKILL"):
        wait_for(lambda: worker.result() is not None)


def test_a_process_that_stops_answering_is_killed_and_said_in_words(game: Table) -> None:
    clock = FakeClock()
    worker = ReviewWorker(budget=0.5, clock=clock)
    try:
        worker.start(game)
        pid = worker.pid
        assert pid is not None
        wait_for(lambda: worker.progress()[0] >= 1)
        os.kill(pid, signal.SIGSTOP)
        time.sleep(0.2)
        worker.progress()  # what it said before it stopped is read
        limit = review_worker.STALL_FACTOR * 0.5 + review_worker.STALL_GRACE
        clock.advance(limit - 1)
        assert worker.result() is None  # silent, but not yet for long
        clock.advance(2)
        with pytest.raises(ReviewError, match="stopped answering"):
            worker.result()
        assert gone(pid) and worker.pid is None  # killed, stopped as it was
    finally:
        worker.close()


def test_where_no_process_can_start_the_review_runs_in_a_thread(
    game: Table, worker: ReviewWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(name: str, nice: int) -> background.Child:
        raise OSError("no /dev/shm here")

    monkeypatch.setattr(background, "spawn", refuse)
    worker.start(game)
    assert worker.pid is None and worker.running
    check(finish(worker), game)
    assert worker.incidents and "could not get a process" in worker.incidents[0]


def test_a_thread_review_is_cancelled_after_its_turn_and_a_failure_is_said(
    game: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = ReviewWorker(budget=0.02, use_process=False)
    worker.start(game)
    worker.cancel()
    assert worker.result() is None and not worker.running

    def broken(*args: object, **kwargs: object) -> Review:
        raise RuntimeError("the analysis broke")

    monkeypatch.setattr(review_worker, "review_table", broken)
    worker.start(game)
    with pytest.raises(ReviewError, match=r"the analysis failed \(RuntimeError: the analysis broke\)"):
        wait_for(lambda: worker.result() is not None)
    worker.close()


def test_the_review_process_reports_a_save_it_cannot_read(
    game: Table, worker: ReviewWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_worker, "save_table", lambda table: "this is not a saved game")
    worker.start(game)
    assert worker.pid is not None  # read in the process, which says why it cannot
    with pytest.raises(ReviewError, match=r"the analysis failed \(RecordError: .*not valid JSON"):
        wait_for(lambda: worker.result() is not None)
