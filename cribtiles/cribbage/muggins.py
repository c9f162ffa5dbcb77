"""Muggins: a score said aloud (a hand or crib in the show; under muggins in the play, what a card laid
scores), open to the opponent's call until they answer, and what a call moves.

Our choices where the standard rules leave it open: an over-count pegs only what the cards make and a call
takes the excess; a call on a count that was right gives the counter WRONG_CALL points.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card
from .events import EventKind, ScoreEvent
from .peg import peg_points
from .show import show_total

#: The most a hand or crib makes (three 5s and his nobs' jack, a 5 turned): the most a count may say.
MOST_SHOWN = 29
#: The most one card scores in the play (7 2 2 2 2: fifteen 2 and a double pair royal 12): the most a claim may say.
MOST_PEGGED = 14
#: What a call costs when the count was right: the counter pegs this many (our choice; the standard rules
#: give a wrong call no price, which would make calling after every count free).
WRONG_CALL = 2


class ClaimKind(StrEnum):
    """What a declared score counts: a hand (or the crib) in the show, or a card laid in the play."""

    SHOW = "show"
    PLAY = "play"


@dataclass(frozen=True)
class Claim:
    """A score said aloud and still open to a call: who said it, the number, and the cards it counts (all
    face up, so both players may work out what they make: `worth`)."""

    counter: int
    declared: int
    kind: ClaimKind
    cards: tuple[Card, ...]  # the show: the hand's four; the play: the count's cards in order, the card laid last
    starter: Card | None = None  # the show's starter
    crib: bool = False

    @property
    def worth(self) -> int:
        """What the cards make."""
        if self.kind is ClaimKind.PLAY:
            return peg_points(self.cards)
        assert self.starter is not None
        return show_total(self.cards, self.starter, self.crib)

    @property
    def pegged(self) -> int:
        """What the counter pegged for it: what was said, never more than the cards make."""
        return min(self.declared, self.worth)

    @property
    def event(self) -> ScoreEvent:
        """What saying it pegs at once: the counter's `pegged` points, in the words said ("counts 24" for a
        hand or crib, with its cards; "says 2" for a card laid, with that card)."""
        if self.kind is ClaimKind.PLAY:
            return ScoreEvent(self.counter, self.pegged, EventKind.CLAIM, self.cards[-1:], f"says {self.declared}")
        return ScoreEvent(self.counter, self.pegged, EventKind.COUNT, self.cards, f"counts {self.declared}")

    @property
    def what(self) -> str:
        """'hand', 'crib' or 'card', as the table names what was counted."""
        return "card" if self.kind is ClaimKind.PLAY else "crib" if self.crib else "hand"


def call_points(claim: Claim) -> tuple[int, int]:
    """(to the caller, to the counter) when `claim` is called: the points missed or said over go to the
    caller; a call on a right count gives the counter WRONG_CALL.

    >>> from .cards import parse_card, parse_cards
    >>> hand = Claim(0, 12, ClaimKind.SHOW, parse_cards("4H 5D 6S JC"), parse_card("5H"))
    >>> hand.worth, call_points(hand)
    (16, (4, 0))
    >>> call_points(Claim(0, 16, ClaimKind.SHOW, hand.cards, hand.starter))
    (0, 2)
    """
    missed = abs(claim.worth - claim.declared)
    return (missed, 0) if missed else (0, WRONG_CALL)
