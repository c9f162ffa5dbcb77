"""What the screens around the table share: the felt with a wooden card on it, a heading, a column of
wooden buttons chosen with the keys or the mouse, and a line of key hints at the foot.

The title screen, the settings, the history and the statistics are built from these pieces, so they
look and answer alike: Up/Down (or Tab) move between the items, Enter or Space takes one, Escape goes
back, and the mouse points and clicks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from . import art
from .geometry import Rect, contains
from .paint import CREAM, DIM, GOLD, button, rounded_panel, write

CARD_WOOD = (92, 58, 34)  # the card's wood, as on the New game screen and the end card
RING = (255, 214, 102)


def text_size(size: tuple[int, int]) -> int:
    """The size of ordinary words on a screen of `size` pixels: readable from 800x600 to 4K."""
    return max(14, min(34, min(size[0] // 46, size[1] // 30)))


def backdrop(surface: pygame.Surface) -> None:
    """The green felt of the table, with the lamp's fall-off."""
    surface.blit(art.felt(*surface.get_size()), (0, 0))


def card(surface: pygame.Surface, rect: Rect, seed: int = 83) -> None:
    """A wooden card with its shadow."""
    x, y, w, h = rect
    surface.blit(art.soft_shadow(w, h, 16, 10, 170), (x - 20 + 4, y - 20 + 8))
    surface.blit(art.plank(w, h, CARD_WOOD, seed), (x, y))


def card_rect(size: tuple[int, int], width: float, height: float) -> Rect:
    """A card `width` x `height` of the window (fractions), centred, never smaller than it can be read."""
    w = min(size[0] - 24, max(round(size[0] * width), min(size[0] - 24, 620)))
    h = min(size[1] - 24, max(round(size[1] * height), min(size[1] - 24, 460)))
    return ((size[0] - w) // 2, (size[1] - h) // 2, w, h)


def heading(surface: pygame.Surface, title: str, rect: Rect, s: int, hint: str = "") -> int:
    """The card's title and, under it, a dim line of what the keys do; the y where the content starts."""
    x, y, w, _ = rect
    write(surface, title, round(s * 1.9), GOLD, (x + w // 2, y + round(s * 0.9)), "midtop")
    top = y + round(s * 0.9) + round(s * 2.4)
    if hint:
        write(surface, fit(hint, s - 3, w - 2 * s), s - 3, DIM, (x + w // 2, top), "midtop")
        top += round(s * 1.5)
    return top


def screen_card(surface: pygame.Surface, title: str, hint: str, width: float, height: float) -> tuple[Rect, int, int]:
    """The felt and a wooden card `width` x `height` of the window, with its title and key hint: the
    card, the size of words on it, and the y where its content starts."""
    size = surface.get_size()
    s = text_size(size)
    backdrop(surface)
    rect = card_rect(size, width, height)
    card(surface, rect)
    return rect, s, heading(surface, title, rect, s, hint)


def fit(text: str, size: int, width: int) -> str:
    """`text` shortened with an ellipsis to at most `width` pixels at `size`."""
    text = art.clip(text)
    f = art.font(size)
    if f.size(text)[0] <= width:
        return text
    while len(text) > 1 and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def ring(surface: pygame.Surface, rect: Rect) -> None:
    """The keyboard's focus: a gold ring around `rect`."""
    x, y, w, h = rect
    pygame.draw.rect(surface, RING, (x - 4, y - 4, w + 8, h + 8), 2, border_radius=8)


def veil(surface: pygame.Surface, alpha: int = 120) -> None:
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    layer.fill((0, 0, 0, alpha))
    surface.blit(layer, (0, 0))


@dataclass(frozen=True)
class Item:
    """One choice of a menu: its words, what it does, whether it can be taken now, its key."""

    label: str
    action: Callable[[], None]
    enabled: bool = True
    key: int | None = None  # a letter that takes it at once (pygame.K_c ...)
    note: str = ""  # said under the menu while the item is pointed at or has the focus


class Menu:
    """A column of buttons: the focus moves with Up/Down/Tab and the mouse; Enter/Space or a click takes
    an item. `rects` is set by whoever lays the menu out (`lay_out`)."""

    def __init__(self, items: Sequence[Item]) -> None:
        self.items = list(items)
        self.focus = next((i for i, it in enumerate(self.items) if it.enabled), 0)
        self.rects: list[Rect] = []
        self.mouse = (-1, -1)

    def lay_out(self, x: int, y: int, w: int, h: int, gap: int) -> int:
        """Place the buttons from (x, y) down, each `w` x `h`; the y under the last one."""
        self.rects = [(x, y + i * (h + gap), w, h) for i in range(len(self.items))]
        return y + len(self.items) * (h + gap)

    def move(self, step: int) -> None:
        n = len(self.items)
        for k in range(1, n + 1):
            i = (self.focus + step * k) % n
            if self.items[i].enabled:
                self.focus = i
                return

    def at(self, pos: tuple[int, int]) -> int | None:
        return next((i for i, r in enumerate(self.rects) if contains(r, pos)), None)

    def take(self, i: int) -> bool:
        if 0 <= i < len(self.items) and self.items[i].enabled:
            self.focus = i
            self.items[i].action()
            return True
        return False

    def handle(self, event: pygame.event.Event) -> bool:
        """Act on `event` if it is the menu's; True when it was."""
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            i = self.at(event.pos)
            if i is not None and self.items[i].enabled:
                self.focus = i
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            i = self.at(event.pos)
            return i is not None and self.take(i)
        if event.type != pygame.KEYDOWN:
            return False
        k = event.key
        if k in (pygame.K_UP, pygame.K_DOWN) or (k == pygame.K_TAB):
            back = k == pygame.K_UP or (k == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT)
            self.move(-1 if back else 1)
            return True
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            return self.take(self.focus)
        if k in (pygame.K_HOME, pygame.K_END):
            self.focus = 0 if k == pygame.K_HOME else len(self.items) - 1
            if not self.items[self.focus].enabled:
                self.move(1 if k == pygame.K_HOME else -1)
            return True
        if not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            for i, item in enumerate(self.items):
                if item.key == k:
                    return self.take(i)
        return False

    def draw(self, surface: pygame.Surface, s: int) -> None:
        hover = self.at(self.mouse)
        for i, (item, rect) in enumerate(zip(self.items, self.rects, strict=True)):
            button(surface, rect, item.label, item.enabled, hover == i, strong=i == self.focus)
            if i == self.focus and item.enabled:
                ring(surface, rect)
            if item.key is not None and item.enabled:
                x, y, w, h = rect
                letter = pygame.key.name(item.key).upper()
                write(surface, letter, s - 4, DIM, (x + w + round(s * 0.6), y + h // 2), "midleft")

    def note(self) -> str:
        hover = self.at(self.mouse)
        i = hover if hover is not None else self.focus
        return self.items[i].note if 0 <= i < len(self.items) else ""


def foot(surface: pygame.Surface, rect: Rect, s: int, text: str, colour: tuple[int, int, int] = CREAM) -> None:
    """A line of words at the foot of the card."""
    x, y, w, h = rect
    write(surface, fit(text, s - 2, w - 2 * s), s - 2, colour, (x + w // 2, y + h - round(s * 1.2)), "midbottom")


# --- a list of rows to choose from (the history's games, the puzzles) ---

#: A row's cells and their colours.
Cells = tuple[tuple[str, ...], tuple[tuple[int, int, int], ...]]


def chosen_in_sight(i: int, count: int, top: int, visible: int) -> tuple[int, int]:
    """Row `i` chosen (kept within the `count` rows) and the first row shown, so that it is in sight."""
    chosen = max(0, min(count - 1, i))
    if chosen < top:
        top = chosen
    elif chosen >= top + visible:
        top = chosen - visible + 1
    return chosen, top


def list_key(key: int, chosen: int, count: int, visible: int) -> int | None:
    """The row that Up/Down, PageUp/PageDown or Home/End choose; None for any other key."""
    steps = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -max(1, visible - 1)}
    steps[pygame.K_PAGEDOWN] = max(1, visible - 1)
    if key in steps:
        return chosen + steps[key]
    if key in (pygame.K_HOME, pygame.K_END):
        return 0 if key == pygame.K_HOME else count - 1
    return None


#: A column's room beyond its text: 6 pixels each side.
CELL_PAD = 12


def column_spans(needs: Sequence[int], width: int, grow: int, shrink: Sequence[int]) -> list[tuple[int, int]]:
    """Where the columns of a list sit (each one's left edge from the list's left, and its width),
    by the room each one's widest cell `needs`: all of them whole when they fit, the room left over
    going to column `grow`; else the columns in `shrink` give up room in proportion to their need
    (only they are cut short), and in a list too narrow even for the others, every column does.

    >>> column_spans([100, 200, 50], 500, grow=1, shrink=[1])
    [(0, 100), (100, 350), (450, 50)]
    >>> column_spans([100, 300, 300, 50], 550, grow=2, shrink=[1, 2])
    [(0, 100), (100, 200), (300, 200), (500, 50)]
    """
    widths = list(needs)
    total = sum(needs)
    if total <= width:
        widths[grow] += width - total
    else:
        fixed = sum(n for i, n in enumerate(needs) if i not in shrink)
        flexible = total - fixed
        room = width - fixed
        if room >= 0 and flexible > 0:
            for i in shrink:
                widths[i] = needs[i] * room // flexible
        else:
            widths = [n * width // max(1, total) for n in needs]
    spans, x = [], 0
    for w in widths:
        spans.append((x, w))
        x += w
    return spans


def cell_needs(heads: Sequence[str], rows: Sequence[Sequence[str]], s: int) -> list[int]:
    """The room each column of a list needs to show its heading and every cell whole (at the sizes
    `draw_rows` draws them)."""
    cell, head = art.font(s - 2), art.font(s - 3)
    needs = [head.size(h)[0] for h in heads]
    for cells in rows:
        for i, text in enumerate(cells):
            needs[i] = max(needs[i], cell.size(art.clip(text))[0])
    return [n + CELL_PAD for n in needs]


def draw_rows(
    surface: pygame.Surface,
    area: Rect,
    s: int,
    columns: tuple[tuple[float, str], ...],
    count: int,
    top: int,
    chosen: int,
    mouse: tuple[int, int],
    cells_of: Callable[[int], Cells],
    row_height: float = 1.55,
    spans: Sequence[tuple[int, int]] | None = None,
) -> tuple[int, int, list[tuple[int, Rect]]]:
    """A list with its column headings (each at a fraction of the width, or where `spans` put them),
    the chosen row lit and ringed, the row under the mouse shaded, and "1-8 of 30" when not all fit;
    how many rows fit, the first row shown (kept within the list) and where each row shown lies."""
    ax, ay, aw, ah = area
    row = round(s * row_height)
    cols = tuple(f for f, _ in columns)
    if spans is None:
        ends = (*cols[1:], 1.0)
        spans = [(round(aw * f), round(aw * e) - round(aw * f)) for f, e in zip(cols, ends, strict=True)]
    for (left, _), (_, head) in zip(spans, columns, strict=True):
        write(surface, head, s - 3, DIM, (ax + left + 6, ay), "topleft")
    ay += round(s * 1.3)
    ah -= round(s * 1.3)
    visible = max(1, ah // row)
    top = max(0, min(top, max(0, count - visible)))
    rows: list[tuple[int, Rect]] = []
    for i in range(top, min(count, top + visible)):
        r = (ax, ay + (i - top) * row, aw, row - 2)
        rows.append((i, r))
        if i == chosen:
            rounded_panel(surface, r, (255, 214, 102, 60), 6)
            ring(surface, r)
        elif contains(r, mouse):
            rounded_panel(surface, r, (255, 255, 255, 25), 6)
        cells, colours = cells_of(i)
        for (left, width), text, colour in zip(spans, cells, colours, strict=True):
            at = (ax + left + 6, r[1] + r[3] // 2)
            write(surface, fit(text, s - 2, width - CELL_PAD), s - 2, colour, at, "midleft")
    if count > visible:  # where the rows shown are in the whole list
        shown = f"{top + 1}-{min(count, top + visible)} of {count}"
        write(surface, shown, s - 4, DIM, (ax + aw, ay - round(s * 1.3)), "topright")
    return visible, top, rows
