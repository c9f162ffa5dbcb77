"""The review of a game run beside the window, as a `Background` job: in a spawned process of its own (so
that its pure-Python analysis does not take the interpreter lock from the frames), or in a thread where
no process can be started. The caller polls `progress()` and `result()`, which never wait; `cancel()`
and `close()` end the analysis at once (a process is killed). A review that cannot be made (its process
dies, stops answering, or the analysis fails) is said in words: `result()` raises `ReviewError`.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable

from cribtiles.background import Background, Done, Failed, Report, Running, State, Trouble

from ..saves import load_table, save_table
from .review import DEFAULT_BUDGET, Review, review_table
from .table import Table

log = logging.getLogger("cribtiles.table.tiles.review")

#: The analysis has stopped answering once no turn has been finished for this many times a turn's
#: budget plus STALL_GRACE seconds (the first turn also waits for the process to start).
STALL_FACTOR = 4.0
STALL_GRACE = 20.0


class ReviewError(Exception):
    """The review could not be made; the message says why in words."""


def turns_of(table: Table) -> int:
    """The turns a review of `table` weighs: every turn of every round."""
    return sum(len(g.turns) for g in (*table.match.finished, table.match.game))


def review_saved(saved: str, budget: float, seed: int, report: Report) -> Review:
    """The review of a saved table, its progress reported turn by turn (run in the process or thread)."""
    return review_table(load_table(saved), budget, time.perf_counter, random.Random(seed), report)


class ReviewWorker:
    """One review at a time: `start(table)`, poll `progress()` and `result()`, `cancel()`, `close()`.

    `budget`: seconds of analysis a turn; `seed`: the review's random generator (a seed reproduces a
    review on a machine fast enough to finish its rounds). `use_process` False forces a thread (for
    tests, and where processes cannot be started); `clock` measures how long the analysis has been
    silent (for tests)."""

    def __init__(
        self,
        budget: float = DEFAULT_BUDGET,
        seed: int = 0,
        use_process: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget = budget
        self.seed = seed
        self._done, self._total = 0, 0
        self.incidents: list[str] = []  # what went wrong along the way, in words; the caller drains it
        self._logged: Failed | None = None  # the failure already in the log
        self._background: Background[Review] = Background(
            "cribtiles-review", use_process=use_process, on_no_process=self._no_process, clock=clock
        )

    def _no_process(self, why: str) -> None:
        log.warning("cannot start a process for the review (%s); it runs in a thread", why)
        self.incidents.append(
            "The review could not get a process of its own here, so it runs inside the game's "
            "(the window may be slow until it is done)."
        )

    @property
    def pid(self) -> int | None:
        """The review's process id while it has one (for fault-injection tests)."""
        return self._background.pid

    def start(self, table: Table) -> None:
        """Start reviewing `table` (a review under way is dropped)."""
        self._done, self._total = 0, turns_of(table)
        limit = STALL_FACTOR * self.budget + STALL_GRACE
        self._background.start(review_saved, (save_table(table), self.budget, self.seed), reports=True, limit=limit)

    # --- polling ---

    def _poll(self) -> State[Review]:
        state = self._background.poll()
        if isinstance(state, Failed) and state is not self._logged:
            self._logged = state
            log.error("%s%s", _words(state), f": {state.details}" if state.details else "")
        return state

    @property
    def running(self) -> bool:
        return isinstance(self._poll(), Running)

    def progress(self) -> tuple[int, int]:
        """Turns reviewed so far, of how many."""
        state, reported = self._poll(), self._background.progress
        if reported.total:
            self._done, self._total = reported.done, reported.total
        if isinstance(state, Done):
            self._done = self._total
        return self._done, self._total

    def result(self) -> Review | None:
        """The review once it is made; None while it is being made (or when none was started).
        ReviewError, in words, when it cannot be made."""
        state = self._poll()
        if isinstance(state, Failed):
            raise ReviewError(_words(state))
        return state.value if isinstance(state, Done) else None

    # --- ending ---

    def cancel(self) -> None:
        """Drop the review under way: its process is killed, its thread stops after the turn it is on."""
        self._background.cancel()

    def close(self) -> None:
        """End the analysis at once, whatever it is doing (quitting never waits for a review)."""
        self._background.close()


def _words(failed: Failed) -> str:
    """Why the review failed, in words (logged once, with a traceback where there is one).

    >>> _words(Failed(Trouble.DIED, "was ended by SIGKILL"))
    'the analysis lost its process, which was ended by SIGKILL'
    """
    if failed.trouble is Trouble.DIED:
        return f"the analysis lost its process, which {failed.words}"
    if failed.trouble is Trouble.SILENT:
        return f"the analysis {failed.words}"
    return f"the analysis failed ({failed.words})"
