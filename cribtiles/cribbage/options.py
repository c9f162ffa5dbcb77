"""The settings of a game of classic cribbage (house rules, the target) and the phases of a deal."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    """Where a deal stands: discarding to the crib, the play, the show; or the game is over."""

    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"


@dataclass(frozen=True)
class CribbageOptions:
    """House rules: muggins (each player counts their own hand and crib aloud, and the opponent may call a
    wrong count), muggins in the play too (each card's score said aloud: `play_muggins`), the target score,
    and counting by hand without muggins (`manual_count`: each player says what their own hand and crib
    make, and a wrong count is corrected, the cards' worth pegged, no points lost; with muggins on, muggins
    rules the count and this is ignored)."""

    muggins: bool = False
    target: int = 121
    play_muggins: bool = False
    manual_count: bool = False

    @property
    def counted_by_hand(self) -> bool:
        """Whether each player says their own count in the show (muggins, or by hand without it)."""
        return self.muggins or self.manual_count

    def __post_init__(self) -> None:
        if not 31 <= self.target <= 1000:
            raise ValueError(f"a game is played to 31 to 1000 points, not {self.target}")
