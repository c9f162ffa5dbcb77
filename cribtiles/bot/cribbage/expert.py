"""The Expert cribbage bot: Hard's discard and play while the end is far (its play over more guesses at
the opponent's hand), and near the end a player who plays to win the game rather than to score points.

Near the end (either player within `WITHIN` points of the target) the points of a deal count only for the
chance of winning they bring (`odds.WinOdds`, solved from measured deals), and the order of the deal
decides: the play first, where reaching the target wins at once, then the pone's hand, then the dealer's
hand and crib.

- The discard: for each of the fifteen splits, the chance to win over every starter (the kept hand's
  exact show with each of the 46), the play's points as measured, the opponent's hand as measured, and the
  crib as measured, moved up or down to the expected crib of the two cards laid away (Hard's crib table).
- The play, all the game: twice Hard's guesses at the opponent's hand (`EXPERT_GUESSES`), the opponent
  taken to discard by the crib table as Hard does, not by the cards' plain worth; far from the
  end weighed by Hard's look-ahead, near it by the chance to win: each line of the play solved to its
  end, where the value is the chance to win: the bot's show is known once the starter is cut, the
  opponent's is the guessed hand's, the crib as measured; then the next deal's chances.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.options import Variant
from cribtiles.cribbage.show import score_show
from cribtiles.cribbage.view import CribbageView

from .bots import (
    EXACT,
    PEG_GUESSES,
    CountingManners,
    CribbageBot,
    DiscardPolicy,
    PlayPolicy,
    PolicyBot,
    hard_discard,
    hard_play,
    needs_near_the_end,
)
from .crib import default_table
from .discard import JACK, Split, rank_points, splits, unseen_after
from .guess import opponent_gone, table_guess_hands
from .odds import Dist, WinOdds, convolve, default_odds, default_win_odds, shifted
from .peg import (
    LAST_CARD,
    MAX_COUNT,
    Ranks,
    fitting,
    lay,
    lookahead_card,
    mover_value,
    value,
)

#: Within this many points of the target (either player), Expert plays to win rather than to score.
WITHIN = 45
#: The Expert's guesses at the opponent's hand for each card it lays: twice Hard's, each a deal the
#: opponent keeps as Hard's crib table would (`guess.table_guess_hands`), measured to peg +0.07 +- 0.02
#: points a deal more than Hard (`benchmarks/cribbage/bench_mid.py hardlike:48`, 3,000 deals).
EXPERT_GUESSES = 2 * PEG_GUESSES

Needs = tuple[int, int]  # the points the bot and the opponent still need
Leaf = Callable[[int, int], float]  # the chance to win once the play is over, from the needs then


def needs_of(view: CribbageView) -> Needs:
    target = view.options.target
    return target - view.scores[view.player], target - view.scores[view.opponent]


def near_the_end(view: CribbageView, within: int = WITHIN) -> bool:
    """Whether Expert plays to win now: either player within `within` of the target, in the two-player
    six-card game its chances were measured in (other variants: Hard's choices all the way)."""
    return view.options.variant is Variant.SIX_CARD and min(needs_of(view)) <= within


def mean(dist: Dist) -> float:
    return sum(k * p for k, p in dist)


def crib_dist(laid: tuple[Card, ...], own_crib: bool) -> Dist:
    """The crib's points as measured, moved to the crib table's expectation for the two cards laid away."""
    table = default_table()
    expected = abs(table.worth(own_crib)(*laid))
    crib = default_odds().crib
    return shifted(crib, round(expected - mean(crib), 1))


# --- the discard ---


def hand_shows(kept: Sequence[Card], six: Sequence[Card]) -> Dist:
    """The kept four's show with each starter it may meet (the 46 unseen), as a distribution."""
    counts: dict[int, int] = {}
    ranks = [c.rank for c in kept]
    flush = all(c.suit == kept[0].suit for c in kept)
    starters = unseen_after(six)
    for s in starters:
        points = rank_points((*ranks, s.rank))
        if flush:
            points += 5 if s.suit == kept[0].suit else 4
        points += sum(1 for c in kept if c.rank == JACK and c.suit == s.suit)
        counts[points] = counts.get(points, 0) + 1
    return tuple((k, n / len(starters)) for k, n in sorted(counts.items()))


def split_win_chance(hand: Dist, crib: Dist, needs: Needs, dealer: bool, odds: WinOdds) -> float:
    """The chance to win the game with this hand's show and this crib, the play and the opponent's hand
    as measured, the bot dealing (`dealer`) or not."""
    a, b = needs
    deal = odds.odds
    total = 0.0
    if dealer:
        pone_hand = deal.pone_hand
        mine_show = convolve(hand, crib)
        last: dict[tuple[int, int], float] = {}
        after: dict[tuple[int, int], float] = {}

        def counted(x: int, y: int) -> float:  # the pone has counted: the bot needs x from hand and crib, the pone y
            known = last.get((x, y))
            if known is None:
                known = last[(x, y)] = sum(
                    p * (1.0 if m >= x else 1.0 - odds.dealer_wins(y, x - m)) for m, p in mine_show
                )
            return known

        def after_play(x: int, y: int) -> float:
            known = after.get((x, y))
            if known is None:
                known = after[(x, y)] = sum(p * counted(x, y - h) for h, p in pone_hand if h < y)
            return known

        for (pone, mine), p in deal.play:
            if mine >= a:
                total += p * (0.5 if pone >= b else 1.0)
            elif pone < b:
                total += p * after_play(a - mine, b - pone)
        return total
    theirs_show = convolve(deal.dealer_hand, crib)
    rest: dict[tuple[int, int], float] = {}

    def counted_pone(x: int, y: int) -> float:  # the bot (the pone) has counted, needing x still; the dealer y
        known = rest.get((x, y))
        if known is None:
            known = rest[(x, y)] = sum(p * odds.dealer_wins(x, y - t) for t, p in theirs_show if t < y)
        return known

    for (mine, theirs), p in deal.play:
        if mine >= a:
            total += p * (0.5 if theirs >= b else 1.0)
        elif theirs < b:
            x, y = a - mine, b - theirs
            total += p * sum(pk * (1.0 if k >= x else counted_pone(x - k, y)) for k, pk in hand)
    return total


def win_split(six: Sequence[Card], needs: Needs, dealer: bool, odds: WinOdds) -> Split:
    """The split with the best chance to win; among equals, the first in `splits` order."""
    best: tuple[float, Split] | None = None
    for s in splits(six):
        chance = split_win_chance(hand_shows(s.kept, six), crib_dist(s.discarded, dealer), needs, dealer, odds)
        if best is None or chance > best[0] + 1e-12:
            best = (chance, s)
    assert best is not None
    return best[1]


def expert_discard(view: CribbageView, rng: random.Random, within: int = WITHIN) -> Split:
    if not near_the_end(view, within):
        return hard_discard(view, rng)
    return win_split(view.hand, needs_of(view), view.dealer == view.player, default_win_odds())


def win_discard(within: int = WITHIN) -> DiscardPolicy:
    """The discard policy: Hard's, and the chance to win once either player is within `within` points."""

    def discard(view: CribbageView, rng: random.Random) -> Split:
        return expert_discard(view, rng, within)

    return discard


# --- the play ---


class WinSolver:
    """The chance to win over the rest of a play where both hands are known (the bot's best; the
    opponent's as Hard's look-ahead takes it, `peg.OPPONENT_SEES`), then `leaf` once the play is over.

    A position: the ranks each holds (sorted), the ranks since the last reset, their count, who moves
    (0: the bot), whether the player not to move has said Go, and the points each still needs."""

    def __init__(self, leaf: Leaf) -> None:
        self.leaf = leaf
        self.memo: dict[tuple[Ranks, Ranks, Ranks, int, int, bool, Needs], float] = {}

    def solve(self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, needs: Needs) -> float:
        key = (mine, theirs, pile, count, mover, go, needs)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._solve(mine, theirs, pile, count, mover, go, needs)
        return known

    def _solve(self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, needs: Needs) -> float:
        best = mover_value(self.play, mine, theirs, pile, count, mover, go, needs)  # Hard's choice of card
        if best is not None:
            return best
        if not mine and not theirs:
            return self.leaf(*needs)
        if go:  # neither can lay: the mover laid the last card and pegs the go
            pegged = _peg(mover, LAST_CARD, needs)
            if isinstance(pegged, float):
                return pegged
            return self.solve(mine, theirs, (), 0, 1 - mover, False, pegged)
        return self.solve(mine, theirs, pile, count, 1 - mover, True, needs)

    def play(
        self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, mover: int, go: bool, rank: int, needs: Needs
    ) -> float:
        seq, count, points, mine, theirs, over = lay(mine, theirs, pile, count, mover, rank)
        pegged = _peg(mover, points, needs)
        if isinstance(pegged, float):
            return pegged
        if over:
            return self.leaf(*pegged)
        if count == MAX_COUNT:
            return self.solve(mine, theirs, (), 0, 1 - mover, False, pegged)
        return self.solve(mine, theirs, seq, count, mover if go else 1 - mover, go, pegged)


def _peg(mover: int, points: int, needs: Needs) -> Needs | float:
    """The needs after `mover` pegs `points`, or the game's result (1.0 the bot won, 0.0 it lost)."""
    if not points:
        return needs
    left = needs[mover] - points
    if left <= 0:
        return 1.0 if mover == 0 else 0.0
    return (left, needs[1]) if mover == 0 else (needs[0], left)


def show_leaf(view: CribbageView, theirs_four: Ranks, odds: WinOdds, crib: Dist | None = None) -> Leaf:
    """The chance to win once the play is over: the pone counts first, then the dealer's hand and crib,
    then the next deal. The bot's show is exact; the opponent's is the guessed four's (ranks only); the
    crib's as measured for the two cards laid (`crib_dist`) unless `crib` is given."""
    assert view.starter is not None
    mine = score_show(view.kept, view.starter, False).total
    theirs = rank_points((*theirs_four, view.starter.rank))
    dealer = view.dealer == view.player
    if crib is None:
        crib = crib_dist((view.discards[0], view.discards[1]), dealer)
    memo: dict[Needs, float] = {}

    def leaf(a: int, b: int) -> float:
        known = memo.get((a, b))
        if known is not None:
            return known
        if dealer:
            if theirs >= b:
                known = 0.0
            else:
                known = sum(
                    p * (1.0 if mine + c >= a else 1.0 - odds.dealer_wins(b - theirs, a - mine - c)) for c, p in crib
                )
        elif mine >= a:
            known = 1.0
        else:
            known = sum(p * odds.dealer_wins(a - mine, b - theirs - c) for c, p in crib if theirs + c < b)
        memo[(a, b)] = known
        return known

    return leaf


#: What judges the end of a line of the play: the view, the opponent's four (guessed) and the odds.
LeafMaker = Callable[[CribbageView, Ranks, WinOdds], Leaf]


def win_card(view: CribbageView, guesses: Sequence[Ranks], odds: WinOdds, leaf: LeafMaker = show_leaf) -> Card:
    """The card with the best mean chance to win over the guesses at the opponent's hand, each line's end
    judged by `leaf`; among equals the highest."""
    count = view.count
    fits = fitting(view.hand, count)
    by_rank: dict[int, Card] = {}
    for c in sorted(fits, key=lambda c: c.suit):
        by_rank.setdefault(c.rank, c)
    if len(by_rank) == 1:
        return next(iter(by_rank.values()))
    mine = tuple(sorted(c.rank for c in view.hand))
    pile = tuple(c.rank for c in view.pile)
    laid = tuple(c.rank for p, c in view.played if p == view.opponent)
    go = opponent_gone(view)
    needs = needs_of(view)
    totals = dict.fromkeys(by_rank, 0.0)
    solvers: dict[Ranks, WinSolver] = {}
    for theirs in guesses:
        four = tuple(sorted((*laid, *theirs)))
        solver = solvers.get(four)
        if solver is None:
            solver = solvers[four] = WinSolver(leaf(view, four, odds))
        for r in by_rank:
            totals[r] += solver.play(mine, theirs, pile, count, 0, go, r, needs)
    best = max(by_rank, key=lambda r: (totals[r], value(r), r))
    return by_rank[best]


Guesser = Callable[[CribbageView, int, random.Random], list[Ranks]]


def expert_play(
    guesses: int = EXPERT_GUESSES,
    within: int = WITHIN,
    guesser: Guesser = table_guess_hands,
    leaf: LeafMaker = show_leaf,
) -> PlayPolicy:
    """The play policy: `guesses` guesses at the opponent's hand per card, made by `guesser`, weighed by
    Hard's look-ahead far from the end and by the chance to win near it (within `within`, each line's end
    judged by `leaf`); in the variants, Hard's. With Hard's guesser and budget it chooses as Hard far from
    the end. `guesser` and `leaf` are where the play meets the unseen cards: a benchmark's seer
    (`benchmarks/cribbage/bench_seer.py`) is told the truth there, a bot of the ladder never is."""
    if guesses < 1:
        raise ValueError(f"the Expert bot needs at least one guess at the opponent's hand, not {guesses}")

    def play(view: CribbageView, rng: random.Random) -> Card:
        if view.options.variant is not Variant.SIX_CARD or view.starter is None:
            return hard_play(view, rng)
        hands = guesser(view, guesses, rng)
        if not near_the_end(view, within):  # Hard's look-ahead, over these guesses
            return lookahead_card(view.hand, view.pile, opponent_gone(view), hands, needs_near_the_end(view))
        return win_card(view, hands, default_win_odds(), leaf)

    return play


def expert_bot(
    manners: CountingManners = EXACT,
    guesses: int = EXPERT_GUESSES,
    within: int = WITHIN,
    guesser: Guesser = table_guess_hands,
) -> CribbageBot:
    """The Expert bot; its budget: `guesses` guesses at the opponent's hand, made by `guesser`, per card it
    lays; it plays to win within `within` points of the target."""
    return PolicyBot("expert", win_discard(within), expert_play(guesses, within, guesser), manners)
