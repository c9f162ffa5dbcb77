"""Squares of the 13 x 13 board by row and column, with their names (`f7`): the bottom of the rules.

Imports nothing from the package, so that `errors` and `board` can both name a `Square`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

SIZE = 13
COLUMN_LETTERS = "abcdefghijklm"


class Square(NamedTuple):
    """A square by row and column, both 0-based; `str` gives its name, `f7`."""

    row: int
    col: int

    @property
    def pos(self) -> int:
        """Row-major position, 0 (a1) to 168 (m13)."""
        return self.row * SIZE + self.col

    @property
    def name(self) -> str:
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Square({self.name})"

    def neighbours(self) -> Iterator[Square]:
        """The squares edge to edge with this one that exist on the board."""
        r, c = self
        if r > 0:
            yield SQUARES[self.pos - SIZE]
        if r < SIZE - 1:
            yield SQUARES[self.pos + SIZE]
        if c > 0:
            yield SQUARES[self.pos - 1]
        if c < SIZE - 1:
            yield SQUARES[self.pos + 1]


#: Every square of the board, row-major: SQUARES[s.pos] is s.
SQUARES: tuple[Square, ...] = tuple(Square(i // SIZE, i % SIZE) for i in range(SIZE * SIZE))
