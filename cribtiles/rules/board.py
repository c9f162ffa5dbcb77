"""The 13 x 13 board: squares, the blocked name patch, lines, and the board text of rules.md.

A `Board` is immutable; `place` returns a new board. Squares are numbered row-major (a1 = 0,
m13 = 168) so that hot code can work on flat tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import NamedTuple

from cribtiles.quoting import quoted

from .errors import NotationError

# Square lives a level down so that errors can name it without importing the board; it is
# re-exported here (the `as` form), so `from cribtiles.rules.board import Square` keeps working.
from .squares import COLUMN_LETTERS as COLUMN_LETTERS
from .squares import SIZE as SIZE
from .squares import SQUARES as SQUARES
from .squares import Square as Square
from .tiles import Tile, parse_tile


class Direction(StrEnum):
    """Which way a line runs: along a row (across) or a column (down). A str, so it prints as before."""

    ACROSS = "across"
    DOWN = "down"


ACROSS, DOWN = Direction.ACROSS, Direction.DOWN


#: The 3 x 2 patch at the top-left corner that carries the game's name.
BLOCKED: frozenset[Square] = frozenset(Square(r, c) for r in range(2) for c in range(3))
PLAYABLE: tuple[Square, ...] = tuple(s for s in SQUARES if s not in BLOCKED)
CENTRE = Square(6, 6)


def square_at(row: int, col: int) -> Square:
    return SQUARES[row * SIZE + col]


def parse_square(text: str) -> Square:
    """`f7` -> Square(row=6, col=5)."""
    t = text.strip().lower()
    if 2 <= len(t) <= 3 and t[0] in COLUMN_LETTERS and t[1:].isascii() and t[1:].isdigit():
        row = int(t[1:])
        if 1 <= row <= SIZE:
            return square_at(row - 1, COLUMN_LETTERS.index(t[0]))
    raise NotationError(f"{quoted(text)} is not a square: columns are a-m and rows 1-13, like f7")


def line_name(direction: Direction, square: Square) -> str:
    """How a player names a line: 'row 7' for an across line, 'column h' for a down line."""
    return f"row {square.row + 1}" if direction == ACROSS else f"column {COLUMN_LETTERS[square.col]}"


class Line(NamedTuple):
    """A maximal run of 2+ tiles in one row or column, in board order."""

    direction: Direction
    squares: tuple[Square, ...]
    tiles: tuple[Tile, ...]

    @property
    def name(self) -> str:
        return line_name(self.direction, self.squares[0])

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(t.rank for t in self.tiles)


class Board:
    """Which tile, if any, lies on each square. Immutable and hashable."""

    __slots__ = ("_cells", "_count", "_hash", "derived")

    def __init__(self, cells: tuple[Tile | None, ...]) -> None:
        if len(cells) != SIZE * SIZE:
            raise ValueError(f"a board has {SIZE * SIZE} squares, not {len(cells)}")
        for s in BLOCKED:
            if cells[s.pos] is not None:
                raise ValueError(f"{s} is blocked and cannot hold a tile")
        self._cells = cells
        self._count = sum(1 for c in cells if c is not None)
        self._hash: int | None = None
        #: Tables other modules derive from this board (the move generator's cross-checks), kept
        #: with it so that they are built once per position. Never part of the board's value.
        self.derived: dict[str, object] = {}

    @classmethod
    def empty(cls) -> Board:
        return _EMPTY

    @property
    def cells(self) -> tuple[Tile | None, ...]:
        """The 169 squares row-major: the tile on each, or None."""
        return self._cells

    def __getitem__(self, square: Square) -> Tile | None:
        return self._cells[square.pos]

    def __len__(self) -> int:
        """The number of tiles on the board."""
        return self._count

    def is_empty(self) -> bool:
        return self._count == 0

    def is_blocked(self, square: Square) -> bool:
        return square in BLOCKED

    def is_free(self, square: Square) -> bool:
        """Playable and empty."""
        return square not in BLOCKED and self._cells[square.pos] is None

    def tiles(self) -> Iterator[tuple[Square, Tile]]:
        for i, t in enumerate(self._cells):
            if t is not None:
                yield SQUARES[i], t

    def place(self, placements: Iterable[tuple[Square, Tile]]) -> Board:
        """A new board with these tiles added (squares must be free)."""
        cells = list(self._cells)
        added = 0
        for square, tile in placements:
            if square in BLOCKED or cells[square.pos] is not None:
                raise ValueError(f"{square} is not free")
            cells[square.pos] = tile
            added += 1
        # Every square was checked above: skip `__init__`'s checks and count (simulations place a lot).
        board = object.__new__(Board)
        board._cells = tuple(cells)
        board._count = self._count + added
        board._hash = None
        board.derived = {}
        return board

    def without(self, squares: Iterable[Square]) -> Board:
        """A new board with these squares emptied (the board as it stood before the tiles on them)."""
        cells = list(self._cells)
        for square in squares:
            cells[square.pos] = None
        return Board(tuple(cells))

    def touches_tile(self, square: Square) -> bool:
        return any(self._cells[n.pos] is not None for n in square.neighbours())

    def line_through(self, square: Square, direction: Direction) -> Line | None:
        """The maximal run of tiles through `square` in `direction`, if it holds 2+ tiles."""
        if self._cells[square.pos] is None:
            return None
        step = 1 if direction == ACROSS else SIZE
        r, c = square
        lo = c if direction == ACROSS else r
        pos = square.pos
        first = pos
        while lo > 0 and self._cells[first - step] is not None:
            first -= step
            lo -= 1
        last = pos
        hi = c if direction == ACROSS else r
        while hi < SIZE - 1 and self._cells[last + step] is not None:
            last += step
            hi += 1
        if first == last:
            return None
        idx = range(first, last + 1, step)
        tiles = tuple(self._cells[i] for i in idx)
        return Line(direction, tuple(SQUARES[i] for i in idx), tiles)  # type: ignore[arg-type]

    def lines(self) -> list[Line]:
        """Every line on the board (each once), across lines first."""
        found: list[Line] = []
        for direction in (ACROSS, DOWN):
            seen: set[Square] = set()
            for square, _ in self.tiles():
                if square in seen:
                    continue
                line = self.line_through(square, direction)
                if line is not None:
                    seen.update(line.squares)
                    found.append(line)
        return found

    # --- text form (rules.md section 7) ---

    def to_text(self) -> str:
        rows = []
        for r in range(SIZE):
            tokens = []
            for c in range(SIZE):
                s = square_at(r, c)
                t = self._cells[s.pos]
                tokens.append("##" if s in BLOCKED else ".." if t is None else str(t))
            rows.append(" ".join(tokens))
        return "\n".join(rows) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Board:
        rows = [line for line in text.strip().splitlines() if line.strip()]
        if len(rows) != SIZE:
            raise NotationError(f"board text needs {SIZE} rows, found {len(rows)}")
        cells: list[Tile | None] = []
        for r, row in enumerate(rows):
            tokens = row.split()
            if len(tokens) != SIZE:
                raise NotationError(f"row {r + 1} of the board text has {len(tokens)} squares, not {SIZE}")
            for c, token in enumerate(tokens):
                s = square_at(r, c)
                if s in BLOCKED:
                    if token != "##":
                        raise NotationError(f"{s} is blocked and must be written ##, not {quoted(token)}")
                    cells.append(None)
                elif token == "##":
                    raise NotationError(f"{s} is not blocked; write .. for an empty square")
                elif token == "..":
                    cells.append(None)
                else:
                    cells.append(parse_tile(token))
        return cls(tuple(cells))

    def diagram(self) -> str:
        """The board drawn for a terminal, with column letters and row numbers."""
        head = "    " + " ".join(f"{ch} " for ch in COLUMN_LETTERS)
        body = [f"{r + 1:>2}  " + line for r, line in enumerate(self.to_text().splitlines())]
        return "\n".join([head, *body])

    def __str__(self) -> str:
        return self.diagram()

    def __repr__(self) -> str:
        return f"Board.from_text({self.to_text()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._cells == other._cells

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._cells)
        return self._hash


_EMPTY = Board((None,) * (SIZE * SIZE))
