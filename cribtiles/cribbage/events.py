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
    THREE_FOR_LAST = "three for last"  # five-card cribbage: 3 to the first deal's non-dealer, at the start
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
#: The shortest game with a double lurch: in a game to 61 (five-card cribbage, or "a game to 61") only the
#: single lurch counts, under 31 (the American Cribbage Congress's rule for 61-point games).
DOUBLE_SKUNK_FROM = 91


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winning side, the final scores (one per side) and the margin's kind.

    Sides are the players themselves, except in the partnership game, where players 0 and 2 are side 0
    and players 1 and 3 side 1 (`side_of_player`: each player's side, in seat order).
    [choice] With three players the margin is judged by the best of the losers: the game is a lurch only
    when every loser is under the line."""

    winner: int
    scores: tuple[int, ...]
    margin_kind: MarginKind
    side_of_player: tuple[int, ...] = (0, 1)
    resigned: int | None = None  # the player who gave the game up (online), None when it was played out

    @property
    def winners(self) -> tuple[int, ...]:
        """The players who won (partners both), as the tile game names its winners (cribbage has no tie)."""
        return tuple(p for p, side in enumerate(self.side_of_player) if side == self.winner)

    def returns(self) -> tuple[float, ...]:
        """OpenSpiel-style returns, one per player: 1 for each winner, 0 for each loser."""
        return tuple(1.0 if side == self.winner else 0.0 for side in self.side_of_player)

    @property
    def lurch(self) -> bool:
        """The loser did not reach 91 (skunked), or 61 for a double lurch."""
        return self.margin_kind is not MarginKind.WIN

    def words(self, names: tuple[str, ...]) -> str:
        """'You win by a lurch (skunk), 121 to 84.'; partners are named together, the losers' scores follow.

        >>> Outcome(0, (121, 84), MarginKind.SKUNK).words(("You", "Bot"))
        'You win by a lurch (skunk), 121 to 84.'
        >>> Outcome(0, (121, 95), MarginKind.WIN, (0, 1, 0, 1)).words(("You", "East", "North", "West"))
        'You and North win, 121 to 95.'
        >>> Outcome(2, (50, 40, 61), MarginKind.WIN, (0, 1, 2)).words(("You", "East", "West"))
        'West wins, 61 to 50 and 40.'
        >>> Outcome(1, (40, 30), MarginKind.WIN, resigned=0).words(("Ann", "Ben"))
        'Ann resigned: Ben wins, 30 to 40.'
        """
        how = "" if self.margin_kind is MarginKind.WIN else f" by {self.margin_kind.words}"
        gave_up = "" if self.resigned is None else f"{names[self.resigned]} resigned: "
        who = [names[p] for p in self.winners]
        verb = "win" if len(who) > 1 or who[0] == "You" else "wins"
        if "You" in who[1:]:
            who.remove("You")
            who.insert(0, "You")
        losers = " and ".join(str(score) for side, score in enumerate(self.scores) if side != self.winner)
        return f"{gave_up}{' and '.join(who)} {verb}{how}, {self.scores[self.winner]} to {losers}."


def outcome_of(scores: tuple[int, ...], winner: int, target: int, side_of_player: tuple[int, ...] = (0, 1)) -> Outcome:
    """How the game ended: a lurch when the best loser is under target − 30, a double lurch under target − 60
    (in games to 91 or more: a game to 61 knows only the single lurch, under 31)."""
    loser = max(score for side, score in enumerate(scores) if side != winner)
    if target >= DOUBLE_SKUNK_FROM and loser < target - DOUBLE_SKUNK_MARGIN:
        kind = MarginKind.DOUBLE_SKUNK
    elif loser < target - SKUNK_MARGIN:
        kind = MarginKind.SKUNK
    else:
        kind = MarginKind.WIN
    return Outcome(winner, scores, kind, side_of_player)
