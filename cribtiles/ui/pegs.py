"""The cribbage peg board's model: two pegs a player that leapfrog, laps, and where each hole is.

Pure code: `Pegs` says which hole each peg is in (and where the moving peg is on its way);
`hole_position` maps a hole on a player's track to a point inside the track's rectangle.
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Rect
from .motion import ease_out

HOLES_PER_ROW = 30
LAP = 2 * HOLES_PER_ROW  # out along the top row, back along the bottom one


def lap_and_hole(score: int) -> tuple[int, int]:
    """Score -> (laps completed, hole 0..LAP); hole 0 is the start, negative scores stay there."""
    if score <= 0:
        return 0, 0
    lap, hole = divmod(score, LAP)
    if hole == 0:  # exactly at the end of a lap: the last hole, not back at the start
        return lap - 1, LAP
    return lap, hole


def hole_position(track: Rect, hole: int) -> tuple[float, float]:
    """The centre of `hole` (0 = the start hole, left of the top row) within a track rectangle."""
    x, y, w, h = track
    start_w = w * 0.06
    pitch = (w - start_w) / HOLES_PER_ROW
    top, bottom = y + h * 0.28, y + h * 0.72
    if hole <= 0:
        return x + start_w * 0.45, (top + bottom) / 2
    if hole <= HOLES_PER_ROW:
        return x + start_w + pitch * (hole - 0.5), top
    back = hole - HOLES_PER_ROW  # 1..30, right to left on the bottom row
    return x + start_w + pitch * (HOLES_PER_ROW - back + 0.5), bottom


@dataclass
class Pegs:
    """One player's two pegs: `front` at the score, `back` at the score before the last scoring."""

    front: int = 0
    back: int = 0
    moving_from: int = 0  # the hole the moving peg left (animation)
    progress: float = 1.0  # 0..1 along its way; 1 when still
    wait: float = 0.0  # seconds before the moving peg sets off (the breakdown is read first)

    def score(self, points: int, wait: float = 0.0) -> None:
        """The back peg jumps ahead of the front by `points` (it becomes the new front), setting
        off after `wait` seconds."""
        if points == 0:
            return
        self.moving_from = self.back
        self.back, self.front = self.front, self.front + points
        self.progress = 0.0
        self.wait = wait

    def deduct(self, points: int) -> None:
        """The front peg goes back by `points` (the tiles left on a rack at the end); the other peg
        stays where the front one stood."""
        if points == 0:
            return
        self.moving_from = self.back = self.front
        self.front -= points
        self.progress = 0.0
        self.wait = 0.0

    def set(self, score: int, previous: int | None = None) -> None:
        """Place the pegs without animation (a resumed game)."""
        self.front = score
        self.back = score if previous is None else previous
        self.moving_from = self.back
        self.progress = 1.0
        self.wait = 0.0

    def advance(self, dt: float, duration: float) -> None:
        if self.wait > 0:
            self.wait -= dt
            return
        self.progress = 1.0 if duration <= 0 else min(1.0, self.progress + dt / duration)

    @property
    def shown_score(self) -> float:
        """The moving peg's score along its way (for drawing it between holes)."""
        return self.moving_from + (self.front - self.moving_from) * ease_out(self.progress)

    @property
    def moving(self) -> bool:
        return self.progress < 1.0
