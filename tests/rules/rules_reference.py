"""Slow, independent brute-force readings of rules.md (hands, plays, move lists) for the tests to compare."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise, permutations, product
from typing import NamedTuple

from cribtiles.rules import Board, Play, Square, Tile, full_set, legal_plays

N = 13
BLOCKED_RC = frozenset({(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)})
Cell = tuple[int, int]
Placements = Sequence[tuple[Cell, Tile]]
History = list[tuple[Board, tuple[Tile, ...]]]


def ref_count_value(rank: int) -> int:
    """rules.md 1: A = 1, 2-10 face, J Q K = 10."""
    return min(rank, 10)


class RefHand(NamedTuple):
    fifteens: int
    pairs: int
    runs: int
    contributes: tuple[bool, ...]

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs

    @property
    def valid(self) -> bool:
        return 2 <= len(self.contributes) <= 5 and self.total > 0 and all(self.contributes)


def ref_score_hand(ranks: Sequence[int]) -> RefHand:
    """Score a hand by enumerating subsets of its tiles, straight from the definitions of rules.md 3.

    A run is a set of 3+ tiles with distinct consecutive ranks; it is counted (for its length) only if
    no other tile of the hand extends it, which is cribbage hand counting.
    """
    n = len(ranks)
    tiles = range(n)
    live = [False] * n
    fifteens = pairs = runs = 0
    for size in range(2, n + 1):
        for subset in combinations(tiles, size):
            if sum(ref_count_value(ranks[i]) for i in subset) == 15:
                fifteens += 2
                for i in subset:
                    live[i] = True
    for i, j in combinations(tiles, 2):
        if ranks[i] == ranks[j]:
            pairs += 2
            live[i] = live[j] = True
    for size in range(3, n + 1):
        for subset in combinations(tiles, size):
            rs = sorted(ranks[i] for i in subset)
            if any(b != a + 1 for a, b in pairwise(rs)):
                continue
            for i in subset:
                live[i] = True
            extendable = any(ranks[j] in (rs[0] - 1, rs[-1] + 1) for j in tiles if j not in subset)
            if not extendable:
                runs += size
    return RefHand(fifteens, pairs, runs, tuple(live))


def _grid(board: Board) -> dict[Cell, Tile]:
    return {(r, c): t for r in range(N) for c in range(N) if (t := board[Square(r, c)]) is not None}


def _neighbours(cell: Cell) -> Iterator[Cell]:
    r, c = cell
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < N and 0 <= c + dc < N:
            yield r + dr, c + dc


def ref_geometry_ok(grid: dict[Cell, Tile], cells: Sequence[Cell], first: bool) -> bool:
    """rules.md 4, steps 1-3: free squares, 1-5 tiles (2-5 first), one row or column, no gap, touching."""
    n = len(cells)
    if n == 0 or n > 5 or (first and n < 2) or len(set(cells)) != n:
        return False
    if any(c in BLOCKED_RC or c in grid for c in cells):
        return False
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    if len(rows) > 1 and len(cols) > 1:
        return False
    placed = set(cells)
    if len(rows) == 1:
        (r,) = rows
        span = [(r, c) for c in range(min(cols), max(cols) + 1)]
    else:
        (c,) = cols
        span = [(r, c) for r in range(min(rows), max(rows) + 1)]
    if any(s not in placed and s not in grid for s in span):
        return False
    return first or any(nb in grid for cell in cells for nb in _neighbours(cell))


def _run_through(after: dict[Cell, Tile], cell: Cell, dr: int, dc: int) -> tuple[Cell, ...]:
    r, c = cell
    while (r - dr, c - dc) in after:
        r, c = r - dr, c - dc
    run = []
    while (r, c) in after:
        run.append((r, c))
        r, c = r + dr, c + dc
    return tuple(run)


def ref_lines_total(grid: dict[Cell, Tile], placements: Placements, first: bool) -> int | None:
    """rules.md 4, step 4 and the score of a play, for placements whose geometry is already fine."""
    after = dict(grid)
    after.update(placements)
    lines: set[tuple[Cell, ...]] = set()
    for cell, _ in placements:
        for dr, dc in ((0, 1), (1, 0)):
            run = _run_through(after, cell, dr, dc)
            if len(run) >= 2:
                lines.add(run)
    total = 10 if first else 0
    if len(placements) == 5:
        total += 10
    for line in lines:
        tiles = [after[c] for c in line]
        if len(tiles) > 5:
            return None
        hand = ref_score_hand([t.rank for t in tiles])
        if not hand.valid:
            return None
        total += hand.total
        if len(tiles) == 5 and len({t.colour for t in tiles}) == 1:
            total += 10
    return total


def ref_play_total(board: Board, play: Play) -> int | None:
    """The score of a play by the reference reading of the rules, or None if the play is illegal."""
    grid = _grid(board)
    first = not grid
    placements = [((p.square.row, p.square.col), p.tile) for p in play.placements]
    if not ref_geometry_ok(grid, [c for c, _ in placements], first):
        return None
    return ref_lines_total(grid, placements, first)


def square_sets(k: int) -> Iterator[tuple[Cell, ...]]:
    """Every set of k squares (blocked ones included) in one row or one column, each set once."""
    for fixed in range(N):
        yield from combinations([(fixed, c) for c in range(N)], k)
        if k > 1:  # a single square is already produced by its row
            yield from combinations([(r, fixed) for r in range(N)], k)


def assignments(rack: Sequence[Tile], cells: Sequence[Cell]) -> Iterator[tuple[tuple[Cell, Tile], ...]]:
    """Every way to lay rack tiles on these squares, each 6/9 tile both ways up."""
    for chosen in permutations(rack, len(cells)):
        faces = [(Tile(6, t.colour), Tile(9, t.colour)) if t.rank in (6, 9) else (t,) for t in chosen]
        for laid in product(*faces):
            yield tuple(zip(cells, laid, strict=True))


def to_play(placements: Sequence[tuple[Cell, Tile]]) -> Play:
    return Play.of((Square(r, c), t) for (r, c), t in placements)


def brute_force_plays(board: Board, rack: Sequence[Tile]) -> dict[Play, int]:
    """Every legal play of the rack on the board with its score, by trying every square set and tiling."""
    grid = _grid(board)
    first = not grid
    found: dict[Play, int] = {}
    for k in range(1, min(len(rack), 5) + 1):
        for cells in square_sets(k):
            if not ref_geometry_ok(grid, cells, first):
                continue
            for placements in assignments(rack, cells):
                total = ref_lines_total(grid, placements, first)
                if total is not None:
                    found[to_play(placements)] = total
    return found


def random_game(seed: int, turns: int) -> tuple[History, list[Tile], random.Random]:
    """`turns` random legal plays from a shuffled bag: (board, rack) before each turn, the bag left, the rng.

    The plays come from the engine's `legal_plays` (a stuck rack is exchanged instead); each is also
    checked by the reference here, so a board never holds a line the rules forbid.
    """
    rng = random.Random(seed)
    bag = list(full_set())
    rng.shuffle(bag)
    rack = [bag.pop() for _ in range(5)]
    board = Board.empty()
    history: History = []
    for _ in range(turns):
        history.append((board, tuple(rack)))
        plays = sorted(legal_plays(board, rack))
        if not plays:
            bag.extend(rack)
            rng.shuffle(bag)
            rack = [bag.pop() for _ in range(5)]
            continue
        play = rng.choice(plays)
        if ref_play_total(board, play) is None:
            raise AssertionError(f"legal_plays offered a play the rules forbid: {play}")
        board = board.place(play.placements)
        for tile in play.tiles:
            rack.remove(tile.rack_form)
        while len(rack) < 5 and bag:
            rack.append(bag.pop())
    history.append((board, tuple(rack)))
    return history, bag, rng


def random_position(seed: int, turns: int) -> tuple[Board, list[Tile], random.Random]:
    """The board after `turns` random legal plays, the tiles not on it (bag and rack) shuffled, the rng."""
    history, bag, rng = random_game(seed, turns)
    board, rack = history[-1]
    unseen = bag + list(rack)
    rng.shuffle(unseen)
    return board, unseen, rng
