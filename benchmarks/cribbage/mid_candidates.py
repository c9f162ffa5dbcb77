"""Candidate mid-game changes to Hard for `bench_mid.py`: measurement only, not a level."""

from __future__ import annotations

import json
import math
import multiprocessing
import random
from functools import lru_cache
from itertools import combinations_with_replacement
from math import exp
from pathlib import Path

from cribtiles.bot.cribbage.bots import (
    PEG_GUESSES,
    CribbageBot,
    PolicyBot,
    hard_discard,
    hard_play,
    needs_near_the_end,
    own_crib,
)
from cribtiles.bot.cribbage.crib import default_table
from cribtiles.bot.cribbage.discard import JACK, Split, best_split, hand_sums, rank_points, unseen_after
from cribtiles.bot.cribbage.guess import guess_hands, opponent_gone, table_guess_hands
from cribtiles.bot.cribbage.peg import Solver, lookahead_card
from cribtiles.cribbage.cards import DECK, Card
from cribtiles.cribbage.view import CribbageView

Ranks = tuple[int, ...]
PEG_SAMPLES = 48


PEG_TABLE = Path("/tmp/expertmid_peg_table.json")


@lru_cache(maxsize=1)
def peg_table() -> dict[tuple[Ranks, bool], float]:
    """Every kept four's `peg_value`, made once (both cores) and kept in `PEG_TABLE`."""
    if not PEG_TABLE.exists():
        keys = [
            (k, pone)
            for k in combinations_with_replacement(range(1, 14), 4)
            if max(k.count(r) for r in k) <= 4
            for pone in (False, True)
        ]
        with multiprocessing.Pool(2) as pool:
            values = pool.starmap(peg_value, keys, chunksize=16)
        PEG_TABLE.write_text(json.dumps([[list(k), pone, v] for (k, pone), v in zip(keys, values, strict=True)]))
    return {(tuple(k), pone): v for k, pone, v in json.loads(PEG_TABLE.read_text())}


def peg_value(kept: Ranks, pone: bool) -> float:
    """The kept four's mean net pegging (own minus opponent's) over `PEG_SAMPLES` opponent fours drawn at
    random from the deck less the kept ranks (fixed by the pattern), both playing as Hard's solver does."""
    rng = random.Random(f"peg/{kept}/{pone}")
    pool = list(DECK)
    for r in kept:
        pool.remove(next(c for c in pool if c.rank == r))
    solver = Solver()
    total = 0.0
    for _ in range(PEG_SAMPLES):
        theirs = tuple(sorted(c.rank for c in rng.sample(pool, 4)))
        total += solver.solve(kept, theirs, (), 0, 0 if pone else 1, False)
    return total / PEG_SAMPLES


def peg_discard(w: float):  # type: ignore[no-untyped-def]
    def discard(view: CribbageView, rng: random.Random) -> Split:
        six = view.hand
        n = len(unseen_after(six))
        worth = default_table().worth(own_crib(view))
        pone = view.dealer != view.player
        table = peg_table()
        best: tuple[float, Split] | None = None
        for s, total in hand_sums(six):
            v = total / n + worth(*s.discarded) + w * table[(tuple(sorted(c.rank for c in s.kept)), pone)]
            if best is None or v > best[0]:
                best = (v, s)
        assert best is not None
        return best[1]

    return discard


CRIB_SAMPLES = 300


def crib_points(cards: tuple[Card, ...], starter: Card) -> int:
    points = rank_points((*(c.rank for c in cards), starter.rank))
    suit = cards[0].suit
    if all(c.suit == suit for c in cards) and starter.suit == suit:
        points += 5
    points += sum(1 for c in cards if c.rank == JACK and c.suit == starter.suit)
    return points


def crib_discard(view: CribbageView, rng: random.Random) -> Split:
    """Hard's discard with the crib sampled: the opponent's two (at random from the unseen) and the starter,
    the same samples for every split."""
    six = view.hand
    unseen = list(unseen_after(six))
    n = len(unseen)
    sign = 1.0 if own_crib(view) else -1.0
    local = random.Random(f"crib/{sorted(six)}")
    samples = [tuple(local.sample(unseen, 3)) for _ in range(CRIB_SAMPLES)]
    best: tuple[float, Split] | None = None
    for s, total in hand_sums(six):
        a, b = s.discarded
        crib = sum(crib_points((a, b, x, y), st) for x, y, st in samples) / CRIB_SAMPLES
        v = total / n + sign * crib
        if best is None or v > best[0]:
            best = (v, s)
    assert best is not None
    return best[1]


def guesses_play(guesses: int):  # type: ignore[no-untyped-def]
    def play(view: CribbageView, rng: random.Random) -> Card:
        if len(view.names) > 2:
            return hard_play(view, rng)
        hands = guess_hands(view, guesses, rng)
        once = view.options.variant.play_once
        return lookahead_card(view.hand, view.pile, opponent_gone(view), hands, needs_near_the_end(view), once)

    return play


def hard_like_play(guesses: int):  # type: ignore[no-untyped-def]
    def play(view: CribbageView, rng: random.Random) -> Card:
        hands = table_guess_hands(view, guesses, rng)
        return lookahead_card(view.hand, view.pile, opponent_gone(view), hands, needs_near_the_end(view))

    return play


#: The hands each player holds in the deal being played: set by the bench before every choice, read only
#: by the `seer`, a yardstick and not a bot (it sees the opponent's cards).
TRUE_HANDS: list[tuple[Card, ...]] = []


def seer_play(view: CribbageView, rng: random.Random) -> Card:
    """Hard's look-ahead given the opponent's true hand as its one guess: how much the play could gain
    from knowing the opponent's cards, a bound on what better guessing can buy."""
    theirs = tuple(sorted(c.rank for c in TRUE_HANDS[view.opponent]))
    return lookahead_card(view.hand, view.pile, opponent_gone(view), [theirs], needs_near_the_end(view))


def make_candidate(name: str) -> CribbageBot:
    kind, _, arg = name.partition(":")
    if kind == "hard":
        return PolicyBot("hard", hard_discard, hard_play)
    if kind == "peg":
        return PolicyBot(name, peg_discard(float(arg)), hard_play)
    if kind == "crib":
        return PolicyBot(name, crib_discard, hard_play)
    if kind == "guesses":
        return PolicyBot(name, hard_discard, guesses_play(int(arg or PEG_GUESSES)))
    if kind == "seer":
        return PolicyBot(name, hard_discard, seer_play)
    if kind == "filter":
        parts = arg.split(":")
        g, d, b, k = (*parts, *["48", "96", "1", "0"][len(parts) :])
        return PolicyBot(name, hard_discard, filter_play(int(g), int(d), float(b), int(k)))
    if kind == "sees":
        return PolicyBot(name, hard_discard, sees_play(48, float(arg)))
    if kind == "hardlike":
        return PolicyBot(name, hard_discard, hard_like_play(int(arg or PEG_GUESSES)))
    raise ValueError(f"no candidate {name!r}")


_ = best_split


def stats(xs: list[float]) -> tuple[float, float]:
    """The mean of `xs` and its standard error (the benches' paired differences)."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


# --- the play's guesses weighed by what the opponent laid (a particle filter) ---

_LIKELY = Solver()


def past_choices(view: CribbageView) -> list[tuple[Ranks, int, bool, Ranks, Ranks, int]]:
    """Each card the opponent laid this deal, as (pile ranks before it, count, whether the bot had said go,
    opponent's cards laid from then on, bot's cards laid from then on, the rank laid)."""
    out = []
    pile: list[int] = []
    count = 0
    previous: int | None = None
    played = view.played
    for i, (player, card) in enumerate(played):
        if count + card.value > 31:
            pile, count, previous = [], 0, None
        if player == view.opponent:
            theirs_after = tuple(c.rank for p, c in played[i:] if p == view.opponent)
            mine_after = tuple(c.rank for p, c in played[i:] if p == view.player)
            out.append((tuple(pile), count, previous == view.opponent, theirs_after, mine_after, card.rank))
        pile.append(card.rank)
        count += card.value
        previous = player
        if count == 31:
            pile, count, previous = [], 0, None
    return out


def likelihood(held: Ranks, mine_now: Ranks, choices, beta: float, floor: float, views=None) -> float:  # type: ignore[no-untyped-def]
    """How likely an opponent holding `held` now, playing as Hard's solver over the guesses `views` of the
    bot's hand at each of their choices (None: the bot's true hand), was to lay what they laid. beta < 0:
    the argmax right a share -beta of the time."""
    global _LIKELY
    if len(_LIKELY.memo) > 400_000:
        _LIKELY = Solver()
    p = 1.0
    for k, (pile, count, go, theirs_after, mine_after, rank) in enumerate(choices):
        theirs = tuple(sorted((*held, *theirs_after)))
        options = sorted({r for r in theirs if count + min(r, 10) <= 31})
        if len(options) < 2:
            continue
        hands = [tuple(sorted((*mine_now, *mine_after)))] if views is None else views[k]
        hands = [m for m in hands if all((*pile, *theirs, *m).count(r) <= 4 for r in set(m))]
        if not hands:
            continue
        vals = {r: sum(_LIKELY.play(theirs, m, pile, count, 0, go, r) for m in hands) / len(hands) for r in options}
        if beta < 0:
            best = max(options, key=lambda r: (vals[r], min(r, 10), r))
            p *= -beta if best == rank else (1 + beta) / (len(options) - 1)
            continue
        top = max(vals.values())
        z = sum(exp(beta * (v - top)) for v in vals.values())
        p *= (1 - floor) * exp(beta * (vals[rank] - top)) / z + floor / len(options)
    return p


def their_views(view: CribbageView, k: int, rng: random.Random) -> list[list[Ranks]]:
    """For each card the opponent laid this deal, `k` guesses at the bot's hand then, drawn from the bot's
    unseen cards, its hand and every card it has laid this deal (as measured: a little looser than what
    the opponent could not see, which leaves out the bot's cards laid before that moment)."""
    out = []
    pool = [*view.unseen, *view.hand, *(c for p, c in view.played if p == view.player)]
    for i, (player, _) in enumerate(view.played):
        if player != view.opponent:
            continue
        size = len(view.hand) + sum(1 for p, _ in view.played[i:] if p == view.player)
        out.append([tuple(sorted(c.rank for c in rng.sample(pool, size))) for _ in range(k)])
    return out


def filter_play(guesses: int, drawn: int, beta: float, k: int = 0, floor: float = 0.02):  # type: ignore[no-untyped-def]
    """The Expert's play over `guesses` hands resampled from `drawn` crib-table guesses, each weighed by how
    likely an opponent holding it was to lay what they laid (`likelihood`: Hard's solver over `k` guesses at
    the bot's hand, or its true hand when `k` is 0; softmax of temperature 1/`beta`, or beta < 0 an argmax
    right a share -beta of the time): a particle filter on the play."""

    def play(view: CribbageView, rng: random.Random) -> Card:
        choices = past_choices(view)
        if not choices:
            hands = table_guess_hands(view, guesses, rng)
            return lookahead_card(view.hand, view.pile, opponent_gone(view), hands, needs_near_the_end(view))
        pool = table_guess_hands(view, drawn, rng)
        mine_now = tuple(c.rank for c in view.hand)
        views = their_views(view, k, random.Random(rng.random())) if k else None
        weights = [likelihood(h, mine_now, choices, beta, floor, views) for h in pool]
        total = sum(weights)
        # systematic resampling: `guesses` hands, each as often as its weight's share
        step = total / guesses
        u = rng.random() * step
        hands, acc, i = [], weights[0], 0
        for j in range(guesses):
            t = u + j * step
            while acc < t and i < len(pool) - 1:
                i += 1
                acc += weights[i]
            hands.append(pool[i])
        return lookahead_card(view.hand, view.pile, opponent_gone(view), hands, needs_near_the_end(view))

    return play


def sees_play(guesses: int, sees: float):  # type: ignore[no-untyped-def]
    """The Expert's play (crib-table guesses) with its look-ahead taking the opponent to play its best a
    share `sees` of the time (Hard: `peg.OPPONENT_SEES`), Hard's own look-ahead unchanged."""
    from cribtiles.bot.cribbage import peg as peg_module

    def play(view: CribbageView, rng: random.Random) -> Card:
        hands = table_guess_hands(view, guesses, rng)
        kept = peg_module.OPPONENT_SEES
        peg_module.OPPONENT_SEES = sees
        try:
            return lookahead_card(view.hand, view.pile, opponent_gone(view), hands, needs_near_the_end(view))
        finally:
            peg_module.OPPONENT_SEES = kept

    return play
