"""The review of a game, of either game, run beside the window as a `Background` job: in a spawned
process of its own (so that its pure-Python analysis does not take the interpreter lock from the
frames), or in a thread where no process can be started. The caller polls `progress()` and
`result()`, which never wait; `cancel()` and `close()` end the analysis at once (a process is killed).
A review that cannot be made (its process dies, stops answering, or the analysis fails) is said in
words: `result()` raises `ReviewError`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from cribtiles.background import Background, Done, Failed, Running, State, Trouble

log = logging.getLogger("cribtiles.table.review")

R = TypeVar("R")

#: The analysis has stopped answering once no turn has been finished for this many times a turn's
#: budget plus STALL_GRACE seconds (the first turn also waits for the process to start).
STALL_FACTOR = 4.0
STALL_GRACE = 20.0


class ReviewError(Exception):
    """The review could not be made; the message says why in words."""


class ReviewRunner(Generic[R]):
    """One review at a time: `start_job(...)` (each game's runner has its `start(table)`), poll
    `progress()` and `result()`, `cancel()`, `close()`.

    `budget`: the analysis a decision gets (seconds of a turn of the tile game, guesses at a card laid
    in cribbage); `seed`: the review's random generator. `use_process` False forces a thread (for
    tests, and where processes cannot be started); `clock` measures how long the analysis has been
    silent (for tests)."""

    #: Seconds the analysis may be silent on a decision: `stall_per_budget` times the budget, plus
    #: STALL_GRACE (the first decision also waits for the process to start).
    stall_per_budget = STALL_FACTOR

    def __init__(
        self,
        budget: float,
        seed: int = 0,
        use_process: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget = budget
        self.seed = seed
        self._done, self._total = 0, 0
        self.incidents: list[str] = []  # what went wrong along the way, in words; the caller drains it
        self._logged: Failed | None = None  # the failure already in the log
        self._background: Background[R] = Background(
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

    def start_job(self, job: Callable[..., R], args: tuple[object, ...], total: int) -> None:
        """Start the review `job(*args, report)` of `total` decisions (a review under way is dropped)."""
        self._done, self._total = 0, total
        limit = self.stall_per_budget * self.budget + STALL_GRACE
        self._background.start(job, args, reports=True, limit=limit)

    # --- polling ---

    def _poll(self) -> State[R]:
        state = self._background.poll()
        if isinstance(state, Failed) and state is not self._logged:
            self._logged = state
            log.error("%s%s", _words(state), f": {state.details}" if state.details else "")
        return state

    @property
    def running(self) -> bool:
        return isinstance(self._poll(), Running)

    def progress(self) -> tuple[int, int]:
        """Decisions reviewed so far, of how many."""
        state, reported = self._poll(), self._background.progress
        if reported.total:
            self._done, self._total = reported.done, reported.total
        if isinstance(state, Done):
            self._done = self._total
        return self._done, self._total

    def result(self) -> R | None:
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
