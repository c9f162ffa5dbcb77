"""Drawing the table snap: the still layer (board, played tiles, panels) drawn once per turn, and
each frame what moves on it. drawing reads the snapshot and changes nothing."""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from cribtiles.rules.moves import Play

from .. import art
from ..chat_paint import draw_field, draw_history
from ..coach_panel import draw_ghost
from ..frame import Frame, Layer
from ..geometry import Layout, contains
from ..motion import ease_out
from ..paint import (
    CREAM,
    GOLD,
    RED,
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
from .declare import draw_declaring, draw_joker_button
from .panel import draw_panel, draw_toasts, keys_line, pegboard_holes, rack_buttons
from .snapshot import TableSnapshot
from .table_line import draw_rules_line

LIFT = 0.1  # seconds for a picked-up tile to rise
LIT = (255, 236, 140)  # squares pointed at from the breakdown

_static_cache: dict[object, pygame.Surface] = {}


def _static_layer(snap: TableSnapshot) -> pygame.Surface:
    """Everything that changes only when a turn is taken or the window is resized: the felt, the
    board with the tiles played so far, the rack, the panels, the peg board's holes. Drawn once
    per turn, it makes a frame one opaque blit plus what moves."""
    lay = snap.layout
    last = snap.state.last_turn
    fresh = last.move.squares if last is not None and isinstance(last.move, Play) else ()
    if snap.past is not None:
        fresh = snap.past.squares
    size = max(12, round(lay.height * 0.017))
    keys = keys_line(snap, size, lay.info[2] - 16)
    key = (lay.width, lay.height, snap.board, fresh, snap.state.names, snap.human, art.letter_marks(), keys)
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
    for sq, tile in snap.board.tiles():
        x, y, w, _ = lay.tile_rect(sq)
        blit_tile(surf, art.tile_face(tile, w), x, y, w)
        if sq in fresh:
            draw_rect(surf, GOLD, (x - 1, y - 1, w + 2, w + 2), 2, border_radius=max(3, w // 8))
    rx, ry, rw, rh = lay.rack
    surf.blit(art.soft_shadow(rw, rh, 8, 6, 130), (rx - 12 + 3, ry - 12 + 5))
    surf.blit(art.rack_surface(rw, rh), (rx, ry))
    rounded_panel(surf, lay.panel, (12, 24, 18, 120), 14)
    ox, oy, ow, oh = lay.opponents
    others = [p for p in range(snap.state.players) if p != snap.human]
    band = oh // max(1, len(others))
    for k, p in enumerate(others):
        y = oy + k * band
        rounded_panel(surf, (ox, y, ow, band - 4), (0, 0, 0, 70), 10)
        draw_circle(surf, art.PLAYER_COLOURS[p % 4], (ox + 16, y + band // 2 - 2), 7)
    pegboard_holes(surf, snap)
    rounded_panel(surf, lay.info, (0, 0, 0, 80), 10)
    x, y, w, h = lay.info
    write(surf, keys, size, (150, 140, 120), (x + w / 2, y + h - 6), "midbottom")
    if len(_static_cache) > 6:
        _static_cache.clear()
    _static_cache[key] = surf
    return surf


class TableView:
    """Draws the table: the still layer, and over it what moves, through the frame path (`frame.Frame`)
    that restores and sends to the screen only what moved since the last frame."""

    def __init__(self) -> None:
        self.frame = Frame()

    def draw(self, screen: pygame.Surface, snap: TableSnapshot, full: bool = False) -> list[pygame.Rect] | None:
        """Draw the table; returns the rectangles that changed since the last frame, or None when the
        whole window did (the first frame, a new turn, a new size, or `full`)."""
        layer = Layer(screen.get_size())
        _draw_dynamic(layer, snap)
        return self.frame.show(screen, _static_layer(snap), layer.items, full)


def _draw_dynamic(surf: Layer, snap: TableSnapshot) -> None:
    draw_rules_line(surf, snap)
    if snap.curtain is not None:
        draw_panel(surf, snap)
        _draw_flights(surf, snap)
        _draw_curtain(surf, snap, snap.curtain)
        draw_toasts(surf, snap)
        return
    if snap.past is None:  # a past turn is shown on its own board, without this turn's tiles
        _draw_board_tiles(surf, snap)
        _draw_overlays(surf, snap)
        draw_ghost(surf, snap)  # the coach's hint, ghosted on its squares
    _draw_rack(surf, snap)
    draw_panel(surf, snap)
    draw_joker_button(surf, snap)
    draw_declaring(surf, snap)
    _draw_flights(surf, snap)
    _draw_held(surf, snap)
    draw_toasts(surf, snap)
    if snap.chat is not None and snap.chat.typed is not None:
        size = chat_text_size(snap.layout)
        draw_history(surf, chat_history(snap.layout), snap.chat, size)
        draw_field(surf, chat_field(snap.layout), snap.chat, size)


def chat_text_size(layout: Layout) -> int:
    return max(15, round(layout.height * 0.024))


def chat_field(layout: Layout) -> tuple[int, int, int, int]:
    """Where the line being typed to the table lies: over the rack and its buttons, as wide as the board
    (the board and the side panel stay in sight; the rack is back once the line is sent)."""
    bx, _, bw, _ = layout.board
    _, ry, _, rh = layout.rack
    h = max(56, rh + rh // 4)  # its wooden edge covered too
    return (bx, ry + (rh - h) // 2, bw, h)


def chat_history(layout: Layout) -> tuple[int, int, int, int]:
    """Where the table's chat shows while a line is typed: over the lower part of the board, just above
    the field (the board's upper half stays in sight)."""
    bx, by, bw, bh = layout.board
    field_top = chat_field(layout)[1]
    top = by + round(bh * 0.5)
    return (bx, top, bw, max(80, field_top - 8 - top))


def _draw_curtain(surf: Target, snap: TableSnapshot, name: str) -> None:
    """Hot seat: a wooden card over the rack while the next person takes the seat (the board and the
    scores are everyone's to see; the tiles on the rack are not)."""
    lay = snap.layout
    rx, ry, rw, rh = lay.rack
    card = (rx - lay.cell, ry - 4, rw + 2 * lay.cell, rh + 8)
    surf.blit(art.plank(card[2], card[3], (96, 62, 34), 71), card[:2])
    draw_rect(surf, GOLD, card, 2, border_radius=8)
    size = max(16, round(rh * 0.3))
    cx = card[0] + card[2] / 2
    write(surf, f"Pass to {name}", size + 4, GOLD, (cx, card[1] + card[3] * 0.36), "center")
    write(surf, "click (or Enter) when ready", size - 4, CREAM, (cx, card[1] + card[3] * 0.72), "center")


def _draw_board_tiles(surf: Target, snap: TableSnapshot) -> None:
    lay = snap.layout
    for sq, tid in snap.draft.placed.items():
        p = snap.pos.get(tid)
        size = round(p[2]) if p else lay.tile_rect(sq)[2]
        x, y = (p[0], p[1]) if p else lay.tile_rect(sq)[:2]
        _draw_draft_tile(surf, snap, tid, x, y, size)


def _draw_draft_tile(
    surf: Target, snap: TableSnapshot, tid: int, x: float, y: float, size: int, lifted: bool = False
) -> None:
    tile = snap.draft.face(tid)
    flip = snap.flips.get(tid)
    if flip is not None and snap.pace > 0:
        t = min(1.0, (snap.now - flip.t0) / max(1e-6, 0.22 * snap.pace))
        face_tile = flip.before if t < 0.5 else tile
        squash = max(0.06, abs(math.cos(math.pi * t)))
        fw = max(1, round(size * squash))
        face = scaled(face_of(snap, face_tile, size), fw, size)
        shadow, ox, oy = art.tile_shadow(size, lifted)
        surf.blit(shadow, (round(x) + ox, round(y) + oy))
        surf.blit(face, (round(x + (size - fw) / 2), round(y)))
        return
    blit_tile(surf, face_of(snap, tile, size), x, y, size, lifted)


def _draw_overlays(surf: Target, snap: TableSnapshot) -> None:
    lay = snap.layout
    live = snap.live if snap.state.current == snap.human else None
    width = max(2, lay.cell // 16)
    if live is not None and snap.draft.held is None:
        if live.score is not None:
            for sl in live.score.lines:
                box = outline(surf, snap, sl.line.squares, GOLD, width)
                # the line's score at its far end: right of a row, below a column
                across = sl.line.squares[0].row == sl.line.squares[-1].row
                nudge = lay.cell // 6
                at = (
                    (box[0] + box[2] + nudge, box[1] + box[3] // 2)
                    if across
                    else (box[0] + box[2] // 2, box[1] + box[3] + nudge)
                )
                if not snap.hide_scores:  # under the Joker rule a person counts their own play
                    badge(surf, str(sl.total), at, GOLD, max(14, lay.cell * 2 // 5))
        else:
            for squares in live.bad_lines:  # each broken line on its own (a row and a column may both be)
                outline(surf, snap, squares, RED, width + 1)
    if snap.draft.held is not None and snap.my_turn and not snap.exchanging:
        # where the held tile would land: a warm glow on a free square, a red edge on a taken one
        held = snap.held_centre
        target = lay.nearest_square(held) if lay.rack_slot_at(held) is None else None
        if target is not None:
            r = lay.square_rect(target)
            if snap.draft.is_free(snap.state.board, target):
                surf.blit(panel_surface(r[2], r[3], (255, 236, 170, 70), 4), r[:2])
                draw_rect(surf, GOLD, r, 2, border_radius=4)
            else:
                draw_rect(surf, RED, r, 2, border_radius=4)
    if snap.hover_rows:
        # each square lights up under its tile: a bright frame round it and the tile drawn again on
        # top, so a dark tile stays dark and its colour is read (a wash over the tile hid it)
        for sq in snap.hover_rows:
            x, y, c, _ = lay.square_rect(sq)
            grow = max(2, c // 16)
            surf.blit(_lit(c + 2 * grow, grow * 2), (x - grow, y - grow))
            tile = snap.state.board[sq]
            if tile is None and sq in snap.draft.placed:
                tile = snap.draft.face(snap.draft.placed[sq])
            if tile is not None:
                tx, ty, tw, _ = lay.tile_rect(sq)
                surf.blit(face_of(snap, tile, tw), (tx, ty))
    if snap.keyboard:
        pulse = 0.6 + 0.4 * math.sin(snap.now * 6)
        colour = (round(120 + 135 * pulse), 230, 255)
        draw_rect(surf, colour, lay.square_rect(snap.cursor), 3, border_radius=5)


@lru_cache(maxsize=8)
def _lit(side: int, radius: int) -> pygame.Surface:
    """The light under a square pointed at from the breakdown (seen round its tile)."""
    glow = pygame.Surface((side, side), pygame.SRCALPHA)
    pygame.draw.rect(glow, (*LIT, 235), glow.get_rect(), border_radius=radius)
    return glow


def _draw_rack(surf: Target, snap: TableSnapshot) -> None:
    if snap.watching:  # no rack from no seat: who is watched, on the rack's plank
        rx, ry, rw, rh = snap.layout.rack
        names = " and ".join(snap.state.names)
        write(surf, f"Watching {names}", max(15, round(rh * 0.28)), CREAM, (rx + rw / 2, ry + rh / 2), "center")
        return
    mx, my = snap.mouse
    for _, r, label, enabled in rack_buttons(snap):
        button(surf, r, label, enabled, contains(r, (mx, my)))
    for slot, tid in enumerate(snap.draft.order):
        p = snap.pos.get(tid)
        rest = snap.tile_rect_for(tid)
        if rest is None:
            continue
        x, y, size = (p[0], p[1], round(p[2])) if p else (rest[0], rest[1], rest[2])
        marked = tid in snap.draft.marked
        if marked:
            y -= size * 0.18
        _draw_draft_tile(surf, snap, tid, x, y, size)
        if marked:
            draw_rect(surf, RED, (round(x) - 2, round(y) - 2, size + 4, size + 4), 3, border_radius=8)
        if snap.keyboard and slot == min(snap.selected, len(snap.draft.order) - 1):
            draw_rect(surf, (150, 230, 255), (round(x) - 3, round(y) - 3, size + 6, size + 6), 3, border_radius=9)
            write(surf, str(slot + 1), max(12, size // 4), (150, 230, 255), (x + size / 2, y + size + 4), "midtop")


def _draw_held(surf: Target, snap: TableSnapshot) -> None:
    tid = snap.draft.held
    if tid is None:
        return
    # the tile rises: it grows from its size where it lay to a little over rack size in a moment
    start, t0 = snap.lift
    t = 1.0 if snap.pace <= 0 else min(1.0, (snap.now - t0) / (LIFT * snap.pace))
    grow = start / snap.layout.rack_tile + (1.08 - start / snap.layout.rack_tile) * (1 - (1 - t) ** 2)
    size = round(snap.layout.rack_tile * grow)
    x = snap.mouse[0] - snap.grab[0] * grow
    y = snap.mouse[1] - snap.grab[1] * grow
    _draw_draft_tile(surf, snap, tid, x, y, size, lifted=True)


def _draw_flights(surf: Target, snap: TableSnapshot) -> None:
    lay = snap.layout
    for f in snap.flights:
        t = (snap.now - f.t0) / max(1e-6, f.duration)
        if t < 0:
            continue
        t = min(1.0, t)
        e = ease_out(t)
        tx, ty, tw, _ = lay.tile_rect(f.square)
        sx, sy = f.start
        start_size = round(lay.cell * 0.8)
        size = round(start_size + (tw - start_size) * e)
        x = sx - start_size / 2 + (tx - (sx - start_size / 2)) * e
        y = sy - start_size / 2 + (ty - (sy - start_size / 2)) * e - math.sin(math.pi * t) * lay.cell * 0.6
        face = back_of(snap, size) if t < 0.15 else face_of(snap, f.tile, size)
        blit_tile(surf, face, x, y, size, lifted=t < 0.95)
