"""A bot thinking beside the game, one move at a time, that can always be abandoned and replaced.

Hard and Expert think in a process of their own (spawned, so that their pure-Python search does not
take the interpreter lock from the window's frames); the cheap levels in a thread: both through one
`Background` job. The caller starts a move and polls `result()`. Whatever goes wrong, the game goes on:
a worker that dies, raises, cannot be started, or thinks far past its budget (a stopped or hung
process) is abandoned, a process is killed and replaced, the best-scoring move is played instead,
and `incidents` says so in words. The process dies with the game and ignores Ctrl-C (the game's).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from cribtiles.background import Background, Done, Failed, Running, Trouble
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move

from .tiles.base import choose_reporting
from .tiles.greedy import greedy_move
from .tiles.levels import BY_NAME, PROCESS_LEVELS, make_bot

log = logging.getLogger("cribtiles.bot.worker")

#: A move is abandoned once it has taken HANG_FACTOR times its budget plus HANG_GRACE seconds
#: (levels without a budget count as NO_BUDGET seconds): far past anything a loaded machine explains.
HANG_FACTOR = 3.0
HANG_GRACE = 5.0
NO_BUDGET = 1.0


def hang_limit(level: str, budget: float | None) -> float:
    """Seconds after which a move of `level` counts as hung.

    >>> hang_limit("expert", None), hang_limit("medium", None)
    (9.5, 8.0)
    """
    known = BY_NAME.get(level)
    default = known.budget if known is not None else None
    seconds = budget if budget is not None else default if default is not None else NO_BUDGET
    return HANG_FACTOR * seconds + HANG_GRACE


def answer_of(level: str, view: PlayerView, seed: int, budget: float | None = None) -> tuple[Move, str]:
    """The bot's move and its failure in words with its traceback ("" when the bot did not fail; a bot
    that fails plays the greedy move), which the game logs: run in the worker process or thread."""
    return choose_reporting(make_bot(level, budget), view, random.Random(seed), budget)


@dataclass(frozen=True)
class _Job:
    level: str
    view: PlayerView
    seed: int
    budget: float | None
    started: float


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
        self._job: _Job | None = None
        self.incidents: list[str] = []  # what went wrong, in words, for the player; the caller drains it
        self._background: Background[tuple[Move, str]] = Background(
            "cribtiles-bot",
            use_process=use_process is not False,
            keep=True,
            on_no_process=self._no_process,
            clock=clock,
        )

    def _no_process(self, why: str) -> None:
        log.warning("cannot start a bot worker process (%s); bots think in a thread", why)
        self.incidents.append(
            "The bots could not get a process of their own here, so they think inside the game's "
            "(frames may stutter while Hard or Expert thinks)."
        )

    def warm_up(self) -> None:
        """Start the worker process now, so that the first move of Hard or Expert does not wait for it."""
        self._background.warm_up()

    @property
    def pid(self) -> int | None:
        """The worker process's id while there is one (for the log and for fault-injection tests)."""
        return self._background.pid

    # --- moves ---

    @property
    def busy(self) -> bool:
        return self._job is not None

    def start(self, level: str, view: PlayerView, seed: int, budget: float | None = None) -> None:
        self._job = _Job(level, view, seed, budget, self._clock())
        wanted = level in PROCESS_LEVELS if self._use_process is None else self._use_process
        self._background.start(
            answer_of, (level, view, seed, budget), in_thread=not wanted, limit=self._limit(level, budget)
        )

    def result(self) -> Move | None:
        """The move once it is ready (then the worker is free again); None while the bot thinks.

        A move that cannot come (the process died or the move hung) is replaced by the best-scoring
        move, and `incidents` says what happened."""
        job = self._job
        if job is None:
            return None
        state = self._background.poll()
        if state is None or isinstance(state, Running):
            return None
        self._job = None
        if isinstance(state, Done):
            move, failure = state.value
            if failure:  # the bot failed and the greedy move stands in: the game's log has the traceback
                log.error("in the %s bot's worker, %s", job.level, failure)
            return move
        return self._fallback(job, state)

    def _fallback(self, job: _Job, failed: Failed) -> Move:
        """The best-scoring move instead, and the player told (a hung or dead process is replaced)."""
        if failed.trouble is Trouble.SILENT:
            what = f"took far too long to think ({self._clock() - job.started:.0f} s)"
        elif failed.trouble is Trouble.DIED:
            what = f"lost its thinking process, which {failed.words}"
        else:
            what = "failed while thinking"
            if failed.words.startswith(MemoryError.__name__):  # the machine's, not a bug: no traceback
                log.error("the %s bot ran out of memory", job.level)
            else:
                log.error("the %s bot failed in its worker: %s", job.level, failed.details or failed.words)
        replaced = "a fresh one takes over" if self._background.in_process else "it is left behind"
        log.warning("the %s bot %s; playing the best-scoring move instead (%s)", job.level, what, replaced)
        self.incidents.append(f"The {job.level.capitalize()} bot {what}; it played the best-scoring move instead.")
        return greedy_move(job.view, random.Random(job.seed))

    def cancel(self) -> None:
        """Forget the move being thought about (a new game, undo); a busy process is replaced."""
        self._job = None
        self._background.cancel()

    def close(self) -> None:
        """End the worker at once, whatever it is doing (quitting never waits for a bot)."""
        self._job = None
        self._background.close()
