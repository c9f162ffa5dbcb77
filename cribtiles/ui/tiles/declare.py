"""The Joker rule at the window: the person's count of their own play (pointing at each fifteen,
pair, run or bonus, or typing the total) drawn over the side panel, and the "Joker!" button a person
presses to call on another player's play. Reads the snapshot; changes nothing."""

from __future__ import annotations

from ..geometry import Layout, Rect
from ..paint import CREAM, DIM, GOLD, Target, button, draw_rect, rounded_panel, wrap, write
from .snapshot import TableSnapshot

POINTED = (150, 230, 255)
CLAIMED = (140, 225, 120)


def joker_rect(layout: Layout) -> Rect:
    """The "Joker!" button: in the status row, between whose turn it is and the bag."""
    x, y, w, h = layout.status
    bw = max(110, w // 4)
    return x + (w - bw) // 2 + w // 10, y + 2, bw, h - 4


def draw_joker_button(surf: Target, snap: TableSnapshot) -> None:
    if snap.may_call:
        r = joker_rect(snap.layout)
        over = r[0] <= snap.mouse[0] < r[0] + r[2] and r[1] <= snap.mouse[1] < r[1] + r[3]
        button(surf, r, "Joker! (J)", True, over, strong=True)


def draw_declaring(surf: Target, snap: TableSnapshot) -> None:
    """The count so far over the side panel's text, and the squares pointed at and claimed."""
    d = snap.declaring
    if d is None:
        return
    lay = snap.layout
    for sq in d.claimed:
        x, y, w, h = lay.square_rect(sq)
        draw_rect(surf, CLAIMED, (x + 3, y + 3, w - 6, h - 6), 3, border_radius=4)
    for sq in d.pointed:
        draw_rect(surf, POINTED, lay.square_rect(sq), 3, border_radius=4)
    x, y, w, h = lay.info
    rounded_panel(surf, (x, y, w, h), (14, 26, 20, 255), 10)
    base = max(15, round(lay.height * 0.025))
    pad = base // 2
    tx, ty, tw = x + pad, y + pad, w - 2 * pad
    write(surf, "Count your play", base + 2, GOLD, (tx, ty), "topleft")
    ty += round(base * 1.7)
    text = (
        "Under the Joker rule you declare what your play scores. Click the tiles of each fifteen, pair "
        "or run (all of the play's tiles for a bonus), or type the total. Enter declares it; Esc goes back. "
        "Whatever you declare stands unless someone calls Joker: what you missed, or claimed over, is theirs."
    )
    for line in wrap(text, base - 2, tw):
        write(surf, line, base - 2, DIM, (tx, ty), "topleft")
        ty += round((base - 2) * 1.3)
    ty += pad
    for what, points in d.found[-8:]:
        write(surf, what, base, CREAM, (tx + base, ty), "topleft")
        write(surf, str(points), base, CREAM, (tx + tw, ty), "topright")
        ty += round(base * 1.3)
    shown = d.typed if d.typed else str(d.points)
    how = "typed" if d.typed else "found so far"
    ty += pad
    r = write(surf, f"Declare: {shown}", base + 4, GOLD, (tx, ty), "topleft")
    write(surf, how, base - 2, DIM, (tx + tw, r[1] + r[3] // 2), "midright")
