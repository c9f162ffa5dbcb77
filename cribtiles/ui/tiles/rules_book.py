"""Kings Cribbage's rule book on the Rules screen (its `RULE_BOOK` part in `cribtiles.games`): the pages of
`cribtiles.table.tiles.rulebook`, each example drawn with the game's own tile faces (a corner of the board,
a hand, a rack) beside the engine's score and breakdown, as the game lists a play's (a refused example
framed in red with the reason).
"""

from __future__ import annotations

import pygame

from cribtiles.rules.board import SIZE
from cribtiles.rules.moves import Play, parse_move
from cribtiles.rules.tiles import Tile
from cribtiles.table.tiles.rulebook import PAGES, Example, ExampleKind

from .. import art
from ..example_cell import frame, result_beside, words_picture
from ..geometry import Rect
from ..paint import CREAM, DIM, GOLD, RED, blit_tile, board_grid, rounded_panel, wrap, write
from ..rules_parts import SMALLEST_TEXT, Cell, RuleBook
from .breakdown import InfoRow, draw_info_rows, place, score_rows


def lay_cell(ex: Example, rect: Rect, t: int, strict: bool = True) -> Cell | None:
    """One example's cell: None when it cannot be drawn readably there (`strict`: with every row of
    its breakdown and tiles no smaller than the words; else only so that nothing overlaps)."""
    room = frame(rect, ex.caption, t, strict, 0.45, 11)
    if room is None:
        return None
    if ex.kind is ExampleKind.PLAY and not ex.legal and _move(ex) is None:  # bad notation: its words
        words = words_picture(room, ex.tiles, t)
        if words is None:
            return None
        result = result_beside(rect, room, words, t)
        if strict and not reason_fits(ex, result, t):
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
    if strict and not reason_fits(ex, result, t):
        return None
    return Cell(rect, room.caption, visual, tile, result)


def _reason_lines(ex: Example, width: int, t: int) -> list[str]:
    return wrap(ex.outcome().refusal, t - 1, width) if not ex.legal else []


def reason_fits(ex: Example, box: Rect, t: int) -> bool:
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


# --- drawing ---


def draw_example(surf: pygame.Surface, ex: Example, cell: Cell, t: int) -> None:
    """The example's tiles in `cell.visual` and the engine's score, breakdown or refusal in `cell.result`."""
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
    draw_info_rows(surf, _breakdown(ex, cell.result, t))


def _unplaced(words: str, i: int) -> str:
    """A breakdown row of a hand without the board: 'row 7:  4 5 6' is 'hand:  4 5 6', and the
    squares rows name ('fifteen 4+5+6: d7 f7 g7', 'run  3 4 5  (d7)') are left off."""
    if i == 1:
        return "hand:" + words.partition(":")[2]
    return words.split("  (")[0].split(": ")[0]


def _draw_hand(surf: pygame.Surface, ex: Example, cell: Cell) -> None:
    move = _move(ex)
    if move is None:
        return
    size = cell.unit
    step = round(size * 1.08)
    vx, vy, _, _ = cell.visual
    for i, tile in enumerate(move.tiles):
        blit_tile(surf, art.tile_face(tile, size - 2), vx + i * step, vy + 1, size - 2)


def _draw_rack(surf: pygame.Surface, tiles: tuple[Tile, ...], cell: Cell) -> None:
    vx, vy, vw, vh = cell.visual
    size = cell.unit
    surf.blit(art.rack_surface(vw, vh), (vx, vy))
    for i, tile in enumerate(tiles):
        blit_tile(surf, art.tile_face(tile, size - 4), vx + size // 2 + i * size, vy + size // 8, size - 4)


def _draw_snippet(surf: pygame.Surface, ex: Example, cell: Cell) -> None:
    """A corner of the board: the squares around the example, their names, the tiles, the new ones framed."""
    move = _move(ex)
    area = _region(ex)
    r0, _, c0, _ = area
    c = cell.unit
    gx, gy = board_grid(surf, (cell.visual[0], cell.visual[1]), c, area, label=0.6, names=0.38)
    placed = move.placements if move else ()
    for square, tile in [*ex.before.tiles(), *placed]:
        sx, sy = gx + (square.col - c0) * c, gy + (square.row - r0) * c
        blit_tile(surf, art.tile_face(tile, c - 2), sx + 1, sy + 1, c - 2)
    frame = GOLD if ex.legal else RED
    for square, _ in placed:
        sx, sy = gx + (square.col - c0) * c, gy + (square.row - r0) * c
        pygame.draw.rect(surf, frame, (sx, sy, c, c), 2, border_radius=4)


#: The book: the tile game's pages, its examples laid and drawn with its tiles.
BOOK: RuleBook[Example] = RuleBook(title="Kings Cribbage", pages=PAGES, lay=lay_cell, draw=draw_example)
