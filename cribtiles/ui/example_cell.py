"""How a rule book's example is laid in its cell, alike for tiles and for cards: the caption on top,
the picture below it on the left, the engine's result beside the picture.

Each book measures its own picture (tiles on a board, cards in a row); the frame around it is this.
"""

from __future__ import annotations

from typing import NamedTuple

from . import art
from .geometry import Rect
from .paint import wrap

TALLEST_CAPTION = 2  # lines of caption a cell takes readily (3 when nothing else fits)
WORDS_HEIGHT = 2.2  # text sizes: a picture written in words (notation) is one line this tall
RESULT_CHARS = 24  # text sizes: the widest the result beside a picture grows


class Frame(NamedTuple):
    """What a cell leaves for an example's picture once its caption is laid."""

    caption: tuple[str, ...]
    left: int  # where the picture starts
    top: int
    width: int  # room for the picture beside the result's share
    height: int
    inner: int  # the margin inside the cell


def frame(rect: Rect, caption: str, t: int, strict: bool, result_share: float, result_least: int) -> Frame | None:
    """The caption wrapped at text size `t` and the room below it, the result's share of the width
    (at least `result_least` text sizes) kept aside; None when the caption takes too many lines."""
    x, y, w, h = rect
    inner = max(4, t // 2)
    lines = wrap(caption, t, w - 2 * inner)
    if len(lines) > (TALLEST_CAPTION if strict else TALLEST_CAPTION + 1):
        return None
    cap_h = len(lines) * round(t * 1.25) + inner
    result_w = max(round(t * result_least), round((w - 2 * inner) * result_share))
    return Frame(tuple(lines), x + inner, y + cap_h, w - 3 * inner - result_w, h - cap_h - inner, inner)


def words_picture(room: Frame, text: str, t: int) -> Rect | None:
    """The picture of an example written in words (a notation the engine refuses): one line of text,
    or None when it does not fit."""
    text_w = art.font(t).size(text)[0] + 2 * t
    if text_w > room.width or room.height < round(t * WORDS_HEIGHT):
        return None
    return (room.left, room.top, text_w, round(t * WORDS_HEIGHT))


def result_beside(rect: Rect, room: Frame, picture: Rect, t: int) -> Rect:
    """Where the result goes: right of the picture, however wide the cell, as tall as the room."""
    rx = picture[0] + picture[2] + 2 * room.inner
    return (rx, room.top, min(rect[0] + rect[2] - room.inner - rx, t * RESULT_CHARS), room.height)
