"""Tests for cribtiles.rules.board: squares and their names, the blocked patch, lines and the board text."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cribtiles.rules import (
    BLOCKED,
    Board,
    Colour,
    NotationError,
    Square,
    Tile,
    parse_square,
    parse_tile,
)
from cribtiles.rules.board import ACROSS, DOWN, Direction

L, D = Colour.LIGHT, Colour.DARK
LETTERS = "abcdefghijklm"
ALL_NAMES = [f"{c}{r}" for r in range(1, 14) for c in LETTERS]
BLOCKED_NAMES = {"a1", "b1", "c1", "a2", "b2", "c2"}
PLAYABLE = [parse_square(name) for name in ALL_NAMES if name not in BLOCKED_NAMES]


def board_of(text: str) -> Board:
    """A board from placements in play notation, like 'f7=4L g7=5D'."""
    pairs = (w.split("=") for w in text.split())
    return Board.empty().place((parse_square(sq), parse_tile(t)) for sq, t in pairs)


# --- squares ---


def test_square_names() -> None:
    assert parse_square("f7") == Square(6, 5)
    assert parse_square("a1") == Square(0, 0)
    assert parse_square("m13") == Square(12, 12)
    assert str(Square(6, 5)) == "f7"
    assert parse_square("F7") == Square(6, 5)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_square_name_round_trips(name: str) -> None:
    assert str(parse_square(name)) == name


BAD_SQUARES = ["", "f", "7", "7f", "n1", "a0", "a14", "f-1", "f 7", "ff", "f7f", "f1.5", "=f7"]


@pytest.mark.parametrize("bad", BAD_SQUARES)
def test_bad_square_names(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_square(bad)


@pytest.mark.parametrize("bad", ["a²", "f1²", "f⁷", "f٧"])
def test_non_ascii_digits_raise_notation_error(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_square(bad)


def test_blocked_patch() -> None:
    assert {str(s) for s in BLOCKED} == BLOCKED_NAMES
    assert len(PLAYABLE) == 163
    b = Board.empty()
    assert all(b.is_blocked(s) and not b.is_free(s) for s in BLOCKED)
    assert all(b.is_free(s) for s in PLAYABLE)


def test_neighbours_are_edge_to_edge_only() -> None:
    assert {str(s) for s in parse_square("f7").neighbours()} == {"f6", "f8", "e7", "g7"}
    assert {str(s) for s in parse_square("m13").neighbours()} == {"m12", "l13"}
    assert {str(s) for s in parse_square("a7").neighbours()} == {"a6", "a8", "b7"}


# --- board values ---


def test_empty_board() -> None:
    b = Board.empty()
    assert len(b) == 0 and b.is_empty()
    assert b.lines() == []
    assert list(b.tiles()) == []


def test_place_returns_a_new_board() -> None:
    b = Board.empty()
    b2 = b.place([(parse_square("f7"), Tile(5, D))])
    assert b.is_empty() and len(b2) == 1
    assert b2[parse_square("f7")] == Tile(5, D)
    assert b2 != b
    assert b2 == board_of("f7=5D") and hash(b2) == hash(board_of("f7=5D"))


@pytest.mark.parametrize("name", sorted(BLOCKED_NAMES))
def test_place_refuses_blocked_squares(name: str) -> None:
    with pytest.raises(ValueError, match=f"^{name} is not free$"):
        Board.empty().place([(parse_square(name), Tile(5, D))])


def test_place_refuses_occupied_squares() -> None:
    with pytest.raises(ValueError, match=r"^f7 is not free$"):
        board_of("f7=5D").place([(parse_square("f7"), Tile(10, D))])


def test_lines_are_maximal_runs_of_two_or_more() -> None:
    # row 7: f7 g7 h7 is a line; j7 stands alone in its row; column h: h7 h8 is a line;
    # k9 and l10 touch only diagonally, so they form no line.
    b = board_of("f7=4L g7=5D h7=6L j7=5D h8=9D j8=TD k9=5L l10=TL")
    found = {(line.direction, tuple(str(s) for s in line.squares), line.ranks) for line in b.lines()}
    assert found == {
        (ACROSS, ("f7", "g7", "h7"), (4, 5, 6)),
        (DOWN, ("h7", "h8"), (6, 9)),
        (DOWN, ("j7", "j8"), (5, 10)),
    }
    line = b.line_through(parse_square("g7"), ACROSS)
    assert line is not None and line.name == "row 7"
    line = b.line_through(parse_square("h8"), DOWN)
    assert line is not None and line.name == "column h"
    assert b.line_through(parse_square("g7"), DOWN) is None
    assert b.line_through(parse_square("k9"), ACROSS) is None
    assert b.line_through(parse_square("e7"), ACROSS) is None  # an empty square


def test_directions_are_an_enum_that_reads_as_the_old_strings() -> None:
    assert [(d.name, d.value) for d in Direction] == [("ACROSS", "across"), ("DOWN", "down")]
    assert ACROSS is Direction.ACROSS and DOWN is Direction.DOWN  # the old names are aliases
    assert (str(ACROSS), f"{DOWN}", ACROSS == "across") == ("across", "down", True)
    b = board_of("f7=4L g7=5D h7=6L h8=9D")
    assert sorted((type(line.direction), line.direction, line.name) for line in b.lines()) == [
        (Direction, Direction.ACROSS, "row 7"),
        (Direction, Direction.DOWN, "column h"),
    ]


def test_lines_at_the_board_edges() -> None:
    b = board_of("l13=5D m13=TD m12=5L")
    found = {(line.direction, tuple(str(s) for s in line.squares)) for line in b.lines()}
    assert found == {(ACROSS, ("l13", "m13")), (DOWN, ("m12", "m13"))}


# --- board text ---


def test_empty_board_text() -> None:
    text = Board.empty().to_text()
    rows = text.splitlines()
    assert len(rows) == 13
    assert all(len(row.split(" ")) == 13 for row in rows)
    assert rows[0].startswith("## ## ## .. ") and rows[1].startswith("## ## ## .. ")
    assert rows[2] == " ".join([".."] * 13)
    assert text.count("##") == 6 and text.count("..") == 163


def test_board_text_shows_tiles() -> None:
    rows = board_of("f7=4L g7=TD m13=9L").to_text().splitlines()
    assert rows[6].split()[5:7] == ["4L", "TD"]
    assert rows[12].split()[12] == "9L"
    assert Board.from_text("\n".join(rows)) == board_of("f7=4L g7=TD m13=9L")


boards_st = st.dictionaries(
    st.sampled_from(PLAYABLE),
    st.builds(Tile, st.integers(1, 13), st.sampled_from([L, D])),
    max_size=60,
).map(lambda cells: Board.empty().place(cells.items()))


@settings(max_examples=150, deadline=None)
@given(boards_st)
def test_board_text_round_trips(board: Board) -> None:
    text = board.to_text()
    again = Board.from_text(text)
    assert again == board and hash(again) == hash(board)
    assert again.to_text() == text


def test_board_text_accepts_lowercase_and_ten() -> None:
    rows = Board.empty().to_text().splitlines()
    tokens = rows[6].split()
    tokens[5] = "10l"
    rows[6] = " ".join(tokens)
    assert Board.from_text("\n".join(rows)) == board_of("f7=TL")


def _text_with(row: int, col: int, token: str) -> str:
    rows = [r.split() for r in Board.empty().to_text().splitlines()]
    rows[row][col] = token
    return "\n".join(" ".join(r) for r in rows)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "13 rows"),
        ("\n".join(Board.empty().to_text().splitlines()[:12]), "13 rows"),
        (Board.empty().to_text() + ".. " * 13, "13 rows"),
        (Board.empty().to_text().replace("\n", " ..\n", 1), "row 1"),
        (_text_with(0, 0, "5D"), "a1"),
        (_text_with(1, 2, ".."), "c2"),
        (_text_with(6, 5, "##"), "f7"),
        (_text_with(6, 5, "5X"), "5X"),
        (_text_with(6, 5, "."), "'.'"),
    ],
)
def test_bad_board_text_raises_notation_error(text: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        Board.from_text(text)
    assert words in str(info.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
@example("## ## ##\n" * 13)
def test_board_from_any_text_gives_a_board_or_notation_error(text: str) -> None:
    try:
        board = Board.from_text(text)
    except NotationError:
        return
    assert isinstance(board, Board)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.text(max_size=4))
def test_board_text_with_one_token_changed(row: int, col: int, token: str) -> None:
    """Near-miss board texts (one square rewritten with arbitrary text) parse or raise NotationError."""
    rows = [r.split() for r in Board.empty().to_text().splitlines()]
    rows[row][col] = token
    text = "\n".join(" ".join(r) for r in rows)
    try:
        board = Board.from_text(text)
    except NotationError:
        return
    assert Board.from_text(board.to_text()) == board
