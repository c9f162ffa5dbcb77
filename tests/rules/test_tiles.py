"""Tests for cribtiles.rules.tiles: count values, the 104-tile set, 6/9 faces and tile notation."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cribtiles.rules import Colour, NotationError, Tile, count_value, full_set, parse_tile
from cribtiles.rules.tiles import colour_set

L, D = Colour.LIGHT, Colour.DARK
SYMBOLS = "A23456789TJQK"


def test_count_values() -> None:
    assert [count_value(r) for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_tile_value_is_count_value() -> None:
    assert Tile(1, L).value == 1
    assert Tile(12, D).value == 10
    assert Tile(9, L).value == 9


def test_full_set_has_104_tiles_as_rules_say() -> None:
    tiles = full_set()
    assert len(tiles) == 104
    by_colour = Counter(t.colour for t in tiles)
    assert by_colour == {L: 52, D: 52}
    counts = Counter(tiles)
    for colour in (L, D):
        for rank in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13):
            assert counts[Tile(rank, colour)] == 4
        # on a rack the 6s and 9s are 8 interchangeable 6/9 tiles, written as 6
        assert counts[Tile(6, colour)] == 8
        assert counts[Tile(9, colour)] == 0


def test_colour_set() -> None:
    light = colour_set(L)
    assert len(light) == 52 and all(t.colour is L for t in light)
    assert Counter(light) + Counter(colour_set(D)) == Counter(full_set())


def test_six_nine_faces() -> None:
    six, nine = Tile(6, D), Tile(9, D)
    assert six.is_six_nine and nine.is_six_nine
    assert six.faces == nine.faces == (six, nine)
    assert six.flipped == nine and nine.flipped == six
    assert nine.rack_form == six and six.rack_form == six


@pytest.mark.parametrize("rank", [1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13])
def test_other_tiles_have_one_face(rank: int) -> None:
    t = Tile(rank, L)
    assert not t.is_six_nine
    assert t.faces == (t,)
    assert t.flipped == t and t.rack_form == t


def test_codes_are_dense_and_distinct() -> None:
    faces = [Tile(r, c) for c in (L, D) for r in range(1, 14)]
    assert sorted(t.code for t in faces) == list(range(26))


@pytest.mark.parametrize("colour", [L, D])
@pytest.mark.parametrize("rank", range(1, 14))
def test_tile_notation_round_trips(rank: int, colour: Colour) -> None:
    t = Tile(rank, colour)
    text = str(t)
    assert text == SYMBOLS[rank - 1] + colour.value
    assert parse_tile(text) == t
    assert parse_tile(text.lower()) == t


def test_ten_is_accepted_for_t() -> None:
    assert parse_tile("10L") == parse_tile("TL") == Tile(10, L)
    assert parse_tile("10d") == Tile(10, D)
    assert str(parse_tile("10D")) == "TD"


def test_nine_stays_a_nine_as_a_tile() -> None:
    assert parse_tile("9L") == Tile(9, L)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        " ",
        "5",
        "L",
        "5X",
        "5LD",
        "1L",
        "11L",
        "0D",
        "TT",
        "JJ",
        "ZD",
        "1 0L",
        "-5L",
        "5.L",
        "100L",
        "6/9L",
    ],
)
def test_bad_tiles_raise_notation_error(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_tile(bad)


def test_notation_error_is_a_value_error() -> None:
    assert issubclass(NotationError, ValueError)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=6))
@example("10")
@example("\x00L")
def test_parse_tile_on_any_text_gives_a_tile_or_notation_error(text: str) -> None:
    try:
        t = parse_tile(text)
    except NotationError:
        return
    assert isinstance(t, Tile) and 1 <= t.rank <= 13 and t.colour in (L, D)
