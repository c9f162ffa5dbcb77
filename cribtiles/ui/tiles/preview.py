"""The live preview of a proposed play: its scored lines, or why the rules refuse it and where.

Pure code on the rules engine: the engine says whether, why, and which squares are at fault.
"""

from __future__ import annotations

from dataclasses import dataclass

from cribtiles.rules.board import Board, Square
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.moves import Play
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.scoring import PlayScore


@dataclass(frozen=True)
class Preview:
    play: Play
    score: PlayScore | None  # None when the play is illegal
    reason: str = ""  # the engine's reason, in words, when illegal
    bad_lines: tuple[tuple[Square, ...], ...] = ()  # each offending line (or the misplaced tiles)

    @property
    def is_legal(self) -> bool:
        return self.score is not None

    @property
    def bad(self) -> tuple[Square, ...]:
        """Every square at fault, each once."""
        return tuple(dict.fromkeys(s for line in self.bad_lines for s in line))


def preview(board: Board, play: Play, scorer: Scorer) -> Preview:
    """Score `play` on `board` by the game's `scorer`, or say why it is illegal and which squares are at fault."""
    try:
        return Preview(play, scorer.score(board, play))
    except IllegalMove as e:
        return Preview(play, None, str(e), e.lines or (play.squares,))
