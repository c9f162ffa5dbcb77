"""Playing cards drawn in code in the table's wooden look: a cream face in a thin wood-toned border,
the rank and suit in two corners, a large pip (a letter in a frame for the court cards) in the middle,
and a back of walnut with a maple inlay. Each card is drawn once per size and kept in a typed cache.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import pygame

from cribtiles.cribbage.cards import Card, Suit

from .. import art

RGB = tuple[int, int, int]

#: A card's height over its width (a poker card is 88 x 63 mm).
RATIO = 1.4
FACE: RGB = (247, 239, 221)  # the cream of the face
EDGE: RGB = (150, 100, 58)  # the thin wooden border round the face
RED_INK: RGB = (156, 26, 34)
BLACK_INK: RGB = (30, 26, 24)
BACK: RGB = (96, 58, 36)  # walnut
INLAY: RGB = (236, 204, 150)  # maple
COURT = {11: "J", 12: "Q", 13: "K"}
#: Drawn this many times larger, then smoothed down: the pips' curves come out clean at any size.
SUPERSAMPLE = 4
#: Faces kept at once (52 cards at a few sizes, lit or dim); the oldest go first past this.
KEPT = 400


def height_of(width: int) -> int:
    return round(width * RATIO)


def rank_text(card: Card) -> str:
    """The rank as the card shows it: A, 2 ... 10, J, Q, K."""
    return COURT.get(card.rank, "A" if card.rank == 1 else str(card.rank))


def ink(suit: Suit) -> RGB:
    return RED_INK if suit.is_red else BLACK_INK


# --- the suits' shapes, as fractions of a square ---


def _heart(s: pygame.Surface, c: RGB, n: int, down: bool = False) -> None:
    """A heart (or, upside down, the body of a spade) filling an n x n square."""

    def y(v: float) -> float:
        return (1 - v) * n if down else v * n

    r = 0.25 * n
    for cx in (0.29, 0.71):
        pygame.draw.circle(s, c, (cx * n, y(0.32)), r)
    pygame.draw.polygon(s, c, [(0.055 * n, y(0.40)), (0.5 * n, y(0.95)), (0.945 * n, y(0.40)), (0.5 * n, y(0.30))])


def _diamond(s: pygame.Surface, c: RGB, n: int) -> None:
    pygame.draw.polygon(s, c, [(0.5 * n, 0.02 * n), (0.86 * n, 0.5 * n), (0.5 * n, 0.98 * n), (0.14 * n, 0.5 * n)])


def _stem(s: pygame.Surface, c: RGB, n: int) -> None:
    pygame.draw.polygon(s, c, [(0.5 * n, 0.55 * n), (0.33 * n, 0.98 * n), (0.67 * n, 0.98 * n)])


def _spade(s: pygame.Surface, c: RGB, n: int) -> None:
    _heart(s, c, n, down=True)
    _stem(s, c, n)


def _club(s: pygame.Surface, c: RGB, n: int) -> None:
    r = 0.21 * n
    for cx, cy in ((0.5, 0.27), (0.27, 0.57), (0.73, 0.57)):
        pygame.draw.circle(s, c, (cx * n, cy * n), r)
    pygame.draw.circle(s, c, (0.5 * n, 0.5 * n), 0.14 * n)
    _stem(s, c, n)


_SHAPES: dict[Suit, Callable[[pygame.Surface, RGB, int], None]] = {
    Suit.HEARTS: _heart,
    Suit.DIAMONDS: _diamond,
    Suit.SPADES: _spade,
    Suit.CLUBS: _club,
}


def _pip(suit: Suit, size: int, colour: RGB) -> pygame.Surface:
    n = max(1, size) * SUPERSAMPLE
    big = pygame.Surface((n, n), pygame.SRCALPHA)
    _SHAPES[suit](big, colour, n)
    return pygame.transform.smoothscale(big, (max(1, size), max(1, size)))


# --- the cache ---


class FaceKey(NamedTuple):
    card: Card
    width: int
    dim: bool


class PipKey(NamedTuple):
    suit: Suit
    size: int
    colour: RGB


@dataclass
class CardArt:
    """Every card face, back and pip drawn so far, by what it shows and its size."""

    faces: dict[FaceKey, pygame.Surface]
    backs: dict[int, pygame.Surface]
    pips: dict[PipKey, pygame.Surface]

    @classmethod
    def empty(cls) -> CardArt:
        return cls({}, {}, {})

    def face(self, card: Card, width: int, dim: bool = False) -> pygame.Surface:
        """The face of `card`, `width` pixels wide (`dim`: darkened, a card that cannot be played now)."""
        key = FaceKey(card, width, dim)
        found = self.faces.get(key)
        if found is None:
            found = _dimmed(self.face(card, width)) if dim else _face(self, card, width)
            if len(self.faces) >= KEPT:
                del self.faces[next(iter(self.faces))]
            self.faces[key] = found
        return found

    def back(self, width: int) -> pygame.Surface:
        found = self.backs.get(width)
        if found is None:
            if len(self.backs) >= 16:
                self.backs.clear()
            found = self.backs[width] = _back(width)
        return found

    def pip(self, suit: Suit, size: int, colour: RGB | None = None) -> pygame.Surface:
        key = PipKey(suit, size, colour or ink(suit))
        found = self.pips.get(key)
        if found is None:
            if len(self.pips) >= 64:
                self.pips.clear()
            found = self.pips[key] = _pip(suit, size, key.colour)
        return found


#: The one cache of card art (the window draws at a handful of sizes).
CARDS = CardArt.empty()


def face(card: Card, width: int, dim: bool = False) -> pygame.Surface:
    return CARDS.face(card, width, dim)


def back(width: int) -> pygame.Surface:
    return CARDS.back(width)


def pip(suit: Suit, size: int, colour: RGB | None = None) -> pygame.Surface:
    return CARDS.pip(suit, size, colour)


# --- drawing ---


def _radius(w: int) -> int:
    return max(3, round(w * 0.08))


def _face(cache: CardArt, card: Card, w: int) -> pygame.Surface:
    h = height_of(w)
    r = _radius(w)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, EDGE, (0, 0, w, h), border_radius=r)
    edge = max(2, round(w * 0.035))
    grain = art.wood(w, h, EDGE, 300 + card.index, spacing=max(2.0, w / 30), wave=0.4)
    surf.blit(art.rounded(grain, r), (0, 0))
    inner = pygame.Rect(edge, edge, w - 2 * edge, h - 2 * edge)
    pygame.draw.rect(surf, FACE, inner, border_radius=max(2, r - edge // 2))
    colour = ink(card.suit)
    # the corners: the rank over a small pip, upper left and (turned) lower right
    size = max(10, round(w * 0.27))
    label = art.text(rank_text(card), size, colour)
    small = cache.pip(card.suit, max(5, round(w * 0.15)))
    corner = pygame.Surface(
        (max(label.get_width(), small.get_width()), label.get_height() + small.get_height()), pygame.SRCALPHA
    )
    corner.blit(label, label.get_rect(midtop=(corner.get_width() // 2, 0)))
    corner.blit(small, small.get_rect(midtop=(corner.get_width() // 2, label.get_height() - max(1, size // 8))))
    pad = edge + max(2, round(w * 0.05))
    surf.blit(corner, (pad, pad - max(0, size // 10)))
    turned = pygame.transform.rotate(corner, 180)
    surf.blit(turned, turned.get_rect(bottomright=(w - pad, h - pad + max(0, size // 10))))
    # the middle: a large pip, or a letter in a wooden frame for a court card
    cx, cy = w // 2, h // 2
    if card.rank in COURT:
        fw, fh = round(w * 0.5), round(h * 0.5)
        frame = pygame.Rect(0, 0, fw, fh)
        frame.center = (cx, cy)
        pygame.draw.rect(surf, art.shade(FACE, 0.93), frame, border_radius=max(2, w // 20))
        pygame.draw.rect(surf, EDGE, frame, max(1, w // 40), border_radius=max(2, w // 20))
        letter = art.engraved_text(COURT[card.rank], round(w * 0.46), colour, light=True)
        surf.blit(letter, letter.get_rect(center=(cx, cy - round(h * 0.05))))
        mark = cache.pip(card.suit, max(5, round(w * 0.14)))
        surf.blit(mark, mark.get_rect(center=(cx, frame.bottom - round(fh * 0.16))))
    else:
        big = cache.pip(card.suit, round(w * (0.5 if card.rank == 1 else 0.42)))
        surf.blit(big, big.get_rect(center=(cx, cy)))
    pygame.draw.rect(surf, art.shade(EDGE, 0.55), (0, 0, w, h), 1, border_radius=r)
    return surf


def _dimmed(source: pygame.Surface) -> pygame.Surface:
    out = source.copy()
    veil = pygame.Surface(out.get_size(), pygame.SRCALPHA)
    veil.fill((60, 50, 40, 110))
    mask = pygame.Surface(out.get_size(), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=_radius(out.get_width()))
    veil.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    out.blit(veil, (0, 0))
    return out


def _back(w: int) -> pygame.Surface:
    """Walnut with a maple inlay: a border line, a lattice of thin strips and an oval in the middle."""
    h = height_of(w)
    r = _radius(w)
    surf = art.rounded(art.wood(w, h, BACK, 97, spacing=max(2.0, w / 26), wave=0.5, vertical=True), r)
    m = max(3, round(w * 0.09))
    field = pygame.Rect(m, m, w - 2 * m, h - 2 * m)
    lattice = pygame.Surface(field.size, pygame.SRCALPHA)
    step = max(6, round(w * 0.16))
    strip = (*INLAY, 70)
    for k in range(-field.height, field.width + field.height, step):
        pygame.draw.line(lattice, strip, (k, 0), (k + field.height, field.height), max(1, w // 60))
        pygame.draw.line(lattice, strip, (k, field.height), (k + field.height, 0), max(1, w // 60))
    surf.blit(lattice, field.topleft)
    pygame.draw.rect(surf, (*INLAY, 200), field, max(1, w // 45), border_radius=max(2, r // 2))
    oval = pygame.Rect(0, 0, round(w * 0.46), round(h * 0.3))
    oval.center = (w // 2, h // 2)
    pygame.draw.ellipse(surf, art.shade(BACK, 0.8), oval)
    pygame.draw.ellipse(surf, (*INLAY, 230), oval, max(1, w // 36))
    inner = oval.inflate(-round(w * 0.12), -round(w * 0.12))
    pygame.draw.ellipse(surf, (*INLAY, 140), inner, 1)
    art.bevel(surf, (0, 0, w, h), max(2, w // 28), raised=True, strength=80, radius=r)
    pygame.draw.rect(surf, (*art.shade(BACK, 0.45), 220), (0, 0, w, h), 1, border_radius=r)
    return surf
