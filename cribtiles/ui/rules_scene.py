"""The rules pages, stepped through in the window: each page of `cribtiles.table.tiles.rulebook` on a wooden
card, its examples drawn with the game's own tile faces beside the engine's score and breakdown (a
refused example framed in red with the reason). Right/Left (PageDown/PageUp, Space/Backspace) turn
pages, Home/End go to the ends, Up/Down and Enter choose on the contents page, Escape closes.

Two books share the scene: Kings Cribbage's pages and classic cribbage's (`cribtiles.table.cribbage.rulebook`,
its examples drawn with cards by `rules_cards`). Tab (or the button beside Contents) opens the other book.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

import pygame

from cribtiles.rules.board import SIZE
from cribtiles.rules.moves import Play, parse_move
from cribtiles.rules.tiles import Tile
from cribtiles.table.cribbage import rulebook as cribbage_rulebook
from cribtiles.table.cribbage.rulebook import CardExample, CardPage
from cribtiles.table.tiles.rulebook import CONTENTS, PAGES, Example, ExampleKind, Page

from . import art
from .cribbage.rules_cards import CardCell, draw_card_example, lay_card_cell
from .example_cell import frame, result_beside, words_picture
from .geometry import Rect, contains
from .paint import CREAM, DIM, GOLD, RED, blit_tile, board_grid, button, rounded_panel, wrap, write
from .screens import backdrop, card, fit, heading, ring
from .tiles.breakdown import InfoRow, place, score_rows


class Book(StrEnum):
    """The rule books the scene shows."""

    TILES = "tiles"  # Kings Cribbage, the tile game
    CRIBBAGE = "cribbage"  # classic cribbage, the card game


BOOK_NAMES = {Book.TILES: "Kings Cribbage", Book.CRIBBAGE: "Classic cribbage"}
#: Each book's pages (the first is its contents).
BOOKS: dict[Book, tuple[Page | CardPage, ...]] = {Book.TILES: PAGES, Book.CRIBBAGE: cribbage_rulebook.PAGES}
LAST = len(PAGES) - 1  # the tile book's last page
SMALLEST_TEXT = 12
#: The longest line of words, in text sizes (about 90 characters): longer lines are hard to follow.
MEASURE = 46
HINT = "Right/Left turn the pages · Home: contents · Tab: the other book · Esc closes"
FIELD = (34, 22, 14, 170)  # the recessed field an example sits in
NEXT_KEYS = (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_SPACE)
BACK_KEYS = (pygame.K_LEFT, pygame.K_PAGEUP, pygame.K_BACKSPACE)


@dataclass(frozen=True)
class Cell:
    """Where one example is drawn: its caption, its tiles (`tile` the side of a square), its result."""

    rect: Rect
    caption: tuple[str, ...]
    visual: Rect
    tile: int
    result: Rect


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


def last_page(book: Book) -> int:
    return len(BOOKS[book]) - 1


def other(book: Book) -> Book:
    return Book.CRIBBAGE if book is Book.TILES else Book.TILES


def page_layout(size: tuple[int, int], index: int, book: Book = Book.TILES) -> PageLayout:
    """The layout of page `index` of `book` at a window of `size`: the largest text at which everything fits."""
    return _page_layout(size, index, book)


@lru_cache(maxsize=64)
def _page_layout(size: tuple[int, int], index: int, book: Book) -> PageLayout:
    page = BOOKS[book][index]
    w, h = size
    m = max(6, round(min(w, h) * 0.015))
    box = (m, m, w - 2 * m, h - 2 * m)
    s = text_size(size)
    pad = max(10, round(s * 0.9))
    top = box[1] + round(s * 0.9) + round(s * 2.4) + round((s - 3) * 1.5)  # as screens.heading lays it
    bh = max(30, round(s * 2.0))
    bw = max(110, round(s * 6.5))
    foot = box[1] + box[3] - pad - bh
    other_w = max(bw, art.font(s).size(BOOK_NAMES[other(book)])[0] + 2 * s)  # the other book's name in full
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
    page: Page | CardPage,
    body: Rect,
    t: int,
    strict: bool = True,
    book: Book = Book.TILES,
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
    cells, fits = _lay_cells(page.examples, room, t, strict)
    return tuple(lines), cells, (), fits


def _lay_entries(room: Rect, t: int, book: Book = Book.TILES) -> tuple[tuple[Rect, ...], bool]:
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


def _entry(number: int, book: Book = Book.TILES) -> str:
    return f"{number}.  {BOOKS[book][number].title}"


def _lay_cells(
    examples: Sequence[Example | CardExample], room: Rect, t: int, strict: bool = True
) -> tuple[tuple[Cell, ...], bool]:
    """The examples in 1 to 3 columns, whichever gives the largest tiles that still leave room."""
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
            cell = _lay_cell(ex, (x + c * (cw + gap), y + r * (ch + gap), cw, ch), t, strict)
            if cell is None:
                break
            cells.append(cell)
            smallest = min(smallest, cell.tile)
        else:
            if best is None or smallest > best[0]:
                best = (smallest, tuple(cells))
    if best is None:
        return (), False
    return best[1], True


def _lay_cell(ex: Example | CardExample, rect: Rect, t: int, strict: bool = True) -> Cell | None:
    """One example's cell: None when it cannot be drawn readably there (`strict`: with every row of
    its breakdown and tiles no smaller than the words; else only so that nothing overlaps)."""
    if isinstance(ex, CardExample):
        laid = lay_card_cell(ex, rect, t, strict)
        return None if laid is None else Cell(rect, laid.caption, laid.visual, laid.width, laid.result)
    room = frame(rect, ex.caption, t, strict, 0.45, 11)
    if room is None:
        return None
    if ex.kind is ExampleKind.PLAY and not ex.legal and _move(ex) is None:  # bad notation: its words
        words = words_picture(room, ex.tiles, t)
        if words is None:
            return None
        result = result_beside(rect, room, words, t)
        if strict and not _reason_fits(ex, result, t):
            return None
        return Cell(rect, room.caption, words, t, result)
    cols, rows = _extent(ex)
    tile = int(min(room.width / cols, room.height / rows, t * 3.2))
    if tile < (max(16, t) if strict else 8):
        return None
    visual = (room.left, room.top, round(cols * tile), round(rows * tile))
    result = result_beside(rect, room, visual, t)
    if strict and ex.legal and ex.kind is not ExampleKind.RACK:  # every row of the breakdown, or not here
        rows_placed = _breakdown(ex, result, t)
        if any(r.left.startswith("... and ") for r in rows_placed):
            return None
    if strict and not _reason_fits(ex, result, t):
        return None
    return Cell(rect, room.caption, visual, tile, result)


def _reason_lines(ex: Example, width: int, t: int) -> list[str]:
    return wrap(ex.outcome().refusal, t - 1, width) if not ex.legal else []


def _reason_fits(ex: Example, box: Rect, t: int) -> bool:
    """Whether the words of a refusal fit `box` whole under its "Not allowed"."""
    lines = _reason_lines(ex, box[2], t)
    return round(t * 1.5) + len(lines) * round(t * 1.2) <= box[3]


def _breakdown(ex: Example, box: Rect, t: int) -> list[InfoRow]:
    """The rows of a scored example's breakdown, as the game lists a play's, laid out in `box`."""
    score = ex.outcome().score
    assert score is not None
    spec = score_rows(score, "Scores")
    if ex.kind is ExampleKind.HAND:  # a hand is not on the board: no row's name, no squares
        spec = [(_unplaced(left, i), *rest) for i, (left, *rest) in enumerate(spec)]  # type: ignore[misc]
    rows, _ = place(spec, box, max(SMALLEST_TEXT + 1, t), max(4, t // 3))
    return rows


def _move(ex: Example) -> Play | None:
    try:
        move = parse_move(ex.tiles)
    except ValueError:
        return None
    return move if isinstance(move, Play) else None


def _region(ex: Example) -> tuple[int, int, int, int]:
    """The rows and columns of the board a play example shows: its tiles and a free square at each
    end of their lines (a single row needs no empty rows above and below to be read)."""
    move = _move(ex)
    squares = [s for s, _ in ex.before.tiles()] + (list(move.squares) if move else [])
    rows = {s.row for s in squares}
    cols = {s.col for s in squares}
    dr = 0 if len(rows) == 1 else 1
    dc = 0 if len(cols) == 1 else 1
    r0, r1 = max(0, min(rows) - dr), min(SIZE - 1, max(rows) + dr)
    c0, c1 = max(0, min(cols) - dc), min(SIZE - 1, max(cols) + dc)
    return r0, r1, c0, c1


def _extent(ex: Example) -> tuple[float, float]:
    """How many tile sides wide and high the example's drawing is (a board's labels included)."""
    if ex.kind is ExampleKind.RACK:
        return len(ex.rack) + 1.0, 1.5
    if ex.kind is ExampleKind.HAND:
        move = _move(ex)
        return (len(move.placements) if move else 5) * 1.08, 1.0
    r0, r1, c0, c1 = _region(ex)
    return c1 - c0 + 1 + 0.6, r1 - r0 + 1 + 0.6


# --- the scene ---


class RulesScene:
    """The rules pages over the felt; `on_close()` when the player is done (Escape)."""

    def __init__(self, host: Any, on_close: Callable[[], None], page: int = 0, book: Book = Book.TILES) -> None:
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
    book: Book = Book.TILES,
) -> None:
    """Page `index` of `book` drawn whole on `surface`: felt, card, heading, words, examples, buttons."""
    page = BOOKS[book][index]
    last = last_page(book)
    backdrop(surface)
    card(surface, lay.card)
    s = text_size(surface.get_size())
    title = f"{BOOK_NAMES[book]}: {page.title}" if index == CONTENTS else page.title
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
    examples: Sequence[Example | CardExample] = page.examples
    for ex, cell in zip(examples, lay.cells, strict=False):
        if isinstance(ex, CardExample):
            rounded_panel(surface, cell.rect, FIELD, 8)
            _draw_caption(surface, cell, lay.text)
            draw_card_example(surface, ex, CardCell(cell.caption, cell.visual, cell.tile, cell.result), lay.text)
        else:
            _draw_example(surface, ex, cell, lay.text)
    labels = {"back": "Back", "contents": "Contents", "book": BOOK_NAMES[other(book)], "next": "Next"}
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


def _draw_example(surf: pygame.Surface, ex: Example, cell: Cell, t: int) -> None:
    rounded_panel(surf, cell.rect, FIELD, 8)
    _draw_caption(surf, cell, t)
    out = ex.outcome()
    colour = GOLD if ex.legal else RED
    if ex.kind is ExampleKind.RACK:
        _draw_rack(surf, ex.rack, cell)
    elif ex.kind is ExampleKind.HAND:
        _draw_hand(surf, ex, cell)
    elif _move(ex) is None:
        vx, vy, vw, vh = cell.visual
        rounded_panel(surf, cell.visual, (20, 12, 8, 220), 6)
        write(surf, ex.tiles, t, CREAM, (vx + t, vy + vh / 2), "midleft")
    else:
        _draw_snippet(surf, ex, cell)
    if not ex.legal:
        vx, vy, vw, vh = cell.visual
        pygame.draw.rect(surf, RED, (vx - 3, vy - 3, vw + 6, vh + 6), 3, border_radius=6)
    rx, ry, rw, rh = cell.result
    if ex.kind is ExampleKind.RACK:
        write(surf, f"-{out.total}", round(t * 1.5), colour, (rx, ry), "topleft")
        write(surf, "off the score", t - 1, DIM, (rx, ry + round(t * 1.7)), "topleft")
        return
    if not ex.legal:
        write(surf, "Not allowed", round(t * 1.2), RED, (rx, ry), "topleft")
        yy = ry + round(t * 1.5)
        for line in _reason_lines(ex, rw, t):
            if yy + round(t * 1.2) > ry + rh:  # only in a window too small for the pages
                break
            write(surf, line, t - 1, RED, (rx, yy))
            yy += round(t * 1.2)
        return
    _draw_rows(surf, _breakdown(ex, cell.result, t))


def _unplaced(words: str, i: int) -> str:
    """A breakdown row of a hand without the board: 'row 7:  4 5 6' is 'hand:  4 5 6', and the
    squares rows name ('fifteen 4+5+6: d7 f7 g7', 'run  3 4 5  (d7)') are left off."""
    if i == 1:
        return "hand:" + words.partition(":")[2]
    return words.split("  (")[0].split(": ")[0]


def _draw_rows(surf: pygame.Surface, rows: list[InfoRow]) -> None:
    for row in rows:
        rx, ry, rw, rh = row.rect
        write(surf, row.left, row.size, row.colour, (rx + row.indent * row.size, ry + rh / 2), "midleft")
        if row.right:
            write(surf, row.right, row.size, row.colour, (rx + rw, ry + rh / 2), "midright")


def _draw_hand(surf: pygame.Surface, ex: Example, cell: Cell) -> None:
    move = _move(ex)
    if move is None:
        return
    size = cell.tile
    step = round(size * 1.08)
    vx, vy, _, _ = cell.visual
    for i, tile in enumerate(move.tiles):
        blit_tile(surf, art.tile_face(tile, size - 2), vx + i * step, vy + 1, size - 2)


def _draw_rack(surf: pygame.Surface, tiles: tuple[Tile, ...], cell: Cell) -> None:
    vx, vy, vw, vh = cell.visual
    size = cell.tile
    surf.blit(art.rack_surface(vw, vh), (vx, vy))
    for i, tile in enumerate(tiles):
        blit_tile(surf, art.tile_face(tile, size - 4), vx + size // 2 + i * size, vy + size // 8, size - 4)


def _draw_snippet(surf: pygame.Surface, ex: Example, cell: Cell) -> None:
    """A corner of the board: the squares around the example, their names, the tiles, the new ones framed."""
    move = _move(ex)
    area = _region(ex)
    r0, _, c0, _ = area
    c = cell.tile
    gx, gy = board_grid(surf, (cell.visual[0], cell.visual[1]), c, area, label=0.6, names=0.38)
    placed = move.placements if move else ()
    for square, tile in [*ex.before.tiles(), *placed]:
        sx, sy = gx + (square.col - c0) * c, gy + (square.row - r0) * c
        blit_tile(surf, art.tile_face(tile, c - 2), sx + 1, sy + 1, c - 2)
    frame = GOLD if ex.legal else RED
    for square, _ in placed:
        sx, sy = gx + (square.col - c0) * c, gy + (square.row - r0) * c
        pygame.draw.rect(surf, frame, (sx, sy, c, c), 2, border_radius=4)
