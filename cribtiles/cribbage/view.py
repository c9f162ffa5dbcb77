"""What one player of a cribbage game may see: their own cards, the table, the counted hands; never more.

`CribbageState.view(player)` builds it; the bots and the window read only this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card
from .events import Outcome, ScoreEvent
from .moves import Move
from .muggins import Claim
from .options import CribbageOptions, Phase


class ShownHand(NamedTuple):
    """A hand (or the crib) already counted in the show: whose, its four cards, and whether it is the crib."""

    owner: int
    cards: tuple[Card, ...]
    crib: bool


@dataclass(frozen=True)
class CribbageView:
    """One player's view. `unseen` is every card this player cannot see, sorted (so it tells no order)."""

    player: int
    names: tuple[str, ...]  # one a player
    options: CribbageOptions
    scores: tuple[int, ...]  # one a side
    dealer: int
    deal_number: int
    phase: Phase
    hand: tuple[Card, ...]  # the cards this player still holds
    kept: tuple[Card, ...]  # the cards this player kept for the show (empty before the discard)
    discards: tuple[Card, ...]  # the cards this player laid in the crib
    crib_size: int
    starter: Card | None
    pile: tuple[Card, ...]
    count: int
    played: tuple[tuple[int, Card], ...]
    cards_left: tuple[int, ...]  # how many cards each player still holds
    discarded_by: tuple[bool, ...]  # whether each player has laid away to the crib
    shown_hands: tuple[ShownHand, ...]
    show_step: int
    claim: Claim | None  # a score said aloud, open to a call (its cards are face up: both may work it out)
    to_count: tuple[Card, ...]  # the show: the hand (or crib) laid face up to be counted next, else ()
    current_player: int | None
    legal: tuple[Move, ...]  # this player's legal moves (empty when it is not their turn)
    events: tuple[ScoreEvent, ...]
    outcome: Outcome | None
    cut_for_deal: tuple[tuple[Card, ...], ...]
    unseen: tuple[Card, ...]

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def sides(self) -> int:
        """How many score apart: two in the partnership game, else one a player."""
        return len(self.scores)

    def side_of(self, player: int) -> int:
        return self.options.variant.side_of(player)

    @property
    def partner(self) -> int | None:
        """The player across the table, in the partnership game; else None."""
        return (self.player + 2) % 4 if self.sides < len(self.names) else None

    @property
    def opponent(self) -> int:
        """The opponent with two players; with more, the next player clockwise (always an opponent)."""
        return (self.player + 1) % len(self.names)

    @property
    def opponent_cards_left(self) -> int:
        """With two players, the cards the opponent still holds (with more: the next player's)."""
        return self.cards_left[self.opponent]

    @property
    def opponent_discarded(self) -> bool:
        return self.discarded_by[self.opponent]

    @property
    def my_turn(self) -> bool:
        return self.current_player == self.player
