"""The Expert's evaluation of the candidate plays, run beside the window as a `Background` job so that its
frames keep their pace: in a process of its own (spawned, standing lower than the window), or in a thread
where processes cannot be started. The scene starts one evaluation, polls `progress()` and `result()`,
and may `cancel()` it.

No pygame here: the process imports only this module, the rules and the bots.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.background import Background, Done, Failed, Running, State, Trouble
from cribtiles.bot.coach import Suggestion, expert_evaluate
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


class CoachWorker:
    """One evaluation at a time: `start`, poll `progress` and `result`, `cancel`, `close`.

    `use_process`: False runs it in a thread (tests, and where processes cannot be started)."""

    def __init__(self, use_process: bool = True) -> None:
        self._background: Background[list[Suggestion]] = Background(
            "cribtiles-coach", use_process=use_process, nice=NICENESS
        )
        self.failure = ""  # why the last evaluation gave no answer, in words ("" when it did)

    @property
    def busy(self) -> bool:
        return isinstance(self._read(), Running)

    def start(self, view: PlayerView, suggestions: Sequence[Suggestion], budget: float, seed: int) -> None:
        """Evaluate `suggestions` (any evaluation under way is dropped)."""
        self.failure = ""
        self._background.start(evaluate, (Job(view, tuple(suggestions), budget, seed),), reports=True)

    def _read(self) -> State[list[Suggestion]]:
        state = self._background.poll()
        if isinstance(state, Failed) and not self.failure:  # told to the window, which carries on without it
            if state.trouble is Trouble.RAISED:
                self.failure = state.words
                log.error("the coach's evaluation failed: %s", state.details or state.words)
            else:
                self.failure = "the coach's process ended without an answer"
                log.warning("%s (it %s)", self.failure, state.words)
        return state

    def progress(self) -> tuple[int, int]:
        """The rollouts done and the rollouts likely in all (an estimate that settles as they run)."""
        self._read()
        return self._background.progress.done, self._background.progress.total

    def result(self) -> list[Suggestion] | None:
        """The evaluated suggestions once they are ready (best first by the Expert), else None."""
        state = self._read()
        return list(state.value) if isinstance(state, Done) else None

    def cancel(self) -> None:
        """Drop the evaluation under way (a process is ended at once; a thread's answer is ignored)."""
        self._background.cancel()

    def close(self) -> None:
        self._background.close()
