"""Drawing the chat of a table online (`chat.Chat`'s view): the field typed over the table, and the strip
of the lines heard, fading (issue 31)."""

from __future__ import annotations

from cribtiles.table.chat import CHAT_LIMIT

from . import art
from .chat import ChatView
from .geometry import Rect
from .paint import CREAM, DIM, GOLD, RED, Target, draw_rect, fit_width, rounded_panel, wrap, write

FIELD_FILL, FIELD_EDGE = (34, 22, 14, 255), (150, 110, 60)  # opaque: what it covers waits


def _faded(fade: float) -> tuple[int, int, int]:
    """CREAM towards the felt as a line fades (`fade` in quarters: each a text drawn once)."""
    felt = (40, 70, 52)
    return (
        round(CREAM[0] + (felt[0] - CREAM[0]) * fade),
        round(CREAM[1] + (felt[1] - CREAM[1]) * fade),
        round(CREAM[2] + (felt[2] - CREAM[2]) * fade),
    )


def draw_heard(surf: Target, area: Rect, view: ChatView, size: int) -> None:
    """The lines heard, the newest lowest, upwards from the foot of `area`, on a dark ground."""
    x, y, w, h = area
    rows: list[tuple[str, float]] = []
    for line, fade in view.heard:
        rows.extend((part, fade) for part in wrap(line, size, w - 20)[:3])
    step = round(size * 1.3)
    rows = rows[-max(1, (h - 10) // step) :]
    if not rows:
        return
    top = y + h - step * len(rows) - 10
    rounded_panel(surf, (x, top, w, step * len(rows) + 10), (10, 16, 12, 150), 8)
    for i, (part, fade) in enumerate(rows):
        write(surf, part, size, _faded(fade), (x + 10, top + 5 + i * step), "topleft")


def draw_field(surf: Target, area: Rect, view: ChatView, size: int) -> None:
    """The field being typed in: "Say:", the end of the line that fits, a caret, and under it the keys
    (or why the line was not sent)."""
    if view.typed is None:
        return
    x, y, w, h = area
    rounded_panel(surf, area, FIELD_FILL, 10)
    draw_rect(surf, FIELD_EDGE, area, 2, border_radius=10)
    label = "Say:"
    write(surf, label, size, GOLD, (x + 12, y + h * 0.36), "midleft")
    left = x + 24 + art.font(size).size(label)[0]
    room = x + w - 14 - left
    shown = view.typed
    font = art.font(size)
    while shown and font.size(shown + "|")[0] > room:  # the end of a long line: where the typing is
        shown = shown[1:]
    r = write(surf, shown, size, CREAM, (left, y + h * 0.36), "midleft")
    if view.caret:
        cx = left + (r[2] if shown else 0) + 2
        draw_rect(surf, CREAM, (cx, round(y + h * 0.36 - size * 0.55), 2, round(size * 1.1)))
    small = max(11, size - 4)
    note = view.error or f"Enter sends to the table · Esc cancels · {len(view.typed)}/{CHAT_LIMIT}"
    write(surf, fit_width(note, small, w - 24), small, RED if view.error else DIM, (x + w / 2, y + h * 0.78), "center")
