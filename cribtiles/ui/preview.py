"""The live preview of a proposed play: its scored lines, or why the rules refuse it and where.

Pure code on the rules engine: the engine says whether and why; this finds the line to paint red.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cribtiles.rules.board import ACROSS, DOWN, Board, Line, Square
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.hands import why_invalid
from cribtiles.rules.moves import Play
from cribtiles.rules.scoring import PlayScore, score_play


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


def _lines_of(board: Board, play: Play) -> list[Line]:
    """Every line through a placed tile once the play's tiles lie on the board."""
    try:
        after = board.place(play.placements)
    except ValueError:
        return []
    seen: set[tuple[str, Square]] = set()
    lines: list[Line] = []
    for p in play.placements:
        for d in (ACROSS, DOWN):
            line = after.line_through(p.square, d)
            if line is not None and (d, line.squares[0]) not in seen:
                seen.add((d, line.squares[0]))
                lines.append(line)
    return lines


def preview(board: Board, play: Play) -> Preview:
    """Score `play` on `board`, or say why it is illegal and which squares are at fault."""
    try:
        return Preview(play, score_play(board, play))
    except IllegalMove as e:
        reason = str(e)
    invalid = [line for line in _lines_of(board, play) if why_invalid(line.ranks, line.name) is not None]
    # the lines the engine names (it names every bad one); a line over 5 tiles may be named otherwise
    named = [ln for ln in invalid if re.search(rf"\b{ln.name}\b", reason) or len(ln.tiles) > 5]
    lines = named or invalid[:1]
    if lines:
        return Preview(play, None, reason, tuple(ln.squares for ln in lines))
    return Preview(play, None, reason, (play.squares,))
