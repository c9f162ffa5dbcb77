"""The endgame of a two-player game: with the bag empty, the opponent's rack is exactly the unseen
tiles, so the position has perfect information and is searched rather than sampled.

Negamax with alpha-beta, best-scoring plays first, deepened one turn at a time until the search
reaches the end of the game on every line (then the result is exact) or the time runs out (then the
deepest finished search decides, with a static estimate at its horizon).
"""

from __future__ import annotations

from collections.abc import Sequence

from cribtiles.rules.board import Board
from cribtiles.rules.game import PlayerView
from cribtiles.rules.movegen import scored_plays
from cribtiles.rules.moves import Move, Pass, Play
from cribtiles.rules.tiles import Tile, remove_tiles

from .base import Clock

Rack = tuple[Tile, ...]


class _Timeout(Exception):
    pass


def rack_value(rack: Sequence[Tile]) -> int:
    return sum(t.value for t in rack)


class EndgameSearch:
    """Search from the side to move; values are spread gains for that side, deductions included."""

    def __init__(self, deadline: float, clock: Clock) -> None:
        self.deadline = deadline
        self.clock = clock
        self.nodes = 0
        self.horizon_hit = False

    def _plays(self, board: Board, rack: Rack) -> list[tuple[Play, int]]:
        plays = scored_plays(board, rack)
        plays.sort(key=lambda ps: (ps[1], len(ps[0].placements)), reverse=True)
        return plays

    def value(self, board: Board, me: Rack, opp: Rack, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.clock() > self.deadline:  # every node: one node generates plays, far dearer than the clock
            raise _Timeout
        plays = self._plays(board, me)
        if not plays:
            if not scored_plays(board, opp):
                return rack_value(opp) - rack_value(me)  # nobody can play: the game is over
            # I must pass; the opponent moves on the same board
            return -self.value(board, opp, me, depth, -beta, -alpha)
        if depth == 0:
            self.horizon_hit = True
            return 0.5 * (rack_value(opp) - rack_value(me))
        best = float("-inf")
        for play, score in plays:
            left = remove_tiles(me, play.tiles)
            if not left:
                v: float = score + rack_value(opp)  # went out: the opponent's tiles are deducted
            else:
                v = score - self.value(board.place(play.placements), opp, left, depth - 1, -beta, -alpha)
            if v > best:
                best = v
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return best

    def root(self, board: Board, me: Rack, opp: Rack, depth: int) -> tuple[Play | None, float]:
        plays = self._plays(board, me)
        best: tuple[Play | None, float] = (None, float("-inf"))
        alpha = float("-inf")
        for play, score in plays:
            left = remove_tiles(me, play.tiles)
            if not left:
                v: float = score + rack_value(opp)
            else:
                v = score - self.value(board.place(play.placements), opp, left, depth - 1, float("-inf"), -alpha)
            if v > best[1]:
                best = (play, v)
            alpha = max(alpha, v)
        return best


def solve(board: Board, me: Rack, opp: Rack, deadline: float, clock: Clock) -> tuple[Play | None, float, bool]:
    """The best play for the side to move, its value, and whether the search was exact."""
    plays = scored_plays(board, me)
    if not plays:
        return None, 0.0, True
    best: tuple[Play | None, float] = (max(plays, key=lambda ps: ps[1])[0], float("nan"))
    exact = False
    depth = 1
    while clock() < deadline:
        search = EndgameSearch(deadline, clock)
        try:
            found = search.root(board, me, opp, depth)
        except _Timeout:
            break
        best = found
        if not search.horizon_hit:
            exact = True
            break
        depth += 1
    return best[0], best[1], exact


def endgame_move(view: PlayerView, deadline: float, clock: Clock) -> Move:
    opp = tuple(view.unseen)  # the bag is empty: every unseen tile is on the opponent's rack
    play, _, _ = solve(view.board, tuple(view.rack), opp, deadline, clock)
    return play if play is not None else Pass()
