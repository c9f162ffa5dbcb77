"""Beginner and Easy: human-like weakness. A person overlooks long plays, plays that form cross
lines and five-tile plays more often than short simple ones; these bots "find" each legal play with a
probability of that kind (as Macondo weakens its bots by findability), then play the best they found.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cribtiles.rules.board import ACROSS, DOWN, Board
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move, Play

from .exchange import stuck_move
from .greedy import best_scoring
from .leave import default_leave


@dataclass(frozen=True)
class Findability:
    """Chance of noticing a play, by the number of tiles it lays (index 1-5), and how much harder a
    play is to see when it also forms cross lines."""

    by_tiles: tuple[float, float, float, float, float, float]
    cross_factor: float

    def chance(self, board: Board, play: Play) -> float:
        p = self.by_tiles[len(play.placements)]
        return p * self.cross_factor if forms_cross_lines(board, play) else p


BEGINNER = Findability((0.0, 0.75, 0.4, 0.15, 0.06, 0.02), 0.25)
EASY = Findability((0.0, 0.92, 0.65, 0.4, 0.2, 0.08), 0.5)


def forms_cross_lines(board: Board, play: Play) -> bool:
    """Whether the play scores more than one line: a placed tile touches board tiles across the play."""
    squares = play.squares
    if len(squares) == 1:
        s = squares[0]
        across = any(board[n] is not None for n in s.neighbours() if n.row == s.row)
        down = any(board[n] is not None for n in s.neighbours() if n.col == s.col)
        return across and down
    direction = ACROSS if squares[0].row == squares[-1].row else DOWN
    for s in squares:
        for n in s.neighbours():
            perpendicular = n.row != s.row if direction == ACROSS else n.col != s.col
            if perpendicular and board[n] is not None:
                return True
    return False


@dataclass(frozen=True)
class FindabilityBot:
    name: str
    findability: Findability

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        plays = view.scorer.scored_plays(view.board, view.rack)
        if not plays:
            return stuck_move(view, default_leave())
        found = [ps for ps in plays if rng.random() < self.findability.chance(view.board, ps[0])]
        if not found:
            # Nothing noticed: a person keeps looking, and the simplest plays are found first.
            fewest = min(len(p.placements) for p, _ in plays)
            found = [ps for ps in plays if len(ps[0].placements) == fewest]
        return best_scoring(found, rng)[0]
