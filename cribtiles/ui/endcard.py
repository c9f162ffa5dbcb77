"""The end of the game over the table: the racks counted off, the final scores, the winner."""

from __future__ import annotations

import math

import pygame

from cribtiles.rules.game import END_BLOCKED, END_LOCKED, END_OUT

from . import art
from .geometry import Rect
from .paint import (
    CREAM,
    DIM,
    GOLD,
    RED,
    Target,
    blit_tile,
    button,
    write,
)
from .panel import seat_name
from .snapshot import TableSnapshot

COUNT_START, COUNT_EACH = 0.5, 0.35  # seconds before the racks are counted, and per tile


def end_reason(snap: TableSnapshot) -> str:
    o = snap.state.outcome
    if o is None:
        return ""
    if o.reason is END_OUT and o.went_out is not None:
        who = seat_name(snap, o.went_out)
        return f"{who} went out with the bag empty."
    if o.reason is END_BLOCKED:
        return "The bag is empty and nobody can play."
    if o.reason is END_LOCKED:
        return "Nobody has played for two rounds: the board is locked."
    return ""


def _end_sizes(snap: TableSnapshot) -> tuple[int, int]:
    """(text size, tile size) of the end card."""
    return max(16, round(snap.layout.height * 0.026)), max(18, round(snap.layout.cell * 0.62))


def end_rects(snap: TableSnapshot) -> tuple[Rect, Rect]:
    """The end-of-game card and its New game button, over the board, sized to what it shows."""
    gx, gy, gw, gh = snap.layout.grid
    size, tile = _end_sizes(snap)
    bh = max(40, round(snap.layout.cell * 1.1))
    h = round(size * 8.0 + snap.state.players * (tile + size) + size * 1.6 + bh * 1.6)
    w = round(gw * 0.86)
    card = (gx + (gw - w) // 2, gy + (gh - h) // 2, w, h)
    bw = round(w * 0.4)
    new_game = (card[0] + (w - bw) // 2, card[1] + h - bh - bh // 2, bw, bh)
    return card, new_game


def counted(snap: TableSnapshot, elapsed: float) -> int:
    """How many leftover tiles have been counted off `elapsed` seconds (at normal pace) into the
    end of the game."""
    total = sum(len(r) for r in snap.state.racks)
    if elapsed < COUNT_START:
        return 0
    if elapsed == math.inf:  # instant speed: all counted at once
        return total
    return min(total, 1 + int((elapsed - COUNT_START) / COUNT_EACH))


def all_counted(snap: TableSnapshot, elapsed: float) -> bool:
    """Every rack has been counted off: the final scores stand."""
    return elapsed >= COUNT_START and counted(snap, elapsed) >= sum(len(r) for r in snap.state.racks)


def draw_end(surf: Target, snap: TableSnapshot, hover: bool, elapsed: float = math.inf) -> None:
    """The end card; the racks' leftover tiles are counted off one by one as `elapsed` grows."""
    o = snap.state.outcome
    if o is None:
        return
    lay = snap.layout
    veil = pygame.Surface((lay.width, lay.height), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 110))
    surf.blit(veil, (0, 0))
    card, new_game = end_rects(snap)
    x, y, w, h = card
    surf.blit(art.soft_shadow(w, h, 16, 10, 170), (x - 20 + 4, y - 20 + 8))
    surf.blit(art.plank(w, h, (92, 58, 34), 81), (x, y))
    size, tile = _end_sizes(snap)
    names = [seat_name(snap, p) for p in range(snap.state.players)]
    shown = counted(snap, elapsed)
    done = all_counted(snap, elapsed)
    if not done:
        title = "Counting the racks"
    elif len(o.winners) > 1:
        title = "A tie!"
    elif names[o.winners[0]] == "You":
        title = "You won!"
    else:
        title = f"{names[o.winners[0]]} won"
    write(surf, title, size * 2, GOLD, (x + w / 2, y + size * 0.9), "midtop")
    write(surf, end_reason(snap), size, CREAM, (x + w / 2, y + size * 3.2), "midtop")
    cols = (x + w * 0.08, x + w * 0.36, x + w * 0.62, x + w * 0.92)
    ty = y + size * 5.2
    for c, head, anchor in zip(
        cols, ("Player", "Score", "Left on rack", "Final"), ("midleft", "midright", "midleft", "midright"), strict=True
    ):
        write(surf, head, size - 2, DIM, (c, ty), anchor)
    ty += size * 1.6
    before = 0  # tiles of earlier players, counted first
    for p in range(snap.state.players):
        colour = GOLD if p in o.winners and done else CREAM
        write(surf, names[p], size, colour, (cols[0], ty + tile / 2), "midleft")
        write(surf, str(snap.state.scores[p]), size, colour, (cols[1], ty + tile / 2), "midright")
        rack = snap.state.racks[p]
        mine = max(0, min(len(rack), shown - before))
        for i, t in enumerate(rack):
            tx = cols[2] + i * (tile + 3)
            face = art.tile_face(t, tile)
            if i >= mine:  # not counted yet: still face down
                face = art.tile_back(tile)
            blit_tile(surf, face, tx, ty, tile)
        ded = sum(t.value for t in rack[:mine])
        after = cols[2] + len(rack) * (tile + 3) + 6
        if rack and elapsed >= COUNT_START:
            write(surf, f"-{ded}", size - 1, RED, (after, ty + tile / 2), "midleft")
        elif not rack:
            write(surf, "none", size - 1, DIM, (after, ty + tile / 2), "midleft")
        if mine == len(rack) and elapsed >= COUNT_START:
            write(surf, str(o.final_scores[p]), size + 4, colour, (cols[3], ty + tile / 2), "midright")
        before += len(rack)
        ty += tile + size
    small = max(12, size - 4)
    if snap.next_is_round:
        button(surf, new_game, "Next round", True, hover, strong=True)
        level = "Enter or N: the next round of the match"
    else:
        button(surf, new_game, "New game", True, hover, strong=True)
        level = f"Enter or N: a new game against the {snap.next_level} bot (L changes the bot)"
    write(surf, level, small, DIM, (x + w / 2, new_game[1] - 6 - round(small * 1.3)), "midbottom")
    write(surf, "Esc: look at the board", small, DIM, (x + w / 2, new_game[1] - 6), "midbottom")
