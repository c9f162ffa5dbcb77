"""Drawing the table scene: the still layer (board, played tiles, panels) drawn once per turn, and
each frame what moves on it. `draw` reads the scene and changes nothing."""

from __future__ import annotations

import itertools
import math
import weakref
from typing import TYPE_CHECKING

import pygame

from cribtiles.rules.moves import Play

from . import art
from .geometry import contains
from .paint import (
    GOLD,
    RED,
    Canvas,
    Target,
    back_of,
    badge,
    blit_tile,
    button,
    draw_circle,
    draw_rect,
    face_of,
    outline,
    panel_surface,
    rounded_panel,
    scaled,
    write,
)
from .panel import KEYS, draw_panel, draw_toasts, pegboard_holes

if TYPE_CHECKING:
    from .game_scene import GameScene

LIFT = 0.1  # seconds for a picked-up tile to rise

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
        blit_tile(surf, art.tile_face(tile, w), x, y, w)
        if sq in fresh:
            draw_rect(surf, GOLD, (x - 1, y - 1, w + 2, w + 2), 2, border_radius=max(3, w // 8))
    rx, ry, rw, rh = lay.rack
    surf.blit(art.soft_shadow(rw, rh, 8, 6, 130), (rx - 12 + 3, ry - 12 + 5))
    surf.blit(art.rack_surface(rw, rh), (rx, ry))
    rounded_panel(surf, lay.panel, (12, 24, 18, 120), 14)
    ox, oy, ow, oh = lay.opponents
    others = [p for p in range(scene.state.players) if p != scene.human]
    band = oh // max(1, len(others))
    for k, p in enumerate(others):
        y = oy + k * band
        rounded_panel(surf, (ox, y, ow, band - 4), (0, 0, 0, 70), 10)
        draw_circle(surf, art.PLAYER_COLOURS[p % 4], (ox + 16, y + band // 2 - 2), 7)
    pegboard_holes(surf, scene)
    rounded_panel(surf, lay.info, (0, 0, 0, 80), 10)
    x, y, w, h = lay.info
    size = max(12, round(lay.height * 0.017))
    keys = KEYS if art.font(size).size(KEYS)[0] <= w - 16 else KEYS.replace(" · F11", "").replace(" · M sound", "")
    write(surf, keys, size, (150, 140, 120), (x + w / 2, y + h - 6), "midbottom")
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
    draw_panel(surf, scene)
    _draw_flights(surf, scene)
    _draw_held(surf, scene)
    draw_toasts(surf, scene)


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
        face = scaled(face_of(scene, face_tile, size), fw, size)
        shadow, ox, oy = art.tile_shadow(size, lifted)
        surf.blit(shadow, (round(x) + ox, round(y) + oy))
        surf.blit(face, (round(x + (size - fw) / 2), round(y)))
        return
    blit_tile(surf, face_of(scene, tile, size), x, y, size, lifted)


def _draw_overlays(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    live = scene.live if scene.state.current == scene.human else None
    width = max(2, lay.cell // 16)
    if live is not None and scene.draft.held is None:
        if live.score is not None:
            for sl in live.score.lines:
                box = outline(surf, scene, sl.line.squares, GOLD, width)
                # the line's score at its far end: right of a row, below a column
                across = sl.line.squares[0].row == sl.line.squares[-1].row
                nudge = lay.cell // 6
                at = (
                    (box[0] + box[2] + nudge, box[1] + box[3] // 2)
                    if across
                    else (box[0] + box[2] // 2, box[1] + box[3] + nudge)
                )
                badge(surf, str(sl.total), at, GOLD, max(14, lay.cell * 2 // 5))
        else:
            for squares in live.bad_lines:  # each broken line on its own (a row and a column may both be)
                outline(surf, scene, squares, RED, width + 1)
    if scene.draft.held is not None and scene.my_turn and not scene.exchanging:
        # where the held tile would land: a warm glow on a free square, a red edge on a taken one
        held = scene.held_centre()
        target = lay.nearest_square(held) if lay.rack_slot_at(held) is None else None
        if target is not None:
            r = lay.square_rect(target)
            if scene.draft.is_free(scene.state.board, target):
                surf.blit(panel_surface(r[2], r[3], (255, 236, 170, 70), 4), r[:2])
                draw_rect(surf, GOLD, r, 2, border_radius=4)
            else:
                draw_rect(surf, RED, r, 2, border_radius=4)
    if scene.hover_rows:
        glow = panel_surface(lay.cell, lay.cell, (255, 230, 120, 90), 0)
        for sq in scene.hover_rows:
            x, y, _, _ = lay.square_rect(sq)
            surf.blit(glow, (x, y))
            draw_rect(surf, GOLD, lay.square_rect(sq), 2, border_radius=4)
    if scene.keyboard:
        pulse = 0.6 + 0.4 * math.sin(scene.now * 6)
        colour = (round(120 + 135 * pulse), 230, 255)
        draw_rect(surf, colour, lay.square_rect(scene.cursor), 3, border_radius=5)


def _draw_rack(surf: Target, scene: GameScene) -> None:
    lay = scene.layout
    mx, my = scene.mouse
    for name in ("shuffle", "recall"):
        r = lay.buttons[name]
        enabled = bool(scene.draft.placed) if name == "recall" else len(scene.draft.order) > 1
        button(surf, r, name.capitalize(), enabled, contains(r, (mx, my)))
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
            draw_rect(surf, RED, (round(x) - 2, round(y) - 2, size + 4, size + 4), 3, border_radius=8)
        if scene.keyboard and slot == min(scene.selected, len(scene.draft.order) - 1):
            draw_rect(surf, (150, 230, 255), (round(x) - 3, round(y) - 3, size + 6, size + 6), 3, border_radius=9)
            write(surf, str(slot + 1), max(12, size // 4), (150, 230, 255), (x + size / 2, y + size + 4), "midtop")


def _draw_held(surf: Target, scene: GameScene) -> None:
    tid = scene.draft.held
    if tid is None:
        return
    # the tile rises: it grows from its size where it lay to a little over rack size in a moment
    start, t0 = scene.lift
    t = 1.0 if scene.pace <= 0 else min(1.0, (scene.now - t0) / (LIFT * scene.pace))
    grow = start / scene.layout.rack_tile + (1.08 - start / scene.layout.rack_tile) * (1 - (1 - t) ** 2)
    size = round(scene.layout.rack_tile * grow)
    x = scene.mouse[0] - scene.grab[0] * grow
    y = scene.mouse[1] - scene.grab[1] * grow
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
        blit_tile(surf, face, x, y, size, lifted=t < 0.95)
