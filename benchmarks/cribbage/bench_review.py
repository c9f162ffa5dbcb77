"""The cribbage review's speed: `python benchmarks/cribbage/bench_review.py` plays seeded games (Hard
against Medium) and prints the seconds each whole review takes (every discard and card laid of both
players), median and worst, and the milliseconds per discard and per card laid. `--games N` for more or
fewer, `--guesses N` for the look-ahead's guesses a card (the window's default otherwise).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

from cribtiles.bot.cribbage.advisor import advise_discard
from cribtiles.bot.cribbage.bots import hard_bot, medium_bot
from cribtiles.cribbage.cards import DECK
from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.table.cribbage.review import DEFAULT_GUESSES, DiscardReview, review_game


def played(seed: int) -> CribbageState:
    state, bots, rng = new_game(seed), (hard_bot(), medium_bot()), random.Random(seed)
    while not state.is_over:
        p = state.current_player
        assert p is not None
        state = state.apply(bots[p].choose(state.view(p), rng))
    return state


def _stamp(stamps: list[float], done: int, total: int) -> None:
    stamps.append(time.perf_counter())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--guesses", type=int, default=DEFAULT_GUESSES)
    args = parser.parse_args()
    advise_discard(DECK[:6], dealer=True)  # the crib table read once, outside the figures
    games = [played(seed) for seed in range(args.games)]
    seconds: list[float] = []
    discards: list[float] = []
    plays: list[float] = []
    for state in games:
        stamps: list[float] = []
        start = time.perf_counter()
        review = review_game(state, random.Random(0), args.guesses, functools.partial(_stamp, stamps))
        seconds.append(time.perf_counter() - start)
        for d, (a, b) in zip(review.decisions, itertools.pairwise(stamps), strict=False):
            (discards if isinstance(d, DiscardReview) else plays).append(b - a)
    print(
        f"whole review ({args.guesses} guesses a card): median {statistics.median(seconds):.2f} s, "
        f"worst {max(seconds):.2f} s a game over {len(games)} games ({len(discards) + len(plays)} decisions)"
    )
    discard_ms, play_ms = statistics.median(discards) * 1000, statistics.median(plays) * 1000
    print(f"a discard: median {discard_ms:.1f} ms; a card laid: median {play_ms:.1f} ms")
    harness.report(
        __file__,
        games=args.games,
        guesses=args.guesses,
        seconds_a_review=harness.summary(seconds),
        discard_ms=harness.summary(discards, 1000),
        card_laid_ms=harness.summary(plays, 1000),
    )


if __name__ == "__main__":
    main()
