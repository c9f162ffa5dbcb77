"""The cribbage coach's speed: `python benchmarks/cribbage/bench_advisor.py` prints the milliseconds per
discard advice (15 discards, each hand counted over its 46 starters by the engine's show) and per pegging
hint (Hard's look-ahead), median and worst over seeded deals. `--deals N` for more or fewer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

from cribtiles.bot.cribbage.advisor import advise_discard, peg_hint
from cribtiles.cribbage.cards import DECK
from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.moves import PlayCard
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.view import CribbageView


def play_views(games: int) -> list[CribbageView]:
    """Views with a card to lay, from seeded games where each player lays its first legal card."""
    out: list[CribbageView] = []
    for seed in range(games):
        state = new_game(seed)
        while not state.is_over and state.deal_number < 4:
            player = state.current_player
            assert player is not None
            view = state.view(player)
            if view.phase is Phase.PLAY and any(isinstance(m, PlayCard) for m in view.legal):
                out.append(view)
            state = state.apply(view.legal[0])
    return out


def timed(label: str, calls: list[float]) -> dict[str, float | int]:
    """Print the median and worst of `calls` (seconds) in milliseconds; returns their figures in ms."""
    ms = sorted(t * 1000 for t in calls)
    print(f"{label}: median {statistics.median(ms):.2f} ms, worst {ms[-1]:.2f} ms over {len(ms)}")
    return harness.summary(ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(32)
    advise_discard(DECK[:6], dealer=True)  # the crib table read once, outside the figures
    times = []
    for i in range(args.deals):
        six = rng.sample(DECK, 6)
        start = time.perf_counter()
        advise_discard(six, dealer=i % 2 == 0)
        times.append(time.perf_counter() - start)
    discard = timed("discard advice", times)
    hints = []
    for view in play_views(args.games):
        start = time.perf_counter()
        peg_hint(view)
        hints.append(time.perf_counter() - start)
    harness.report(
        __file__, deals=args.deals, games=args.games, discard_ms=discard, hint_ms=timed("pegging hint", hints)
    )


if __name__ == "__main__":
    main()
