"""Drawing the table scene: board, tiles, rack, opponents, peg board, preview and breakdown, buttons.

`draw` reads the scene and changes nothing. `info_rows` lays out the side panel's text (the scene
uses it to know which combination the pointer is on), `opponent_tiles` where a bot's tiles wait.
"""

from __future__ import annotations

import itertools
import math
import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import pygame

from cribtiles.rules.board import Square
from cribtiles.rules.game import END_BLOCKED, END_LOCKED, END_OUT
from cribtiles.rules.hands import Combination
from cribtiles.rules.moves import Exchange, Play
from cribtiles.rules.scoring import ONE_COLOUR, PlayScore
from cribtiles.rules.tiles import Colour, Tile, rank_word

from . import art
from .geometry import Layout, Rect, contains
from .pegs import LAP, hole_position, lap_and_hole

if TYPE_CHECKING:
    from .game_scene import GameScene

GOLD = (255, 214, 102)
RED = (235, 70, 60)
CREAM = (246, 236, 214)
DIM = (190, 178, 158)
PANEL = (18, 30, 24, 150)


Colour3 = tuple[int, int, int]


class Canvas:
    """The window's surface, remembering every rectangle drawn on it this frame, so that only
    those (and last frame's) are restored and sent to the screen, not all 1280 x 800 pixels."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.rects: list[pygame.Rect] = []
        # what was drawn where, holding the (never changed) source surfaces themselves: two frames
        # with equal records look the same, and the second need not be sent to the screen
        self.record: list[tuple[object, ...]] = []

    def blit(
        self,
        source: pygame.Surface,
        dest: tuple[float, float] | pygame.Rect,
        area: object = None,
        special_flags: int = 0,
    ) -> pygame.Rect:
        r = self.surface.blit(source, dest, area, special_flags)  # type: ignore[arg-type]
        self.rects.append(r)
        self.record.append((source, tuple(r), special_flags))
        return r

    def same_as(self, record: object) -> bool:
        if not isinstance(record, list) or len(record) != len(self.record):
            return False
        # identity for the surfaces (never changed once made), equality for places and colours
        return all(a[0] is b[0] and a[1:] == b[1:] for a, b in zip(self.record, record, strict=True))

    def get_size(self) -> tuple[int, int]:
        return self.surface.get_size()


Target = Canvas | pygame.Surface


def _rect(surf: Target, colour: Colour3, rect: object, width: int = 0, border_radius: int = 0) -> None:
    if isinstance(surf, Canvas):
        r = pygame.draw.rect(surf.surface, colour, rect, width, border_radius=border_radius)  # type: ignore[arg-type]
        surf.rects.append(r)
        surf.record.append(("rect", colour, tuple(r), width, border_radius))
    else:
        pygame.draw.rect(surf, colour, rect, width, border_radius=border_radius)  # type: ignore[arg-type]


def _circle(surf: Target, colour: Colour3, centre: tuple[float, float], radius: float, width: int = 0) -> None:
    if isinstance(surf, Canvas):
        r = pygame.draw.circle(surf.surface, colour, centre, radius, width)
        surf.rects.append(r)
        surf.record.append(("circle", colour, tuple(centre), radius, width))
    else:
        pygame.draw.circle(surf, colour, centre, radius, width)


@dataclass(frozen=True)
class InfoRow:
    rect: Rect
    left: str
    right: str = ""
    colour: tuple[int, int, int] = CREAM
    size: int = 16
    squares: tuple[Square, ...] = ()
    indent: int = 0


def _wrap(text: str, size: int, width: int) -> list[str]:
    words, lines, cur = text.split(), [], ""
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


def _combo_words(c: Combination, ranks: tuple[int, ...]) -> str:
    tiles = [rank_word(ranks[i]) for i in c.positions]
    if c.kind == "fifteen":
        return "fifteen  " + " + ".join(tiles)
    return f"{c.kind}  " + " ".join(tiles)


def _score_rows(
    score: PlayScore, heading: str
) -> list[tuple[str, str, tuple[int, int, int], int, tuple[Square, ...], int]]:
    """(left, right, colour, size step, squares, indent) for each row of a score breakdown."""
    rows: list[tuple[str, str, tuple[int, int, int], int, tuple[Square, ...], int]] = []
    rows.append((heading, str(score.total), GOLD, 2, score.play.squares, 0))
    for sl in score.lines:
        ranks = sl.line.ranks
        rows.append(
            (f"{sl.name}:  " + " ".join(rank_word(r) for r in ranks), str(sl.total), CREAM, 0, sl.line.squares, 0)
        )
        for c in sl.combinations:
            sq = tuple(sl.line.squares[i] for i in c.positions)
            rows.append((_combo_words(c, ranks), str(c.points), DIM, -2, sq, 1))
    for b in score.bonuses:
        where = b.line.squares if b.kind == ONE_COLOUR and b.line is not None else score.play.squares
        label = f"bonus: {b.kind}" + (f" ({b.line.name})" if b.line is not None else "")
        rows.append((label, f"+{b.points}", GOLD, 0, where, 0))
    return rows


def breakdown_rows(score: PlayScore) -> int:
    """How many rows the breakdown of `score` has (each is read out in turn)."""
    return len(_score_rows(score, ""))


def info_rows(scene: GameScene) -> list[InfoRow]:
    """The side panel's text for the scene's moment: exchange help, the live preview, the last
    play's breakdown, or how to play (computed once per change, not once per frame)."""
    key = (
        id(scene.live),
        id(scene.breakdown),
        scene.exchanging,
        len(scene.draft.marked),
        scene.state.current == scene.human,
        scene.layout.width,
        scene.layout.height,
        min(scene.rows_shown() or 999, 999),
    )
    cached = scene.cache.get("info")
    if isinstance(cached, tuple) and cached[0] == key:
        return list(cached[1])
    rows = _info_rows(scene)
    scene.cache["info"] = (key, rows)
    return rows


def _info_rows(scene: GameScene) -> list[InfoRow]:
    x, y, w, h = scene.layout.info
    base = max(15, round(scene.layout.height * 0.025))
    pad = base // 2
    x, w = x + pad, w - 2 * pad
    y += pad
    spec: list[tuple[str, str, tuple[int, int, int], int, tuple[Square, ...], int]] = []
    live = scene.live
    if scene.exchanging:
        n = len(scene.draft.marked)
        spec.append(("Exchange", f"{n} chosen", GOLD, 2, (), 0))
        for line in _wrap(
            "Click the tiles to send back to the bag (or press 1-5), then press Exchange (Enter). "
            "Cancel (Esc) keeps your rack.",
            base,
            w,
        ):
            spec.append((line, "", CREAM, 0, (), 0))
    elif live is not None and scene.state.current == scene.human:
        if live.score is not None:
            spec.extend(_score_rows(live.score, "This play would score"))
        else:
            spec.append(("Not a legal play", "", RED, 2, live.bad, 0))
            for line in _wrap(live.reason[:1].upper() + live.reason[1:] + ".", base, w):
                spec.append((line, "", CREAM, 0, live.bad, 0))
    elif scene.breakdown is not None:
        who = "You" if scene.breakdown.player == scene.human else scene.state.names[scene.breakdown.player]
        spec.extend(_score_rows(scene.breakdown.score, f"{who} scored")[: scene.rows_shown()])
    if not spec or (scene.breakdown is None and live is None and not scene.exchanging):
        if spec:
            spec.append(("", "", CREAM, 0, (), 0))
        spec.append(("How to play", "", GOLD, 2, (), 0))
        for text in (
            "Drag tiles from your rack onto the board; every row or column of 2-5 tiles is a cribbage hand "
            "and must score. Right-click, wheel or F turns a 6 into a 9.",
            "Keys: arrows move the cursor, Tab or 1-5 pick a rack tile, Space lays it, Enter plays, "
            "R recalls, S shuffles, P passes, X exchanges, F11 full screen.",
        ):
            for line in _wrap(text, base - 1, w):
                spec.append((line, "", DIM, -1, (), 0))
    rows: list[InfoRow] = []
    bottom = scene.layout.info[1] + h - pad - round(scene.layout.height * 0.017) - 6
    for i, (left, right, colour, step, squares, indent) in enumerate(spec):
        size = base + step
        lh = round(size * 1.25)
        if y + lh > bottom - (round(base * 1.25) if i < len(spec) - 1 else 0):
            rows.append(InfoRow((x, y, w, lh), f"... and {len(spec) - i} more", "", DIM, base - 2))
            return rows
        rows.append(InfoRow((x, y, w, lh), left, right, colour, size, squares, indent))
        y += lh + (pad // 2 if step >= 2 else 0)
    # the turns so far, newest first, in the room that is left (pointing at one shows its tiles)
    small = base - 2
    lh = round(small * 1.3)
    room = int((bottom - y - round(base * 1.6)) // lh)
    turns = scene.state.turns
    b = scene.breakdown
    revealing = b is not None and (scene.rows_shown() or 999) < breakdown_rows(b.score)
    if room >= 2 and turns and not revealing:
        y += pad
        rows.append(InfoRow((x, y, w, round(base * 1.3)), "Turns", "", GOLD, base))
        y += round(base * 1.3)
        for t in list(turns)[::-1][:room]:
            who = "You" if t.player == scene.human else scene.state.names[t.player]
            if isinstance(t.move, Play):
                text, right, squares = (
                    f"{who}:  " + " ".join(str(p) for p in t.move.placements),
                    str(t.points),
                    t.move.squares,
                )
            elif isinstance(t.move, Exchange):
                n = t.drawn
                text, right, squares = f"{who} exchanged {n} tile{'s' if n != 1 else ''}", "0", ()
            else:
                text, right, squares = f"{who} passed", "0", ()
            rows.append(InfoRow((x, y, w, lh), text, right, DIM, small, squares))
            y += lh
    return rows


# --- pieces ---


def face_of(scene: GameScene, tile: Tile, size: int) -> pygame.Surface:
    """A tile's face at `size`: drawn sharp at the sizes tiles rest at (board square, rack slot);
    in between (a tile growing or shrinking on its way) scaled from the nearest resting size, so
    motion never waits for wood to be drawn."""
    lay = scene.layout
    board_size = lay.tile_rect(Square(0, 0))[2]
    if size in (board_size, lay.rack_tile):
        return art.tile_face(tile, size)
    base = lay.rack_tile if abs(size - lay.rack_tile) < abs(size - board_size) else board_size
    return _scaled(art.tile_face(tile, base), size, size)


def back_of(scene: GameScene, size: int) -> pygame.Surface:
    rest = round(scene.layout.cell * 0.8)
    if size == rest:
        return art.tile_back(size)
    return _scaled(art.tile_back(rest), size, size)


@lru_cache(maxsize=512)
def _scaled(source: pygame.Surface, w: int, h: int) -> pygame.Surface:
    """A cached resize: every surface a frame draws is a lasting object, so that a frame made of
    the same objects in the same places is known to look the same (see `draw`)."""
    return pygame.transform.smoothscale(source, (w, h))


def warm_faces(layout: Layout) -> list[tuple[Tile, int]]:
    """The faces worth drawing ahead of need, at this layout's resting sizes."""
    sizes = (layout.tile_rect(Square(0, 0))[2], layout.rack_tile)
    return [(Tile(r, c), s) for s in sizes for c in (Colour.LIGHT, Colour.DARK) for r in range(1, 14)]


def _blit_tile(surf: Target, face: pygame.Surface, x: float, y: float, size: int, lifted: bool = False) -> None:
    shadow, ox, oy = art.tile_shadow(size, lifted)
    surf.blit(shadow, (round(x) + ox, round(y) + oy))
    surf.blit(face, (round(x), round(y)))


def opponent_tiles(scene: GameScene, player: int) -> list[Rect]:
    """Where the tile backs of `player` lie in the opponents' area."""
    ox, oy, ow, oh = scene.layout.opponents
    others = [p for p in range(scene.state.players) if p != scene.human]
    band = oh // max(1, len(others))
    k = others.index(player) if player in others else 0
    size = min(round(scene.layout.cell * 0.8), band - 8)
    gap = max(3, size // 8)
    n = len(scene.state.racks[player])
    x0 = ox + ow - n * (size + gap) - gap
    y0 = oy + k * band + (band - size) // 2
    return [(x0 + i * (size + gap), y0, size, size) for i in range(n)]


def _rounded_panel(surf: Target, rect: Rect, colour: tuple[int, int, int, int] = PANEL, radius: int = 10) -> None:
    surf.blit(_panel_surface(rect[2], rect[3], colour, radius), rect[:2])


@lru_cache(maxsize=64)
def _panel_surface(w: int, h: int, colour: tuple[int, int, int, int], radius: int) -> pygame.Surface:
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(layer, colour, (0, 0, w, h), border_radius=radius)
    return layer


def _text(
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


def _outline(
    surf: Target, scene: GameScene, squares: tuple[Square, ...], colour: tuple[int, int, int], width: int
) -> Rect:
    rects = [scene.layout.square_rect(s) for s in squares]
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    box = (x0 - 1, y0 - 1, x1 - x0 + 2, y1 - y0 + 2)
    surf.blit(_glow(box[2] + 8, box[3] + 8, colour, width + 4), (box[0] - 4, box[1] - 4))
    _rect(surf, colour, box, width, border_radius=6)
    return box


@lru_cache(maxsize=64)
def _glow(w: int, h: int, colour: Colour3, width: int) -> pygame.Surface:
    glow = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(glow, (*colour, 70), (0, 0, w, h), width, border_radius=8)
    return glow


def _badge(surf: Target, text: str, centre: tuple[int, int], colour: tuple[int, int, int], size: int) -> None:
    t = art.text(text, size, (30, 20, 10))
    r = max(t.get_width(), t.get_height()) // 2 + 4
    _circle(surf, (0, 0, 0), (centre[0] + 1, centre[1] + 2), r)
    _circle(surf, colour, centre, r)
    _circle(surf, art.shade(colour, 0.6), centre, r, 1)
    surf.blit(t, t.get_rect(center=centre))


def _button(surf: Target, rect: Rect, label: str, enabled: bool, hover: bool, strong: bool = False) -> None:
    x, y, w, h = rect
    surf.blit(_button_surface(w, h, label, enabled, hover, strong), (x - 8, y - 8))


@lru_cache(maxsize=64)
def _button_surface(w: int, h: int, label: str, enabled: bool, hover: bool, strong: bool) -> pygame.Surface:
    """A wooden button with its shadow, drawn at (8, 8) on a slightly larger surface."""
    surf = pygame.Surface((w + 16, h + 16), pygame.SRCALPHA)
    x, y = 8, 8
    tone = (150, 96, 50) if strong else (112, 74, 44)
    if hover and enabled:
        tone = art.shade(tone, 1.15)
    plank = art.plank(w, h, tone, 61 if strong else 62).copy()
    if not enabled:
        plank.set_alpha(110)
    sh = art.soft_shadow(w, h, 8, 4, 90 if enabled else 40)
    surf.blit(sh, (x - 8 + 2, y - 8 + 3))
    surf.blit(plank, (x, y))
    size = max(16, round(h * (0.5 if strong else 0.52)))
    colour = CREAM if enabled else (170, 150, 130)
    t = art.engraved_text(label, size, colour, light=False)
    surf.blit(t, t.get_rect(center=(x + w // 2, y + h // 2 + 1)))
    return surf


# --- the whole table ---


_static_cache: dict[object, pygame.Surface] = {}
_static_serial: weakref.WeakKeyDictionary[pygame.Surface, int] = weakref.WeakKeyDictionary()
_serials = itertools.count()


def _static_layer(scene: GameScene) -> pygame.Surface:
    """Everything that changes only when a turn is taken or the window is resized: the felt, the
    board with the tiles played so far, the rack, the panels, the peg board's holes. Drawn once
    per turn, it makes a frame one opaque blit plus what moves."""
    lay = scene.layout
    last = scene.state.last_turn
    fresh = last.move.squares if last is not None and isinstance(last.move, Play) else ()
    key = (lay.width, lay.height, scene.state.board, fresh, scene.state.names, scene.human)
    cached = _static_cache.get(key)
    if cached is not None:
        return cached
    surf = pygame.Surface((lay.width, lay.height))
    surf.blit(art.felt(lay.width, lay.height), (0, 0))
    bx, by, bw, bh = lay.board
    sh = art.soft_shadow(bw, bh, 6, max(4, lay.cell // 5), 150)
    pad = max(4, lay.cell // 5) * 2
    surf.blit(sh, (bx - pad + lay.cell // 6, by - pad + lay.cell // 4))
    surf.blit(art.board(lay), (bx, by))
    for sq, tile in scene.state.board.tiles():
        x, y, w, _ = lay.tile_rect(sq)
        _blit_tile(surf, art.tile_face(tile, w), x, y, w)
        if sq in fresh:
            _rect(surf, GOLD, (x - 1, y - 1, w + 2, w + 2), 2, border_radius=max(3, w // 8))
    rx, ry, rw, rh = lay.rack
    surf.blit(art.soft_shadow(rw, rh, 8, 6, 130), (rx - 12 + 3, ry - 12 + 5))
    surf.blit(art.rack_surface(rw, rh), (rx, ry))
    _rounded_panel(surf, lay.panel, (12, 24, 18, 120), 14)
    ox, oy, ow, oh = lay.opponents
    others = [p for p in range(scene.state.players) if p != scene.human]
    band = oh // max(1, len(others))
    for k, p in enumerate(others):
        y = oy + k * band
        _rounded_panel(surf, (ox, y, ow, band - 4), (0, 0, 0, 70), 10)
        _circle(surf, art.PLAYER_COLOURS[p % 4], (ox + 16, y + band // 2 - 2), 7)
    _pegboard_holes(surf, scene)
    _rounded_panel(surf, lay.info, (0, 0, 0, 80), 10)
    x, y, w, h = lay.info
    size = max(12, round(lay.height * 0.017))
    keys = KEYS if art.font(size).size(KEYS)[0] <= w - 16 else KEYS.replace(" · F11", "").replace(" · L level", "")
    _text(surf, keys, size, (150, 140, 120), (x + w / 2, y + h - 6), "midbottom")
    if len(_static_cache) > 6:
        _static_cache.clear()
    _static_cache[key] = surf
    _static_serial[surf] = next(_serials)  # names this layer for good (an id() may be reused)
    return surf


def draw(screen: pygame.Surface, scene: GameScene, full: bool = False) -> list[pygame.Rect] | None:
    """Draw the table; returns the rectangles that changed since the last frame, or None when the
    whole window did (the first frame, a new turn, a new size, or `full`)."""
    static = _static_layer(scene)
    last = scene.cache.get("drawn")
    key = (_static_serial[static], screen.get_size())
    if full or not (isinstance(last, tuple) and last[0] == key):
        screen.blit(static, (0, 0))
        before: list[pygame.Rect] | None = None
    else:
        before = last[1]
        for r in before:  # take away what moved: the still table shows through again
            screen.blit(static, r, r)
    surf = Canvas(screen)
    _draw_dynamic(surf, scene)
    unchanged = before is not None and surf.same_as(scene.cache.get("record"))
    scene.cache["drawn"] = (key, surf.rects)
    scene.cache["record"] = surf.record
    if before is None:
        return None
    return [] if unchanged else before + surf.rects


def _draw_dynamic(surf: Canvas, scene: GameScene) -> None:
    _draw_board_tiles(surf, scene)
    _draw_overlays(surf, scene)
    _draw_rack(surf, scene)
    _draw_panel(surf, scene)
    _draw_flights(surf, scene)
    _draw_held(surf, scene)
    _draw_toasts(surf, scene)


def _draw_board_tiles(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    for sq, tid in scene.draft.placed.items():
        p = scene.pos.get(tid)
        size = round(p[2]) if p else lay.tile_rect(sq)[2]
        x, y = (p[0], p[1]) if p else lay.tile_rect(sq)[:2]
        _draw_draft_tile(surf, scene, tid, x, y, size)


def _draw_draft_tile(
    surf: Target, scene: GameScene, tid: int, x: float, y: float, size: int, lifted: bool = False
) -> None:
    tile = scene.draft.face(tid)
    flip = scene.flips.get(tid)
    if flip is not None and scene.pace > 0:
        t = min(1.0, (scene.now - flip.t0) / max(1e-6, 0.22 * scene.pace))
        face_tile = flip.before if t < 0.5 else tile
        squash = max(0.06, abs(math.cos(math.pi * t)))
        fw = max(1, round(size * squash))
        face = _scaled(face_of(scene, face_tile, size), fw, size)
        shadow, ox, oy = art.tile_shadow(size, lifted)
        surf.blit(shadow, (round(x) + ox, round(y) + oy))
        surf.blit(face, (round(x + (size - fw) / 2), round(y)))
        return
    _blit_tile(surf, face_of(scene, tile, size), x, y, size, lifted)


def _draw_overlays(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    live = scene.live if scene.state.current == scene.human else None
    width = max(2, lay.cell // 16)
    if live is not None and scene.draft.held is None:
        if live.score is not None:
            for sl in live.score.lines:
                box = _outline(surf, scene, sl.line.squares, GOLD, width)
                # the line's score at its far end: right of a row, below a column
                across = sl.line.squares[0].row == sl.line.squares[-1].row
                nudge = lay.cell // 6
                at = (
                    (box[0] + box[2] + nudge, box[1] + box[3] // 2)
                    if across
                    else (box[0] + box[2] // 2, box[1] + box[3] + nudge)
                )
                _badge(surf, str(sl.total), at, GOLD, max(14, lay.cell * 2 // 5))
        elif live.bad:
            _outline(surf, scene, live.bad, RED, width + 1)
    if scene.draft.held is not None and scene.my_turn and not scene.exchanging:
        # where the held tile would land: a warm glow on a free square, a red edge on a taken one
        held = scene.held_centre()
        target = lay.nearest_square(held) if lay.rack_slot_at(held) is None else None
        if target is not None:
            r = lay.square_rect(target)
            if scene.draft.is_free(scene.state.board, target):
                surf.blit(_panel_surface(r[2], r[3], (255, 236, 170, 70), 4), r[:2])
                _rect(surf, GOLD, r, 2, border_radius=4)
            else:
                _rect(surf, RED, r, 2, border_radius=4)
    if scene.hover_rows:
        glow = _panel_surface(lay.cell, lay.cell, (255, 230, 120, 90), 0)
        for sq in scene.hover_rows:
            x, y, _, _ = lay.square_rect(sq)
            surf.blit(glow, (x, y))
            _rect(surf, GOLD, lay.square_rect(sq), 2, border_radius=4)
    if scene.keyboard:
        pulse = 0.6 + 0.4 * math.sin(scene.now * 6)
        colour = (round(120 + 135 * pulse), 230, 255)
        _rect(surf, colour, lay.square_rect(scene.cursor), 3, border_radius=5)


def _draw_rack(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    mx, my = scene.mouse
    for button in ("shuffle", "recall"):
        r = lay.buttons[button]
        enabled = bool(scene.draft.placed) if button == "recall" else len(scene.draft.order) > 1
        _button(surf, r, button.capitalize(), enabled, contains(r, (mx, my)))
    for slot, tid in enumerate(scene.draft.order):
        p = scene.pos.get(tid)
        rest = scene.tile_rect_for(tid)
        if rest is None:
            continue
        x, y, size = (p[0], p[1], round(p[2])) if p else (rest[0], rest[1], rest[2])
        marked = tid in scene.draft.marked
        if marked:
            y -= size * 0.18
        _draw_draft_tile(surf, scene, tid, x, y, size)
        if marked:
            _rect(surf, RED, (round(x) - 2, round(y) - 2, size + 4, size + 4), 3, border_radius=8)
        if scene.keyboard and slot == min(scene.selected, len(scene.draft.order) - 1):
            _rect(surf, (150, 230, 255), (round(x) - 3, round(y) - 3, size + 6, size + 6), 3, border_radius=9)
            _text(surf, str(slot + 1), max(12, size // 4), (150, 230, 255), (x + size / 2, y + size + 4), "midtop")


def _draw_held(surf: Target, scene: GameScene) -> None:
    tid = scene.draft.held
    if tid is None:
        return
    size = round(scene.layout.rack_tile * 1.08)
    x = scene.mouse[0] - scene.grab[0] * 1.08
    y = scene.mouse[1] - scene.grab[1] * 1.08
    _draw_draft_tile(surf, scene, tid, x, y, size, lifted=True)


def _draw_flights(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    for f in scene.flights:
        t = (scene.now - f.t0) / max(1e-6, f.duration)
        if t < 0:
            continue
        t = min(1.0, t)
        e = 1 - (1 - t) ** 3
        tx, ty, tw, _ = lay.tile_rect(f.square)
        sx, sy = f.start
        start_size = round(lay.cell * 0.8)
        size = round(start_size + (tw - start_size) * e)
        x = sx - start_size / 2 + (tx - (sx - start_size / 2)) * e
        y = sy - start_size / 2 + (ty - (sy - start_size / 2)) * e - math.sin(math.pi * t) * lay.cell * 0.6
        face = back_of(scene, size) if t < 0.15 else face_of(scene, f.tile, size)
        _blit_tile(surf, face, x, y, size, lifted=t < 0.95)


def _draw_toasts(surf: Target, scene: GameScene) -> None:
    """Short messages (a pass, an exchange, a refused button) at the foot of the side panel's text
    box, where they cover no tile."""
    if not scene.toasts:
        return
    lay = scene.layout
    size = max(15, round(lay.height * 0.023))
    x, y0, w, h = lay.info
    y = y0 + h - round(lay.height * 0.017) - 14
    for toast in scene.toasts[-2:][::-1]:
        lines = _wrap(toast.text, size, w - 40)
        lh = round(size * 1.3)
        bh = lh * len(lines) + 14
        r = (x + 8, y - bh, w - 16, bh)
        _rounded_panel(surf, r, (44, 28, 14, 255), 10)
        _rect(surf, (150, 110, 60), r, 1, border_radius=10)
        for i, line in enumerate(lines):
            _text(surf, line, size, CREAM, (r[0] + r[2] / 2, r[1] + 7 + i * lh), "midtop")
        y -= bh + 6


def _draw_panel(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    _draw_opponents(surf, scene)
    _draw_pegboard(surf, scene)
    _draw_status(surf, scene)
    _draw_info(surf, scene)
    mx, my = scene.mouse
    play_label = "Play"
    if scene.exchanging:
        n = len(scene.draft.marked)
        play_label = f"Exchange {n} tile{'s' if n != 1 else ''}" if n else "Exchange"
        play_ok = scene.exchange_ready()
    else:
        play_ok = scene.can_play()
        if play_ok and scene.live is not None and scene.live.score is not None:
            play_label = f"Play  {scene.live.score.total}"
    _button(surf, lay.buttons["play"], play_label, play_ok, contains(lay.buttons["play"], (mx, my)), strong=True)
    pass_label = "Cancel" if scene.exchanging else "Pass"
    pass_ok = scene.exchanging or scene.can_pass()
    _button(surf, lay.buttons["pass"], pass_label, pass_ok, contains(lay.buttons["pass"], (mx, my)))
    ex_ok = scene.can_exchange() and not scene.exchanging
    _button(surf, lay.buttons["exchange"], "Exchange...", ex_ok, contains(lay.buttons["exchange"], (mx, my)))


def _draw_opponents(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    ox, oy, ow, oh = lay.opponents
    others = [p for p in range(scene.state.players) if p != scene.human]
    band = oh // max(1, len(others))
    size = max(15, round(lay.height * 0.026))
    for k, p in enumerate(others):
        y = oy + k * band
        name = scene.state.names[p]
        _text(surf, f"{name} (bot)", size, CREAM, (ox + 30, y + band // 2 - 2 - size * 0.55), "midleft")
        if scene.thinking and scene.state.current == p:
            dots = "." * (1 + int(scene.now * 3) % 3)
            _text(surf, f"thinking{dots}", size - 3, GOLD, (ox + 30, y + band // 2 - 2 + size * 0.55), "midleft")
        elif scene.state.current == p and not scene.state.is_over:
            _text(surf, "to play", size - 3, GOLD, (ox + 30, y + band // 2 - 2 + size * 0.55), "midleft")
        else:  # what kind of player this bot is, in a few words
            from cribtiles.bot import DESCRIPTIONS

            from .game_scene import level_of

            words = DESCRIPTIONS.get(level_of(name, ""), "")
            backs = opponent_tiles(scene, p)
            room = (backs[0][0] if backs else ox + ow) - (ox + 30) - 12
            small = max(12, size - 5)
            lines = _wrap(words, small, max(40, room))
            if lines:
                more = "..." if len(lines) > 1 else ""
                _text(surf, lines[0] + more, small, DIM, (ox + 30, y + band // 2 - 2 + size * 0.55), "midleft")
        rects = opponent_tiles(scene, p)
        flying = len(scene.flights) if scene.state.current == p else 0
        shown = rects[: max(0, len(rects) - flying)]
        for r in shown:
            _blit_tile(surf, art.tile_back(r[2]), r[0], r[1], r[2])


def _peg(surf: Target, pos: tuple[float, float], colour: tuple[int, int, int], r: int) -> None:
    x, y = round(pos[0]), round(pos[1])
    _circle(surf, (0, 0, 0), (x + 2, y + 2), r)
    _circle(surf, art.shade(colour, 0.6), (x, y), r)
    _circle(surf, colour, (x - 1, y - 1), r - 1)
    _circle(surf, art.shade(colour, 1.6), (x - r // 3, y - r // 3), max(1, r // 3))


def _score_point(track: Rect, score: float) -> tuple[float, float]:
    """A point along the track for a (possibly fractional) score."""
    lo = math.floor(score)
    a = hole_position(track, lap_and_hole(lo)[1])
    if score == lo:
        return a
    _, hole_b = lap_and_hole(lo + 1)
    b = hole_position(track, hole_b)
    f = score - lo
    return a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f


def _tracks(scene: GameScene) -> list[tuple[Rect, float, float]]:
    """Each player's track on the peg board: (rectangle, hole pitch, top of its band)."""
    x, y, w, h = scene.layout.pegboard
    n = scene.state.players
    pad = max(6, h // 14)
    label_w = round(w * 0.26)
    band = (h - 2 * pad) / n
    out = []
    for p in range(n):
        by = y + pad + p * band
        track = (x + pad, round(by), w - 2 * pad - label_w, round(band))
        out.append((track, track[2] * 0.94 / 30, by))
    return out


def _pegboard_holes(surf: Target, scene: GameScene) -> None:
    """The plank, each player's lane and holes, and the names (the static part of the peg board)."""
    lay = scene.layout
    x, y, w, h = lay.pegboard
    surf.blit(art.soft_shadow(w, h, 10, 5, 120), (x - 10 + 3, y - 10 + 4))
    surf.blit(art.plank(w, h, art.PEG_WOOD, 71), (x, y))
    size = max(14, round(lay.height * 0.022))
    for p, (track, pitch, by) in enumerate(_tracks(scene)):
        band = track[3]
        hole_r = max(2, round(min(pitch * 0.26, band * 0.1)))
        colour = art.PLAYER_COLOURS[p % 4]
        # the player's lane: a faint stripe of their colour under the holes
        (ax, ay), (_, by2) = hole_position(track, 1), hole_position(track, LAP)
        lane_size = (round(track[2] - (ax - track[0]) + pitch * 0.2), round(by2 - ay + 4 * hole_r))
        lane = pygame.Surface(lane_size, pygame.SRCALPHA)
        pygame.draw.rect(lane, (*colour, 38), lane.get_rect(), border_radius=2 * hole_r)
        surf.blit(lane, (round(ax - pitch * 0.6), round(ay - 2 * hole_r)))
        for hole in range(LAP + 1):
            hx, hy = hole_position(track, hole)
            _circle(surf, (236, 196, 146), (round(hx) + 1, round(hy) + 1), hole_r)
            _circle(surf, (34, 18, 8), (round(hx), round(hy)), hole_r)
            if hole % 5 == 0 and 0 < hole < LAP:  # every fifth hole marked, as on a cribbage board
                _circle(surf, (90, 52, 26), (round(hx), round(hy)), hole_r + 2, 1)
        label_x = x + w - max(6, h // 14) - round(w * 0.26) + 8
        name = "You" if p == scene.human else scene.state.names[p]
        _text(surf, name, size, (40, 22, 10), (label_x, by + band * 0.3), "midleft")


def _draw_pegboard(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    x, _, w, h = lay.pegboard
    size = max(14, round(lay.height * 0.022))
    for p, (track, pitch, by) in enumerate(_tracks(scene)):
        band = track[3]
        colour = art.PLAYER_COLOURS[p % 4]
        pegs = scene.pegs[p]
        peg_r = max(4, round(pitch * 0.42))
        _peg(surf, _score_point(track, pegs.back), art.shade(colour, 0.8), peg_r)
        _peg(surf, _score_point(track, pegs.shown_score), colour, peg_r)
        label_x = x + w - max(6, h // 14) - round(w * 0.26) + 8
        # the number counts up with the moving peg, and settles on the game's own score
        score = round(pegs.shown_score) if pegs.moving and pegs.wait <= 0 else scene.state.scores[p]
        if pegs.moving and pegs.wait > 0:
            score = pegs.back
        _text(surf, str(score), size + 8, (30, 15, 5), (x + w - max(6, h // 14) - 4, by + band * 0.5), "midright")
        lap = lap_and_hole(score)[0]
        if lap:
            _text(surf, f"lap {lap + 1}", max(12, size - 3), (70, 40, 20), (label_x, by + band * 0.72), "midleft")


def _draw_status(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    x, y, w, h = lay.status
    size = max(16, round(lay.height * 0.027))
    state = scene.state
    if state.is_over:
        who = "Game over"
    elif scene.busy or scene.thinking or state.current != scene.human:
        who = f"{state.names[state.current]}'s turn"
    elif scene.may_pass_now() and not state.legal_plays():
        who = "Your turn: no play, pass or exchange"
    else:
        who = "Your turn"
    _text(surf, who, size, GOLD if state.current == scene.human else CREAM, (x, y + h / 2), "midleft")
    bag = state.bag_size(scene.human)
    _text(surf, f"Bag: {bag} tile{'s' if bag != 1 else ''}", size - 2, CREAM, (x + w, y + h / 2), "midright")


KEYS = "Enter play · R recall · S shuffle · P pass · X exchange · F flip · A speed · M sound · L level · F11"


def _draw_info(surf: Target, scene: GameScene) -> None:
    for row in info_rows(scene):
        hover = row.squares and row.squares == scene.hover_rows
        if hover:
            _rounded_panel(surf, (row.rect[0] - 4, row.rect[1], row.rect[2] + 8, row.rect[3]), (255, 214, 102, 50), 6)
        ix = row.rect[0] + row.indent * row.size
        _text(surf, row.left, row.size, row.colour, (ix, row.rect[1] + row.rect[3] / 2), "midleft")
        if row.right:
            _text(
                surf,
                row.right,
                row.size,
                row.colour,
                (row.rect[0] + row.rect[2], row.rect[1] + row.rect[3] / 2),
                "midright",
            )


# --- the end of the game ---


def end_reason(scene: GameScene) -> str:
    o = scene.state.outcome
    if o is None:
        return ""
    if o.reason == END_OUT and o.went_out is not None:
        who = "You" if o.went_out == scene.human else scene.state.names[o.went_out]
        return f"{who} went out with the bag empty."
    if o.reason == END_BLOCKED:
        return "The bag is empty and nobody can play."
    if o.reason == END_LOCKED:
        return "Nobody has played for two rounds: the board is locked."
    return ""


def _end_sizes(scene: GameScene) -> tuple[int, int]:
    """(text size, tile size) of the end card."""
    return max(16, round(scene.layout.height * 0.026)), max(18, round(scene.layout.cell * 0.62))


def end_rects(scene: GameScene) -> tuple[Rect, Rect]:
    """The end-of-game card and its New game button, over the board, sized to what it shows."""
    gx, gy, gw, gh = scene.layout.grid
    size, tile = _end_sizes(scene)
    bh = max(40, round(scene.layout.cell * 1.1))
    h = round(size * 8.0 + scene.state.players * (tile + size) + size * 1.6 + bh * 1.6)
    w = round(gw * 0.86)
    card = (gx + (gw - w) // 2, gy + (gh - h) // 2, w, h)
    bw = round(w * 0.4)
    button = (card[0] + (w - bw) // 2, card[1] + h - bh - bh // 2, bw, bh)
    return card, button


COUNT_START, COUNT_EACH = 0.5, 0.35  # seconds before the racks are counted, and per tile


def counted(scene: GameScene, elapsed: float) -> int:
    """How many leftover tiles have been counted off `elapsed` seconds (at normal pace) into the
    end of the game."""
    total = sum(len(r) for r in scene.state.racks)
    if elapsed < COUNT_START:
        return 0
    if elapsed == math.inf:  # instant speed: all counted at once
        return total
    return min(total, 1 + int((elapsed - COUNT_START) / COUNT_EACH))


def draw_end(surf: Target, scene: GameScene, hover: bool, elapsed: float = math.inf) -> None:
    """The end card; the racks' leftover tiles are counted off one by one as `elapsed` grows."""
    o = scene.state.outcome
    if o is None:
        return
    lay = scene.layout
    veil = pygame.Surface((lay.width, lay.height), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 110))
    surf.blit(veil, (0, 0))
    card, button = end_rects(scene)
    x, y, w, h = card
    surf.blit(art.soft_shadow(w, h, 16, 10, 170), (x - 20 + 4, y - 20 + 8))
    surf.blit(art.plank(w, h, (92, 58, 34), 81), (x, y))
    size, tile = _end_sizes(scene)
    names = ["You" if p == scene.human else scene.state.names[p] for p in range(scene.state.players)]
    shown = counted(scene, elapsed)
    done = shown >= sum(len(r) for r in scene.state.racks) and elapsed >= COUNT_START
    if not done:
        title = "Counting the racks"
    elif len(o.winners) > 1:
        title = "A tie!"
    elif o.winners[0] == scene.human:
        title = "You won!"
    else:
        title = f"{names[o.winners[0]]} won"
    _text(surf, title, size * 2, GOLD, (x + w / 2, y + size * 0.9), "midtop")
    _text(surf, end_reason(scene), size, CREAM, (x + w / 2, y + size * 3.2), "midtop")
    cols = (x + w * 0.08, x + w * 0.36, x + w * 0.62, x + w * 0.92)
    ty = y + size * 5.2
    for c, head, anchor in zip(
        cols, ("Player", "Score", "Left on rack", "Final"), ("midleft", "midright", "midleft", "midright"), strict=True
    ):
        _text(surf, head, size - 2, DIM, (c, ty), anchor)
    ty += size * 1.6
    before = 0  # tiles of earlier players, counted first
    for p in range(scene.state.players):
        colour = GOLD if p in o.winners and done else CREAM
        _text(surf, names[p], size, colour, (cols[0], ty + tile / 2), "midleft")
        _text(surf, str(scene.state.scores[p]), size, colour, (cols[1], ty + tile / 2), "midright")
        rack = scene.state.racks[p]
        mine = max(0, min(len(rack), shown - before))
        for i, t in enumerate(rack):
            tx = cols[2] + i * (tile + 3)
            face = art.tile_face(t, tile)
            if i >= mine:  # not counted yet: still face down
                face = art.tile_back(tile)
            _blit_tile(surf, face, tx, ty, tile)
        ded = sum(t.value for t in rack[:mine])
        after = cols[2] + len(rack) * (tile + 3) + 6
        if rack and elapsed >= COUNT_START:
            _text(surf, f"-{ded}", size - 1, RED, (after, ty + tile / 2), "midleft")
        elif not rack:
            _text(surf, "none", size - 1, DIM, (after, ty + tile / 2), "midleft")
        if mine == len(rack) and elapsed >= COUNT_START:
            _text(surf, str(o.final_scores[p]), size + 4, colour, (cols[3], ty + tile / 2), "midright")
        before += len(rack)
        ty += tile + size
    _button(surf, button, "New game", True, hover, strong=True)
    small = max(12, size - 4)
    level = f"Enter or N: a new game against the {scene.app.prefs.level} bot (L changes the bot)"
    _text(surf, level, small, DIM, (x + w / 2, button[1] - 6 - round(small * 1.3)), "midbottom")
    _text(surf, "Esc: look at the board", small, DIM, (x + w / 2, button[1] - 6), "midbottom")
