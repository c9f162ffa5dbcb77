"""The cribbage bots' play to 31: the plain choices (Easy's highest card, Medium's greedy card) and
Hard's look-ahead, which deals the opponent the cards they may hold and plays the rest of the play out.

Only ranks matter in the play (suits score nothing there), so the look-ahead works on ranks, and the
points of a sequence come from the engine's `peg_points`, remembered by the ranks since the last reset.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb
from typing import Any, Protocol

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


def without(hand: Ranks, rank: int) -> Ranks:
    """`hand` (sorted ranks) less one `rank`."""
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


#: VALUE[rank] is the rank's count value (index 0 unused).
VALUE = (0, *(value(r) for r in range(1, 14)))

#: A line of the play after the mover lays a rank: the count's ranks and count, what the mover pegs for it
#: (the last card's point included when it ends the play below 31), both hands, and whether the play is over.
Laid = tuple[Ranks, int, int, Ranks, Ranks, bool]


def lay(mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, rank: int) -> Laid:
    """The searches' one step (Hard's `Solver` and the Expert's `WinSolver`): the mover (0: the bot) lays
    `rank` on `pile` at `count`."""
    seq = (*pile, rank)
    count += VALUE[rank]
    points = sequence_points(seq)
    if mover == 0:
        mine = without(mine, rank)
    else:
        theirs = without(theirs, rank)
    over = not mine and not theirs
    if over and count != MAX_COUNT:
        points += LAST_CARD
    return seq, count, points, mine, theirs, over


#: The points each player still needs to win (the bot's, the opponent's), when the end is near enough for
#: the play to decide the game; None otherwise.
Needs = tuple[int, int] | None
State = tuple[Ranks, Ranks, Ranks, int, int, bool, Needs]

#: How far Hard's look-ahead takes the opponent to play against it: in this share of the positions the
#: opponent lays the card that costs the bot most over the rest of the play (as if it saw the bot's cards),
#: in the others the card that scores most now (as a player who does not see them mostly does).
OPPONENT_SEES = 0.5
#: What pegging out (reaching the target in the play, which ends the game at once) is worth in the
#: look-ahead, beside the difference of points: far more than any play's points.
WIN = 100


class _Plays(Protocol):
    def __call__(
        self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, rank: int, needs: Any, /
    ) -> float: ...


def mover_value(
    play: _Plays, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, needs: Any
) -> float | None:
    """The value of a position of the play to the mover's choice, each rank that fits weighed by `play`
    (a solver's, Hard's or Expert's): the bot (mover 0) takes its best; the opponent is taken to play its
    best `OPPONENT_SEES` of the time and otherwise the card that scores most now. None: nothing fits."""
    hand = mine if mover == 0 else theirs
    room = MAX_COUNT - count
    best: float | None = None
    greedy = (-1, 0, 0.0)  # the opponent's card that scores most now: (points, value), and what follows
    last = -1
    for r in hand:  # sorted, so a rank held twice is tried once, and among equal scores the highest last
        if r == last or VALUE[r] > room:
            continue
        last = r
        v = play(mine, theirs, pile, count, mover, go, r, needs)
        if best is None or (v > best if mover == 0 else v < best):
            best = v
        if mover == 1:
            now = sequence_points((*pile, r))
            if (now, VALUE[r]) >= greedy[:2]:
                greedy = (now, VALUE[r], v)
    if best is None:
        return None
    return best if mover == 0 else OPPONENT_SEES * best + (1 - OPPONENT_SEES) * greedy[2]


class Solver:
    """The difference of points (the bot's minus the opponent's) over the rest of a play where both hands
    are known: the bot plays its best, the opponent as `OPPONENT_SEES` says; positions solved are remembered.

    A position: the ranks each holds (sorted), the ranks since the last reset, their count, who is to
    move (0: the bot, 1: the opponent), whether the player not to move has said Go, and near the end of
    the game the points each still needs (reaching them is worth `WIN` more, and ends the play)."""

    def __init__(self, once: bool = False) -> None:
        self.memo: dict[State, float] = {}
        self.once = once  # five-card cribbage: the play ends at its first 31 or go

    def solve(
        self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, needs: Needs = None
    ) -> float:
        key = (mine, theirs, pile, count, mover, go, needs)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._solve(mine, theirs, pile, count, mover, go, needs)
        return known

    def _solve(self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, needs: Needs) -> float:
        best = mover_value(self.play, mine, theirs, pile, count, mover, go, needs)
        if best is not None:
            return best
        if not mine and not theirs:
            return 0
        if go:  # neither can play: the mover laid the last card, and a new count begins
            value_now, needs, won = _pegged(mover, LAST_CARD, needs)
            if won or self.once:
                return value_now
            return value_now + self.solve(mine, theirs, (), 0, 1 - mover, False, needs)
        return self.solve(mine, theirs, pile, count, 1 - mover, True, needs)

    def play(
        self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, rank: int, needs: Needs = None
    ) -> float:
        """The difference once the mover lays `rank` (and both play on as the solver takes them to)."""
        seq, count, points, mine, theirs, over = lay(mine, theirs, pile, count, mover, rank)
        value_now, needs, won = _pegged(mover, points, needs)
        if won or over or (self.once and count == MAX_COUNT):
            return value_now
        if count == MAX_COUNT:
            return value_now + self.solve(mine, theirs, (), 0, 1 - mover, False, needs)
        # after a Go the same player plays on; otherwise the turn passes
        return value_now + self.solve(mine, theirs, seq, count, mover if go else 1 - mover, go, needs)


def _pegged(mover: int, points: int, needs: Needs) -> tuple[float, Needs, bool]:
    """`points` pegged by `mover` as the bot's difference (with `WIN` when they reach the target), the
    points still needed after them, and whether the game is over."""
    signed = points if mover == 0 else -points
    if needs is None or points == 0:
        return signed, needs, False
    left = needs[mover] - points
    if left <= 0:
        return signed + (WIN if mover == 0 else -WIN), needs, True
    return signed, ((left, needs[1]) if mover == 0 else (needs[0], left)), False


def sample_hands(unseen: Sequence[Card], size: int, samples: int, rng: random.Random) -> list[Ranks]:
    """`samples` guesses at the opponent's hand: `size` cards drawn from the cards the bot cannot see."""
    if size <= 0:
        return [()] * samples
    pool = list(unseen)
    return [tuple(sorted(c.rank for c in rng.sample(pool, size))) for _ in range(samples)]


def card_totals(
    hand: Sequence[Card],
    pile: Sequence[Card],
    opponent_said_go: bool,
    guesses: Sequence[Ranks],
    needs: Needs = None,
    solver: Solver | None = None,
) -> dict[int, tuple[Card, float]]:
    """Hard's look-ahead for each rank of `hand` that fits the count (one card of it, the first by suit):
    the difference of points over the rest of the play summed over the `guesses` at the opponent's hand
    (`needs`: near the end, the points each needs to win). A lone rank that fits is not searched (0).
    `solver`: one whose positions solved are kept from other cards of the same play (None: a new one)."""
    count = sum(c.value for c in pile)
    by_rank: dict[int, Card] = {}
    for c in sorted(fitting(hand, count), key=lambda c: c.suit):
        by_rank.setdefault(c.rank, c)
    totals = dict.fromkeys(by_rank, 0.0)
    if len(by_rank) > 1:
        mine = tuple(sorted(c.rank for c in hand))
        ranks_pile = tuple(c.rank for c in pile)
        solver = solver if solver is not None else Solver()
        for theirs in guesses:
            for r in by_rank:
                totals[r] += solver.play(mine, theirs, ranks_pile, count, 0, opponent_said_go, r, needs)
    return {r: (by_rank[r], totals[r]) for r in by_rank}


def lookahead_card(
    hand: Sequence[Card],
    pile: Sequence[Card],
    opponent_said_go: bool,
    guesses: Sequence[Ranks],
    needs: Needs = None,
    once: bool = False,
) -> Card:
    """Hard's card: the one with the best mean difference of points over the rest of the play, the
    opponent's hand being each guess in turn (`needs`: near the end, the points each needs to win);
    among equals, the highest."""
    totals = card_totals(hand, pile, opponent_said_go, guesses, needs, Solver(once))
    best = max(totals, key=lambda r: (totals[r][1], value(r), r))
    return totals[best][0]


# --- one ply, for three or four players ---


def answer_card(hand: Sequence[Card], pile: Sequence[Card], unseen: Sequence[Card], next_holds: int) -> Card:
    """Hard's card with three or four players (its look-ahead is for two): the points it scores now minus
    what the next player (always an opponent) is expected to answer with, taking them to hold `next_holds`
    of the `unseen` cards at random and to lay the card that scores them most; among equals, the highest."""
    count = sum(c.value for c in pile)
    ranks = tuple(c.rank for c in pile)
    by_rank: dict[int, int] = {}
    for c in unseen:
        by_rank[c.rank] = by_rank.get(c.rank, 0) + 1

    def worth(card: Card) -> float:
        after = (*ranks, card.rank)
        total = count + card.value
        now = sequence_points(after)
        if total == MAX_COUNT or next_holds <= 0:
            return now
        answers = sorted(
            ((sequence_points((*after, r)), n) for r, n in by_rank.items() if total + VALUE[r] <= MAX_COUNT),
            reverse=True,
        )
        return now - expected_best(answers, len(unseen), next_holds)

    return max(fitting(hand, count), key=lambda c: (worth(c), c.value, c.rank, c.suit))


def expected_best(answers: Sequence[tuple[int, int]], pool: int, holds: int) -> float:
    """The expected points of the best answer of a player holding `holds` cards drawn from `pool`, when
    `answers` (points, how many cards of the pool score them; best first) are what the pool offers: each
    answer counts as often as they hold one of its cards and none of a better one.

    >>> round(expected_best([(2, 4)], 10, 1), 3)
    0.8
    """
    expected = 0.0
    covered, before = 0, 0.0
    for points, n in answers:
        if points <= 0:
            break
        covered += n
        p_any = 1 - comb(pool - covered, holds) / comb(pool, holds) if pool >= holds else 1.0
        expected += points * (p_any - before)
        before = p_any
    return expected
