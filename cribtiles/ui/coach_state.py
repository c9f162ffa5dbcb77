"""The coach at the table, as the scene keeps it: the hint shown, the exchange advice, the candidate
plays with the Expert's evaluation running beside the window, and which positions a hint was already
counted for (asking again in the same position, or for the candidates after the hint, is one hint).

No pygame here: the scene asks, this answers from `cribtiles.bot.coach`; drawing reads the snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from cribtiles.bot.coach import ExchangeAdvice, Suggestion, candidates, exchange_advice, hint
from cribtiles.rules.game import PlayerView
from cribtiles.table.tiles.session import Session

from .coach_worker import EXPERT_BUDGET, CoachWorker

#: How many candidate plays the panel lists (and the Expert plays out).
TOP = 8

Position = tuple[int, int]  # the round, and the turns made in it


def position_of(table: Session) -> Position:
    return table.match.round, len(table.state.turns)


class CountsHints(Protocol):
    """A table that counts the hints asked in its game (either game's session)."""

    @property
    def hints(self) -> int: ...


def refusal(table: CountsHints, hints_on: bool, limit: int, counted: bool) -> str:
    """Why the coach may not help now, in words ("" when it may): hints off in the settings, or the
    game's hints used up (asking again where a hint was counted costs nothing)."""
    if not hints_on:
        return "Hints are off in the settings (Esc, then Settings)."
    if limit and table.hints >= limit and not counted:
        return f"You have used this game's {limit} hint{'s' if limit != 1 else ''} (the limit is in the settings)."
    return ""


@dataclass
class TableCoach:
    """What the coach shows at one table, and the worker that runs the Expert for it."""

    worker: CoachWorker = field(default_factory=CoachWorker)
    budget: float = EXPERT_BUDGET
    hint: Suggestion | None = None  # ghosted on the board, explained in the panel
    advice: ExchangeAdvice | None = None  # which tiles to throw back, shown with the exchange
    candidates: list[Suggestion] | None = None  # the candidate panel is open when not None
    chosen: int | None = None  # the candidate laid on the board
    expert_ran: bool = False
    failure: str = ""  # why the Expert's evaluation gave no answer
    counted: set[Position] = field(default_factory=set)
    position: Position | None = None  # what is shown is for this position
    seat: int | None = None  # whose rack the hint, the advice and the best plays are for (theirs only to see)

    @property
    def showing(self) -> bool:
        """Something of the coach's is shown that Escape would put away."""
        return self.hint is not None or self.advice is not None or self.candidates is not None

    def refusal(self, table: Session, hints_on: bool, limit: int) -> str:
        return refusal(table, hints_on, limit, position_of(table) in self.counted)

    def count(self, table: Session) -> None:
        """Count one hint for this position, once."""
        here = position_of(table)
        if here not in self.counted:
            table.count_hint()  # first: a table elsewhere that cannot count it gives no hint
            self.counted.add(here)
        self.position = here

    def dismiss(self) -> None:
        """Put away the hint and the advice (the candidate panel stays open)."""
        self.hint, self.advice = None, None

    def clear(self) -> None:
        """Put everything away and stop the Expert (the position changed, a new turn)."""
        self.dismiss()
        self.close_candidates()
        self.position, self.seat = None, None

    def close_candidates(self) -> None:
        self.candidates, self.chosen, self.expert_ran, self.failure = None, None, False, ""
        self.worker.cancel()

    def ask_hint(self, table: Session, view: PlayerView) -> Suggestion | ExchangeAdvice | None:
        """The hint for this position (Hard's choice), or the exchange advice when there is no play;
        counted as one hint. None when there is neither (no play, and no exchange possible). The
        best plays make way for it (the panel's room is the hint's explanation)."""
        self.dismiss()
        self.close_candidates()
        self.seat = view.player
        found = hint(view)
        if found is None:
            self.advice = exchange_advice(view)
            if self.advice is not None:
                self.count(table)
            return self.advice
        self.hint = found
        self.count(table)
        return found

    def ask_advice(self, table: Session, view: PlayerView) -> ExchangeAdvice | None:
        """Which tiles to throw back (the exchange is open); counted as one hint."""
        self.dismiss()
        self.seat = view.player
        self.advice = exchange_advice(view)
        if self.advice is not None:
            self.count(table)
        return self.advice

    def open_candidates(self, table: Session, view: PlayerView, seed: int) -> list[Suggestion]:
        """The top plays for the rack, counted as one hint; the Expert starts evaluating them."""
        self.candidates = candidates(view, TOP)
        self.seat = view.player
        self.chosen, self.expert_ran, self.failure = None, False, ""
        self.count(table)
        if self.candidates:
            self.worker.start(view, self.candidates, self.budget, seed)
        return self.candidates

    def poll(self) -> None:
        """Take the Expert's answer when it comes: the candidates, now best first by its evaluation."""
        if self.candidates is None or self.expert_ran or not self.candidates:
            return
        answer = self.worker.result()
        if answer is not None:
            chosen = self.candidates[self.chosen].move if self.chosen is not None else None
            self.candidates = answer
            self.chosen = next((i for i, s in enumerate(answer) if s.move == chosen), None)
            self.expert_ran = True
        elif self.worker.failure:
            self.failure = self.worker.failure
            self.expert_ran = True

    def progress(self) -> tuple[int, int] | None:
        """The Expert's rollouts (done, likely in all) while it runs; None when it is not running."""
        if self.candidates is None or self.expert_ran or not self.candidates:
            return None
        return self.worker.progress()
