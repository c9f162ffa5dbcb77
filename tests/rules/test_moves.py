"""Tests for cribtiles.rules.moves: plays, passes, exchanges and racks, and their notation."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cribtiles.rules import (
    Colour,
    Exchange,
    Move,
    NotationError,
    Pass,
    Placement,
    Play,
    Square,
    Tile,
    format_move,
    format_rack,
    parse_move,
    parse_rack,
    parse_square,
)
from cribtiles.rules.board import BLOCKED, Board
from cribtiles.rules.moves import board_text

L, D = Colour.LIGHT, Colour.DARK


def sq(name: str) -> Square:
    return parse_square(name)


# --- plays ---


def test_parse_play() -> None:
    move = parse_move("f7=4L g7=5D h7=6L")
    assert isinstance(move, Play)
    assert move.squares == (sq("f7"), sq("g7"), sq("h7"))
    assert move.tiles == (Tile(4, L), Tile(5, D), Tile(6, L))
    assert move.placements[0] == Placement(sq("f7"), Tile(4, L))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("h7=6L f7=4L g7=5D", "f7=4L g7=5D h7=6L"),
        ("g8=5D f7=4L", "f7=4L g8=5D"),
        # by row, then column, with numbers compared as numbers: a9 before b10, a2 before a10
        ("b10=5D a9=5L", "a9=5L b10=5D"),
        ("a10=5D a2=5L", "a2=5L a10=5D"),
        ("m7=KD b7=KL", "b7=KL m7=KD"),
        ("F7=10l", "f7=TL"),
        ("  f7=4L    g7=5D ", "f7=4L g7=5D"),
    ],
)
def test_format_move_is_canonical(text: str, canonical: str) -> None:
    move = parse_move(text)
    assert format_move(move) == canonical
    assert parse_move(canonical) == move


def test_a_six_nine_keeps_the_face_it_is_laid_as() -> None:
    move = parse_move("f7=9L g7=6D")
    assert isinstance(move, Play)
    assert move.tiles == (Tile(9, L), Tile(6, D))
    assert format_move(move) == "f7=9L g7=6D"
    assert parse_move("f7=9L") != parse_move("f7=6L")


def test_play_of_sorts_placements() -> None:
    play = Play.of([(sq("h7"), Tile(6, L)), (sq("f7"), Tile(4, L))])
    assert play == parse_move("f7=4L h7=6L")


# --- pass and exchange ---


def test_pass() -> None:
    assert parse_move("pass") == Pass()
    assert isinstance(parse_move(" PASS "), Pass)
    assert format_move(Pass()) == "pass"


def test_exchange_holds_rack_tiles() -> None:
    move = parse_move("exchange 4L 5D 9D")
    assert isinstance(move, Exchange)
    # a 9 on a rack is the 6/9 tile of its colour
    assert sorted(move.tiles) == sorted([Tile(4, L), Tile(5, D), Tile(6, D)])
    assert parse_move(format_move(move)) == move
    assert parse_move("exchange 9D 5D 4L") == move == parse_move("exchange 4L 5D 6D")


# --- racks ---


def test_parse_rack() -> None:
    assert parse_rack("4L 5D 6L KD 9D") == (Tile(4, L), Tile(5, D), Tile(6, L), Tile(13, D), Tile(6, D))
    assert parse_rack("") == ()
    assert parse_rack("TL 10L") == (Tile(10, L), Tile(10, L))


def test_a_rack_six_is_a_rack_nine() -> None:
    assert parse_rack("9L") == parse_rack("6L")
    assert parse_rack("9D 9L") == parse_rack("6D 6L")
    assert parse_rack("9L") != parse_rack("9D")


def test_format_rack_round_trips() -> None:
    rack = parse_rack("4L 5D 9L KD TD")
    assert format_rack(rack) == "4L 5D 6L KD TD"
    assert parse_rack(format_rack(rack)) == rack


# --- bad notation ---


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "   ",
        "pass now",
        "pass 4L",
        "exchange",
        "exchange 4X",
        "exchange f7=4L",
        "f7",
        "f7=",
        "=4L",
        "f7=4X",
        "z7=4L",
        "f14=4L",
        "f7=4L g7",
        "f7=4L,g7=5D",
        "f7:4L",
        "f7=4L=5D",
        "f7=4L f7=5D",
        "f7=4L F7=5D",
        "play f7=4L",
    ],
)
def test_bad_moves_raise_notation_error(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_move(bad)


@pytest.mark.parametrize("bad", ["4L 5X", "4", "4L,5D", "f7=4L", "6/9L", "10"])
def test_bad_racks_raise_notation_error(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_rack(bad)


# --- round trips by property ---

tiles_st = st.builds(Tile, st.integers(1, 13), st.sampled_from([L, D]))
squares_st = st.builds(Square, st.integers(0, 12), st.integers(0, 12))
plays_st = st.dictionaries(squares_st, tiles_st, min_size=1, max_size=6).map(lambda d: Play.of(d.items()))
exchanges_st = st.lists(tiles_st, min_size=1, max_size=5).map(Exchange.of)
moves_st = st.one_of(plays_st, exchanges_st, st.just(Pass()))


@settings(max_examples=300, deadline=None)
@given(moves_st)
def test_parse_move_format_move_round_trips(move: Move) -> None:
    text = format_move(move)
    again = parse_move(text)
    assert again == move
    assert type(again) is type(move)
    assert format_move(again) == text


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(squares_st.filter(lambda s: s not in BLOCKED), tiles_st, max_size=80))
def test_a_boards_text_is_that_of_one_play_of_its_tiles(tiles: dict[Square, Tile]) -> None:
    board = Board.empty().place(tiles.items())
    assert board_text(board) == format_move(Play.of(board.tiles()))


@settings(max_examples=200, deadline=None)
@given(st.lists(tiles_st, max_size=5))
def test_rack_round_trips(tiles: list[Tile]) -> None:
    rack = tuple(t.rack_form for t in tiles)
    assert parse_rack(format_rack(rack)) == rack
    # writing every 6/9 as a 9 reads back as the same rack
    as_nines = " ".join(str(Tile(9, t.colour)) if t.rank == 6 else str(t) for t in rack)
    assert parse_rack(as_nines) == rack


@settings(max_examples=200, deadline=None)
@given(st.permutations(["f7=4L", "g7=5D", "h7=6L", "f8=TD", "h6=9D"]))
def test_any_order_gives_one_move(words: list[str]) -> None:
    assert format_move(parse_move(" ".join(words))) == "h6=9D f7=4L g7=5D h7=6L f8=TD"


def _parse_only_notation_error(text: str) -> None:
    for parse in (parse_move, parse_rack):
        with contextlib.suppress(NotationError):
            parse(text)


# Text built from pieces of the notation finds near misses far more often than random characters.
notation_pieces = st.sampled_from(
    [
        "f7",
        "a1",
        "m13",
        "n1",
        "a0",
        "=",
        "4L",
        "TD",
        "10D",
        "9L",
        "6/9",
        " ",
        "  ",
        "pass",
        "exchange",
        "x",
        "",
    ]
)
notation_like = st.lists(notation_pieces, max_size=10).map("".join)
ascii_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=30)


@settings(max_examples=400, deadline=None)
@given(st.one_of(notation_like, ascii_text))
def test_parsers_on_arbitrary_ascii_text_raise_only_notation_error(text: str) -> None:
    _parse_only_notation_error(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
@example("a²=5D")
def test_parsers_on_arbitrary_unicode_text_raise_only_notation_error(text: str) -> None:
    _parse_only_notation_error(text)


# --- issue 14: notation errors that teach ---


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("f7=4L,g7=5D", "separate placements with spaces, not commas, like f7=4L g7=5D"),
        ("f7=4L, g7=5D", "separate placements with spaces"),
        ("f7=4L;g7=5D", "separate placements with spaces"),
        ("f7=4L=5D", "more than one placement: one square, = and one tile each, separated by spaces"),
        ("f7=", "'f7=': a tile is missing after the =, like f7=4L"),
        ("g7=4L f7=", "a tile is missing after the ="),
        ("=4L", "a square is missing before the ="),
        ("f7=1L", "'1' is not a rank; an ace is written A, like AL"),
        ("f7=11D", "a jack is written J"),
        ("f7=13L", "a king is written K"),
        ("f7", "'f7' is not a placement: write square=tile, like f7=4L"),
    ],
)
def test_notation_errors_say_how_to_write_it(text: str, says: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    assert says in str(caught.value)


def test_the_spelled_out_forms_still_read() -> None:
    assert parse_move("f7=10L g7=AD") == parse_move("f7=TL g7=AD")
    assert str(parse_move("g7=5D f7=4L")) == "f7=4L g7=5D"
