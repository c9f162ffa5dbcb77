"""Playing cards drawn in code: their size, the suits' colours, the back unlike any face, the dimmed
face darker, and each drawn once (the cache hands back the same surface)."""

from __future__ import annotations

import pygame
import pytest

from cribtiles.cribbage import DECK, parse_card
from cribtiles.ui.cribbage import cards


@pytest.fixture(autouse=True)
def display() -> None:
    pygame.display.init()
    pygame.font.init()


def brightness(surface: pygame.Surface) -> float:
    w, h = surface.get_size()
    pixels = [surface.get_at((x, y)) for x in range(0, w, 4) for y in range(0, h, 4)]
    return sum(p.r + p.g + p.b for p in pixels if p.a) / len(pixels)


def test_a_face_is_a_card_sized_surface_drawn_once_per_size() -> None:
    face = cards.face(parse_card("5H"), 100)
    assert face.get_size() == (100, 140) and cards.height_of(100) == 140
    assert cards.face(parse_card("5H"), 100) is face
    assert cards.face(parse_card("5H"), 80) is not face and cards.face(parse_card("5H"), 80).get_size() == (80, 112)
    assert cards.rank_text(parse_card("TD")) == "10" and cards.rank_text(parse_card("AS")) == "A"
    assert cards.rank_text(parse_card("QC")) == "Q"


def test_red_suits_are_inked_deep_red_and_black_ones_near_black() -> None:
    for text, ink in (("AH", cards.RED_INK), ("AD", cards.RED_INK), ("AS", cards.BLACK_INK), ("AC", cards.BLACK_INK)):
        face = cards.face(parse_card(text), 120)
        centre = face.get_at((60, cards.height_of(120) // 2))[:3]  # the large pip
        assert tuple(centre) == ink, text


def test_every_card_differs_the_back_is_like_no_face_and_a_dim_face_is_darker() -> None:
    faces = [pygame.image.tobytes(cards.face(c, 60), "RGBA") for c in DECK]
    assert len(set(faces)) == 52
    assert pygame.image.tobytes(cards.back(60), "RGBA") not in faces
    card = parse_card("KS")
    assert brightness(cards.face(card, 60, dim=True)) < brightness(cards.face(card, 60)) * 0.8
    assert brightness(cards.back(60)) < brightness(cards.face(card, 60)) * 0.6  # walnut, not cream
