"""What moves on its own at the table, on the scene's clock: another seat's tiles flying to the board,
the pegs, a play's breakdown read out row by row, and the messages that come and go.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from cribtiles.rules.game import Outcome
from cribtiles.rules.moves import Move, Play
from cribtiles.table.tiles.history import TurnRecord
from cribtiles.table.tiles.privacy import visible
from cribtiles.table.tiles.public import PublicState

from ..geometry import Point
from ..motion import PEG
from ..pegs import Pegs
from .game_host import Stage
from .snapshot import Breakdown, Flight, PegView

#: Seconds of this game's own animations at normal speed (the speed setting multiplies them); the
#: glide and the pegs are both games' (`motion`).
FLY = 0.55
FLY_STAGGER = 0.14
ROW_REVEAL = 0.09  # each row of a score breakdown
TOAST = 3.0


def peg_marks(state: PublicState) -> list[tuple[int, int]]:
    """Each player's pegs in `state`: (their score, their score before their last scoring)."""
    running = [0] * state.players
    previous = [0] * state.players
    for t in state.turns:
        if t.points:
            previous[t.player] = running[t.player]
            running[t.player] += t.points
    return [(state.scores[p], previous[p]) for p in range(state.players)]


@dataclass
class Toast:
    text: str
    until: float
    seat: int | None = None  # for that seat's eyes only (shown while its rack is uncovered), or everyone's


class Animations:
    """The flights of a move on its way (`pending` lands when they end), the pegs, the breakdown shown
    and the messages."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.flights: list[Flight] = []
        self.pending: Move | None = None  # another seat's move while its tiles fly
        self.pegs: list[Pegs] = []
        self.breakdown: Breakdown | None = None
        self.toasts: list[Toast] = []
        self.racks_counted = False  # the end: the pegs stand at the final scores

    @property
    def busy(self) -> bool:
        """Something is on its way (another seat's tiles flying)."""
        return bool(self.flights) or self.pending is not None

    def toast(self, text: str, seconds: float = TOAST, seat: int | None = None) -> None:
        """A message for everyone, or for `seat`'s eyes only."""
        self.toasts.append(Toast(text, self.stage.now + seconds, seat))

    def shown_toasts(self, uncovered: int | None) -> tuple[str, ...]:
        return tuple(t.text for t in self.toasts if visible(t.seat, uncovered))

    def set_pegs(self) -> None:
        """The pegs where the game stands (the back peg: each player's score before their last scoring)."""
        state = self.stage.state
        self.pegs = [Pegs() for _ in range(state.players)]
        for peg, (score, previous) in zip(self.pegs, peg_marks(state), strict=True):
            peg.set(score, previous)

    def explain_last(self) -> None:
        """The breakdown of the last play of the round (a resumed game, a play taken back), or none."""
        plays = [r for r in self.stage.session.history if r.score is not None]
        last = plays[-1] if plays else None
        self.breakdown = None
        if last is not None and last.score is not None:
            seen = self.stage.session.seen(last)
            self.breakdown = Breakdown(last.player, last.score, number=last.number, seen=seen)

    def score(self, record: TurnRecord) -> float:
        """A play's breakdown, read out row by row, then its pegs move by the points declared; the
        seconds until the breakdown is read (when the calls on it are told)."""
        from .breakdown import breakdown_rows

        assert record.score is not None
        seen = self.stage.session.seen(record)
        self.breakdown = Breakdown(record.player, record.score, self.stage.now, record.number, seen)
        rows = 3 if seen is not None and seen.hidden else breakdown_rows(record.score)
        self.pegs[record.player].score(record.declared, wait=self.stage.anim(ROW_REVEAL) * rows)
        return self.stage.anim(ROW_REVEAL) * (rows + 2)

    def see_again(self) -> None:
        """The breakdown shown follows what the table lets be seen of it: once its play's call window
        closes, the true breakdown is read out afresh."""
        b = self.breakdown
        history = self.stage.session.history
        if b is None or b.number is None or not 0 <= b.number < len(history):
            return
        seen = self.stage.session.seen(history[b.number])
        if b.seen is None or seen is None:
            return
        if (seen.hidden, len(seen.calls)) != (b.seen.hidden, len(b.seen.calls)):
            reread = b.seen.hidden and not seen.hidden
            self.breakdown = replace(b, seen=seen, shown_at=self.stage.now if reread else b.shown_at)

    def fly(self, move: Play, starts: Sequence[Point], fallback: Point) -> None:
        """`move`'s tiles fly from `starts` (where the mover's tiles are drawn) to their squares."""
        now, stage = self.stage.now, self.stage
        for k, p in enumerate(move.placements):
            start = starts[k % len(starts)] if starts else fallback
            self.flights.append(Flight(p.tile, start, p.square, now + k * stage.anim(FLY_STAGGER), stage.anim(FLY)))
        self.pending = move

    def landed(self) -> Move | None:
        """The move whose flights have all ended (then no longer pending), or None."""
        if not self.flights or any(self.stage.now < f.t0 + f.duration for f in self.flights):
            return None
        self.flights = []
        move, self.pending = self.pending, None
        return move

    def taken_back(self) -> None:
        """A turn was taken back: nothing is on its way any more, the pegs and the breakdown are those
        of the game as it stands again."""
        self.flights, self.pending = [], None
        self.racks_counted = False
        self.set_pegs()
        self.explain_last()

    def advance(self, dt: float) -> None:
        """A frame: messages whose time is up go, the pegs move on."""
        self.toasts = [t for t in self.toasts if t.until > self.stage.now]
        for peg in self.pegs:
            peg.advance(dt, self.stage.anim(PEG))

    def count_racks(self, outcome: Outcome | None) -> None:
        """The end of the round, once the racks are counted off: each front peg goes back by what was
        left on its rack, to the final score (its other peg marks the score before)."""
        if outcome is None or self.racks_counted:
            return
        self.racks_counted = True
        for peg, left in zip(self.pegs, outcome.deductions, strict=True):
            peg.deduct(left)

    def rows_shown(self, pace: float) -> int | None:
        """How many rows of the breakdown are shown so far (None: all of them)."""
        b = self.breakdown
        if b is None or pace <= 0:
            return None
        return int((self.stage.now - b.shown_at) / self.stage.anim(ROW_REVEAL)) + 1

    def peg_views(self) -> tuple[PegView, ...]:
        return tuple(PegView(p.back, p.shown_score, p.moving, p.wait > 0) for p in self.pegs)

    def still(self) -> bool:
        """No peg is moving."""
        return not any(p.moving for p in self.pegs)
