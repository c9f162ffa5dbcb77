"""A game's scorer: how plays score under its rule options (rules.md sections 4 and 6).

Scoring knows the rules in force (python-chess: a variant's board scores and generates for its own
rules). A game's state and every player's view hold the scorer its options make (`state.scorer`,
`view.scorer`); the breakdowns, the coach, the bots, the reviews and the server's Joker claims all score
through it, so that none of them disagrees with the game when an option changes scoring. The checker
(`scoring`) and both cores of the move generator (`movegen`) take the bonuses as an argument; this is
the one place that reads them off the options.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import movegen
from .board import Board
from .errors import IllegalMove
from .moves import Play
from .options import RuleOptions
from .scoring import NO_BONUSES, STANDARD_BONUSES, Bonuses, PlayScore, score_laid, score_play
from .tiles import Tile


@dataclass(frozen=True)
class Scorer:
    """Scores plays, and asks the move generator for scored plays, with the bonuses of one set of
    rule options.

    >>> from .moves import parse_move
    >>> play = parse_move("e7=AL f7=2L g7=3L h7=4L i7=5L")
    >>> Scorer.of(RuleOptions()).score(Board.empty(), play).total
    37
    >>> Scorer.of(RuleOptions(bonuses=False)).score(Board.empty(), play).total
    7
    """

    bonuses: Bonuses = STANDARD_BONUSES

    @classmethod
    def of(cls, options: RuleOptions) -> Scorer:
        """The scorer of a game played under `options`."""
        return STANDARD_SCORER if options.bonuses else _NO_BONUSES

    def score(self, board: Board, play: Play) -> PlayScore:
        """Check `play` on `board` and score it; IllegalMove, saying why, if it breaks a rule."""
        return score_play(board, play, self.bonuses)

    def laid(self, board: Board, play: Play) -> PlayScore:
        """The score of `play`, whose tiles lie on `board` already (as a player counts a play that is
        down, under the Joker rule): scored on the board as it stood before it."""
        return score_laid(board, play, self.bonuses)

    def is_legal(self, board: Board, play: Play) -> bool:
        try:
            self.score(board, play)
        except IllegalMove:
            return False
        return True

    def scored_plays(self, board: Board, rack: Iterable[Tile]) -> list[tuple[Play, int]]:
        """Every distinct legal play of the rack's tiles on the board, each with its total score."""
        return movegen.scored_plays(board, rack, self.bonuses)

    def best_score(self, board: Board, rack: Iterable[Tile]) -> int | None:
        """The score of the best legal play, or None when there is none."""
        return movegen.best_score(board, rack, self.bonuses)

    def top_plays(self, board: Board, rack: Iterable[Tile], count: int) -> list[tuple[Play, int]]:
        """The `count` best-scoring plays, best first (`movegen.top_plays`)."""
        return movegen.top_plays(board, rack, count, self.bonuses)

    def best_keeping(
        self, board: Board, rack: Iterable[Tile], count: int, values: dict[int, float]
    ) -> tuple[Play, int] | None:
        """Of the `count` best-scoring plays, the best by score plus the value of what it keeps
        (`movegen.best_keeping`)."""
        return movegen.best_keeping(board, rack, count, values, self.bonuses)

    def single_tile_scores(self, board: Board) -> dict[int, tuple[int, ...]]:
        """For every empty square touching a tile, the score of one tile of each face laid there alone
        (`movegen.single_tile_scores`)."""
        return movegen.single_tile_scores(board, self.bonuses)


#: The scorer of the standard rules (the default options): the rule book's examples, the puzzles.
STANDARD_SCORER = Scorer(STANDARD_BONUSES)
_NO_BONUSES = Scorer(NO_BONUSES)
