"""Drawing the chat of a table online (`chat.Chat`'s view): the field typed over the table, the table's chat
over it while the field is open (its lines, newest lowest, and the players who may be muted), and the
strip of the lines heard, fading (issues 31, 44)."""

from __future__ import annotations

from cribtiles.table.chat import CHAT_LIMIT

from . import art
from .chat import ChatView
from .geometry import Rect
from .paint import CREAM, DIM, GOLD, RED, Target, draw_rect, fit_width, rounded_panel, wrap, write

FIELD_FILL, FIELD_EDGE = (34, 22, 14, 255), (150, 110, 60)  # opaque: what it covers waits
HISTORY_FILL = (22, 16, 11, 255)  # the table's chat over the board: opaque enough that no tile shows through
MUTED = (150, 90, 80)
MUTE_LABEL = "Mute (click a name):"


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


def chip_label(name: str, muted: bool) -> str:
    return f"{name} (muted)" if muted else name


def history_chips(area: Rect, speakers: tuple[tuple[str, bool], ...], size: int) -> tuple[tuple[str, Rect], ...]:
    """Where each player who may be muted is drawn, along the top of the table's chat, left to right (as
    many as fit): the scene reads clicks on them, drawing draws them."""
    x, y, w, _ = area
    small = max(11, size - 2)
    font = art.font(small)
    left = x + 14 + font.size(MUTE_LABEL)[0] + 10
    chips: list[tuple[str, Rect]] = []
    for name, muted in speakers:
        width = font.size(chip_label(name, muted))[0] + 18
        if left + width > x + w - 12:
            break
        chips.append((name, (left, y + 8, width, round(small * 1.6))))
        left += width + 8
    return tuple(chips)


def draw_history(surf: Target, area: Rect, view: ChatView, size: int) -> None:
    """The table's chat, while a line is typed: a title row with the players to mute, then the lines
    that fit, newest lowest (the muted players' are not in `view.history`), and what a command did."""
    if view.typed is None:
        return
    x, y, w, h = area
    rounded_panel(surf, area, HISTORY_FILL, 10)
    draw_rect(surf, FIELD_EDGE, area, 1, border_radius=10)
    small = max(11, size - 2)
    chips = history_chips(area, view.speakers, size)
    head = y + 8 + round(small * 0.8)
    write(surf, MUTE_LABEL if chips else "The table's chat", small, DIM, (x + 14, head), "midleft")
    for (name, rect), (_, muted) in zip(chips, view.speakers, strict=False):
        draw_rect(surf, MUTED if muted else FIELD_EDGE, rect, 1, border_radius=rect[3] // 2)
        write(surf, chip_label(name, muted), small, MUTED if muted else CREAM, (rect[0] + rect[2] / 2, head), "center")
    step = round(size * 1.3)
    top = y + 8 + round(small * 1.6) + 10
    bottom = y + h - 10 - (step if view.note else 0)
    fit = max(0, (bottom - top) // step)
    rows: list[str] = []
    used = 0  # the lines of `view.history` shown, from the newest
    for line in reversed(view.history):
        parts = wrap(line, size, w - 28)[:4]
        if len(rows) + len(parts) > fit:
            break
        rows[:0] = parts
        used += 1
    older = used < len(view.history)
    if not view.history:
        write(surf, "Nothing has been said at this table yet.", size, DIM, (x + 14, top), "topleft")
    for i, row in enumerate(rows):
        write(surf, row, size, CREAM, (x + 14, bottom - (len(rows) - i) * step), "topleft")
    if view.scroll or older:
        where = "PageUp: older lines" + (" · PageDown: newer" if view.scroll else "")
        write(surf, where, small, DIM, (x + w - 14, head), "midright")
    if view.note:
        write(surf, fit_width(view.note, small, w - 28), small, GOLD, (x + 14, y + h - 8), "bottomleft")
