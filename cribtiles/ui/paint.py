"""Drawing helpers shared by the tables, their side panels and the end card: the colours, text, tiles,
panels, outlines, badges and wooden buttons, drawn on a surface or onto a frame's `Layer`."""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from cribtiles.rules.board import BLOCKED, COLUMN_LETTERS, Square
from cribtiles.rules.tiles import Colour, Tile

from . import art
from .frame import Layer
from .geometry import Layout, Rect
from .tiles.snapshot import TableSnapshot

GOLD = (255, 214, 102)
RED = (235, 70, 60)
CREAM = (246, 236, 214)
DIM = (190, 178, 158)
PANEL = (18, 30, 24, 150)
#: A button that cannot be pressed now: a dark slot, its edge and its faint words.
DISABLED_FILL, DISABLED_EDGE, DISABLED_TEXT = (18, 30, 24, 150), (88, 96, 84), (118, 122, 108)
SERVANT = (186, 190, 200)  # pewter: the Servant's pegs and badge


Colour3 = tuple[int, int, int]


Target = Layer | pygame.Surface


def draw_rect(
    surf: Target,
    colour: Colour3,
    rect: tuple[float, float, float, float] | pygame.Rect,
    width: int = 0,
    border_radius: int = 0,
) -> None:
    if isinstance(surf, Layer):  # drawn once on a small surface of its own, then blitted like the rest
        r = pygame.Rect(rect)
        if r.w > 0 and r.h > 0:
            surf.blit(_rect_surface(_opaque(colour), r.w, r.h, width, border_radius), r.topleft)
    else:
        pygame.draw.rect(surf, colour, rect, width, border_radius=border_radius)


def draw_circle(surf: Target, colour: Colour3, centre: tuple[float, float], radius: float, width: int = 0) -> None:
    if isinstance(surf, Layer):
        # the circle's own surface, its centre at the same fraction of a pixel as on the window, so
        # that pygame rounds it alike and it covers the same pixels
        room = math.ceil(radius) + 2
        x0, y0 = math.floor(centre[0]) - room, math.floor(centre[1]) - room
        local = (centre[0] - x0, centre[1] - y0)
        surf.blit(_circle_surface(_opaque(colour), local, radius, width, 2 * room + 2), (x0, y0))
    else:
        pygame.draw.circle(surf, colour, centre, radius, width)


def _opaque(colour: Colour3) -> tuple[int, int, int, int]:
    # drawn straight on the window a colour's alpha is ignored: on its own surface it must be whole
    return (colour[0], colour[1], colour[2], 255)


@lru_cache(maxsize=256)
def _rect_surface(colour: tuple[int, int, int, int], w: int, h: int, width: int, radius: int) -> pygame.Surface:
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(layer, colour, (0, 0, w, h), width, border_radius=radius)
    return layer


@lru_cache(maxsize=256)
def _circle_surface(
    colour: tuple[int, int, int, int], centre: tuple[float, float], radius: float, width: int, side: int
) -> pygame.Surface:
    layer = pygame.Surface((side, side), pygame.SRCALPHA)
    pygame.draw.circle(layer, colour, centre, radius, width)
    return layer


def wrap(text: str, size: int, width: int, limit: int = 6 * art.MAX_DRAWN) -> list[str]:
    """`text` broken into lines that fit `width` (cut to `limit` characters first: it may come from a file)."""
    words, lines, cur = art.clip(text, limit).split(), [], ""
    f = art.font(size)
    for w in words:
        trial = f"{cur} {w}".strip()
        if f.size(trial)[0] <= width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


def face_of(snap: TableSnapshot, tile: Tile, size: int) -> pygame.Surface:
    """A tile's face at `size`: drawn sharp at the sizes tiles rest at (board square, rack slot);
    in between (a tile growing or shrinking on its way) scaled from the nearest resting size, so
    motion never waits for wood to be drawn."""
    lay = snap.layout
    board_size = lay.tile_rect(Square(0, 0))[2]
    if size in (board_size, lay.rack_tile):
        return art.tile_face(tile, size)
    base = lay.rack_tile if abs(size - lay.rack_tile) < abs(size - board_size) else board_size
    return scaled(art.tile_face(tile, base), size, size)


def back_of(snap: TableSnapshot, size: int) -> pygame.Surface:
    rest = round(snap.layout.cell * 0.8)
    if size == rest:
        return art.tile_back(size)
    return scaled(art.tile_back(rest), size, size)


@lru_cache(maxsize=512)
def scaled(source: pygame.Surface, w: int, h: int) -> pygame.Surface:
    """A cached resize: every surface a frame draws is a lasting object, so that a frame made of
    the same objects in the same places is known to look the same (see `frame.Frame.show`)."""
    return pygame.transform.smoothscale(source, (w, h))


def warm_faces(layout: Layout) -> list[tuple[Tile, int]]:
    """The faces worth drawing ahead of need, at this layout's resting sizes."""
    sizes = (layout.tile_rect(Square(0, 0))[2], layout.rack_tile)
    return [(Tile(r, c), s) for s in sizes for c in (Colour.LIGHT, Colour.DARK) for r in range(1, 14)]


def blit_tile(surf: Target, face: pygame.Surface, x: float, y: float, size: int, lifted: bool = False) -> None:
    shadow, ox, oy = art.tile_shadow(size, lifted)
    surf.blit(shadow, (round(x) + ox, round(y) + oy))
    surf.blit(face, (round(x), round(y)))


def rounded_panel(surf: Target, rect: Rect, colour: tuple[int, int, int, int] = PANEL, radius: int = 10) -> None:
    surf.blit(panel_surface(rect[2], rect[3], colour, radius), rect[:2])


@lru_cache(maxsize=64)
def panel_surface(w: int, h: int, colour: tuple[int, int, int, int], radius: int) -> pygame.Surface:
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(layer, colour, (0, 0, w, h), border_radius=radius)
    return layer


def write(
    surf: Target,
    s: str,
    size: int,
    colour: tuple[int, int, int],
    pos: tuple[float, float],
    anchor: str = "topleft",
) -> Rect:
    t = art.text(s, size, colour)
    r = t.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surf.blit(t, r)
    return (r.x, r.y, r.w, r.h)


def fit_width(s: str, size: int, width: int) -> str:
    """`s`, shortened with an ellipsis until it is at most `width` pixels wide at `size`."""
    s = art.clip(s)
    f = art.font(size)
    while len(s) > 1 and f.size(s)[0] > width:
        s = s[:-2] + "…"
    return s


def tag(
    surf: Target, label: str, size: int, pos: tuple[float, float], colour: Colour3, anchor: str = "midleft"
) -> Rect:
    """A small pill of `colour` with dark words on it (the Servant's badge)."""
    t = art.text(label, size, (34, 24, 16))
    pad = max(3, size // 3)
    w, h = t.get_width() + 2 * pad, t.get_height() + 2
    r = pygame.Rect(0, 0, w, h)
    setattr(r, anchor, (round(pos[0]), round(pos[1])))
    surf.blit(panel_surface(w, h, (*colour, 255), h // 2), r.topleft)
    surf.blit(t, (r.x + pad, r.y + 1))
    return (r.x, r.y, r.w, r.h)


def outline(
    surf: Target, snap: TableSnapshot, squares: tuple[Square, ...], colour: tuple[int, int, int], width: int
) -> Rect:
    rects = [snap.layout.square_rect(s) for s in squares]
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    box = (x0 - 1, y0 - 1, x1 - x0 + 2, y1 - y0 + 2)
    surf.blit(_glow(box[2] + 8, box[3] + 8, colour, width + 4), (box[0] - 4, box[1] - 4))
    draw_rect(surf, colour, box, width, border_radius=6)
    return box


@lru_cache(maxsize=64)
def _glow(w: int, h: int, colour: Colour3, width: int) -> pygame.Surface:
    glow = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(glow, (*colour, 70), (0, 0, w, h), width, border_radius=8)
    return glow


def badge(surf: Target, text: str, centre: tuple[int, int], colour: tuple[int, int, int], size: int) -> None:
    t = art.text(text, size, (30, 20, 10))
    r = max(t.get_width(), t.get_height()) // 2 + 4
    draw_circle(surf, (0, 0, 0), (centre[0] + 1, centre[1] + 2), r)
    draw_circle(surf, colour, centre, r)
    draw_circle(surf, art.shade(colour, 0.6), centre, r, 1)
    surf.blit(t, t.get_rect(center=centre))


def board_grid(
    surf: pygame.Surface, at: tuple[int, int], c: int, area: tuple[int, int, int, int], label: float, names: float
) -> tuple[int, int]:
    """A corner of the board without its tiles: the rows and columns `area` (first and last row, first
    and last column), `c` pixels a square, on wood, with the rows' and columns' names in a margin of
    `label` squares (written `names` of a square high) and the name patch's squares; its top-left square's
    corner, where the tiles go."""
    r0, r1, c0, c1 = area
    vx, vy = at
    margin = round(c * label)
    gx, gy = vx + margin, vy + margin
    cols, rows = c1 - c0 + 1, r1 - r0 + 1
    surf.blit(art.plank(cols * c + 8, rows * c + 8, art.BOARD_WOOD, 7), (gx - 4, gy - 4))
    small = max(10, round(c * names))
    for col in range(c0, c1 + 1):
        write(surf, COLUMN_LETTERS[col], small, DIM, (gx + (col - c0) * c + c / 2, vy + margin / 2), "center")
    for row in range(r0, r1 + 1):
        write(surf, str(row + 1), small, DIM, (vx + margin / 2, gy + (row - r0) * c + c / 2), "center")
    line = art.shade(art.BOARD_WOOD, 0.7)
    for i in range(cols + 1):
        pygame.draw.line(surf, line, (gx + i * c, gy), (gx + i * c, gy + rows * c))
    for i in range(rows + 1):
        pygame.draw.line(surf, line, (gx, gy + i * c), (gx + cols * c, gy + i * c))
    for row in range(r0, r1 + 1):
        for col in range(c0, c1 + 1):
            if Square(row, col) in BLOCKED:
                pygame.draw.rect(surf, art.FRAME_WOOD, (gx + (col - c0) * c, gy + (row - r0) * c, c, c))
    return gx, gy


def button(surf: Target, rect: Rect, label: str, enabled: bool, hover: bool, strong: bool = False) -> None:
    x, y, w, h = rect
    surf.blit(_button_surface(w, h, label, enabled, hover, strong), (x - 8, y - 8))


@lru_cache(maxsize=64)
def _button_surface(w: int, h: int, label: str, enabled: bool, hover: bool, strong: bool) -> pygame.Surface:
    """A wooden button with its shadow, drawn at (8, 8) on a slightly larger surface."""
    surf = pygame.Surface((w + 16, h + 16), pygame.SRCALPHA)
    x, y = 8, 8
    if not enabled:  # not a plank at all: a flat, dark slot with faint words, so it never reads as pressable
        pygame.draw.rect(surf, DISABLED_FILL, (x, y, w, h), border_radius=8)
        pygame.draw.rect(surf, DISABLED_EDGE, (x, y, w, h), 1, border_radius=8)
        size = max(16, round(h * (0.5 if strong else 0.52)))
        t = art.text(label, size, DISABLED_TEXT)
        surf.blit(t, t.get_rect(center=(x + w // 2, y + h // 2 + 1)))
        return surf
    tone = (150, 96, 50) if strong else (112, 74, 44)
    if hover:
        tone = art.shade(tone, 1.15)
    plank = art.plank(w, h, tone, 61 if strong else 62)
    surf.blit(art.soft_shadow(w, h, 8, 4, 90), (x - 8 + 2, y - 8 + 3))
    surf.blit(plank, (x, y))
    size = max(16, round(h * (0.5 if strong else 0.52)))
    t = art.engraved_text(label, size, CREAM, light=False)
    surf.blit(t, t.get_rect(center=(x + w // 2, y + h // 2 + 1)))
    return surf


# --- the whole table ---
