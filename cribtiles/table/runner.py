"""Playing an arena's units of work (a bag with its seatings, a pair of cribbage games) in worker
processes, for the tile game's arena and classic cribbage's alike.

The results come back in game order whatever finished first. Ctrl-C ends the workers at once (they
ignore SIGINT themselves, take the pool's SIGTERM as the end, and die with the arena however it ends)
and raises `Interrupted` with the units finished so far.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from cribtiles.bot.lifeline import die_with_parent
from cribtiles.signals import sigint_ignored

#: progress(games done, games in all), called as each unit comes in.
Progress = Callable[[int, int], None]

#: Jobs beyond this many for each core are refused: the work is all CPU, so they would only queue.
JOBS_PER_CORE_AT_MOST = 4
#: The longest a thinking bot may take over a move in an arena: beyond it a run never ends in practice.
MOST_SECONDS_A_MOVE = 600.0


def cores() -> int:
    """The cores this process may use (its affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def jobs_problem(jobs: int, here: int | None = None) -> str:
    """ "" when `jobs` worker processes make sense on a machine of `here` cores (default: this one's),
    else why not, in words.

    >>> jobs_problem(2, 2), jobs_problem(0, 2)
    ('', '--jobs must be at least 1')
    >>> jobs_problem(64, 2)
    '--jobs 64 is far more than the 2 cores here can use: give at most 8 (one a core is best)'
    """
    here = cores() if here is None else here
    if jobs < 1:
        return "--jobs must be at least 1"
    if jobs > JOBS_PER_CORE_AT_MOST * here:
        most = JOBS_PER_CORE_AT_MOST * here
        return f"--jobs {jobs} is far more than the {here} cores here can use: give at most {most} (one a core is best)"
    return ""


def budget_problem(budget: float | None) -> str:
    """ "" when `budget` (seconds a move, None: the bots' own) is a sane thinking time, else why not.

    >>> budget_problem(1.5), budget_problem(None), budget_problem(float("inf"))
    ('', '', '--budget must be a number of seconds above 0 and at most 600, not inf')
    """
    if budget is None or (math.isfinite(budget) and 0 < budget <= MOST_SECONDS_A_MOVE):
        return ""
    return f"--budget must be a number of seconds above 0 and at most {MOST_SECONDS_A_MOVE:g}, not {budget:g}"


class Numbered(Protocol):
    """A game's result: its number in the arena."""

    @property
    def game(self) -> int: ...


R = TypeVar("R", bound=Numbered)


class Interrupted(Exception):
    """Ctrl-C stopped the run; `results` are the games finished before it (whole units only, in order)."""

    def __init__(self, results: list[Any]) -> None:
        super().__init__(f"interrupted after {len(results)} games")
        self.results = results


def run_units(
    units: int, play: Callable[[int], list[R]], games: int, jobs: int = 1, progress: Progress | None = None
) -> list[R]:
    """`play(0)` ... `play(units - 1)` (in `jobs` processes: `play` must pickle), their `games`
    results in game order. Ctrl-C (KeyboardInterrupt) raises `Interrupted` with the games done."""
    results: list[R] = []

    def done(part: list[R]) -> None:
        results.extend(part)
        if progress is not None:
            progress(len(results), games)

    try:
        if min(jobs, cores()) <= 1 or units == 1:
            for i in range(units):
                done(play(i))
        else:
            _run_in_workers(units, play, min(jobs, units, cores()), done)  # more would only queue
    except KeyboardInterrupt:
        results.sort(key=lambda r: r.game)
        raise Interrupted(results) from None
    results.sort(key=lambda r: r.game)
    return results


def worker_starts() -> None:
    """In each worker: Ctrl-C is for the arena to handle (no traceback from a worker), the pool's
    SIGTERM ends it (even when the parent had a handler of its own, such as SDL's, to inherit), and
    it ends when the arena does, however the arena ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()


def _run_in_workers(units: int, play: Callable[[int], list[R]], jobs: int, done: Callable[[list[R]], None]) -> None:
    """Each unit in a worker process; the pool is terminated (not drained) on the way out, Ctrl-C included."""
    pool = multiprocessing.Pool(jobs, initializer=worker_starts)
    try:
        for part in pool.imap_unordered(play, range(units)):
            done(part)
    finally:
        with sigint_ignored():  # a second Ctrl-C must not break off the cleaning up
            pool.terminate()
            pool.join()
