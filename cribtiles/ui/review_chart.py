"""The chart of a game review: each player's score after every turn, one line per player in the player's
colour, drawn on a surface of its own (shown in the window, and saved as a PNG as it is).

`Series` is what is charted (pure values); `ticks` and `turn_at` are the chart's arithmetic, tested
without a window; `chart_surface` draws it.
"""

from __future__ import annotations

import io
import itertools
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import pygame

from . import art
from .geometry import Rect
from .paint import CREAM, DIM, GOLD

FIELD = (34, 22, 14)  # the chart's ground: the dark wood of the examples' fields, opaque
GRID = (70, 52, 36)
ROUND_LINE = (120, 96, 70)
#: The size a saved chart is drawn at, whatever the window's size.
EXPORT_SIZE = (1200, 675)


@dataclass(frozen=True)
class Series:
    """The scores to chart: `scores[p][k]` is player p's score after turn k (k = 0 before any turn);
    `round_starts` are the turn counts at which a new round of a match began."""

    names: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    round_starts: tuple[int, ...] = ()
    finals: tuple[int, ...] = ()  # what the legend says for each player (else the last score charted)
    unit: str = "turns"  # what the steps along the bottom are

    @property
    def turns(self) -> int:
        return max((len(s) for s in self.scores), default=1) - 1

    @staticmethod
    def of(
        names: Sequence[str],
        after_each: Sequence[Sequence[int]],
        round_starts: Sequence[int] = (),
        finals: Sequence[int] = (),
        unit: str = "turns",
    ) -> Series:
        """From each turn's scores (`after_each[k][p]`: player p's score after turn k+1), a 0 first.

        >>> Series.of(("Ann", "Bo"), ((5, 0), (5, 12))).scores
        ((0, 5, 5), (0, 0, 12))
        """
        n = len(names)
        scores = tuple((0, *(row[p] for row in after_each)) for p in range(n))
        return Series(tuple(names), scores, tuple(round_starts), tuple(finals), unit)

    def segments(self, player: int) -> list[list[tuple[int, int]]]:
        """A player's line as (turn, score) points, one piece per round: each round starts again at 0.

        >>> Series(("Ann",), ((0, 5, 9, 4, 6),), (2,)).segments(0)
        [[(0, 0), (1, 5), (2, 9)], [(2, 0), (3, 4), (4, 6)]]
        """
        scores = self.scores[player]
        edges = (0, *self.round_starts, len(scores) - 1)
        pieces = []
        for a, b in itertools.pairwise(edges):
            pieces.append([(a, 0 if a else scores[0])] + [(k, scores[k]) for k in range(a + 1, b + 1)])
        return pieces

    def legend_score(self, player: int) -> int:
        if player < len(self.finals):
            return self.finals[player]
        return self.scores[player][-1] if self.scores[player] else 0


def ticks(low: int, high: int, most: int = 6) -> tuple[int, ...]:
    """Round numbers for the score axis from below `low` to above `high`, at most about `most` of them.

    >>> ticks(0, 112)
    (0, 20, 40, 60, 80, 100, 120)
    >>> ticks(-7, 30)
    (-10, 0, 10, 20, 30)
    >>> ticks(0, 0)
    (0, 1)
    """
    span = max(1, high - low)
    raw = span / max(1, most)
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next((m * power for m in (1, 2, 5, 10) if m * power >= raw), 10 * power)
    step = max(1, int(step))
    first = math.floor(low / step) * step
    last = max(first + step, math.ceil(high / step) * step)
    return tuple(range(first, last + 1, step))


@dataclass(frozen=True)
class Plot:
    """Where the chart's field lies on its surface and what it spans."""

    field: Rect
    turns: int
    low: int
    high: int

    def x(self, turn: float) -> float:
        fx, _, fw, _ = self.field
        return fx + fw * turn / max(1, self.turns)

    def y(self, score: float) -> float:
        _, fy, _, fh = self.field
        return fy + fh - fh * (score - self.low) / max(1, self.high - self.low)


def plot_of(series: Series, size: tuple[int, int], text: int) -> Plot:
    """The field of a chart of `size` with words of `text` pixels: room left for the score axis's
    numbers, below for the turns, above for the legend."""
    w, h = size
    values = [v for s in series.scores for v in s] or [0]
    marks = ticks(min(0, min(values)), max(values))
    label_w = max(art.font(text).size(str(m))[0] for m in marks)
    left = label_w + round(text * 0.9)
    top = round(text * 2.0)
    bottom = round(text * 1.9)
    right = round(text * 0.9)
    field = (left, top, max(10, w - left - right), max(10, h - top - bottom))
    return Plot(field, max(1, series.turns), marks[0], marks[-1])


def turn_at(plot: Plot, x: float) -> int:
    """The turn (1 .. turns) whose point lies nearest `x` on the chart's surface.

    >>> turn_at(Plot((0, 0, 100, 50), 10, 0, 100), 34)
    3
    >>> turn_at(Plot((0, 0, 100, 50), 10, 0, 100), -5)
    1
    """
    fx, _, fw, _ = plot.field
    k = round((x - fx) / max(1, fw) * plot.turns)
    return max(1, min(plot.turns, k))


def chart_surface(
    series: Series, size: tuple[int, int], text: int, selected: int | None = None, title: str = ""
) -> pygame.Surface:
    """The chart drawn at `size` (a cached surface: never changed once drawn); `selected` marks a turn
    (1-based) with a gold upright; `title`, when given, is written at the top (a saved chart's)."""
    return _chart(series, size, text, selected, title)


@lru_cache(maxsize=8)
def _chart(series: Series, size: tuple[int, int], text: int, selected: int | None, title: str) -> pygame.Surface:
    w, h = size
    surf = pygame.Surface((max(1, w), max(1, h)))
    surf.fill(FIELD)
    if title:
        t = art.text(title, text + 2, GOLD)
        surf.blit(t, t.get_rect(midtop=(w // 2, round(text * 0.4))))
        below = round(text * 1.8)
        sub = chart_surface(series, (w, h - below), text, selected)
        surf.blit(sub, (0, below))
        return surf
    plot = plot_of(series, size, text)
    fx, fy, fw, fh = plot.field
    small = max(12, text - 3)
    for mark in ticks(plot.low, plot.high):
        y = round(plot.y(mark))
        pygame.draw.line(surf, GRID if mark else DIM, (fx, y), (fx + fw, y), 1)
        label = art.text(str(mark), small, DIM)
        surf.blit(label, label.get_rect(midright=(fx - round(text * 0.35), y)))
    every = _turn_step(plot.turns, fw, art.font(small).size("000")[0])
    for k in range(0, plot.turns + 1, every):
        x = round(plot.x(k))
        pygame.draw.line(surf, DIM, (x, fy + fh), (x, fy + fh + 4), 1)
        label = art.text(str(k), small, DIM)
        surf.blit(label, label.get_rect(midtop=(x, fy + fh + 5)))
    turns = art.text(series.unit, small, DIM)
    surf.blit(turns, turns.get_rect(bottomright=(fx + fw, h - 1)))
    for n, start in enumerate(series.round_starts):
        x = round(plot.x(start))
        _dashed(surf, ROUND_LINE, (x, fy), (x, fy + fh))
        label = art.text(f"round {n + 2}", small, DIM)
        surf.blit(label, (x + 4, fy + 2))
    if selected is not None and 0 < selected <= plot.turns:
        x = round(plot.x(selected))
        pygame.draw.line(surf, GOLD, (x, fy), (x, fy + fh), 2)
    width = max(2, text // 9)
    for p, scores in enumerate(series.scores):
        colour = art.PLAYER_COLOURS[p % len(art.PLAYER_COLOURS)]
        for piece in series.segments(p):
            points = [(plot.x(k), plot.y(v)) for k, v in piece]
            if len(points) > 1:
                pygame.draw.lines(surf, colour, False, points, width)
        if selected is not None and 0 < selected < len(scores):
            at = (plot.x(selected), plot.y(scores[selected]))
            pygame.draw.circle(surf, colour, at, width + 3)
            pygame.draw.circle(surf, CREAM, at, width + 3, 1)
    _legend(surf, series, (fx, 0, fw, fy), text)
    return surf


def _turn_step(turns: int, width: int, label: int) -> int:
    """Every how many turns a number fits under the axis."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if turns / step * (label + 6) <= width:
            return step
    return max(1, turns // 4)


def _dashed(surf: pygame.Surface, colour: tuple[int, int, int], a: tuple[int, int], b: tuple[int, int]) -> None:
    x, y0 = a
    _, y1 = b
    for y in range(y0, y1, 8):
        pygame.draw.line(surf, colour, (x, y), (x, min(y1, y + 4)), 1)


def _legend(surf: pygame.Surface, series: Series, box: Rect, text: int) -> None:
    """Each player's colour, name and last score, left to right above the field."""
    x, y, w, h = box
    size = max(10, text - 2)
    cy = y + h // 2
    for p, name in enumerate(series.names):
        colour = art.PLAYER_COLOURS[p % len(art.PLAYER_COLOURS)]
        words = f"{art.clip(name, 20)} {series.legend_score(p)}"
        label = art.text(words, size, CREAM)
        swatch = round(size * 1.2)
        if x + swatch + 6 + label.get_width() > box[0] + w:
            break
        pygame.draw.line(surf, colour, (x, cy), (x + swatch, cy), max(3, text // 7))
        surf.blit(label, label.get_rect(midleft=(x + swatch + 6, cy)))
        x += swatch + 6 + label.get_width() + round(size * 1.2)


def save_chart(series: Series, path: str, title: str) -> None:
    """The chart drawn at EXPORT_SIZE, with its title, written to `path` as a PNG (raises what
    pygame raises when the file cannot be written). `path` must be a new name: a file, or a link
    planted there, is never written over nor through (FileExistsError)."""
    png = io.BytesIO()
    pygame.image.save(chart_surface(series, EXPORT_SIZE, 22, None, title), png, "chart.png")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    with open(os.open(path, flags, 0o644), "wb") as f:
        f.write(png.getvalue())
