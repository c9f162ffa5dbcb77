"""Where everything sits in the window, for any window size from 960 x 640 up: pure arithmetic.

`Layout.of(w, h)` places the board, the rack, the side panel (opponents, peg board, score breakdown)
and the buttons; `square_at` and `rack_slot_at` answer which square or slot lies under a point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cribtiles.rules.board import SIZE, Square

MIN_WIDTH, MIN_HEIGHT = 960, 640
#: The largest window side anyone may ask for (`--size`), and the screen assumed when there is none
#: to measure (headless drivers): beyond these a frame's surfaces take gigabytes.
MAX_SIDE = 16384
_SIZE = re.compile(r"\s*([0-9]{1,6})\s*[x×]\s*([0-9]{1,6})\s*", re.IGNORECASE)  # ASCII digits: not '²'


def window_size(text: str | None) -> tuple[int, int] | None:
    """The window size asked for with `--size`, like 1280x800 (None: not given); a ValueError in words
    otherwise, an empty one included.

    >>> window_size("1280x800"), window_size(None)
    ((1280, 800), None)
    """
    if text is None:  # an empty --size is refused below, not taken as none given
        return None
    shown = text if len(text) <= 20 else text[:19] + "…"
    m = _SIZE.fullmatch(text)
    if m is None:
        raise ValueError(f"--size {shown!r}: write the width and height in pixels, like 1280x800")
    w, h = int(m[1]), int(m[2])
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise ValueError(
            f"--size {shown}: a window can be 1 to {MAX_SIDE} pixels on a side (it opens no larger than the screen)"
        )
    return w, h


HEADLESS_SCREEN = (3840, 2400)
RACK_SLOTS = 5

Rect = tuple[int, int, int, int]  # x, y, width, height
Point = tuple[float, float]

BUTTONS = ("play", "pass", "exchange", "recall", "shuffle")


def contains(rect: Rect, point: Point) -> bool:
    x, y, w, h = rect
    return x <= point[0] < x + w and y <= point[1] < y + h


def fit_window(requested: tuple[int, int], screen: tuple[int, int]) -> tuple[int, int]:
    """The window size to open for `requested` on a `screen`: no larger than the screen, no smaller
    than the table can be read at (unless the screen itself is smaller).

    >>> fit_window((99999, 99999), (1920, 1080)), fit_window((100, 30000), (1920, 1080))
    ((1920, 1080), (960, 1080))
    >>> fit_window((1280, 800), (1920, 1080)), fit_window((1280, 800), (800, 600))
    ((1280, 800), (800, 600))
    """
    sw, sh = max(1, screen[0]), max(1, screen[1])
    w = min(max(requested[0], MIN_WIDTH), sw)
    h = min(max(requested[1], MIN_HEIGHT), sh)
    return w, h


def _moved(rect: Rect, dx: int) -> Rect:
    return rect[0] + dx, rect[1], rect[2], rect[3]


def centre(rect: Rect) -> tuple[int, int]:
    return rect[0] + rect[2] // 2, rect[1] + rect[3] // 2


@dataclass(frozen=True)
class Layout:
    """Every rectangle of the table at one window size (pixels, integers, top-left origin)."""

    width: int
    height: int
    margin: int
    cell: int  # the side of one board square
    board: Rect  # the whole wooden board, frame included
    grid: Rect  # the 13 x 13 squares
    rack: Rect  # the wooden rack that holds the player's tiles
    rack_tile: int  # the side of a tile on the rack
    panel: Rect  # the side panel
    opponents: Rect  # names, scores and tile backs of the other players
    pegboard: Rect
    status: Rect  # whose turn, bag count
    info: Rect  # live preview, score breakdown
    buttons: dict[str, Rect]
    rules_line: Rect = (0, 0, 0, 0)  # the rules in force (and a match's round and totals), under the status

    @classmethod
    def of(cls, width: int, height: int) -> Layout:
        """The layout of a window `width` x `height` (smaller windows are laid out as 960 x 640)."""
        w, h = max(width, MIN_WIDTH), max(height, MIN_HEIGHT)
        margin = max(10, round(min(w, h) * 0.02))
        # the board is 14.2 cells wide and high (a 0.6-cell frame on each side); the rack 1.8 cells
        side_min = max(340, round(w * 0.3))
        cell = int(min((h - 2.5 * margin) / 16.0, (w - 3 * margin - side_min) / 14.2))
        frame = round(cell * 0.6)
        board_side = SIZE * cell + 2 * frame
        bx = margin
        by = margin
        board = (bx, by, board_side, board_side)
        grid = (bx + frame, by + frame, SIZE * cell, SIZE * cell)
        rack_tile = round(cell * 1.2)
        gap = max(4, cell // 6)
        rack_w = RACK_SLOTS * rack_tile + (RACK_SLOTS + 1) * gap + 2 * gap
        rack_h = rack_tile + 2 * gap + gap // 2
        rack_y = by + board_side + max(margin // 2, min(margin, (h - margin - (by + board_side) - rack_h) // 2))
        rack = (bx + (board_side - rack_w) // 2, rack_y, rack_w, rack_h)
        # buttons beside the rack: shuffle to its left, recall to its right
        bh = min(rack_h - gap, max(34, cell))
        bw = min((board_side - rack_w) // 2 - 2 * gap, 3 * cell)
        by_b = rack_y + (rack_h - bh) // 2
        buttons = {
            "shuffle": (rack[0] - gap * 2 - bw, by_b, bw, bh),
            "recall": (rack[0] + rack_w + gap * 2, by_b, bw, bh),
        }
        px = bx + board_side + margin
        pw = min(w - px - margin, max(side_min, round(board_side * 0.85)))
        spare = w - (px + pw + margin)  # a very wide window: centre the table, keep the panel readable
        if spare > 0:
            shift = spare // 2
            board, grid = _moved(board, shift), _moved(grid, shift)
            rack = _moved(rack, shift)
            buttons = {k: _moved(r, shift) for k, r in buttons.items()}
            px += shift
        panel = (px, margin, pw, h - 2 * margin)
        inner = max(8, margin // 2 + 4)
        x0, iw = px + inner, pw - 2 * inner
        y = margin + inner
        line = max(18, round(h * 0.028))
        opponents = (x0, y, iw, round(line * 3.0))
        y += opponents[3] + inner
        pegboard = (x0, y, iw, round(line * 6.4))
        y += pegboard[3] + inner
        status = (x0, y, iw, round(line * 1.45))
        y += status[3]
        rules_line = (x0, y, iw, round(line * 1.5))  # two small lines: a match's round and totals, the rules
        y += rules_line[3] + inner // 2
        big = max(40, round(line * 2.1))
        small = max(34, round(line * 1.7))
        bottom = margin + panel[3] - inner
        row2 = bottom - small
        row1 = row2 - inner // 2 - big
        half = (iw - inner) // 2
        buttons["play"] = (x0, row1, iw, big)
        buttons["pass"] = (x0, row2, half, small)
        buttons["exchange"] = (x0 + iw - half, row2, half, small)
        info = (x0, y, iw, row1 - inner - y)
        parts = (board, grid, rack, rack_tile, panel, opponents, pegboard, status, info, buttons, rules_line)
        return cls(w, h, margin, cell, *parts)

    # --- the board ---

    def square_rect(self, square: Square) -> Rect:
        gx, gy, _, _ = self.grid
        return gx + square.col * self.cell, gy + square.row * self.cell, self.cell, self.cell

    def tile_rect(self, square: Square) -> Rect:
        """Where a tile lies on a square: inset so the square's recess shows around it."""
        x, y, c, _ = self.square_rect(square)
        inset = max(1, c // 16)
        return x + inset, y + inset, c - 2 * inset, c - 2 * inset

    def square_at(self, point: Point) -> Square | None:
        """The square under a point, or None off the grid."""
        gx, gy, gw, gh = self.grid
        x, y = point
        if not (gx <= x < gx + gw and gy <= y < gy + gh):
            return None
        return Square(int((y - gy) // self.cell), int((x - gx) // self.cell))

    def nearest_square(self, point: Point, slack: float = 0.5) -> Square | None:
        """The square under a point, allowing a dropped tile's centre to land up to `slack` cells
        outside the grid (it snaps to the edge square)."""
        gx, gy, gw, gh = self.grid
        x, y = point
        s = slack * self.cell
        if not (gx - s <= x < gx + gw + s and gy - s <= y < gy + gh + s):
            return None
        col = min(SIZE - 1, max(0, int((x - gx) // self.cell)))
        row = min(SIZE - 1, max(0, int((y - gy) // self.cell)))
        return Square(row, col)

    # --- the rack ---

    @property
    def rack_gap(self) -> int:
        return (self.rack[2] - RACK_SLOTS * self.rack_tile) // (RACK_SLOTS + 3)

    def slot_rect(self, index: int) -> Rect:
        """The rectangle of rack slot `index` (0 = leftmost)."""
        g = self.rack_gap
        x0 = self.rack[0] + 2 * g
        y0 = self.rack[1] + g
        return x0 + index * (self.rack_tile + g), y0, self.rack_tile, self.rack_tile

    def rack_slot_at(self, point: Point) -> int | None:
        """The slot under a point (the gaps between tiles belong to the nearer slot), or None."""
        rx, ry, rw, rh = self.rack
        pad = self.rack_tile // 3
        if not (rx - pad <= point[0] < rx + rw + pad and ry - pad <= point[1] < ry + rh + pad):
            return None
        g = self.rack_gap
        x0 = rx + 2 * g
        i = int((point[0] - x0 + g / 2) // (self.rack_tile + g))
        return min(RACK_SLOTS - 1, max(0, i))

    def button_at(self, point: Point) -> str | None:
        for name, rect in self.buttons.items():
            if contains(rect, point):
                return name
        return None
