"""How things move in both games' windows: the timings they share and the one easing curve.

Seconds at normal speed; the speed setting multiplies them (`pace`: 0 when animations are off). To make
the pegs slower in both games, raise PEG here; each scene keeps only the timings of its own moments
(a tile's flight, a bot's pause).
"""

from __future__ import annotations

#: A tile or card easing to where it rests: each GLIDE / 4 seconds it closes most of the way left.
GLIDE = 0.22
#: A peg's jump to its new hole.
PEG = 0.7


def ease_out(t: float) -> float:
    """Fast at first, gently to rest (cubic): 0 at t = 0, 1 at t = 1."""
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def glide_share(dt: float, pace: float) -> float:
    """The share of its remaining way that a gliding piece covers in `dt` seconds (all of it when
    animations are off)."""
    if pace <= 0:
        return 1.0
    return min(1.0, dt / max(1e-6, GLIDE * pace / 4))
