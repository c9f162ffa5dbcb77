"""The coach of classic cribbage: the discard advisor (every way to lay two of six cards away, with the
kept hand's exact expected show over the 46 starters, the crib's expected points from the table Hard
discards by, and their sum, best first) and the pegging hint (the card Hard would lay, and why).

The hand is counted by the engine's own show (`show_total`, his nobs and the flush included), once for
every starter left; the crib's worth is `crib.default_table`'s, the same numbers Hard's discard adds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.cribbage.cards import DECK, Card, format_cards
from cribtiles.cribbage.moves import PlayCard
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.peg import MAX_COUNT, count_of
from cribtiles.cribbage.show import show_total
from cribtiles.cribbage.view import CribbageView

from .bots import hard_play
from .crib import CribTable, default_table
from .discard import splits
from .peg import VALUE, points_now, sequence_points

DEALT = 6
FIVE = 5  # the cards dealt in five-card cribbage and with three or four players


class AdviceError(ValueError):
    """The cards asked about cannot be advised on (too few, too many): said in words."""


@dataclass(frozen=True)
class DiscardAdvice:
    """One way to discard: the four kept, the two laid in the crib, the kept hand's expected show over
    every starter left, and the crib's expected points for the discarder (minus: the opponent's crib)."""

    kept: tuple[Card, ...]
    thrown: tuple[Card, ...]  # two; one with three or four players
    hand: float
    crib: float

    @property
    def total(self) -> float:
        return self.hand + self.crib

    def words(self) -> str:
        """'keep 5H 5D JS QC, throw 8H 2S: hand 8.43, crib +4.12, total 12.55'."""
        return (
            f"keep {format_cards(self.kept)}, throw {format_cards(self.thrown)}: "
            f"hand {self.hand:.2f}, crib {self.crib:+.2f}, total {self.total:.2f}"
        )


def expected_hand(kept: Sequence[Card], dealt: Sequence[Card]) -> float:
    """The exact average show of `kept` (four cards; three in five-card cribbage) over every starter that is
    not among `dealt`."""
    seen = set(dealt)
    starters = [c for c in DECK if c not in seen]
    return sum(show_total(kept, s) for s in starters) / len(starters)


def advise_discard(
    dealt: Sequence[Card], dealer: bool, table: CribTable | None = None, to_crib: int | None = None
) -> tuple[DiscardAdvice, ...]:
    """Every discard of the cards `dealt`, best total first (among equals, the better hand, then the order
    of `splits`): two of six; of five, `to_crib` (two in five-card cribbage, one with three or four
    players). `dealer`: the crib is the advised player's own (or their partner's). AdviceError in words
    for anything else."""
    if to_crib is None:
        if len(dealt) != DEALT:
            raise AdviceError(
                f"the advisor needs the {DEALT} cards dealt, not {len(dealt)} "
                "(five with five-card cribbage, three or four players)"
            )
        to_crib = 2
    elif to_crib not in (1, 2) or len(dealt) != (DEALT if to_crib == 2 and len(dealt) == DEALT else FIVE):
        raise AdviceError(f"the advisor lays 1 or 2 of the 5 or 6 cards dealt, not {to_crib} of {len(dealt)}")
    if len(set(dealt)) != len(dealt):
        raise AdviceError("a card is named twice: a deck holds each card once")
    worth = (table if table is not None else default_table()).worth(dealer)
    found = [
        DiscardAdvice(s.kept, s.discarded, expected_hand(s.kept, dealt), worth(*s.discarded))
        for s in splits(dealt, to_crib)
    ]
    order = sorted(range(len(found)), key=lambda i: (-round(found[i].total, 9), -round(found[i].hand, 9), i))
    return tuple(found[i] for i in order)


def advise_view(view: CribbageView) -> tuple[DiscardAdvice, ...]:
    """The discard advice for `view`'s player in any variant: the cards they were dealt, the variant's
    count laid away, the crib theirs when they or their partner deal. AdviceError in words when they have
    discarded already."""
    variant = view.options.variant
    if view.discards or len(view.hand) != variant.dealt:
        raise AdviceError("the cards are laid away already: the advisor helps with the cards dealt")
    own = view.side_of(view.dealer) == view.side_of(view.player)
    return advise_discard(view.hand, own, to_crib=None if variant.dealt == DEALT else variant.to_crib)


# --- the pegging hint ---

#: Seeds Hard's guesses at the opponent's hand, so that the same position gives the same hint.
HINT_SEED = 32


@dataclass(frozen=True)
class Reply:
    """A card the opponent may answer with (by its rank's count value) and what it would score them."""

    value: int
    points: int
    words: str


@dataclass(frozen=True)
class PegHint:
    """The card Hard would lay, what it scores now, the count it leaves, the opponent's best answers
    that score (worst first), and the whole of it in words."""

    card: Card
    points: int
    count: int
    replies: tuple[Reply, ...]
    why: str


_NAMES = ("", "an ace", "a 2", "a 3", "a 4", "a 5", "a 6", "a 7", "an 8", "a 9", "a 10", "a jack", "a queen", "a king")


def _rank_name(rank: int) -> str:
    return _NAMES[rank]


def _reply_words(pile: Sequence[int], count: int, rank: int, points: int) -> str:
    total = count + VALUE[rank]
    what = []
    if total == 15:
        what.append("makes 15")
    elif total == MAX_COUNT:
        what.append("makes 31")
    if pile and pile[-1] == rank:
        what.append("pairs it")
    if not what:
        what.append("makes a run")
    name = "a 10 or a court card" if VALUE[rank] == 10 and not (pile and pile[-1] == rank) else _rank_name(rank)
    return f"{name} {' and '.join(what)}"


def replies(pile: Sequence[Card], unseen: Sequence[Card]) -> tuple[Reply, ...]:
    """The answers to `pile` (the cards since the count was last reset) that score, among the ranks of
    `unseen` (the cards the opponent may hold), worst for the player first."""
    ranks = tuple(c.rank for c in pile)
    count = count_of(pile)
    best: dict[str, Reply] = {}
    for rank in sorted({c.rank for c in unseen}):
        if count + VALUE[rank] > MAX_COUNT:
            continue
        points = sequence_points((*ranks, rank))
        if points:
            words = _reply_words(ranks, count, rank, points)
            if words not in best:
                best[words] = Reply(VALUE[rank], points, words)
    return tuple(sorted(best.values(), key=lambda r: (-r.points, -r.value)))


def _why(card: Card, points: int, count: int, answers: Sequence[Reply], out: bool, last: bool) -> str:
    now = f"Lay {card}: it scores {points} now" if points else f"Lay {card}: it scores nothing now"
    if last:
        return f"{now} (the last card counts 1)."
    if count == MAX_COUNT:
        return f"{now} (31), and the count begins again."
    if out:
        return f"{now}; they have no cards left."
    if not answers:
        return f"{now}, and leaves {count}: no card of theirs scores on it."
    shown = "; ".join(f"{r.words} for them ({r.points})" for r in answers[:2])
    return f"{now}, and leaves {count}: {shown}."


def hint_rng(view: CribbageView) -> random.Random:
    """The generator of Hard's guesses for a hint in `view`'s position: the same position, the same card."""
    return random.Random(HINT_SEED * 1000 + view.deal_number * 100 + len(view.played))


def peg_hint(view: CribbageView) -> PegHint | None:
    """The pegging hint for `view`'s player in the play: Hard's card (its guesses seeded by the position,
    so asking again gives the same card) with what it scores and gives away. None when the player cannot
    lay a card (not their turn, not the play, or only a go)."""
    if view.phase is not Phase.PLAY or not any(isinstance(m, PlayCard) for m in view.legal):
        return None
    card = hard_play(view, hint_rng(view))
    points = points_now(view.pile, card)
    after = (*view.pile, card)
    count = count_of(after)
    out = view.opponent_cards_left == 0
    last = out and len(view.hand) == 1 and count != MAX_COUNT
    if last:
        points += 1  # the last card of the play
    answers = () if count == MAX_COUNT or out else replies(after, view.unseen)
    return PegHint(card, points, count, answers, _why(card, points, count, answers, out, last))
