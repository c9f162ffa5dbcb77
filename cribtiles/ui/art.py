"""Everything the table is made of, drawn in code: wood grain, the board, tiles, tile backs, felt.

No image files: grain is a field of thin wavy fibre lines (each line's path from a seeded sum of
sines, so no two boards or tiles repeat) over a soft value-noise tone, drawn at the size it is shown
and cached per size, so it stays sharp at every window size. Light comes from the left.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

import pygame

from cribtiles.rules.board import BLOCKED, COLUMN_LETTERS, SIZE, Square
from cribtiles.rules.tiles import Colour, Tile, rank_word

from .geometry import Layout, Rect

RGB = tuple[int, int, int]

MAPLE: RGB = (242, 212, 158)
WALNUT: RGB = (88, 54, 34)
BOARD_WOOD: RGB = (178, 122, 70)
FRAME_WOOD: RGB = (118, 62, 34)
RACK_WOOD: RGB = (132, 80, 44)
PEG_WOOD: RGB = (168, 118, 70)
BACK_WOOD: RGB = (140, 52, 40)
FELT: RGB = (30, 70, 52)
INK_LIGHT_TILE: RGB = (64, 38, 18)
INK_DARK_TILE: RGB = (238, 220, 186)
PLAYER_COLOURS: tuple[RGB, ...] = ((204, 58, 46), (40, 104, 178), (232, 190, 40), (60, 150, 70))
PLAYER_COLOUR_NAMES = ("red", "blue", "yellow", "green")


def shade(c: RGB, f: float) -> RGB:
    """Lighter (f > 1) or darker (f < 1) version of a colour."""
    if f >= 1:
        return tuple(min(255, round(v + (255 - v) * (f - 1))) for v in c)  # type: ignore[return-value]
    return tuple(max(0, round(v * f)) for v in c)  # type: ignore[return-value]


@lru_cache(maxsize=64)
def font(size: int, bold: bool = True) -> pygame.font.Font:
    """pygame-ce's own font (freesansbold), so nothing is downloaded."""
    f = pygame.font.Font(None, max(8, size))
    f.set_bold(False)
    return f


#: The most characters drawn of one piece of text: names and messages can come from damaged files,
#: and a string of megabytes makes SDL fail (or crash) and every frame crawl.
MAX_DRAWN = 160


def clip(s: str, limit: int = MAX_DRAWN) -> str:
    """`s`, cut to `limit` characters with an ellipsis when longer.

    >>> clip("Ann"), clip("x" * 10, 5)
    ('Ann', 'xxxx…')
    """
    return s if len(s) <= limit else s[: limit - 1] + "…"


def text(s: str, size: int, colour: RGB) -> pygame.Surface:
    return _text(clip(s), size, colour)


@lru_cache(maxsize=2048)
def _text(s: str, size: int, colour: RGB) -> pygame.Surface:
    return font(size).render(s, True, colour)


def engraved_text(s: str, size: int, colour: RGB, light: bool) -> pygame.Surface:
    """Text cut into wood: the letters in `colour`, with a highlight on their lower-right rim (light
    from the upper left catches the far wall of the cut) and a dark lip above-left."""
    return _engraved(clip(s), size, colour, light)


@lru_cache(maxsize=1024)
def _engraved(s: str, size: int, colour: RGB, light: bool) -> pygame.Surface:
    body = font(size).render(s, True, colour)
    rim = font(size).render(s, True, (255, 245, 225) if light else (200, 170, 130))
    lip = font(size).render(s, True, (0, 0, 0))
    rim.set_alpha(150 if light else 80)
    lip.set_alpha(90)
    off = max(1, size // 28)
    out = pygame.Surface((body.get_width() + 2 * off, body.get_height() + 2 * off), pygame.SRCALPHA)
    out.blit(rim, (2 * off, 2 * off))
    out.blit(lip, (0, 0))
    out.blit(body, (off, off))
    return out


# --- wood ---


def _value_noise(w: int, h: int, cells: int, rng: random.Random, lo: int, hi: int) -> pygame.Surface:
    """Smooth grey noise: a small random lattice scaled up bilinearly (it is meant to be soft)."""
    gw, gh = max(2, cells), max(2, round(cells * h / max(1, w)))
    small = pygame.Surface((gw, gh))
    for y in range(gh):
        for x in range(gw):
            v = rng.randint(lo, hi)
            small.set_at((x, y), (v, v, v))
    return pygame.transform.smoothscale(small, (max(1, w), max(1, h)))


def wood(
    w: int, h: int, tone: RGB, seed: int, spacing: float = 3.2, wave: float = 1.0, vertical: bool = False
) -> pygame.Surface:
    """A piece of wood `w` x `h` with its grain running along the long way (or down if `vertical`)."""
    return _wood(w, h, tone, seed, spacing, wave, vertical).copy()


@lru_cache(maxsize=256)
def _wood(w: int, h: int, tone: RGB, seed: int, spacing: float, wave: float, vertical: bool) -> pygame.Surface:
    if vertical:
        return pygame.transform.rotate(_wood(h, w, tone, seed, spacing, wave, False), 90)
    rng = random.Random(seed)
    surf = pygame.Surface((w, h))
    surf.fill(tone)
    # soft tone variation along the grain: broad streaks, stretched so they follow the fibres
    streaks = _value_noise(max(2, w // 90), max(4, h // 6), max(2, w // 90), rng, 0, 255)
    streaks = pygame.transform.smoothscale(streaks, (w, h))
    streaks.set_alpha(34)
    surf.blit(streaks, (0, 0), special_flags=0)
    # darken where the blotch noise is low: multiply by a 200..255 grey
    mult = _value_noise(w, h, max(3, w // 50), rng, 205, 255)
    surf.blit(mult, (0, 0), special_flags=pygame.BLEND_MULT)
    # the fibres: thin wavy lines, darker and lighter, sharing one slow displacement field
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    amp = h * 0.05 * wave + 2
    waves = [
        (
            rng.uniform(0.6, 1.6) / max(w, 1) * math.tau,
            rng.uniform(0.002, 0.012),
            rng.uniform(0, math.tau),
            rng.uniform(0.4, 1),
        )
        for _ in range(3)
    ]
    step = max(3, w // 60)
    xs = list(range(0, w + step, step))
    y0 = -amp * 2
    lines = 0
    while y0 < h + amp * 2 and lines < 2000:
        lines += 1
        y0 += spacing * rng.uniform(0.45, 1.55)
        darkness = rng.random()
        if darkness < 0.55:
            colour = (*shade(tone, rng.uniform(0.55, 0.8)), rng.randint(40, 120))
        elif darkness < 0.8:
            colour = (*shade(tone, rng.uniform(1.1, 1.3)), rng.randint(30, 80))
        else:
            continue
        jitter = rng.uniform(0, math.tau)
        pts = []
        for x in xs:
            d = sum(a * math.sin(f * x + g * y0 + p) for f, g, p, a in waves)
            pts.append((x, y0 + amp * d + 0.6 * math.sin(x * 0.09 + jitter)))
        width = 1 if rng.random() < 0.85 else 2
        pygame.draw.lines(layer, colour, False, pts, width)
    surf.blit(layer, (0, 0))
    return surf


def lit_from_left(surf: pygame.Surface, strength: float = 0.22) -> None:
    """Light falling from the left: brighter on the left edge, darker to the right."""
    w, h = surf.get_size()
    grad = pygame.Surface((2, 1))
    grad.set_at((0, 0), (255, 255, 255))
    v = round(255 * (1 - strength))
    grad.set_at((1, 0), (v, v, v))
    surf.blit(pygame.transform.smoothscale(grad, (w, h)), (0, 0), special_flags=pygame.BLEND_MULT)


def bevel(surf: pygame.Surface, rect: Rect, width: int, raised: bool, strength: int = 90, radius: int = 0) -> None:
    """Edges catching the light (upper-left) and in shade (lower-right); inverted for a recess."""
    x, y, w, h = rect
    hi = (255, 250, 235, strength)
    lo = (0, 0, 0, strength + 20)
    a, b = (hi, lo) if raised else (lo, hi)
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    for i in range(width):
        fade = 1 - i / max(1, width)
        ca = (*a[:3], round(a[3] * fade))
        cb = (*b[:3], round(b[3] * fade))
        pygame.draw.line(layer, ca, (i, i), (w - 1 - i, i))
        pygame.draw.line(layer, ca, (i, i), (i, h - 1 - i))
        pygame.draw.line(layer, cb, (i, h - 1 - i), (w - 1 - i, h - 1 - i))
        pygame.draw.line(layer, cb, (w - 1 - i, i), (w - 1 - i, h - 1 - i))
    if radius:
        mask = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.rect(mask, (255, 255, 255, 255), (0, 0, w, h), border_radius=radius)
        layer.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surf.blit(layer, (x, y))


def soft_shadow(w: int, h: int, radius: int, blur: int, alpha: int = 120) -> pygame.Surface:
    return _soft_shadow(w, h, radius, blur, alpha)


#: Pixels past which a shadow is blurred at a quarter of its size and scaled up: blurring a card the
#: size of the window at full size took half a second, and a shadow has no detail to lose.
BIG_SHADOW = 160_000


@lru_cache(maxsize=64)
def _soft_shadow(w: int, h: int, radius: int, blur: int, alpha: int) -> pygame.Surface:
    pad = blur * 2
    size = (w + 2 * pad, h + 2 * pad)
    k = 4 if size[0] * size[1] > BIG_SHADOW and blur >= 4 else 1
    s = pygame.Surface((size[0] // k, size[1] // k), pygame.SRCALPHA)
    pygame.draw.rect(s, (0, 0, 0, alpha), (pad // k, pad // k, w // k, h // k), border_radius=max(1, radius // k))
    if blur > 0:
        s = pygame.transform.gaussian_blur(s, max(1, blur // k))
    return s if k == 1 else pygame.transform.smoothscale(s, size)


def rounded(surf: pygame.Surface, radius: int) -> pygame.Surface:
    """A copy of `surf` with rounded corners (transparent outside)."""
    w, h = surf.get_size()
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    out.blit(surf, (0, 0))
    mask = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), (0, 0, w, h), border_radius=radius)
    out.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    return out


# --- the felt table ---


@lru_cache(maxsize=4)
def felt(w: int, h: int) -> pygame.Surface:
    rng = random.Random(7)
    surf = pygame.Surface((w, h))
    surf.fill(FELT)
    surf.blit(_value_noise(w, h, max(4, w // 120), rng, 215, 255), (0, 0), special_flags=pygame.BLEND_MULT)
    # fine nap: a small speckle tile, too fine to see repeat
    tile = pygame.Surface((97, 89))
    tile.fill((255, 255, 255))
    for _ in range(1400):
        v = rng.randint(200, 255)
        tile.set_at((rng.randrange(97), rng.randrange(89)), (v, v, v))
    for y in range(0, h, 89):
        for x in range(0, w, 97):
            surf.blit(tile, (x, y), special_flags=pygame.BLEND_MULT)
    # vignette: the lamp is over the board, the corners fall off into shade
    vig = pygame.Surface((3, 3))
    vig.fill((190, 190, 190))
    vig.set_at((1, 1), (255, 255, 255))
    vig.set_at((0, 1), (235, 235, 235))
    surf.blit(pygame.transform.smoothscale(vig, (w, h)), (0, 0), special_flags=pygame.BLEND_MULT)
    return surf


# --- the board ---


def board(layout: Layout) -> pygame.Surface:
    """The whole wooden board, frame, recessed squares, engraved name and coordinates."""
    return _board(layout.board, layout.grid, layout.cell)


@lru_cache(maxsize=4)
def _board(board_rect: Rect, grid: Rect, c: int) -> pygame.Surface:
    bx, by, bw, bh = board_rect
    gx, gy, gw, gh = grid
    frame = gx - bx
    surf = pygame.Surface((bw, bh), pygame.SRCALPHA)
    # the frame: four mitred strips, grain along each
    top = wood(bw, frame, FRAME_WOOD, 11, spacing=2.4, wave=0.3)
    side = wood(frame, bh, FRAME_WOOD, 12, spacing=2.4, wave=0.3, vertical=True)
    surf.blit(side, (0, 0))
    surf.blit(side, (bw - frame, 0))
    for yy, piece in ((0, top), (bh - frame, wood(bw, frame, FRAME_WOOD, 13, spacing=2.4, wave=0.3))):
        strip = pygame.Surface((bw, frame), pygame.SRCALPHA)
        strip.blit(piece, (0, 0))
        # mitre: cut the corners diagonally so the side strips show there
        tri = [(0, 0), (frame, frame), (0, frame)] if yy == 0 else [(0, 0), (frame, 0), (0, frame)]
        tri2 = [(bw, 0), (bw - frame, frame), (bw, frame)] if yy == 0 else [(bw, 0), (bw - frame, 0), (bw, frame)]
        pygame.draw.polygon(strip, (0, 0, 0, 0), tri)
        pygame.draw.polygon(strip, (0, 0, 0, 0), tri2)
        surf.blit(strip, (0, yy))
    seam = (*shade(FRAME_WOOD, 0.45), 160)
    for a, b in (((0, 0), (frame, frame)), ((bw, 0), (bw - frame, frame))):
        pygame.draw.aaline(surf, seam, a, b)
    for a, b in (((0, bh), (frame, bh - frame)), ((bw, bh), (bw - frame, bh - frame))):
        pygame.draw.aaline(surf, seam, a, b)
    # the playing field
    field = wood(gw + 8, gh + 8, BOARD_WOOD, 21, spacing=3.0, wave=1.4)
    surf.blit(field, (frame - 4, frame - 4))
    bevel(surf, (0, 0, bw, bh), max(2, frame // 6), raised=True, strength=70)
    bevel(surf, (frame - 4, frame - 4, gw + 8, gh + 8), max(2, c // 10), raised=False, strength=90)
    # recessed squares
    inset = max(1, c // 16)
    groove = pygame.Surface((c - 2 * inset, c - 2 * inset), pygame.SRCALPHA)
    groove.fill((60, 30, 10, 34))
    bevel(groove, (0, 0, c - 2 * inset, c - 2 * inset), max(2, c // 14), raised=False, strength=70)
    for r in range(SIZE):
        for col in range(SIZE):
            sq = Square(r, col)
            if sq in BLOCKED:
                continue
            surf.blit(groove, (gx - bx + col * c + inset, gy - by + r * c + inset))
    # the name patch: a raised plaque with the name engraved
    px, py = gx - bx, gy - by
    plaque = (px + inset, py + inset, 3 * c - 2 * inset, 2 * c - 2 * inset)
    plank = wood(plaque[2], plaque[3], shade(BOARD_WOOD, 0.92), 31, spacing=2.6, wave=0.5)
    surf.blit(rounded(plank, max(2, c // 10)), plaque[:2])
    bevel(surf, plaque, max(2, c // 12), raised=True, strength=80, radius=max(2, c // 10))
    ink = shade(FRAME_WOOD, 0.6)
    for i, word in enumerate(("CRIB", "TILES")):
        t = engraved_text(word, round(c * 0.78), ink, light=True)
        tx = plaque[0] + (plaque[2] - t.get_width()) // 2
        ty = plaque[1] + plaque[3] // 2 - t.get_height() + 2 + i * (t.get_height() - 4)
        surf.blit(t, (tx, ty))
    # coordinates engraved in the frame: letters along the top, numbers down the left
    size = max(12, round(frame * 0.8))
    cink = shade(FRAME_WOOD, 1.55)
    for col in range(SIZE):
        t = engraved_text(COLUMN_LETTERS[col], size, cink, light=False)
        surf.blit(t, (px + col * c + (c - t.get_width()) // 2, (frame - t.get_height()) // 2 + 1))
    for r in range(SIZE):
        t = engraved_text(str(r + 1), size, cink, light=False)
        surf.blit(t, ((frame - t.get_width()) // 2 + 1, py + r * c + (c - t.get_height()) // 2))
    lit_from_left(surf, 0.16)
    return surf


# --- tiles ---

TileLook = str  # "normal", "lifted", "dim"


def _tile_seed(tile: Tile) -> int:
    return tile.rank * 7 + (0 if tile.colour is Colour.LIGHT else 100)


_marks = {"letters": False}  # the Settings screen's "colour letters on tiles"


def set_letter_marks(on: bool) -> None:
    """Whether tiles carry their colour's letter too (L or D, as in the notation), from now on."""
    _marks["letters"] = on


def letter_marks() -> bool:
    return _marks["letters"]


def tile_face(tile: Tile, size: int) -> pygame.Surface:
    """A tile seen from above: maple (light) or walnut (dark), the rank engraved, bevelled edges.

    Light tiles carry a ring in the corner, dark tiles a diamond and an inlaid border, so the two
    decks differ in shape as well as shade; with the letter marks on, also an L or a D in the lower
    right corner. A 6 or 9 is underlined."""
    return _tile_face(tile.rank, tile.colour, size, _marks["letters"])


@lru_cache(maxsize=256)
def _tile_face(rank: int, colour: Colour, size: int, letters: bool = False) -> pygame.Surface:
    light = colour is Colour.LIGHT
    tone = MAPLE if light else WALNUT
    radius = max(3, size // 8)
    w = wood(size, size, tone, _tile_seed(Tile(rank, colour)), spacing=max(2.0, size / 22), wave=0.6)
    face = rounded(w, radius)
    lit_from_left(face, 0.14)
    ink = INK_LIGHT_TILE if light else INK_DARK_TILE
    if not light:  # an inlaid pale border: the walnut deck's pattern
        m = max(3, size // 9)
        pygame.draw.rect(
            face, (*shade(WALNUT, 1.55), 150), (m, m, size - 2 * m, size - 2 * m), 1, border_radius=radius // 2
        )
    label = rank_word(rank)
    t = engraved_text(label, round(size * (0.6 if len(label) == 1 else 0.5)), ink, light=light)
    tx = (size - t.get_width()) // 2 + size // 24
    ty = (size - t.get_height()) // 2 + size // 20
    face.blit(t, (tx, ty))
    if rank in (6, 9):  # the underline that tells a 6 from a 9
        uw = round(size * 0.3)
        uy = ty + t.get_height() - max(2, size // 14)
        pygame.draw.rect(face, ink, ((size - uw) // 2 + size // 24, uy, uw, max(2, size // 18)), border_radius=1)
    # the deck mark in the upper-left corner
    mr = max(3, size // 9)
    mx, my = max(3, size // 7) + mr // 2, max(3, size // 7) + mr // 2
    if light:
        pygame.draw.circle(face, ink, (mx, my), mr, max(1, size // 28))
    else:
        pts = [(mx, my - mr), (mx + mr, my), (mx, my + mr), (mx - mr, my)]
        pygame.draw.polygon(face, ink, pts)
    if letters and size >= 16:  # the colour's letter, as the notation writes it
        mark = text("L" if light else "D", max(8, round(size * 0.24)), ink)
        face.blit(mark, mark.get_rect(bottomright=(size - max(3, size // 8), size - max(2, size // 12))))
    bevel(face, (0, 0, size, size), max(2, size // 10), raised=True, strength=110 if light else 80, radius=radius)
    pygame.draw.rect(face, (*shade(tone, 0.45), 200), (0, 0, size, size), 1, border_radius=radius)
    return face


@lru_cache(maxsize=16)
def tile_back(size: int) -> pygame.Surface:
    """The back of a tile, for the tiles on another player's rack."""
    radius = max(3, size // 8)
    face = rounded(wood(size, size, BACK_WOOD, 99, spacing=max(2.0, size / 18), wave=0.4), radius)
    lit_from_left(face, 0.14)
    c = size // 2
    pygame.draw.circle(face, (*shade(BACK_WOOD, 0.6), 200), (c, c), size // 4, max(1, size // 16))
    pygame.draw.circle(face, (*shade(BACK_WOOD, 1.4), 140), (c + 1, c + 1), size // 4, 1)
    bevel(face, (0, 0, size, size), max(2, size // 10), raised=True, strength=90, radius=radius)
    pygame.draw.rect(face, (*shade(BACK_WOOD, 0.4), 200), (0, 0, size, size), 1, border_radius=radius)
    return face


def tile_shadow(size: int, lifted: bool) -> tuple[pygame.Surface, int, int]:
    """The soft shadow of a tile and where it falls (offset down-right, further when lifted)."""
    blur = max(2, size // (6 if lifted else 12))
    s = soft_shadow(size, size, max(3, size // 8), blur, 110 if lifted else 130)
    off = max(2, size // (5 if lifted else 16))
    pad = blur * 2
    return s, off - pad, off - pad


@lru_cache(maxsize=8)
def rack_surface(w: int, h: int) -> pygame.Surface:
    """The wooden tile holder: a plank with a lip in front."""
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    r = max(4, h // 8)
    surf.blit(rounded(wood(w, h, RACK_WOOD, 41, spacing=2.6, wave=0.4), r), (0, 0))
    lip = max(6, h // 7)
    pygame.draw.rect(surf, (*shade(RACK_WOOD, 0.7), 255), (0, h - lip, w, lip), border_radius=r)
    bevel(surf, (0, 0, w, h), max(2, h // 18), raised=True, strength=90, radius=r)
    lit_from_left(surf, 0.18)
    return surf


@lru_cache(maxsize=32)
def plank(w: int, h: int, tone: RGB, seed: int) -> pygame.Surface:
    """A bevelled plank of wood with rounded corners (the peg board, the panels)."""
    r = max(4, min(w, h) // 14)
    surf = rounded(wood(w, h, tone, seed, spacing=2.8, wave=0.5), r)
    bevel(surf, (0, 0, w, h), max(2, min(w, h) // 40), raised=True, strength=80, radius=r)
    lit_from_left(surf, 0.16)
    return surf
