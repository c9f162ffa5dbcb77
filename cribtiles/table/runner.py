"""Playing an arena's units of work (a bag with its seatings, a pair of cribbage games) in worker
processes, for the tile game's arena and classic cribbage's alike.

The results come back in game order whatever finished first. Ctrl-C ends the workers at once (they
ignore SIGINT themselves, take the pool's SIGTERM as the end, and die with the arena however it ends)
and raises `Interrupted` with the units finished so far.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from cribtiles.bot.lifeline import die_with_parent
from cribtiles.signals import sigint_ignored

#: progress(games done, games in all), called as each unit comes in.
Progress = Callable[[int, int], None]


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
        if jobs <= 1 or units == 1:
            for i in range(units):
                done(play(i))
        else:
            _run_in_workers(units, play, min(jobs, units), done)
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
