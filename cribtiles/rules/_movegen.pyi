"""Types of the compiled move generator (`_movegen.c`); `movegen.py` is its only caller."""

from collections.abc import Iterable, Mapping

from .moves import Placement, Play
from .tiles import Colour, Tile

def init(
    valid_lines: Mapping[int, int],
    placements: tuple[tuple[Placement, ...], ...],
    play_type: type[Play],
    light: Colour,
    dark: Colour,
    blocked: Iterable[int],
) -> None: ...
def generate(
    cells: tuple[Tile | None, ...],
    rack: tuple[Tile, ...],
    mode: int,
    bonuses: tuple[int, int, int],
    want: int = ...,
    values: dict[int, float] = ...,
) -> list[tuple[Play, int]] | list[Play] | bool | int | tuple[Play, int] | None: ...
def features(
    cells: tuple[Tile | None, ...],
    rack: tuple[Tile, ...],
    unseen: tuple[Tile, ...],
    drawn: int,
    hot: int,
    very_hot: int,
    bonuses: tuple[int, int, int],
) -> tuple[tuple[float, ...], tuple[int, ...]]: ...
