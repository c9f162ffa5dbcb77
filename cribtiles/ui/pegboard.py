"""The cribbage peg board, drawn alike in both games: a wooden plank, a lane of holes a player, two
pegs each that leapfrog, the name and the score at the lane's end.

`pegs.py` is the model (which hole, laps, where a hole lies); this module draws it. The still part
(`draw_board`) is drawn once into the background; the pegs (`draw_lanes`) every frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import pygame

from . import art
from .geometry import Rect
from .paint import Target, draw_circle, fit_width, tag, write
from .pegs import HOLES_PER_ROW, LAP, hole_position, lap_and_hole

#: The share of the board's width left at the lanes' end for the names and scores.
LABEL = 0.28
INK_ON_WOOD = (40, 22, 10)
SCORE_INK = (30, 15, 5)
LAP_INK = (70, 40, 20)
Colour = tuple[int, int, int]


class Track(NamedTuple):
    """One player's lane: its holes' rectangle, the distance between two holes, the top of its band."""

    rect: Rect
    pitch: float
    top: float


@dataclass(frozen=True)
class Lane:
    """What one lane shows this frame."""

    colour: Colour
    back: float  # the score the back peg stands at (between two holes while it moves)
    front: float
    number: int  # the score written at the lane's end
    badge: str = ""  # a word on a pill under the name ("Servant")
    badge_colour: Colour = (0, 0, 0)


def tracks(board: Rect, players: int) -> list[Track]:
    x, y, w, h = board
    pad = max(6, h // 14)
    band = (h - 2 * pad) / players
    label_w = round(w * LABEL)
    out = []
    for p in range(players):
        top = y + pad + p * band
        rect = (x + pad, round(top), w - 2 * pad - label_w, round(band))
        out.append(Track(rect, rect[2] * 0.94 / HOLES_PER_ROW, top))
    return out


def _hole_of(track: Rect, score: int, game_hole: int | None) -> tuple[float, float]:
    if game_hole is not None and score >= game_hole:
        return hole_position(track, 0)  # a real board's last hole sits at its start
    return hole_position(track, lap_and_hole(score)[1])


def score_point(track: Rect, score: float, game_hole: int | None = None) -> tuple[float, float]:
    """Where a (possibly fractional) score lies on a track. With a `game_hole` (121 in cribbage) the
    score goes round to it and stops there; without, it laps on."""
    if game_hole is not None:
        score = max(0.0, min(float(game_hole), score))
    lo = math.floor(score)
    a = _hole_of(track, lo, game_hole)
    if score == lo:
        return a
    b = _hole_of(track, lo + 1, game_hole)
    f = score - lo
    return a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f


def _stacked(band: float, size: int) -> bool:
    """Whether a lane is tall enough for its score under its name: then the name has the whole width
    (two players); else the score stands beside the name, which stops short of it (three or four)."""
    return band >= 3.2 * size


def _label_x(board: Rect) -> int:
    x, _, w, h = board
    return x + w - max(6, h // 14) - round(w * LABEL) + 8


def _score_right(board: Rect) -> int:
    x, _, w, h = board
    return x + w - max(6, h // 14) - 4


def draw_board(surf: Target, board: Rect, names: Sequence[str], size: int, game_hole: int | None = None) -> None:
    """The plank, each player's lane and holes, and the names (the still part). With a `game_hole`
    the start hole, which is also the game hole, is ringed in gold."""
    x, y, w, h = board
    surf.blit(art.soft_shadow(w, h, 10, 5, 120), (x - 10 + 3, y - 10 + 4))
    surf.blit(art.plank(w, h, art.PEG_WOOD, 71), (x, y))
    for p, lane_track in enumerate(tracks(board, len(names))):
        track, pitch, _ = lane_track
        band = track[3]
        hole_r = max(2, round(min(pitch * 0.26, band * 0.1)))
        colour = art.PLAYER_COLOURS[p % 4]
        # the player's lane: a faint stripe of their colour under the holes
        (ax, ay), (_, by2) = hole_position(track, 1), hole_position(track, LAP)
        lane = pygame.Surface(
            (round(track[2] - (ax - track[0]) + pitch * 0.2), round(by2 - ay + 4 * hole_r)), pygame.SRCALPHA
        )
        pygame.draw.rect(lane, (*colour, 38), lane.get_rect(), border_radius=2 * hole_r)
        surf.blit(lane, (round(ax - pitch * 0.6), round(ay - 2 * hole_r)))
        for hole in range(LAP + 1):
            hx, hy = hole_position(track, hole)
            draw_circle(surf, (236, 196, 146), (round(hx) + 1, round(hy) + 1), hole_r)
            draw_circle(surf, (34, 18, 8), (round(hx), round(hy)), hole_r)
            if hole % 5 == 0 and 0 < hole < LAP:  # every fifth hole marked, as on a cribbage board
                draw_circle(surf, (90, 52, 26), (round(hx), round(hy)), hole_r + 2, 1)
        if game_hole is not None:
            sx, sy = hole_position(track, 0)
            draw_circle(surf, (150, 110, 40), (round(sx), round(sy)), hole_r + 3, 1)
        room, at = name_place(board, lane_track, size)
        write(surf, fit_width(names[p], size, room), size, INK_ON_WOOD, (_label_x(board), at), "midleft")


def name_place(board: Rect, track: Track, size: int) -> tuple[int, float]:
    """The width a lane's name may take and the height of its line: over the score where the lane is
    tall enough, else stopping short of the score beside it."""
    band, label_x = track.rect[3], _label_x(board)
    if _stacked(band, size):
        return _score_right(board) - label_x, track.top + band * 0.27
    return _score_right(board) - art.font(size + 8).size("888")[0] - 6 - label_x, track.top + band * 0.3


def _peg(surf: Target, pos: tuple[float, float], colour: Colour, r: int) -> None:
    x, y = round(pos[0]), round(pos[1])
    draw_circle(surf, (0, 0, 0), (x + 2, y + 2), r)
    draw_circle(surf, art.shade(colour, 0.6), (x, y), r)
    draw_circle(surf, colour, (x - 1, y - 1), r - 1)
    draw_circle(surf, art.shade(colour, 1.6), (x - r // 3, y - r // 3), max(1, r // 3))


def draw_lanes(surf: Target, board: Rect, lanes: Sequence[Lane], size: int, game_hole: int | None = None) -> None:
    """Each lane's two pegs, its score, and under the name its badge and the lap it is on."""
    label_x = _label_x(board)
    for lane, (track, pitch, top) in zip(lanes, tracks(board, len(lanes)), strict=True):
        band = track[3]
        r = max(4, round(pitch * 0.42))
        _peg(surf, score_point(track, lane.back, game_hole), art.shade(lane.colour, 0.8), r)
        _peg(surf, score_point(track, lane.front, game_hole), lane.colour, r)
        number_y = top + band * (0.66 if _stacked(band, size) else 0.5)
        number = write(surf, str(lane.number), size + 8, SCORE_INK, (_score_right(board), number_y), "midright")
        at, small = label_x, max(12, size - 3)
        if lane.badge:  # the badge under the name, the lap after it when there is room
            badge = tag(surf, lane.badge, max(11, size - 5), (label_x, top + band * 0.72), lane.badge_colour)
            at = badge[0] + badge[2] + 5
        lap = lap_and_hole(lane.number)[0] if game_hole is None or lane.number < game_hole else 0
        words = f"lap {lap + 1}"
        if lap and at + art.font(small).size(words)[0] < number[0]:
            write(surf, words, small, LAP_INK, (at, top + band * 0.72), "midleft")
