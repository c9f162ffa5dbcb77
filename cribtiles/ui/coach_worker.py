"""The Expert's evaluation of the candidate plays, run beside the window so that its frames keep their
pace: in a process of its own (spawned, as the bot worker's), or in a thread where processes cannot be
started. The scene starts one evaluation, polls `progress()` and `result()`, and may `cancel()` it.

No pygame here: the process imports only this module, the rules and the bots.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.bot.coach import Suggestion, expert_evaluate
from cribtiles.bot.lifeline import die_with_parent
from cribtiles.rules.game import PlayerView

log = logging.getLogger("cribtiles.ui.coach")

#: Seconds the Expert may simulate the candidates for (the evaluation's own budget).
EXPERT_BUDGET = 3.0
#: How much lower the evaluation's process stands than the window's when the processors are busy.
NICENESS = 10


@dataclass(frozen=True)
class Job:
    """One evaluation: what the player may see, the suggestions to play out, the budget, the seed."""

    view: PlayerView
    suggestions: tuple[Suggestion, ...]
    budget: float
    seed: int


def evaluate(job: Job, progress: object = None) -> list[Suggestion]:
    """The suggestions with the Expert's evaluation, best first (what the process and the thread run)."""
    report = progress if callable(progress) else None
    return expert_evaluate(job.view, job.suggestions, job.budget, time.monotonic, random.Random(job.seed), report)


def serve(conn: multiprocessing.connection.Connection, job: Job) -> None:
    """The process: one evaluation, its progress and its answer sent down the pipe, then it ends."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the game's to handle
    with contextlib.suppress(AttributeError, OSError):  # a busy machine serves the window's frames first
        os.nice(NICENESS)

    def progress(done: int, total: int) -> None:
        conn.send(("progress", done, total))

    try:
        conn.send(("done", evaluate(job, progress)))
    except (EOFError, OSError):
        return
    except Exception as e:  # told to the window, which says so and carries on without it
        with contextlib.suppress(EOFError, OSError):
            conn.send(("failed", f"{type(e).__name__}: {e}"))


class CoachWorker:
    """One evaluation at a time: `start`, poll `progress` and `result`, `cancel`, `close`.

    `use_process`: False runs it in a thread (tests, and where processes cannot be started)."""

    def __init__(self, use_process: bool = True) -> None:
        self._use_process = use_process
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._conn: multiprocessing.connection.Connection | None = None
        self._thread: threading.Thread | None = None
        self._ticket = 0
        self._done = (0, 0)
        self._answer: list[Suggestion] | None = None
        self.failure = ""  # why the last evaluation gave no answer, in words ("" when it did)
        atexit.register(self.close)

    @property
    def busy(self) -> bool:
        return self._proc is not None or self._thread is not None

    def start(self, view: PlayerView, suggestions: Sequence[Suggestion], budget: float, seed: int) -> None:
        """Evaluate `suggestions` (any evaluation under way is dropped)."""
        self.cancel()
        self._done, self._answer, self.failure = (0, 0), None, ""
        job = Job(view, tuple(suggestions), budget, seed)
        if self._use_process:
            try:
                ctx = multiprocessing.get_context("spawn")  # never fork: the window holds SDL and threads
                self._conn, child = ctx.Pipe(duplex=False)
                self._proc = ctx.Process(target=serve, args=(child, job), name="cribtiles-coach", daemon=True)
                try:
                    self._proc.start()
                finally:
                    child.close()
                return
            except Exception as e:  # a sandbox, limits: the thread does it, frames may stutter
                log.warning("cannot start the coach's process (%s: %s); it thinks in a thread", type(e).__name__, e)
                self._use_process = False
                self._drop_process()
        self._ticket += 1
        ticket = self._ticket

        def run() -> None:
            def progress(done: int, total: int) -> None:
                if ticket == self._ticket:
                    self._done = (done, total)

            try:
                answer = evaluate(job, progress)
            except Exception as e:
                log.exception("the coach's evaluation failed")
                answer, failure = None, f"{type(e).__name__}: {e}"
            else:
                failure = ""
            if ticket == self._ticket:
                self._answer, self.failure = answer, failure
                self._thread = None

        self._thread = threading.Thread(target=run, name="cribtiles-coach", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        conn = self._conn
        if conn is None:
            return
        try:
            while conn.poll():
                message = conn.recv()
                if message[0] == "progress":
                    self._done = (message[1], message[2])
                elif message[0] == "done":
                    self._answer = list(message[1])
                    self._drop_process()
                    return
                else:
                    self.failure = str(message[1])
                    self._drop_process()
                    return
        except (EOFError, OSError):
            pass
        else:
            if self._proc is not None and self._proc.is_alive():
                return
        self.failure = self.failure or "the coach's process ended without an answer"
        log.warning("%s", self.failure)
        self._drop_process()

    def progress(self) -> tuple[int, int]:
        """The rollouts done and the rollouts likely in all (an estimate that settles as they run)."""
        self._read()
        return self._done

    def result(self) -> list[Suggestion] | None:
        """The evaluated suggestions once they are ready (best first by the Expert), else None."""
        self._read()
        return self._answer

    def _drop_process(self) -> None:
        proc, conn, self._proc, self._conn = self._proc, self._conn, None, None
        if proc is not None and proc.is_alive():
            with contextlib.suppress(OSError, ValueError, AttributeError):
                proc.kill()
                proc.join(1.0)
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()

    def cancel(self) -> None:
        """Drop the evaluation under way (a process is ended at once; a thread's answer is ignored)."""
        self._ticket += 1
        self._thread = None
        self._drop_process()

    def close(self) -> None:
        self.cancel()
        atexit.unregister(self.close)
