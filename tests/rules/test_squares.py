"""Tests for cribtiles.rules.squares: square positions and names, and the board's re-export of them."""

from __future__ import annotations

from cribtiles.rules import board, squares
from cribtiles.rules.squares import COLUMN_LETTERS, SIZE, SQUARES, Square


def test_positions_and_names() -> None:
    assert (SIZE, COLUMN_LETTERS) == (13, "abcdefghijklm")
    assert len(SQUARES) == 169
    assert (Square(0, 0).pos, Square(6, 5).pos, Square(12, 12).pos) == (0, 83, 168)
    assert (str(Square(6, 5)), repr(Square(12, 12)), Square(0, 0).name) == ("f7", "Square(m13)", "a1")
    assert all(SQUARES[s.pos] is s for s in SQUARES)


def test_neighbours() -> None:
    assert [str(s) for s in Square(6, 5).neighbours()] == ["f6", "f8", "e7", "g7"]
    assert [str(s) for s in Square(0, 0).neighbours()] == ["a2", "b1"]
    assert [str(s) for s in Square(12, 12).neighbours()] == ["m12", "l13"]


def test_the_board_module_re_exports_the_same_objects() -> None:
    assert board.Square is squares.Square
    assert board.SQUARES is squares.SQUARES
    assert (board.SIZE, board.COLUMN_LETTERS) == (squares.SIZE, squares.COLUMN_LETTERS)
