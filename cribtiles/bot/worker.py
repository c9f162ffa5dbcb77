"""A bot thinking beside the game, one move at a time, that can always be abandoned and replaced.

Hard and Expert think in a process of their own (spawned, so that their pure-Python search does not
take the interpreter lock from the window's frames); the cheap levels in a thread. The caller starts
a move and polls `result()`. Whatever goes wrong, the game goes on: a worker that dies, raises, cannot
be started, or thinks far past its budget (a stopped or hung process) is abandoned, a process is
killed and replaced, the best-scoring move is played instead, and `incidents` says so in words.
A worker process dies with the game (`lifeline`) and ignores Ctrl-C, which is the game's to handle.
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

from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move

from .base import choose_reporting, choose_safely
from .greedy import greedy_move
from .levels import PROCESS_LEVELS, make_bot
from .lifeline import die_with_parent
from .simulate import DEFAULT_BUDGET

log = logging.getLogger("cribtiles.bot.worker")

#: A move is abandoned once it has taken HANG_FACTOR times its budget plus HANG_GRACE seconds
#: (levels without a budget count as NO_BUDGET seconds): far past anything a loaded machine explains.
HANG_FACTOR = 3.0
HANG_GRACE = 5.0
NO_BUDGET = 1.0
#: Seconds to wait for a killed process to be reaped before letting it go.
REAP_SECONDS = 1.0


def hang_limit(level: str, budget: float | None) -> float:
    """Seconds after which a move of `level` counts as hung.

    >>> hang_limit("expert", None), hang_limit("medium", None)
    (9.5, 8.0)
    """
    seconds = budget if budget is not None else DEFAULT_BUDGET if level == "expert" else NO_BUDGET
    return HANG_FACTOR * seconds + HANG_GRACE


def think(level: str, view: PlayerView, seed: int, budget: float | None = None) -> Move:
    """The bot's move (run in the worker thread, where a failure is logged at once)."""
    return choose_safely(make_bot(level, budget), view, random.Random(seed), budget)


@dataclass(frozen=True)
class Request:
    ticket: int
    level: str
    view: PlayerView
    seed: int
    budget: float | None


def answer_of(request: Request) -> tuple[int, Move | None, str]:
    """The worker process's answer: the ticket, the move (None if even the fallback failed) and the
    failure in words with its traceback ("" when the bot did not fail), which the game logs."""
    try:  # a bot that fails plays the greedy move
        bot = make_bot(request.level, request.budget)
        move, failure = choose_reporting(bot, request.view, random.Random(request.seed), request.budget)
        return request.ticket, move, failure
    except Exception:  # the fallback failing too
        return request.ticket, None, traceback.format_exc().rstrip()


def serve(conn: multiprocessing.connection.Connection) -> None:
    """The worker process: answer requests until the pipe closes or the parent is gone."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the game decides
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if not isinstance(request, Request):
            return
        answer = answer_of(request)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return


class _Process:
    """One spawned worker process and our end of its pipe."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # never fork: the window holds SDL and threads
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=serve, args=(child,), name="cribtiles-bot", daemon=True)
        try:
            self.proc.start()
        finally:
            child.close()

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.proc.kill()  # SIGKILL: it works on a stopped process too, where SIGTERM would wait
            self.proc.join(REAP_SECONDS)
        with contextlib.suppress(OSError):
            self.conn.close()

    def describe_exit(self) -> str:
        code = self.proc.exitcode
        if code is None:
            return "stopped answering"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"was ended by {signal.Signals(-code).name}"
        return f"exited with code {code}"


@dataclass
class _Job:
    ticket: int
    level: str
    view: PlayerView
    seed: int
    budget: float | None
    started: float
    thread: threading.Thread | None = None
    answer: Move | None = None  # a thread's move, once it has one


class BotWorker:
    """One move at a time: `start` a move, poll `result`, `cancel` it, `close` at the end.

    `use_process`: True or False forces a process or a thread; None (the default) takes a process
    for the PROCESS_LEVELS. `clock` and `limit` (seconds after which a move is abandoned, by level
    and budget) are there for tests.
    """

    def __init__(
        self,
        use_process: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        limit: Callable[[str, float | None], float] = hang_limit,
    ) -> None:
        self._use_process = use_process
        self._clock = clock
        self._limit = limit
        self._process: _Process | None = None
        self._no_processes = ""  # why processes cannot be used here, once that is known
        self._job: _Job | None = None
        self._tickets = 0
        self.incidents: list[str] = []  # what went wrong, in words, for the player; the caller drains it
        atexit.register(self.close)  # before multiprocessing's own exit hook, which would wait for a stopped worker

    # --- the process ---

    def _wants_process(self, level: str) -> bool:
        wanted = level in PROCESS_LEVELS if self._use_process is None else self._use_process
        return wanted and not self._no_processes

    def _ensure_process(self) -> _Process | None:
        if self._process is not None and self._process.proc.is_alive():
            return self._process
        self._drop_process()
        try:
            self._process = _Process()
        except Exception as e:  # no processes here: a read-only /dev/shm, a sandbox, limits
            self._no_processes = f"{type(e).__name__}: {e}"
            log.warning("cannot start a bot worker process (%s); bots think in a thread", self._no_processes)
            self.incidents.append(
                "The bots could not get a process of their own here, so they think inside the game's "
                "(frames may stutter while Hard or Expert thinks)."
            )
            return None
        return self._process

    def _drop_process(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process = None

    def warm_up(self) -> None:
        """Start the worker process now, so that the first move of Hard or Expert does not wait for it."""
        if self._use_process is not False and not self._no_processes:
            self._ensure_process()

    @property
    def pid(self) -> int | None:
        """The worker process's id while there is one (for the log and for fault-injection tests)."""
        return self._process.proc.pid if self._process is not None else None

    # --- moves ---

    @property
    def busy(self) -> bool:
        return self._job is not None

    def start(self, level: str, view: PlayerView, seed: int, budget: float | None = None) -> None:
        self.cancel()
        self._tickets += 1
        job = _Job(self._tickets, level, view, seed, budget, self._clock())
        self._job = job
        if self._wants_process(level):
            process = self._ensure_process()
            if process is not None:
                try:
                    process.conn.send(Request(job.ticket, level, view, seed, budget))
                    return
                except (OSError, ValueError) as e:
                    log.warning("the bot worker process could not be given a move (%s); thinking in a thread", e)
                    self._drop_process()

        def run() -> None:
            with contextlib.suppress(MemoryError):  # no answer: the best-scoring move, said in words
                job.answer = think(level, view, seed, budget)

        job.thread = threading.Thread(target=run, name="cribtiles-bot", daemon=True)
        job.thread.start()

    def result(self) -> Move | None:
        """The move once it is ready (then the worker is free again); None while the bot thinks.

        A move that cannot come (the process died or the move hung) is replaced by the best-scoring
        move, and `incidents` says what happened."""
        job = self._job
        if job is None:
            return None
        if job.thread is not None:
            if not job.thread.is_alive():
                self._job = None
                if job.answer is not None:
                    return job.answer
                return self._fallback(job, "failed while thinking")
        else:
            move = self._read_process(job)
            if move is not None or self._job is None:
                return move
        if self._clock() - job.started > self._limit(job.level, job.budget):
            seconds = self._clock() - job.started
            return self._fallback(job, f"took far too long to think ({seconds:.0f} s)", abandon=True)
        return None

    def _read_process(self, job: _Job) -> Move | None:
        process = self._process
        if process is None:
            return self._fallback(job, "lost its thinking process")
        try:
            while process.conn.poll():
                ticket, move, error = process.conn.recv()
                if ticket != job.ticket:
                    continue  # the answer to a move that was cancelled
                self._job = None
                if move is None:
                    log.error("the %s bot failed in its worker process: %s", job.level, error)
                    return self._fallback(job, "failed while thinking")
                if error:  # the bot failed and its process played the greedy move instead
                    log.error("in the %s bot's worker process, %s", job.level, error)
                assert isinstance(move, Move)
                return move
        except (EOFError, OSError):
            pass
        else:
            if process.proc.is_alive():
                return None
        with contextlib.suppress(OSError, ValueError):
            process.proc.join(REAP_SECONDS)  # reaped, so that its exit code is known
        how = process.describe_exit()
        return self._fallback(job, f"lost its thinking process, which {how}")

    def _fallback(self, job: _Job, what: str, abandon: bool = False) -> Move:
        """The best-scoring move instead, and the player told; a hung or dead process is replaced."""
        self._job = None
        if self._process is not None and (abandon or not self._process.proc.is_alive()):
            self._drop_process()
            self._ensure_process()  # the replacement starts now, while the player thinks
        name = job.level.capitalize()
        replaced = "a fresh one takes over" if job.thread is None else "it is left behind"
        log.warning("the %s bot %s; playing the best-scoring move instead (%s)", job.level, what, replaced)
        self.incidents.append(f"The {name} bot {what}; it played the best-scoring move instead.")
        return greedy_move(job.view, random.Random(job.seed))

    def cancel(self) -> None:
        """Forget the move being thought about (a new game, undo); a busy process is replaced."""
        job, self._job = self._job, None
        if job is not None and job.thread is None:
            self._drop_process()  # it may be stuck: a fresh process is cheaper than waiting to find out
            self._ensure_process()

    def close(self) -> None:
        """End the worker at once, whatever it is doing (quitting never waits for a bot)."""
        self._job = None
        self._drop_process()
        atexit.unregister(self.close)
