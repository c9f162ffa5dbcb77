"""Tiles: rank, colour, count value, the 104-tile set and the notation of a single tile.

A tile is a small immutable value. On a rack a 6 and a 9 of one colour are the same "6/9" tile;
`Tile.rack_form` gives that form (written as a 6). Once laid, a tile's face is fixed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

from cribtiles.counting import RANKS, count_value
from cribtiles.quoting import quoted

from .errors import NotationError

RANK_SYMBOLS = "A23456789TJQK"
#: How a rank is written in messages for players (10 rather than T).
RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SIX, NINE = 6, 9


class Colour(StrEnum):
    """The two decks: light (maple) and dark (walnut)."""

    LIGHT = "L"
    DARK = "D"

    @property
    def word(self) -> str:
        return "light" if self is Colour.LIGHT else "dark"


COLOURS = (Colour.LIGHT, Colour.DARK)


def rank_symbol(rank: int) -> str:
    return RANK_SYMBOLS[rank - 1]


def rank_word(rank: int) -> str:
    return RANK_WORDS[rank - 1]


def parse_rank(text: str) -> int:
    """`A`..`K`, with `10` accepted for `T` (case-insensitive)."""
    t = text.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_SYMBOLS:
        return RANK_SYMBOLS.index(t) + 1
    raise NotationError(f"{quoted(text)} is not a rank (A 2 3 4 5 6 7 8 9 T J Q K)")


class Tile(NamedTuple):
    """One tile as it lies (or would lie) on the board: a rank 1-13 and a colour."""

    rank: int
    colour: Colour

    @property
    def is_six_nine(self) -> bool:
        return self.rank in (SIX, NINE)

    @property
    def rack_form(self) -> Tile:
        """The tile as a rack holds it: a 9 is the same tile as a 6 of its colour."""
        return Tile(SIX, self.colour) if self.rank == NINE else self

    @property
    def flipped(self) -> Tile:
        """The other face of a 6/9 tile (any other tile is returned unchanged)."""
        if self.rank == SIX:
            return Tile(NINE, self.colour)
        if self.rank == NINE:
            return Tile(SIX, self.colour)
        return self

    @property
    def faces(self) -> tuple[Tile, ...]:
        """The faces this tile can be laid as: both for a 6/9, else itself."""
        return (Tile(SIX, self.colour), Tile(NINE, self.colour)) if self.is_six_nine else (self,)

    @property
    def value(self) -> int:
        """Count value, as for fifteens and deductions (a 6/9 on a rack counts 6)."""
        return count_value(self.rank)

    @property
    def code(self) -> int:
        """A dense index 0-25 (colour-major), used by tables in the hot paths."""
        return (0 if self.colour is Colour.LIGHT else 13) + self.rank - 1

    def __str__(self) -> str:
        return rank_symbol(self.rank) + self.colour.value

    def __repr__(self) -> str:
        return f"Tile({self})"

    @property
    def word(self) -> str:
        """How a player would say it: 'light 10', 'dark Q'."""
        return f"{self.colour.word} {rank_word(self.rank)}"


#: Every face a tile can show, indexed by `Tile.code`.
FACES: tuple[Tile, ...] = tuple(Tile(r, c) for c in COLOURS for r in RANKS)


#: Ranks players write out of habit, and what to write instead.
_RANK_HINTS = {
    "1": "; an ace is written A, like AL",
    "11": "; a jack is written J, like JL",
    "12": "; a queen is written Q, like QL",
    "13": "; a king is written K, like KL",
    "0": " (write 10 or T)",
}


def parse_tile(text: str) -> Tile:
    """`5D`, `TL`, `10L`, `kd` -> Tile. The colour letter is required."""
    t = text.strip()
    if len(t) < 2:
        raise NotationError(f"{quoted(text)} is not a tile: write a rank and a colour, like 5D or TL")
    colour_letter = t[-1].upper()
    if colour_letter not in ("L", "D"):
        raise NotationError(f"{quoted(text)} is not a tile: the colour must be L (light) or D (dark)")
    try:
        rank = parse_rank(t[:-1])
    except NotationError:
        hint = _RANK_HINTS.get(t[:-1].upper(), "")
        raise NotationError(f"{quoted(text)} is not a tile: {quoted(t[:-1])} is not a rank{hint}") from None
    return Tile(rank, Colour(colour_letter))


def full_set() -> tuple[Tile, ...]:
    """The 104 tiles in rack form: per colour 4 of each rank, the 6s and 9s as 8 tiles '6/9'."""
    return tuple(Tile(r, c).rack_form for c in COLOURS for r in RANKS for _ in range(4))


def colour_set(colour: Colour) -> tuple[Tile, ...]:
    """The 52 tiles of one colour (the Solitaire mode's bags), in rack form."""
    return tuple(t for t in full_set() if t.colour is colour)


def rack_counter(tiles: Iterable[Tile]) -> Counter[Tile]:
    """Multiset of tiles in rack form, so that a 9 and a 6 of one colour count as the same tile."""
    return Counter(t.rack_form for t in tiles)


def remove_tiles(rack: Iterable[Tile], tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """The rack without these tiles, matched in rack form (a 9 takes a 6/9), the rest in order.

    Raises ValueError if the rack lacks one of them; the game checks ownership first, in words."""
    left = list(rack)
    for t in tiles:
        left.remove(next(r for r in left if r.rack_form == t.rack_form))
    return tuple(left)


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


def format_ranks(ranks: Iterable[int]) -> str:
    """Ranks as a player reads them: '6 7 8 9 Q'."""
    return " ".join(rank_word(r) for r in ranks)
