"""Moves and their notation (rules.md section 7): plays, passes, exchanges, racks.

`parse_move(format_move(m)) == m` for every move; `format_move` writes the canonical text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from cribtiles.quoting import quoted

from .board import SQUARES, Board, Square, parse_square
from .errors import NotationError
from .tiles import FACES, Tile, format_tiles, parse_tile


class Placement(NamedTuple):
    """One tile laid on one square, with the face it is laid as."""

    square: Square
    tile: Tile

    def __str__(self) -> str:
        return _TEXT.get(self) or f"{self.square}={self.tile}"


#: PLACEMENTS[square index][face code]: every placement built once, shared by all moves.
PLACEMENTS: tuple[tuple[Placement, ...], ...] = tuple(tuple(Placement(s, f) for f in FACES) for s in SQUARES)
#: Every placement's text, written once: a move's text is made for every turn of every state a server
#: sends and every record it keeps, and looking it up is some fifteen times quicker than writing it.
_TEXT: dict[Placement, str] = {p: f"{p.square}={p.tile}" for row in PLACEMENTS for p in row}
#: The same by square (row-major) and face.
_ON_SQUARE: tuple[dict[Tile, str], ...] = tuple({p.tile: _TEXT[p] for p in row} for row in PLACEMENTS)


def placement(square: Square, tile: Tile) -> Placement:
    return PLACEMENTS[square.pos][tile.code]


class Play(NamedTuple):
    """Tiles laid from the rack, in canonical order (by row, then column)."""

    placements: tuple[Placement, ...]

    @classmethod
    def of(cls, placements: Iterable[tuple[Square, Tile]]) -> Play:
        """A play from placements in any order (canonical order is restored)."""
        return cls(tuple(sorted(placement(s, t) for s, t in placements)))

    @property
    def squares(self) -> tuple[Square, ...]:
        return tuple(p.square for p in self.placements)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.placements)

    def __str__(self) -> str:
        return " ".join([_TEXT.get(p) or str(p) for p in self.placements])


class Pass(NamedTuple):
    """Pass the turn without exchanging."""

    def __str__(self) -> str:
        return "pass"


class Exchange(NamedTuple):
    """Pass the turn and exchange these 1-5 rack tiles with the bag (tiles in rack form)."""

    tiles: tuple[Tile, ...]

    @classmethod
    def of(cls, tiles: Iterable[Tile]) -> Exchange:
        return cls(tuple(sorted(t.rack_form for t in tiles)))

    def __str__(self) -> str:
        return "exchange " + format_tiles(self.tiles)


Move = Play | Pass | Exchange


def parse_rack(text: str) -> tuple[Tile, ...]:
    """`4L 5D 6L KD 9D` -> tiles in rack form (a 9 is read as the 6/9 tile of its colour)."""
    return tuple(parse_tile(tok).rack_form for tok in text.split())


def format_rack(tiles: Iterable[Tile]) -> str:
    return format_tiles(t.rack_form for t in tiles)


def parse_move(text: str) -> Move:
    """`f7=4L g7=5D`, `pass` or `exchange 4L 5D` -> a move (not checked against any board)."""
    words = text.split()
    if not words:
        raise NotationError("an empty move: write placements like f7=4L, or pass, or exchange 4L 5D")
    head = words[0].lower()
    if head == "pass":
        if len(words) > 1:
            raise NotationError(f"{quoted(text)}: pass takes nothing after it (to exchange, write exchange 4L 5D)")
        return Pass()
    if head == "exchange":
        if len(words) == 1:
            raise NotationError("exchange which tiles? write them after it, like exchange 4L 5D")
        return Exchange.of(parse_tile(w) for w in words[1:])
    placements = [_parse_placement(w) for w in words]
    squares = [p.square for p in placements]
    if len(set(squares)) != len(squares):
        raise NotationError(f"{quoted(text)} places two tiles on one square")
    return Play(tuple(sorted(placements)))


def _parse_placement(word: str) -> Placement:
    """One `square=tile`, with a message that teaches the notation when it is not one.

    >>> _parse_placement("f7=4L")
    Placement(square=Square(f7), tile=Tile(4L))
    """
    if "=" not in word:
        raise NotationError(f"{quoted(word)} is not a placement: write square=tile, like f7=4L")
    if "," in word or ";" in word:
        raise NotationError(f"{quoted(word)}: separate placements with spaces, not commas, like f7=4L g7=5D")
    if word.count("=") > 1:
        raise NotationError(
            f"{quoted(word)} is more than one placement: one square, = and one tile each, "
            "separated by spaces, like f7=4L g7=5D"
        )
    sq, _, tile = word.partition("=")
    if not sq:
        raise NotationError(f"{quoted(word)}: a square is missing before the =, like f7=4L")
    if not tile:
        raise NotationError(f"{quoted(word)}: a tile is missing after the =, like {sq}=4L")
    return placement(parse_square(sq), parse_tile(tile))


def format_move(move: Move) -> str:
    return str(move)


def board_text(board: Board) -> str:
    """Every tile on `board` as the text of one play (`str(Play.of(board.tiles()))`), read off the
    squares in order (row-major order is a play's canonical order), with no play made."""
    return " ".join([_ON_SQUARE[i][tile] for i, tile in enumerate(board.cells) if tile is not None])
