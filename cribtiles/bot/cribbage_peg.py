"""The cribbage bots' play to 31: the plain choices (Easy's highest card, Medium's greedy card) and
Hard's look-ahead, which deals the opponent the cards they may hold and plays the rest of the play out.

Only ranks matter in the play (suits score nothing there), so the look-ahead works on ranks, and the
points of a sequence come from the engine's `peg_points`, remembered by the ranks since the last reset.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cribtiles.cribbage.cards import Card, Suit
from cribtiles.cribbage.peg import peg_points

MAX_COUNT = 31
LAST_CARD = 1  # the last card of a sequence that does not reach 31 (a "go")
SUITS = tuple(Suit)

Ranks = tuple[int, ...]


def value(rank: int) -> int:
    """A rank's count value: ace 1 ... nine 9, ten and the court cards 10."""
    return min(rank, 10)


_POINTS: dict[Ranks, int] = {}


def sequence_points(pile: Ranks) -> int:
    """What the last rank of `pile` (the ranks since the last reset, in order) scores: the engine's
    `peg_points`, remembered by the ranks (the suits never matter in the play)."""
    known = _POINTS.get(pile)
    if known is None:
        seen: dict[int, int] = {}
        cards = []
        for r in pile:
            # a different suit for each card of a rank, so no card appears twice
            cards.append(Card(r, SUITS[seen.get(r, 0) % len(SUITS)]))
            seen[r] = seen.get(r, 0) + 1
        known = _POINTS[pile] = peg_points(cards)
    return known


def fitting(hand: Sequence[Card], count: int) -> list[Card]:
    """The cards of `hand` that keep the count at 31 or below."""
    return [c for c in hand if count + c.value <= MAX_COUNT]


def points_now(pile: Sequence[Card], card: Card) -> int:
    """What `card` scores when played on `pile` (the cards since the last reset)."""
    return sequence_points((*(c.rank for c in pile), card.rank))


def highest_card(hand: Sequence[Card], pile: Sequence[Card], count: int) -> Card:
    """Easy's card: a fifteen or 31 when one is there for the taking, else the highest card that fits."""
    fits = fitting(hand, count)
    obvious = [c for c in fits if count + c.value in (15, MAX_COUNT)]
    return max(obvious or fits, key=lambda c: (c.value, c.rank, c.suit))


def greedy_card(hand: Sequence[Card], pile: Sequence[Card], count: int) -> Card:
    """Medium's card: the one that scores most now; among equals, the highest."""
    return max(fitting(hand, count), key=lambda c: (points_now(pile, c), c.value, c.rank, c.suit))


# --- Hard's look-ahead ---


def _without(hand: Ranks, rank: int) -> Ranks:
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


#: VALUE[rank] is the rank's count value (index 0 unused).
VALUE = (0, *(value(r) for r in range(1, 14)))

State = tuple[Ranks, Ranks, Ranks, int, int, bool]


class Solver:
    """The best difference of points (the bot's minus the opponent's) over the rest of a play where
    both hands are known and both play their best; the positions already solved are remembered.

    A position: the ranks each holds (sorted), the ranks since the last reset, their count, who is to
    move (0: the bot, 1: the opponent) and whether the player not to move has said Go."""

    def __init__(self) -> None:
        self.memo: dict[State, int] = {}

    def solve(self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool) -> int:
        key = (mine, theirs, pile, count, mover, go)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._solve(mine, theirs, pile, count, mover, go)
        return known

    def _solve(self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool) -> int:
        hand = mine if mover == 0 else theirs
        room = MAX_COUNT - count
        best: int | None = None
        last = -1
        for r in hand:  # sorted, so a rank held twice is tried once
            if r == last or VALUE[r] > room:
                continue
            last = r
            v = self.play(mine, theirs, pile, count, mover, go, r)
            if best is None or (v > best if mover == 0 else v < best):
                best = v
        if best is not None:
            return best
        if not mine and not theirs:
            return 0
        if go:  # neither can play: the mover laid the last card, and a new count begins
            return (LAST_CARD if mover == 0 else -LAST_CARD) + self.solve(mine, theirs, (), 0, 1 - mover, False)
        return self.solve(mine, theirs, pile, count, 1 - mover, True)

    def play(self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, rank: int) -> int:
        """The difference once the mover lays `rank` (and both play their best after it)."""
        seq = (*pile, rank)
        count += VALUE[rank]
        points = sequence_points(seq)
        if mover == 0:
            mine = _without(mine, rank)
        else:
            theirs = _without(theirs, rank)
        if not mine and not theirs:
            points += 0 if count == MAX_COUNT else LAST_CARD
            return points if mover == 0 else -points
        if count == MAX_COUNT:
            rest = self.solve(mine, theirs, (), 0, 1 - mover, False)
        else:  # after a Go the same player plays on; otherwise the turn passes
            rest = self.solve(mine, theirs, seq, count, mover if go else 1 - mover, go)
        return (points if mover == 0 else -points) + rest


def sample_hands(unseen: Sequence[Card], size: int, samples: int, rng: random.Random) -> list[Ranks]:
    """`samples` guesses at the opponent's hand: `size` cards drawn from the cards the bot cannot see."""
    if size <= 0:
        return [()] * samples
    pool = list(unseen)
    return [tuple(sorted(c.rank for c in rng.sample(pool, size))) for _ in range(samples)]


def lookahead_card(
    hand: Sequence[Card],
    pile: Sequence[Card],
    opponent_said_go: bool,
    guesses: Sequence[Ranks],
) -> Card:
    """Hard's card: the one with the best mean difference of points over the rest of the play, the
    opponent's hand being each guess in turn; among equals, the highest."""
    count = sum(c.value for c in pile)
    fits = fitting(hand, count)
    by_rank: dict[int, Card] = {}
    for c in sorted(fits, key=lambda c: c.suit):
        by_rank.setdefault(c.rank, c)
    if len(by_rank) == 1:
        return next(iter(by_rank.values()))
    mine = tuple(sorted(c.rank for c in hand))
    ranks_pile = tuple(c.rank for c in pile)
    solver = Solver()
    totals = dict.fromkeys(by_rank, 0)
    for theirs in guesses:
        for r in by_rank:
            totals[r] += solver.play(mine, theirs, ranks_pile, count, 0, opponent_said_go, r)
    best = max(by_rank, key=lambda r: (totals[r], value(r), r))
    return by_rank[best]
