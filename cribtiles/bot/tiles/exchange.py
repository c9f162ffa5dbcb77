"""What to do without a good play: which tiles to keep and throw back, or whether just to pass."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from cribtiles.rules.game import RACK_SIZE, PlayerView
from cribtiles.rules.moves import Exchange, Move, Pass
from cribtiles.rules.tiles import Tile

LeaveFn = Callable[[Sequence[Tile]], float]


def best_keep(rack: Sequence[Tile], leave: LeaveFn, min_throw: int, max_throw: int) -> tuple[tuple[Tile, ...], float]:
    """The tiles to keep (throwing back between min_throw and max_throw) with the best leave value.
    Ties go to keeping more tiles, then to the first found (the rack's order is canonical)."""
    tiles = sorted(rack)
    best: tuple[tuple[Tile, ...], float] | None = None
    for throw in range(min_throw, max_throw + 1):
        for keep in combinations(tiles, len(tiles) - throw):
            v = leave(keep)
            if best is None or v > best[1] + 1e-9:
                best = (keep, v)
    assert best is not None
    return best


def stuck_move(view: PlayerView, leave: LeaveFn) -> Move:
    """The move when there is no play: exchange the tiles that keep the best leave, or pass when the
    bag is empty (or when exchanging cannot help)."""
    most = min(len(view.rack), RACK_SIZE, view.bag_size)
    if most == 0:
        return Pass()
    keep, _ = best_keep(view.rack, leave, 1, most)
    throw = list(view.rack)
    for t in keep:
        throw.remove(t)
    return Exchange.of(throw)
