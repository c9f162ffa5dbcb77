"""What the learned value of a position reads (issue 33): numbers computed from one player's view only.

Most of them read the board, which today's judgement (score plus leave) never looks at: the best
single-tile reply each kind of tile still out would make there, and so what the opponent, who holds some
of those tiles, can expect from it; the hot spots (squares where a tile still out makes 10 or 20); the
same for the mover's own rack and the mover's best play of any length (the move generator's sinks,
`single_tile_scores` and `best_score`); the lines that can still grow. The rest read the racks and the
clock of the game: the leave, the tiles unseen and on the rack by kind, the bag, the players.

Every feature is unchanged when the colours of every tile are swapped, as the game's scores are, and
when the board is mirrored or turned where the blocked name patch is out of reach of every tile.

What reads the board, the rack and the tiles unseen runs in the compiled core (`_movegen.c`'s
`features`) when it is in use; `_counts_python` is the reference and the fallback (`CRIBTILES_CORE=python`,
or no compiler at install), and `reference_position_features` gives the features by it alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from operator import itemgetter
from typing import cast

from cribtiles.rules.board import BLOCKED, SIZE, Board
from cribtiles.rules.game import RACK_SIZE, PlayerView
from cribtiles.rules.hands import MAX_LINE
from cribtiles.rules.movegen import (
    COMPILED_RACK_LIMIT,
    compiled_core,
    ranks_key,
    reference_scored_plays,
    single_tile_scores,
)
from cribtiles.rules.scoring import Bonuses
from cribtiles.rules.tiles import FACES, Colour, Tile, full_set

from .leave import MAX_LEAVE, LeaveTable, default_leave

TILES = len(full_set())
#: A rank's key in `movegen.ranks_key`, by rank (index 0 unused).
_RANK_KEY = (0, *(ranks_key([r]) for r in range(1, 14)))
#: The tiles a bag holds once every player of a two-player game has drawn a rack.
FULL_BAG = TILES - 2 * RACK_SIZE
#: A reply of at least these many points is a threat worth counting ("hot spot").
HOT, VERY_HOT = 10, 20

#: The rack-form kinds of tile (a 6/9 is one kind, code of its 6), and each kind's faces by code.
_KINDS: tuple[int, ...] = tuple(sorted({f.rack_form.code for f in FACES}))
_KIND_FACES: tuple[tuple[int, ...], ...] = tuple(tuple(f.code for f in FACES[k].faces) for k in _KINDS)
_KIND_INDEX = {k: i for i, k in enumerate(_KINDS)}
_BY_KIND = itemgetter(*_KINDS)  # a square's scores by face -> by kind, each 6/9 as its 6 ...
_NINES = tuple((i, faces[1]) for i, faces in enumerate(_KIND_FACES) if len(faces) == 2)  # ... then its 9

#: The features that read the board (beyond how many tiles lie on it): the ones today's judgement lacks.
BOARD_FEATURES: tuple[str, ...] = (
    "opp_single_expected",  # the opponent's expected best single-tile reply, from the tiles unseen
    "opp_single_p10",  # the chance that it makes 10 or more
    "opp_single_p20",  # ... 20 or more
    "hot10_unseen",  # squares where some tile unseen makes 10 or more
    "hot20_unseen",  # ... 20 or more
    "hot_tiles_unseen",  # share of the tiles unseen that make 10 or more somewhere
    "my_single_best",  # the mover's best single-tile play
    "my_hot10",  # squares where a tile of the mover's rack makes 10 or more
    "my_best_play",  # the mover's best play of any length (0 when none)
    "my_no_play",  # 1 when the mover has no play
    "anchors",  # empty squares touching a tile
    "dead_anchors",  # of them, those where no tile at all may go
    "open_lines",  # lines of 2-4 tiles with room at an end
    "open_fours",  # lines of 4 with room: the next tile makes a five
    "open_fours_one_colour",  # ... all of one colour: the one-colour bonus is in reach
    "lanes",  # runs of tiles (single tiles too) with room for 2 or more more tiles in their line
)

#: Every feature, in the order `position_features` gives them.
FEATURE_NAMES: tuple[str, ...] = (
    "bag_share",  # tiles in the bag / a full bag
    "bag_empty",
    "bag_even",  # which player draws the last tiles
    "players",
    "board_tiles",  # tiles on the board / 100
    *BOARD_FEATURES,
    "leave",  # the leave table's value of the rack (for 5 tiles: of the best 4 of them)
    "rack_count",  # the rack's count value (deducted at the end)
    "rack_size",
    "rack_fives",
    "rack_tens",
    "rack_low",
    "rack_pairs",
    "rack_one_colour",  # the most tiles of one colour
    "unseen_share",  # tiles unseen / 104
    "unseen_fives",  # share of the unseen that are 5s
    "unseen_tens",
    "unseen_low",
    "unseen_colour_gap",  # |light - dark| / unseen
)


_Counts = Callable[[Board, tuple[Tile, ...], tuple[Tile, ...], int, Bonuses], tuple[tuple[float, ...], tuple[int, ...]]]


def _hypergeometric_none(pool: int, good: int, drawn: int) -> float:
    """The chance that `drawn` tiles taken from `pool` include none of its `good` ones."""
    p = 1.0
    for i in range(drawn):
        if pool - i <= 0:
            return 0.0
        p *= max(0, pool - good - i) / (pool - i)
        if p == 0.0:
            break
    return p


def expected_best(values: Sequence[int], drawn: int) -> tuple[float, float, float]:
    """For a rack of `drawn` tiles taken from tiles worth `values` each: the expected best value (none
    below 0), and the chances that it reaches `HOT` and `VERY_HOT`.

    >>> expected_best([0, 10, 10, 20], 1)
    (10.0, 0.75, 0.25)
    """
    pool = len(values)
    if pool == 0 or drawn <= 0:
        return 0.0, 0.0, 0.0
    levels = sorted({v for v in values if v > 0}, reverse=True)
    if not levels:
        return 0.0, 0.0, 0.0
    total, above, below = 0.0, 0, [*levels[1:], 0]
    p_hot = p_very_hot = 0.0
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    for level, lower in zip(levels, below, strict=True):
        above += counts[level]
        reach = 1.0 - _hypergeometric_none(pool, above, drawn)
        total += (level - lower) * reach
        if level >= HOT:
            p_hot = reach
        if level >= VERY_HOT:
            p_very_hot = reach
    return total, p_hot, p_very_hot


def _board_lines(board: Board) -> tuple[int, int, int, int]:
    """(open lines of 2-4, open fours, open fours of one colour, lanes for 2+ more tiles), counted
    over every run of tiles in every row and column."""
    cells = board.cells
    open_lines = open_fours = one_colour = lanes = 0
    for across in (True, False):
        for line in range(SIZE):
            idx = [line * SIZE + p for p in range(SIZE)] if across else [p * SIZE + line for p in range(SIZE)]
            row = [cells[i] for i in idx]
            free = [cells[i] is None and not _is_blocked(i) for i in idx]
            p = 0
            while p < SIZE:
                if row[p] is None:
                    p += 1
                    continue
                start = p
                while p < SIZE and row[p] is not None:
                    p += 1
                length = p - start
                room = _room(free, start - 1, -1) + _room(free, p, 1)
                grow = min(room, MAX_LINE - length)
                if grow >= 2:
                    lanes += 1
                if 2 <= length < MAX_LINE and grow >= 1:
                    open_lines += 1
                    if length == MAX_LINE - 1:
                        open_fours += 1
                        tiles = [t for t in row[start:p] if t is not None]
                        if len({t.colour for t in tiles}) == 1:
                            one_colour += 1
    return open_lines, open_fours, one_colour, lanes


_BLOCKED_POS = frozenset(s.pos for s in BLOCKED)


def _is_blocked(pos: int) -> bool:
    return pos in _BLOCKED_POS


def _room(free: list[bool], p: int, step: int) -> int:
    """Free squares in a row from `p` on in direction `step`, up to the line's longest."""
    n = 0
    while 0 <= p < SIZE and free[p] and n < MAX_LINE:
        n += 1
        p += step
    return n


def _rack_leave(rack: Sequence[Tile], leave: LeaveTable) -> float:
    """The leave table's value of the rack; a full rack (which the table does not hold) by its best
    `MAX_LEAVE` tiles, what it keeps after a one-tile play."""
    if len(rack) <= MAX_LEAVE:
        return leave(rack)
    if len(rack) != MAX_LEAVE + 1:
        return max(leave(keep) for keep in combinations(rack, MAX_LEAVE))
    # each best 4 is the rack less one tile: by rank keys, what `leave` of each would look up
    keys = [_RANK_KEY[t.rack_form.rank] for t in rack]
    whole, values = sum(keys), leave.by_rank_key
    return max(values.get(whole - k, 0.0) for k in keys)


def _counts_python(
    board: Board, rack: tuple[Tile, ...], unseen: tuple[Tile, ...], drawn: int, bonuses: Bonuses
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """What the features read of the board, the rack and the tiles unseen, in plain Python: the
    reference, and the fallback where the compiled core is not built. The `BOARD_FEATURES` as floats,
    with `drawn` the size of the opponent's rack; and the counts `_assemble` turns into the rest:
    the rack's count value, 5s, 10s-Ks, A-4s, pairs and most tiles of one colour, then the tiles
    unseen, their 5s, 10s-Ks, A-4s and light ones. Plays score with the game's `bonuses`."""
    # Per square, per kind of tile: the best single-tile score there (-1 where the kind cannot go).
    singles = single_tile_scores(board, bonuses)
    kind_best = [-1] * len(_KINDS)
    unseen_kinds = [0] * len(_KINDS)
    for t in unseen:
        unseen_kinds[_KIND_INDEX[t.rack_form.code]] += 1
    rack_kinds = {_KIND_INDEX[t.rack_form.code] for t in rack}
    out_kinds = [i for i, n in enumerate(unseen_kinds) if n]
    hot10 = hot20 = my_hot10 = dead = 0
    my_single = 0
    for scores in singles.values():
        by_kind = list(_BY_KIND(scores))
        for i, nine in _NINES:
            if scores[nine] > by_kind[i]:
                by_kind[i] = scores[nine]
        if max(by_kind) < 0:
            dead += 1
            continue
        for i, s in enumerate(by_kind):
            if s > kind_best[i]:
                kind_best[i] = s
        best_out = max((by_kind[i] for i in out_kinds), default=-1)
        hot10 += best_out >= HOT
        hot20 += best_out >= VERY_HOT
        mine = max((by_kind[i] for i in rack_kinds), default=-1)
        my_hot10 += mine >= HOT
        my_single = max(my_single, mine)
    values = [max(0, kind_best[i]) for i, n in enumerate(unseen_kinds) for _ in range(n)]
    opp_expected, opp_p10, opp_p20 = expected_best(values, drawn)
    hot_tiles = sum(v >= HOT for v in values) / len(values) if values else 0.0
    best = max((score for _, score in reference_scored_plays(board, rack, bonuses)), default=None) if rack else None
    open_lines, open_fours, one_colour, lanes = _board_lines(board)
    board_features = (
        opp_expected,
        opp_p10,
        opp_p20,
        float(hot10),
        float(hot20),
        hot_tiles,
        float(my_single),
        float(my_hot10),
        float(best or 0),
        float(best is None),
        float(len(singles)),
        float(dead),
        float(open_lines),
        float(open_fours),
        float(one_colour),
        float(lanes),
    )
    ranks = [t.rack_form.rank for t in rack]
    light = sum(t.colour is Colour.LIGHT for t in rack)
    counts = (
        sum(t.value for t in rack),
        ranks.count(5),
        sum(r >= 10 for r in ranks),
        sum(r <= 4 for r in ranks),
        sum(a == b for a, b in combinations(ranks, 2)),
        max(light, len(rack) - light),
        len(unseen),
        sum(t.rank == 5 for t in unseen),
        sum(t.rank >= 10 for t in unseen),
        sum(t.rank <= 4 for t in unseen),
        sum(t.colour is Colour.LIGHT for t in unseen),
    )
    return board_features, counts


_CORE = compiled_core()


def _counts(
    board: Board, rack: tuple[Tile, ...], unseen: tuple[Tile, ...], drawn: int, bonuses: Bonuses
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """`_counts_python`, by the compiled core when it is in use (`_movegen.features`: about 0.05 ms a
    position where the plain Python takes 2-5 ms), held equal to it to the last bit by
    tests/bot/tiles/test_value_compiled.py."""
    if _CORE is None or len(rack) > COMPILED_RACK_LIMIT:
        return _counts_python(board, rack, unseen, drawn, bonuses)
    return cast(
        "tuple[tuple[float, ...], tuple[int, ...]]",
        _CORE.features(board.cells, rack, unseen, drawn, HOT, VERY_HOT, bonuses),
    )


def _assemble(view: PlayerView, leave: LeaveTable | None, counts: _Counts) -> tuple[float, ...]:
    leave = leave or default_leave()
    rack, unseen = tuple(view.rack), tuple(view.unseen)
    bag = view.bag_size
    opponents_rack = max((n for i, n in enumerate(view.rack_sizes) if i != view.player), default=0)
    board_features, (count, fives, tens, low, pairs, one_colour, n, u_fives, u_tens, u_low, u_light) = counts(
        view.board, rack, unseen, opponents_rack, view.scorer.bonuses
    )
    per = n or 1
    return (
        bag / FULL_BAG,
        float(bag == 0),
        float(bag % 2 == 0),
        float(view.players),
        len(view.board) / 100,
        *board_features,
        _rack_leave(rack, leave),
        float(count),
        float(len(rack)),
        float(fives),
        float(tens),
        float(low),
        float(pairs),
        float(one_colour),
        n / TILES,
        u_fives / per,
        u_tens / per,
        u_low / per,
        abs(2 * u_light - n) / per,
    )


def position_features(view: PlayerView, leave: LeaveTable | None = None) -> tuple[float, ...]:
    """The features of the position as `view.player` sees it, in `FEATURE_NAMES` order: their own
    rack, the board, the tiles unseen and the public counts, never a hidden tile. The compiled core
    computes what reads the board when it is in use; `reference_position_features` is the reference."""
    return _assemble(view, leave, _counts)


def reference_position_features(view: PlayerView, leave: LeaveTable | None = None) -> tuple[float, ...]:
    """`position_features` in plain Python, whichever core is in use: the reference."""
    return _assemble(view, leave, _counts_python)
