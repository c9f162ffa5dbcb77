"""The review of a game run beside the window: in a spawned process of its own (so that its pure-Python
analysis does not take the interpreter lock from the frames), or in a thread where no process can be
started. The caller polls `progress()` and `result()`, which never wait; `cancel()` and `close()` end
the analysis at once (a process is killed). A review that cannot be made (its process dies, stops
answering, or the analysis fails) is said in words: `result()` raises `ReviewError`.

The process dies with the game (`lifeline`) and ignores Ctrl-C, which is the game's to handle.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import random
import signal
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from cribtiles.bot.lifeline import die_with_parent

from .model import Table
from .review import DEFAULT_BUDGET, Review, review_table
from .saves import load_table, save_table

log = logging.getLogger("cribtiles.table.review")

#: The analysis has stopped answering once no turn has been finished for this many times a turn's
#: budget plus STALL_GRACE seconds (the first turn also waits for the process to start).
STALL_FACTOR = 4.0
STALL_GRACE = 20.0
#: Seconds to wait for a killed process to be reaped before letting it go.
REAP_SECONDS = 1.0


class ReviewError(Exception):
    """The review could not be made; the message says why in words."""


@dataclass(frozen=True)
class _Progress:
    done: int
    total: int


@dataclass(frozen=True)
class _Done:
    review: Review


@dataclass(frozen=True)
class _Failed:
    why: str  # the failure with its traceback, for the log


def turns_of(table: Table) -> int:
    """The turns a review of `table` weighs: every turn of every round."""
    return sum(len(g.turns) for g in (*table.match.finished, table.match.game))


def serve(conn: multiprocessing.connection.Connection, saved: str, budget: float, seed: int) -> None:
    """The review process: review the saved table, sending its progress, then the review."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the game decides
    try:
        table = load_table(saved)
        review = review_table(
            table, budget, time.perf_counter, random.Random(seed), lambda d, t: conn.send(_Progress(d, t))
        )
        conn.send(_Done(review))
    except (EOFError, OSError):  # the game has gone away
        return
    except Exception:
        with contextlib.suppress(EOFError, OSError):
            conn.send(_Failed(traceback.format_exc().rstrip()))


class _Cancelled(Exception):
    pass


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
        self._use_process = use_process
        self._clock = clock
        self._conn: multiprocessing.connection.Connection | None = None
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._done, self._total = 0, 0
        self._review: Review | None = None
        self._error: str | None = None
        self._heard = 0.0  # when the analysis last said something
        self.incidents: list[str] = []  # what went wrong along the way, in words; the caller drains it
        atexit.register(self.close)  # before multiprocessing's own exit hook, which would wait for the process

    # --- starting ---

    def start(self, table: Table) -> None:
        """Start reviewing `table` (a review under way is dropped)."""
        self.cancel()
        self._done, self._total = 0, turns_of(table)
        self._review, self._error = None, None
        self._heard = self._clock()
        saved = save_table(table)
        if self._use_process:
            try:
                self._start_process(saved)
                return
            except Exception as e:  # no processes here: a read-only /dev/shm, a sandbox, limits
                self._use_process = False
                log.warning("cannot start a process for the review (%s: %s); it runs in a thread", type(e).__name__, e)
                self.incidents.append(
                    "The review could not get a process of its own here, so it runs inside the game's "
                    "(the window may be slow until it is done)."
                )
        self._start_thread(saved)

    def _start_process(self, saved: str) -> None:
        ctx = multiprocessing.get_context("spawn")  # never fork: the window holds SDL and threads
        conn, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(
            target=serve, args=(child, saved, self.budget, self.seed), name="cribtiles-review", daemon=True
        )
        try:
            proc.start()
        except BaseException:
            conn.close()
            raise
        finally:
            child.close()
        self._conn, self._proc = conn, proc

    def _start_thread(self, saved: str) -> None:
        stop = threading.Event()
        self._stop = stop

        def progress(done: int, total: int) -> None:
            if stop.is_set():
                raise _Cancelled
            self._done, self._total, self._heard = done, total, self._clock()

        def run() -> None:
            try:
                review = review_table(
                    load_table(saved), self.budget, time.perf_counter, random.Random(self.seed), progress
                )
            except _Cancelled:
                return
            except Exception:
                if not stop.is_set():
                    self._fail("failed", traceback.format_exc().rstrip())
                return
            if not stop.is_set():
                self._review = review

        self._thread = threading.Thread(target=run, name="cribtiles-review", daemon=True)
        self._thread.start()

    # --- polling ---

    @property
    def running(self) -> bool:
        self._poll()
        return (self._proc is not None or self._thread is not None) and self._review is None and self._error is None

    def progress(self) -> tuple[int, int]:
        """Turns reviewed so far, of how many."""
        self._poll()
        return self._done, self._total

    def result(self) -> Review | None:
        """The review once it is made; None while it is being made (or when none was started).
        ReviewError, in words, when it cannot be made."""
        self._poll()
        if self._error is not None:
            raise ReviewError(self._error)
        return self._review

    def _poll(self) -> None:
        if self._thread is not None and not self._thread.is_alive():
            self._thread = None
        if self._conn is None or self._proc is None:
            return
        try:
            while self._conn.poll():
                message = self._conn.recv()
                self._heard = self._clock()
                if isinstance(message, _Progress):
                    self._done, self._total = message.done, message.total
                elif isinstance(message, _Done):
                    self._review = message.review
                    self._done = self._total
                    self._end_process()
                    return
                elif isinstance(message, _Failed):
                    self._end_process()
                    self._fail("failed", message.why)
                    return
        except (EOFError, OSError):
            pass
        else:
            if self._proc.is_alive():
                if self._clock() - self._heard > STALL_FACTOR * self.budget + STALL_GRACE:
                    seconds = self._clock() - self._heard
                    self._end_process()
                    self._fail(f"stopped answering (nothing for {seconds:.0f} s)")
                return
        with contextlib.suppress(OSError, ValueError):
            self._proc.join(REAP_SECONDS)  # reaped, so that its exit code is known
        how = _exit_words(self._proc.exitcode)
        self._end_process()
        self._fail(f"lost its process, which {how}")

    def _fail(self, what: str, details: str = "") -> None:
        log.error("the review %s%s", what, f": {details}" if details else "")
        self._error = f"the analysis {what}" + (f" ({details.splitlines()[-1]})" if details else "")

    # --- ending ---

    def _end_process(self) -> None:
        proc, conn = self._proc, self._conn
        self._proc, self._conn = None, None
        if proc is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                if proc.is_alive():
                    proc.kill()  # SIGKILL: it works on a stopped process too, where SIGTERM would wait
                proc.join(REAP_SECONDS)
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()

    def cancel(self) -> None:
        """Drop the review under way: its process is killed, its thread stops after the turn it is on."""
        self._stop.set()
        self._thread = None
        self._end_process()

    def close(self) -> None:
        """End the analysis at once, whatever it is doing (quitting never waits for a review)."""
        self.cancel()
        atexit.unregister(self.close)


def _exit_words(code: int | None) -> str:
    """How a process ended, in words.

    >>> _exit_words(-9), _exit_words(1), _exit_words(None)
    ('was ended by SIGKILL', 'exited with code 1', 'stopped answering')
    """
    if code is None:
        return "stopped answering"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"was ended by {signal.Signals(-code).name}"
    return f"exited with code {code}"
