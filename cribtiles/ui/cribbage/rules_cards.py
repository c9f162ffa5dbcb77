"""The examples of classic cribbage's rules pages drawn with cards: how much room each needs, where its
cards and its result go in a cell, and the drawing (the cards from `cards.py`, the engine's breakdown
beside them). The Rules screen lays the page out and asks the game's rule book, `BOOK` (its `RULE_BOOK` part
in `cribtiles.games`), for each cell of an example.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from cribtiles.cribbage.cards import parse_card, parse_cards
from cribtiles.table.cribbage.rulebook import DEALER, PAGES, CardExample, CardKind

from .. import art
from ..example_cell import frame, result_beside, words_picture
from ..geometry import Rect
from ..paint import CREAM, DIM, GOLD, RED, rounded_panel, wrap, write
from ..rules_parts import Cell, RuleBook
from . import cards

#: A card's step along a row, in card widths (a little air between faces).
STEP = 1.06
#: A play's cards overlap along their row: the two players' rows take turns.
PLAY_STEP = 0.72
LABEL = 0.42  # the line of small words under the cards, in card widths
LARGEST = 3.0  # the widest card, in text sizes
PLAY_KEY = "high: the non-dealer's cards, low: the dealer's"  # a play's first line, dimmed


@dataclass(frozen=True)
class CardCell:
    """Where a card example is drawn in its cell: its caption's lines, its cards (`width` each), its result."""

    caption: tuple[str, ...]
    visual: Rect
    width: int
    result: Rect


def extent(ex: CardExample) -> tuple[float, float]:
    """How many card widths wide and high the example's picture is (its labels included)."""
    high = cards.RATIO + LABEL
    kind = ex.kind
    if kind in (CardKind.SHOW, CardKind.MUGGINS):
        return 4 * STEP + 0.3 + 1.0, high
    if kind is CardKind.PEG:
        return max(2, len(ex.hand) - 1) * STEP + 1.0, high
    if kind is CardKind.PLAY:
        return (len(ex.order.split()) - 1) * PLAY_STEP + 1.0, cards.RATIO * 1.5 + LABEL
    if kind is CardKind.STARTER:
        return STEP + 1.0, high
    if kind is CardKind.DEAL:
        return 5 * STEP + 1.0, cards.RATIO * 1.35 + LABEL
    return 0.0, 0.0  # notation: words, not cards


def result_lines(ex: CardExample) -> list[str]:
    """What the engine makes of the example, a line each; the total last ("= 16")."""
    out = ex.outcome()
    if ex.kind is CardKind.DEAL:
        return ["four kept for the hand", "two laid away to the crib"]
    if out.refusal:
        return []  # the refusal is drawn instead, in red
    lines = list(out.lines)
    if ex.kind is CardKind.MUGGINS:
        return [*lines[:2], f"= {out.total} {lines[2]}"]
    if ex.kind is CardKind.NOTATION:
        return ["read as " + lines[0]] if lines else []
    if ex.kind is CardKind.PLAY:
        return [PLAY_KEY, *lines, f"= {out.total}"]
    return [*lines, f"= {out.total}"] if lines else [f"= {out.total}"]


def _reason(ex: CardExample, width: int, t: int) -> list[str]:
    return wrap(ex.outcome().refusal, t - 1, width) if not ex.legal else []


def _fits(ex: CardExample, result: Rect, t: int) -> bool:
    """Whether the result (or the refusal under its "Not allowed") fits `result` whole."""
    row = round(t * 1.2)
    if not ex.legal:
        return round(t * 1.5) + len(_reason(ex, result[2], t)) * row <= result[3]
    lines = result_lines(ex)
    wide = all(art.font(t - 1).size(line)[0] <= result[2] for line in lines)
    return wide and len(lines) * row <= result[3]


def lay_card_cell(ex: CardExample, rect: Rect, t: int, strict: bool = True) -> CardCell | None:
    """A card example's cell: None when it cannot be drawn readably there (`strict`: every line of its
    result shown and cards no narrower than two text sizes; else only so that nothing overlaps)."""
    room = frame(rect, ex.caption, t, strict, 0.42, 12)
    if room is None:
        return None
    visual: Rect | None
    if ex.kind is CardKind.NOTATION:
        visual, width = words_picture(room, ex.cards, t), t
    else:
        cols, rows = extent(ex)
        width = int(min(room.width / cols, room.height / rows, t * LARGEST))
        big_enough = width >= (max(20, 2 * t) if strict else 8)
        visual = (room.left, room.top, round(cols * width), round(rows * width)) if big_enough else None
    if visual is None:
        return None
    result = result_beside(rect, room, visual, t)
    if strict and not _fits(ex, result, t):
        return None
    return CardCell(room.caption, visual, width, result)


# --- drawing ---


def draw_card_example(surf: pygame.Surface, ex: CardExample, cell: CardCell, t: int) -> None:
    """The example's cards in `cell.visual` and the engine's result in `cell.result`."""
    kind = ex.kind
    if kind in (CardKind.SHOW, CardKind.MUGGINS):
        _draw_show(surf, ex, cell, t)
    elif kind is CardKind.PEG:
        _draw_count(surf, ex, cell, t)
    elif kind is CardKind.PLAY:
        _draw_play(surf, ex, cell, t)
    elif kind is CardKind.STARTER:
        _draw_starter(surf, ex, cell, t)
    elif kind is CardKind.DEAL:
        _draw_deal(surf, ex, cell, t)
    else:
        vx, vy, _, vh = cell.visual
        rounded_panel(surf, cell.visual, (20, 12, 8, 220), 6)
        write(surf, ex.cards, t, CREAM, (vx + t, vy + vh / 2), "midleft")
    if not ex.legal:
        vx, vy, vw, vh = cell.visual
        pygame.draw.rect(surf, RED, (vx - 3, vy - 3, vw + 6, vh + 6), 3, border_radius=6)
    _draw_result(surf, ex, cell.result, t)


def _draw_result(surf: pygame.Surface, ex: CardExample, box: Rect, t: int) -> None:
    rx, ry, rw, rh = box
    row = round(t * 1.2)
    if not ex.legal:
        write(surf, "Not allowed", round(t * 1.2), RED, (rx, ry), "topleft")
        yy = ry + round(t * 1.5)
        for line in _reason(ex, rw, t):
            if yy + row > ry + rh:  # only in a window too small for the pages
                break
            write(surf, line, t - 1, RED, (rx, yy))
            yy += row
        return
    lines = result_lines(ex)
    for i, line in enumerate(lines):
        if ry + (i + 1) * row > ry + rh:
            break
        last = i == len(lines) - 1 and line.startswith("=")
        colour = GOLD if last else DIM if line == PLAY_KEY else CREAM
        write(surf, line, t if last else t - 1, colour, (rx, ry + i * row))


def _label(
    surf: pygame.Surface, words: str, t: int, at: tuple[float, float], colour: tuple[int, int, int] = DIM
) -> None:
    write(surf, words, max(10, t - 3), colour, at, "midtop")


def _draw_show(surf: pygame.Surface, ex: CardExample, cell: CardCell, t: int) -> None:
    vx, vy, _, _ = cell.visual
    w = cell.width
    h = cards.height_of(w)
    for i, card in enumerate(ex.hand):
        surf.blit(cards.face(card, w), (vx + round(i * STEP * w), vy))
    sx = vx + round((4 * STEP + 0.3) * w)
    surf.blit(cards.face(parse_card(ex.starter), w), (sx, vy))
    label_y = vy + h + max(2, w // 12)
    _label(surf, "the crib" if ex.crib else "the hand", t, (vx + round(2 * STEP * w - 0.03 * w), label_y))
    _label(surf, "starter", t, (sx + w / 2, label_y), GOLD)


def _draw_count(surf: pygame.Surface, ex: CardExample, cell: CardCell, t: int) -> None:
    """The count's cards in the order laid, the count after each under it, the last one lit."""
    vx, vy, _, _ = cell.visual
    w = cell.width
    h = cards.height_of(w)
    count = 0
    for i, card in enumerate(ex.hand):
        x = vx + round(i * STEP * w)
        last = i == len(ex.hand) - 1
        surf.blit(cards.face(card, w), (x, vy))
        count += card.value
        if last and ex.legal:
            pygame.draw.rect(surf, GOLD, (x - 2, vy - 2, w + 4, h + 4), 2, border_radius=6)
        _label(surf, str(count), t, (x + w / 2, vy + h + max(2, w // 12)), GOLD if last else DIM)


def _draw_play(surf: pygame.Surface, ex: CardExample, cell: CardCell, t: int) -> None:
    """The cards in the order laid along a line, the non-dealer's high and the dealer's low, the count
    after each under the lower row; a count started again is marked by a gap in the wood."""
    vx, vy, _, _ = cell.visual
    w = cell.width
    h = cards.height_of(w)
    drop = round(h * 0.5)
    laid = ex.outcome().laid
    previous = 0
    for i, (who, card, count) in enumerate(laid):
        x = vx + round(i * PLAY_STEP * w)
        y = vy + (drop if who == DEALER else 0)
        if count != previous + card.value and i:  # the count started again: a line between the cards
            pygame.draw.line(surf, GOLD, (x - 2, vy), (x - 2, vy + h + drop), 2)
        surf.blit(cards.face(card, w), (x, y))
        words = "31" if count == 31 else str(count)
        _label(
            surf, words, t, (x + w * PLAY_STEP / 2, vy + h + drop + max(2, w // 12)), GOLD if count in (15, 31) else DIM
        )
        previous = count


def _draw_starter(surf: pygame.Surface, ex: CardExample, cell: CardCell, t: int) -> None:
    """The rest of the deck face down, the starter turned up beside it."""
    vx, vy, _, _ = cell.visual
    w = cell.width
    h = cards.height_of(w)
    surf.blit(cards.back(w), (vx, vy))
    sx = vx + round(STEP * w)
    surf.blit(cards.face(parse_card(ex.starter), w), (sx, vy))
    label_y = vy + h + max(2, w // 12)
    _label(surf, "the deck", t, (vx + w / 2, label_y))
    _label(surf, "starter", t, (sx + w / 2, label_y), GOLD)


def _draw_deal(surf: pygame.Surface, ex: CardExample, cell: CardCell, t: int) -> None:
    """Six cards dealt: the four kept in a row, the two for the crib lower and dimmed."""
    vx, vy, _, _ = cell.visual
    w = cell.width
    h = cards.height_of(w)
    crib = set(parse_cards(ex.other))
    low = round(h * 0.35)
    for i, card in enumerate(ex.hand):
        away = card in crib
        surf.blit(cards.face(card, w, dim=away), (vx + round(i * STEP * w), vy + (low if away else 0)))
    kept = sum(1 for c in ex.hand if c not in crib)
    _label(surf, "to the crib", t, (vx + round((kept + 0.5 * len(crib)) * STEP * w), vy + h + low + max(2, w // 12)))


# --- the book ---


def lay_cell(ex: CardExample, rect: Rect, t: int, strict: bool = True) -> Cell | None:
    """The example's cell on a page of the book, as `lay_card_cell` lays it in `rect`."""
    laid = lay_card_cell(ex, rect, t, strict)
    return None if laid is None else Cell(rect, laid.caption, laid.visual, laid.width, laid.result)


def draw_cell(surf: pygame.Surface, ex: CardExample, cell: Cell, t: int) -> None:
    """The example drawn in its cell on a page of the book."""
    draw_card_example(surf, ex, CardCell(cell.caption, cell.visual, cell.unit, cell.result), t)


#: The book: classic cribbage's pages, its examples laid and drawn with cards.
BOOK: RuleBook[CardExample] = RuleBook(title="Classic cribbage", pages=PAGES, lay=lay_cell, draw=draw_cell)
