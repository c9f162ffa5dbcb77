"""Hard: static equity. A play is worth its score, plus the value of the tiles it keeps (the learned
leave table), less an estimate of what it opens for the opponents: a line that one more tile would
score again, a line of four that a fifth tile completes (perhaps in one colour, for a bonus).

Near the end (the bag empty or nearly), kept tiles are a debt: their count value is deducted if
the game ends with them on the rack, so the leave is weighed against that.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from cribtiles.rules.board import ACROSS, SIZE, Board, Direction, Line, Square
from cribtiles.rules.game import PlayerView
from cribtiles.rules.hands import MAX_LINE, RANK_KEY, VALID_LINES
from cribtiles.rules.movegen import scored_plays, single_tile_scores
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.rules.options import ANY_TIME
from cribtiles.rules.scoring import BONUS_POINTS
from cribtiles.rules.tiles import Tile, remove_tiles

from .exchange import LeaveFn, best_keep, stuck_move
from .leave import default_leave

#: How many of the best plays by score + leave get the (dearer) opening estimate.
OPENING_CANDIDATES = 40
#: Weight of the opening estimate: the opponent will not always take that spot.
OPENING_WEIGHT = 0.8


@dataclass(frozen=True)
class Candidate:
    move: Move
    score: int
    equity: float


def kept_tiles(rack: Sequence[Tile], play: Play) -> tuple[Tile, ...]:
    return remove_tiles(rack, play.tiles)


def hold_chances(unseen: Sequence[Tile], rack_size: int) -> dict[int, float]:
    """For each rank (a 6/9 counted as both 6 and 9), the chance that a rack of `rack_size` tiles
    drawn from the unseen tiles holds at least one of it."""
    total = len(unseen)
    if total == 0 or rack_size <= 0:
        return {r: 0.0 for r in range(1, 14)}
    counts = Counter(t.rack_form.rank for t in unseen)
    k = min(rack_size, total)
    none = comb(total, k)
    chances = {r: 1.0 - comb(total - counts[r], k) / none for r in range(1, 14) if r != 9}
    chances[9] = chances[6]
    return chances


def _line_ends(board: Board, squares: Sequence[Square], direction: Direction) -> list[Square]:
    """The free squares just beyond each end of a line."""
    first, last = squares[0], squares[-1]
    ends = []
    if direction == ACROSS:
        if first.col > 0:
            ends.append(Square(first.row, first.col - 1))
        if last.col < SIZE - 1:
            ends.append(Square(last.row, last.col + 1))
    else:
        if first.row > 0:
            ends.append(Square(first.row - 1, first.col))
        if last.row < SIZE - 1:
            ends.append(Square(last.row + 1, last.col))
    return [s for s in ends if board.is_free(s)]


def line_threat(board: Board, line: Line, chances: dict[int, float]) -> float:
    """Expected points an opponent takes by adding one tile to this line (0 if it cannot grow)."""
    if len(line.tiles) >= MAX_LINE or not _line_ends(board, line.squares, line.direction):
        return 0.0
    key = sum(RANK_KEY[t.rank] for t in line.tiles)
    one_colour = len(line.tiles) == MAX_LINE - 1 and len({t.colour for t in line.tiles}) == 1
    bonus = BONUS_POINTS / 2 if one_colour else 0.0  # half the time the tile is of the colour
    options: list[tuple[float, float]] = []
    for r in range(1, 14):
        value = VALID_LINES.get(key + RANK_KEY[r])
        if value is not None:
            options.append((value + bonus, chances[r]))
    # the expected best extension: the best option if held, else the next best, and so on
    options.sort(reverse=True)
    threat, miss = 0.0, 1.0
    for points, chance in options:
        threat += miss * chance * points
        miss *= 1.0 - chance
    return threat


def reply_threat(board: Board, chances: dict[int, float]) -> float:
    """The points the opponent can expect from their best one-tile play on this board: for each
    rank, its best square; then the expected best over the ranks they may hold."""
    best_by_rank = [0.0] * 14
    for scores in single_tile_scores(board).values():
        for r in range(1, 14):
            light, dark = scores[r - 1], scores[r + 12]
            value = (max(light, 0) + max(dark, 0)) / 2 if light >= 0 or dark >= 0 else 0.0
            if value > best_by_rank[r]:
                best_by_rank[r] = value
    options = sorted(((best_by_rank[r], chances[r]) for r in range(1, 14) if best_by_rank[r] > 0), reverse=True)
    threat, miss = 0.0, 1.0
    for points, chance in options:
        threat += miss * chance * points
        miss *= 1.0 - chance
    return threat


def endgame_weight(view: PlayerView) -> float:
    """How much kept tiles count as a debt rather than as a leave: 0 with a full bag, 1 when empty."""
    bag = view.bag_size
    return 1.0 if bag == 0 else max(0.0, 1.0 - bag / 10)


def leave_equity(view: PlayerView, kept: Sequence[Tile], leave: LeaveFn) -> float:
    w = endgame_weight(view)
    return (1.0 - w) * leave(kept) - w * sum(t.value for t in kept) * 0.5


def rank_plays(view: PlayerView, leave: LeaveFn | None = None, top: int | None = None) -> list[Candidate]:
    """The legal plays by static equity, best first (the top `top` of them, if given)."""
    leave = leave or default_leave()
    plays = scored_plays(view.board, view.rack)
    if not plays:
        return []
    first = [Candidate(p, s, s + leave_equity(view, kept_tiles(view.rack, p), leave)) for p, s in plays]
    first.sort(key=lambda c: c.equity, reverse=True)
    opponents_rack = max((n for i, n in enumerate(view.rack_sizes) if i != view.player), default=0)
    chances = hold_chances(view.unseen, opponents_rack)
    baseline = reply_threat(view.board, chances)
    refined = []
    for c in first[:OPENING_CANDIDATES]:
        assert isinstance(c.move, Play)
        after = view.board.place(c.move.placements)
        opened = reply_threat(after, chances) - baseline  # negative when the play blocks a threat
        refined.append(Candidate(c.move, c.score, c.equity - OPENING_WEIGHT * opened))
    refined.sort(key=lambda c: c.equity, reverse=True)
    ranked = refined + first[OPENING_CANDIDATES:]
    return ranked[:top] if top else ranked


def exchange_candidate(view: PlayerView, leave: LeaveFn) -> Candidate | None:
    """The best exchange, when the rules allow one now, valued by the leave it keeps."""
    most = min(len(view.rack), MAX_LINE, view.bag_size)
    if most == 0 or not view.may_pass():
        return None
    keep, value = best_keep(view.rack, leave, 1, most)
    throw = list(view.rack)
    for t in keep:
        throw.remove(t)
    return Candidate(Exchange.of(throw), 0, value)


def static_choice(view: PlayerView, rng: random.Random, leave: LeaveFn | None = None) -> Move:
    leave = leave or default_leave()
    ranked = rank_plays(view, leave, top=8)
    if not ranked:
        return stuck_move(view, leave)
    best = ranked[0]
    if view.options.exchange == ANY_TIME:
        swap = exchange_candidate(view, leave)
        if swap is not None and swap.equity > best.equity + 2.0:
            return swap.move
    ties = [c for c in ranked if c.equity >= best.equity - 1e-9]
    return (ties[0] if len(ties) == 1 else rng.choice(ties)).move


@dataclass(frozen=True)
class HardBot:
    name: str = "hard"

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        return static_choice(view, rng)
