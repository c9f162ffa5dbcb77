"""The Rules screen: each game's rule book (its `RULE_BOOK` part in `cribtiles.games`, Kings Cribbage's first
in the registry's order), a page at a time on a wooden card, its examples laid and drawn by the book (the
game's tiles or cards beside the engine's result). Right/Left (PageDown/PageUp, Space/Backspace) turn
pages, Home/End go to the ends, Up/Down and Enter choose on the contents page, Escape closes.

The books share the scene: the card, the words, the contents page, each example's field and caption, the
keys and the buttons. Tab (or the button beside Contents) opens the next book.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pygame

from cribtiles.games import GAMES, RULE_BOOK

from . import art
from .geometry import Rect, contains
from .paint import CREAM, GOLD, button, rounded_panel, wrap, write
from .rules_parts import SMALLEST_TEXT, BookPage, Cell, RuleBook
from .screens import backdrop, card, fit, heading, ring

#: The book the screen opens unless told: the first game's in the registry's order (the game's name).
FIRST_BOOK = next(iter(GAMES))
CONTENTS = 0  # every book's first page is its contents
#: The longest line of words, in text sizes (about 90 characters): longer lines are hard to follow.
MEASURE = 46
HINT = "Right/Left turn the pages · Home: contents · Tab: the other book · Esc closes"
FIELD = (34, 22, 14, 170)  # the recessed field an example sits in
NEXT_KEYS = (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_SPACE)
BACK_KEYS = (pygame.K_LEFT, pygame.K_PAGEUP, pygame.K_BACKSPACE)


@lru_cache(maxsize=1)
def books() -> dict[str, RuleBook[Any]]:
    """Every game's rule book by the game's name, in the registry's order."""
    return {name: kind.part(RULE_BOOK) for name, kind in GAMES.items()}


@dataclass(frozen=True)
class PageLayout:
    """Every rectangle of one page at one window size: text, examples, buttons, contents entries."""

    card: Rect
    text: int  # the size of the paragraphs' words
    top: int  # where the body starts, under the heading
    lines: tuple[tuple[str, int, int], ...]  # (words, x, y) of the paragraphs, wrapped
    cells: tuple[Cell, ...]
    entries: tuple[Rect, ...]  # the contents page's entries (page 1, 2, ...)
    buttons: dict[str, Rect]  # "back", "contents", "book" (the other book), "next"


def text_size(size: tuple[int, int]) -> int:
    """The size of the pages' words: as the other screens' up to 2K, larger on a 4K window."""
    return max(14, min(48, size[0] // 46, size[1] // 30))


def last_page(book: str) -> int:
    """The number of the last page of the game called `book`'s rule book."""
    return len(books()[book].pages) - 1


def other(book: str) -> str:
    """The book Tab opens from `book`: the next in the registry's order, the first after the last."""
    names = list(books())
    return names[(names.index(book) + 1) % len(names)]


def page_layout(size: tuple[int, int], index: int, book: str = FIRST_BOOK) -> PageLayout:
    """The layout of page `index` of `book` at a window of `size`: the largest text at which everything fits."""
    return _page_layout(size, index, book)


@lru_cache(maxsize=64)
def _page_layout(size: tuple[int, int], index: int, book: str) -> PageLayout:
    page = books()[book].pages[index]
    w, h = size
    m = max(6, round(min(w, h) * 0.015))
    box = (m, m, w - 2 * m, h - 2 * m)
    s = text_size(size)
    pad = max(10, round(s * 0.9))
    top = box[1] + round(s * 0.9) + round(s * 2.4) + round((s - 3) * 1.5)  # as screens.heading lays it
    bh = max(30, round(s * 2.0))
    bw = max(110, round(s * 6.5))
    foot = box[1] + box[3] - pad - bh
    other_w = max(bw, art.font(s).size(books()[other(book)].title)[0] + 2 * s)  # the other book's name in full
    gap = max(8, s // 2)
    middle = box[0] + (box[2] - bw - gap - other_w) // 2
    buttons = {
        "back": (box[0] + pad, foot, bw, bh),
        "contents": (middle, foot, bw, bh),
        "book": (middle + bw + gap, foot, other_w, bh),
        "next": (box[0] + box[2] - pad - bw, foot, bw, bh),
    }
    body = (box[0] + 2 * pad, top, box[2] - 4 * pad, foot - pad - top)
    for t in range(s, SMALLEST_TEXT - 1, -1):
        laid = _lay_body(page, body, t, book=book, index=index)
        if laid[3]:
            return PageLayout(box, t, top, laid[0], laid[1], laid[2], buttons)
    laid = _lay_body(page, body, SMALLEST_TEXT, strict=False, book=book, index=index)  # a window too small
    return PageLayout(box, SMALLEST_TEXT, top, laid[0], laid[1], laid[2], buttons)


def _lay_body(
    page: BookPage[object],
    body: Rect,
    t: int,
    strict: bool = True,
    book: str = FIRST_BOOK,
    index: int = 0,
) -> tuple[tuple[tuple[str, int, int], ...], tuple[Cell, ...], tuple[Rect, ...], bool]:
    """Paragraphs, then the examples (or the contents entries) under them; whether all of it fits."""
    x, y, w, h = body
    lh = round(t * 1.3)
    lines: list[tuple[str, int, int]] = []
    cy = y
    measure = min(w, t * MEASURE)
    for para in page.paragraphs:
        for line in wrap(para, t, measure):
            lines.append((line, x, cy))
            cy += lh
        cy += round(t * 0.5)
    room = (x, cy + round(t * 0.3), w, y + h - cy - round(t * 0.3))
    if room[3] < 0:
        return tuple(lines), (), (), False
    if index == CONTENTS:
        entries, fits = _lay_entries(room, t, book)
        return tuple(lines), (), entries, fits
    cells, fits = _lay_cells(books()[book], page.examples, room, t, strict)
    return tuple(lines), cells, (), fits


def _lay_entries(room: Rect, t: int, book: str = FIRST_BOOK) -> tuple[tuple[Rect, ...], bool]:
    x, y, w, h = room
    n = last_page(book)
    eh = round(t * 1.75)
    for cols in (1, 2, 3):
        rows = math.ceil(n / cols)
        gap = t
        cw = (w - (cols - 1) * gap) // cols
        if rows * eh <= h and all(art.font(t).size(_entry(i, book))[0] + t <= cw for i in range(1, n + 1)):
            rects = tuple((x + (i // rows) * (cw + gap), y + (i % rows) * eh, cw, eh - 4) for i in range(n))
            return rects, True
    rows = math.ceil(n / 2)
    cw = (w - t) // 2
    eh = max(8, h // rows)
    return tuple((x + (i // rows) * (cw + t), y + (i % rows) * eh, cw, eh - 2) for i in range(n)), False


def _entry(number: int, book: str = FIRST_BOOK) -> str:
    return f"{number}.  {books()[book].pages[number].title}"


def _lay_cells(
    book: RuleBook[Any], examples: Sequence[object], room: Rect, t: int, strict: bool = True
) -> tuple[tuple[Cell, ...], bool]:
    """The examples in 1 to 3 columns, whichever gives the largest pictures (the book's tiles or cards)
    that still leave room."""
    if not examples:
        return (), True
    x, y, w, h = room
    gap = max(8, round(t * 0.7))
    best: tuple[int, tuple[Cell, ...]] | None = None
    for cols in (1, 2, 3):
        if cols > len(examples):
            break
        rows = math.ceil(len(examples) / cols)
        cw = (w - (cols - 1) * gap) // cols
        ch = (h - (rows - 1) * gap) // rows
        cells = []
        smallest = 10_000
        for i, ex in enumerate(examples):
            r, c = divmod(i, cols)
            cell = book.lay(ex, (x + c * (cw + gap), y + r * (ch + gap), cw, ch), t, strict)
            if cell is None:
                break
            cells.append(cell)
            smallest = min(smallest, cell.unit)
        else:
            if best is None or smallest > best[0]:
                best = (smallest, tuple(cells))
    if best is None:
        return (), False
    return best[1], True


# --- the scene ---


class RulesScene:
    """The rules pages over the felt; `on_close()` when the player is done (Escape)."""

    def __init__(self, host: Any, on_close: Callable[[], None], page: int = 0, book: str = FIRST_BOOK) -> None:
        self.host = host
        self.on_close = on_close
        self.book = book
        self.page = min(max(0, page), self.last)
        self.focus = 0  # the contents entry the keys point at (0: page 1)
        self.mouse: tuple[int, int] = (-1, -1)
        self.size = (host.layout.width, host.layout.height)
        self._shown: tuple[object, ...] | None = None

    @property
    def last(self) -> int:
        return last_page(self.book)

    @property
    def layout(self) -> PageLayout:
        return page_layout(self.size, self.page, self.book)

    def go(self, page: int) -> None:
        self.page = min(max(0, page), self.last)

    def switch(self) -> None:
        """Open the other book at its contents."""
        self.book = other(self.book)
        self.page = CONTENTS
        self.focus = 0

    # --- input ---

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self._key(event.key)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._click(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            self.go(self.page - event.y)

    def _key(self, key: int) -> None:
        if key == pygame.K_ESCAPE:
            self.on_close()
        elif key in NEXT_KEYS:
            self.go(self.page + 1)
        elif key in BACK_KEYS:
            self.go(self.page - 1)
        elif key == pygame.K_HOME:
            self.go(CONTENTS)
        elif key == pygame.K_END:
            self.go(self.last)
        elif key == pygame.K_TAB:
            self.switch()
        elif self.page == CONTENTS and key in (pygame.K_UP, pygame.K_DOWN):
            self.focus = (self.focus + (1 if key == pygame.K_DOWN else -1)) % self.last
        elif self.page == CONTENTS and key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.go(self.focus + 1)

    def _click(self, pos: tuple[int, int]) -> None:
        lay = self.layout
        if contains(lay.buttons["back"], pos) and self.page > 0:
            self.go(self.page - 1)
        elif contains(lay.buttons["next"], pos) and self.page < self.last:
            self.go(self.page + 1)
        elif contains(lay.buttons["contents"], pos):
            self.go(CONTENTS)
        elif contains(lay.buttons["book"], pos):
            self.switch()
        elif self.page == CONTENTS:
            for i, rect in enumerate(lay.entries):
                if contains(rect, pos):
                    self.focus = i
                    self.go(i + 1)
                    return

    def update(self, dt: float) -> None:
        """Nothing moves on these pages."""

    # --- drawing ---

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """The whole page when anything changed (None), else nothing ([])."""
        self.size = surface.get_size()
        lay = self.layout
        hover = [name for name, r in lay.buttons.items() if contains(r, self.mouse)]
        entry = next((i for i, r in enumerate(lay.entries) if contains(r, self.mouse)), None)
        shown = (self.size, self.book, self.page, self.focus, tuple(hover), entry)
        if not full and shown == self._shown:
            return []
        self._shown = shown
        draw_page(surface, self.page, lay, self.focus, self.mouse, self.book)
        return None


def draw_page(
    surface: pygame.Surface,
    index: int,
    lay: PageLayout,
    focus: int,
    mouse: tuple[int, int],
    book: str = FIRST_BOOK,
) -> None:
    """Page `index` of `book` drawn whole on `surface`: felt, card, heading, words, examples, buttons."""
    rule_book = books()[book]
    page = rule_book.pages[index]
    last = last_page(book)
    backdrop(surface)
    card(surface, lay.card)
    s = text_size(surface.get_size())
    title = f"{rule_book.title}: {page.title}" if index == CONTENTS else page.title
    heading(surface, title, lay.card, s, f"Page {index + 1} of {last + 1} · {HINT}")
    for line, lx, ly in lay.lines:
        write(surface, line, lay.text, CREAM, (lx, ly))
    for i, rect in enumerate(lay.entries):
        lit = contains(rect, mouse)
        if lit or i == focus:
            rounded_panel(surface, rect, (255, 214, 102, 40 if lit else 25), 6)
        if i == focus:
            ring(surface, rect)
        text = fit(_entry(i + 1, book), lay.text, rect[2] - lay.text)
        write(
            surface,
            text,
            lay.text,
            GOLD if lit or i == focus else CREAM,
            (rect[0] + 8, rect[1] + rect[3] / 2),
            "midleft",
        )
    for ex, cell in zip(page.examples, lay.cells, strict=False):
        rounded_panel(surface, cell.rect, FIELD, 8)
        _draw_caption(surface, cell, lay.text)
        rule_book.draw(surface, ex, cell, lay.text)
    labels = {"back": "Back", "contents": "Contents", "book": books()[other(book)].title, "next": "Next"}
    for name, rect in lay.buttons.items():
        label = labels[name]
        enabled = not (name == "back" and index == 0) and not (name == "next" and index == last)
        button(surface, rect, label, enabled, contains(rect, mouse), strong=name == "next")


def _draw_caption(surf: pygame.Surface, cell: Cell, t: int) -> None:
    """The example's caption, at the top of its field."""
    x, y, _, _ = cell.rect
    inner = max(4, t // 2)
    cy = y + inner // 2
    for line in cell.caption:
        write(surf, line, t, CREAM, (x + inner, cy))
        cy += round(t * 1.25)
