"""Playing an arena's units of work (a bag with its seatings, a pair of cribbage games) in worker
processes, for the tile game's arena and classic cribbage's alike.

The results come back in game order whatever finished first. Ctrl-C ends the workers at once (they
ignore SIGINT themselves, take the pool's SIGTERM as the end, and die with the arena however it ends)
and raises `Interrupted` with the units finished so far. Where no pool can be had (no /dev/shm, no
POSIX semaphores, no processes left to start) the units are played here, one after another, and
`note` says so in a line.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.pool
import os
import signal
import sys
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from cribtiles.background import die_with_parent
from cribtiles.signals import sigint_ignored

#: progress(games done, games in all), called as each unit comes in.
Progress = Callable[[int, int], None]
#: note(one line for the person running it): what the run could not do as asked.
Note = Callable[[str], None]

#: Jobs beyond this many for each core are refused: the work is all CPU, so they would only queue.
JOBS_PER_CORE_AT_MOST = 4
#: The longest a thinking bot may take over a move in an arena: beyond it a run never ends in practice.
MOST_SECONDS_A_MOVE = 600.0
#: Seconds to wait for a worker of a pool that could not be made to be reaped once killed.
REAP_SECONDS = 1.0


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


def note_on_stderr(line: str) -> None:
    print(f"cribtiles: {line}", file=sys.stderr)


def run_units(
    units: int,
    play: Callable[[int], list[R]],
    games: int,
    jobs: int = 1,
    progress: Progress | None = None,
    note: Note = note_on_stderr,
) -> list[R]:
    """`play(0)` ... `play(units - 1)` (in `jobs` processes: `play` must pickle), their `games`
    results in game order. Ctrl-C (KeyboardInterrupt) raises `Interrupted` with the games done.
    When the processes cannot be started, `note` says why and the units are played here."""
    results: list[R] = []

    def done(part: list[R]) -> None:
        results.extend(part)
        if progress is not None:
            progress(len(results), games)

    try:
        pool = None
        if min(jobs, cores()) > 1 and units > 1:
            pool = _start_pool(min(jobs, units, cores()), note)  # more would only queue
        if pool is None:
            for i in range(units):
                done(play(i))
        else:
            _run_in_workers(pool, units, play, done)
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


def _start_pool(jobs: int, note: Note) -> multiprocessing.pool.Pool | None:
    """A pool of `jobs` workers, or None (and a note) where none can be had: the pool's queues need
    POSIX semaphores (a read-only or missing /dev/shm refuses them, a system without sem_open has
    none) and its workers need processes (a limit on them refuses the fork). Pool cleans up the
    workers it did start, except when one of its threads is refused (a low memory limit: each thread
    reserves its stack), and those are ended here."""
    pool = multiprocessing.pool.Pool.__new__(multiprocessing.pool.Pool)
    try:
        pool.__init__(jobs, initializer=worker_starts)  # type: ignore[misc]
    except (OSError, ImportError, RuntimeError) as e:
        _abandon(pool)
        note(f"no worker processes can be started here ({type(e).__name__}: {e}); the games are played one at a time")
        return None
    return pool


def _abandon(pool: multiprocessing.pool.Pool) -> None:
    """End what a pool whose making failed half-way had started (its own clean-up covers only a
    failure to start the workers): the thread that replaces workers, then the workers."""
    pool._state = multiprocessing.pool.TERMINATE  # type: ignore[attr-defined]
    handler = getattr(pool, "_worker_handler", None)
    if handler is not None:
        handler._state = multiprocessing.pool.TERMINATE
        with contextlib.suppress(Exception):
            pool._change_notifier.put(None)  # type: ignore[attr-defined]  # wakes it to see its state
        with contextlib.suppress(RuntimeError):  # never started
            handler.join(REAP_SECONDS)
    for worker in getattr(pool, "_pool", []):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            worker.kill()
            worker.join(REAP_SECONDS)


def _run_in_workers(
    pool: multiprocessing.pool.Pool, units: int, play: Callable[[int], list[R]], done: Callable[[list[R]], None]
) -> None:
    """Each unit in a worker process; the pool is terminated (not drained) on the way out, Ctrl-C included."""
    try:
        for part in pool.imap_unordered(play, range(units)):
            done(part)
    finally:
        with sigint_ignored():  # a second Ctrl-C must not break off the cleaning up
            pool.terminate()
            pool.join()
