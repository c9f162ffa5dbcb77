"""What scores in a game of cribbage (ScoreEvent) and how a game ends (Outcome, with lurch and double lurch)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .cards import Card
from .peg import PegKind
from .show import ShowKind


class EventKind(StrEnum):
    """Scores that are neither the play's nor the show's combinations."""

    HEELS = "his heels"  # a jack turned as the starter: 2 to the dealer
    COUNT = "count"  # a hand counted at a declared number (muggins option)
    CLAIM = "claim"  # what a card laid in the play was said to score (muggins in the play)
    MUGGINS = "muggins"  # a call on a wrong count: the points missed, or said over, to the caller
    WRONG_CALL = "wrong call"  # a call on a right count: its price, to the counter


class ScoreEvent(NamedTuple):
    """One scoring: who pegs, how many points, what for, with which cards, and how a player says it."""

    player: int
    points: int
    kind: PegKind | ShowKind | EventKind
    cards: tuple[Card, ...]
    words: str


class MarginKind(StrEnum):
    """How a game was won: plainly, by a lurch (skunk: loser under 91) or a double lurch (under 61)."""

    WIN = "win"
    SKUNK = "skunk"
    DOUBLE_SKUNK = "double skunk"

    @property
    def words(self) -> str:
        return _MARGIN_WORDS[self]


_MARGIN_WORDS = {
    MarginKind.WIN: "a win",
    MarginKind.SKUNK: "a lurch (skunk)",
    MarginKind.DOUBLE_SKUNK: "a double lurch (double skunk)",
}

#: Below target minus this the loser is lurched (skunked): 91 in a game to 121; minus DOUBLE, doubly (61).
SKUNK_MARGIN = 30
DOUBLE_SKUNK_MARGIN = 60


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner, the final scores and the margin's kind."""

    winner: int
    scores: tuple[int, int]
    margin_kind: MarginKind

    @property
    def winners(self) -> tuple[int, ...]:
        """The winner, as the tile game names its winners (cribbage has no tie)."""
        return (self.winner,)

    def returns(self) -> tuple[float, float]:
        """OpenSpiel-style returns: 1 for the winner, 0 for the loser."""
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)

    @property
    def loser_score(self) -> int:
        return self.scores[1 - self.winner]

    @property
    def lurch(self) -> bool:
        """The loser did not reach 91 (skunked), or 61 for a double lurch."""
        return self.margin_kind is not MarginKind.WIN

    @property
    def double_lurch(self) -> bool:
        return self.margin_kind is MarginKind.DOUBLE_SKUNK

    def words(self, names: tuple[str, str]) -> str:
        """'You win by a lurch (skunk), 121 to 84.'

        >>> Outcome(0, (121, 84), MarginKind.SKUNK).words(("You", "Bot"))
        'You win by a lurch (skunk), 121 to 84.'
        """
        how = "" if self.margin_kind is MarginKind.WIN else f" by {self.margin_kind.words}"
        return f"{names[self.winner]} win{'' if names[self.winner] == 'You' else 's'}{how}, " + (
            f"{self.scores[self.winner]} to {self.loser_score}."
        )


def outcome_of(scores: tuple[int, int], winner: int, target: int) -> Outcome:
    loser = scores[1 - winner]
    if loser < target - DOUBLE_SKUNK_MARGIN:
        kind = MarginKind.DOUBLE_SKUNK
    elif loser < target - SKUNK_MARGIN:
        kind = MarginKind.SKUNK
    else:
        kind = MarginKind.WIN
    return Outcome(winner, scores, kind)
