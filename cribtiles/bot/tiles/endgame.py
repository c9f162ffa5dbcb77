"""The endgame of a two-player game: with the bag empty, the opponent's rack is exactly the unseen
tiles, so the position has perfect information and is searched rather than sampled.

Negamax with alpha-beta, deepened one turn at a time until the search reaches the end of the game on
every line (then the result is exact) or the time runs out (then the deepest finished search decides,
with a static estimate at its horizon). A transposition table keeps what each position was found to
be worth: the same tiles laid in another order reach the same board, and every deepening starts
again from the root, so most of a search has been done before. Its entries say whether they are exact
(no horizon below them), which any later search may use as they are, and the best play found, which
is tried first next time (the deepening's best-first ordering).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from cribtiles.rules.board import Board
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Play
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.tiles import Tile, remove_tiles

from .base import Clock

Rack = tuple[Tile, ...]

#: Seconds the Expert keeps back from its budget for the endgame search to stop and answer in.
ENDGAME_MARGIN = 0.05
#: The weight of the racks' difference at the horizon of an unfinished search (each side will likely
#: play some of its tiles before the end, so only part of that difference is deducted).
HORIZON_WEIGHT = 0.5
#: Entries kept in the transposition table before it is cleared (memory stays bounded).
TABLE_LIMIT = 400_000

_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Timeout(Exception):
    pass


class _Entry(NamedTuple):
    depth: int  # the depth searched below this position (any depth, when complete)
    value: float
    bound: int  # _EXACT, _LOWER (value is at least this) or _UPPER (at most this)
    complete: bool  # no horizon below: the value holds at every depth
    best: Play | None


@dataclass(frozen=True)
class EndgameResult:
    """A search's answer: the play (None: there is none), its value (spread gain for the side to
    move, deductions included), whether it is exact, the nodes searched and the last depth finished."""

    play: Play | None
    value: float
    exact: bool
    nodes: int
    depth: int


def rack_value(rack: Sequence[Tile]) -> int:
    return sum(t.value for t in rack)


def _key(rack: Rack) -> Rack:
    return tuple(sorted(t.rack_form for t in rack))


class EndgameSearch:
    """Search from the side to move; values are spread gains for that side, deductions included; plays
    scored by the game's `scorer`."""

    def __init__(self, deadline: float, clock: Clock, scorer: Scorer) -> None:
        self.scorer = scorer
        self.deadline = deadline
        self.clock = clock
        self.nodes = 0
        self.horizon_hit = False
        self.table: dict[tuple[Board, Rack, Rack], _Entry] = {}
        self._plays: dict[tuple[Board, Rack], list[tuple[Play, int]]] = {}

    def plays(self, board: Board, rack: Rack) -> list[tuple[Play, int]]:
        """The rack's plays on the board, best-scoring first (longer first among equal scores)."""
        key = (board, _key(rack))
        found = self._plays.get(key)
        if found is None:
            found = self.scorer.scored_plays(board, rack)
            found.sort(key=lambda ps: (ps[1], len(ps[0].placements)), reverse=True)
            if len(self._plays) < TABLE_LIMIT:
                self._plays[key] = found
        return found

    def value(self, board: Board, me: Rack, opp: Rack, depth: int, alpha: float, beta: float) -> tuple[float, bool]:
        """The position's value for the side to move, and whether it is complete (exact at any depth)."""
        self.nodes += 1
        if self.clock() > self.deadline:  # every node: one node generates plays, far dearer than the clock
            raise _Timeout
        key = (board, _key(me), _key(opp))
        entry = self.table.get(key)
        if entry is not None and (entry.complete or entry.depth >= depth):
            if entry.bound == _EXACT:
                return entry.value, entry.complete
            if entry.bound == _LOWER and entry.value >= beta:
                return entry.value, entry.complete
            if entry.bound == _UPPER and entry.value <= alpha:
                return entry.value, entry.complete
        plays = self.plays(board, me)
        if not plays:
            if not self.plays(board, opp):
                return float(rack_value(opp) - rack_value(me)), True  # nobody can play: the game is over
            # I must pass; the opponent moves on the same board
            theirs, complete = self.value(board, opp, me, depth, -beta, -alpha)
            return -theirs, complete
        if depth == 0:
            self.horizon_hit = True
            return HORIZON_WEIGHT * (rack_value(opp) - rack_value(me)), False
        if entry is not None and entry.best is not None:
            plays = sorted(plays, key=lambda ps: ps[0] != entry.best)  # the best play found before, first
        alpha0 = alpha
        best, best_play, complete = float("-inf"), None, True
        for play, score in plays:
            left = remove_tiles(me, play.tiles)
            if not left:
                v: float = score + rack_value(opp)  # went out: the opponent's tiles are deducted
                done = True
            else:
                # v = score - child, so the window [alpha, beta] on v is [score - beta, score - alpha] on child
                child, done = self.value(
                    board.place(play.placements), opp, left, depth - 1, score - beta, score - alpha
                )
                v = score - child
            complete = complete and done
            if v > best:
                best, best_play = v, play
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        bound = _LOWER if best >= beta else _UPPER if best <= alpha0 else _EXACT
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = _Entry(depth, best, bound, complete, best_play)
        return best, complete

    def root(self, board: Board, me: Rack, opp: Rack, depth: int) -> tuple[Play | None, float, bool]:
        """The best play at the root, its value, and whether the search below it was complete."""
        self.horizon_hit = False
        key = (board, _key(me), _key(opp))
        entry = self.table.get(key)
        plays = self.plays(board, me)
        if entry is not None and entry.best is not None:
            plays = sorted(plays, key=lambda ps: ps[0] != entry.best)
        best: tuple[Play | None, float] = (None, float("-inf"))
        alpha = float("-inf")
        complete = True
        for play, score in plays:
            left = remove_tiles(me, play.tiles)
            if not left:
                v: float = score + rack_value(opp)
                done = True
            else:
                child, done = self.value(
                    board.place(play.placements), opp, left, depth - 1, float("-inf"), score - alpha
                )
                v = score - child
            complete = complete and done
            if v > best[1]:
                best = (play, v)
            alpha = max(alpha, v)
        self.table[key] = _Entry(depth, best[1], _EXACT, complete, best[0])
        return best[0], best[1], complete


def solve_search(board: Board, me: Rack, opp: Rack, deadline: float, clock: Clock, scorer: Scorer) -> EndgameResult:
    """The best play for the side to move, deepening until exact or out of time."""
    search = EndgameSearch(deadline, clock, scorer)
    plays = search.plays(board, me)
    found = EndgameResult(plays[0][0] if plays else None, float("nan"), False, 0, 0)
    depth = 1
    while clock() < deadline:
        try:
            if plays:
                play, value, complete = search.root(board, me, opp, depth)
            else:  # a pass: the value is what the opponent's turn leaves (the game's end if nobody can play)
                play = None
                value, complete = search.value(board, me, opp, depth, float("-inf"), float("inf"))
        except _Timeout:
            break
        found = EndgameResult(play, value, complete, search.nodes, depth)
        if complete:
            break
        depth += 1
    return EndgameResult(found.play, found.value, found.exact, search.nodes, found.depth)


def solve(
    board: Board, me: Rack, opp: Rack, deadline: float, clock: Clock, scorer: Scorer
) -> tuple[Play | None, float, bool]:
    """The best play for the side to move, its value, and whether the search was exact."""
    result = solve_search(board, me, opp, deadline, clock, scorer)
    return result.play, result.value, result.exact


def solve_view(view: PlayerView, deadline: float, clock: Clock) -> EndgameResult:
    """`solve_search` from a player's view of a bag-empty two-player game: every unseen tile is on the
    opponent's rack."""
    return solve_search(view.board, tuple(view.rack), tuple(view.unseen), deadline, clock, view.scorer)
