"""How often the coach says what a play opens, and what it costs: `python benchmarks/tiles/bench_opens.py`
plays `--games` games of Hard's static choice against itself (the hint's move each turn, seeds from
`--seed`), and for every play prints how many got a sentence (`opens.opens_note`), of which kinds
(opens, closes, takes) and levels (10, 20), the median milliseconds a sentence costs, and the median
milliseconds of the learned value of the position a play leaves (`opens.value_after`, 8 guesses), on
the move generator in use (`CRIBTILES_CORE=python` for the pure-Python one).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

from cribtiles.bot.opens import opening_of, value_after
from cribtiles.bot.tiles.equity import static_choice
from cribtiles.bot.tiles.leave import default_leave
from cribtiles.rules import new_game
from cribtiles.rules.movegen import CORE_DESCRIPTION
from cribtiles.rules.moves import Play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    leave = default_leave()
    plays = 0
    kinds: Counter[str] = Counter()
    note_ms: list[float] = []
    value_ms: list[float] = []
    for seed in range(args.seed, args.seed + args.games):
        state = new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            view = state.view(state.current)
            move = static_choice(view, rng, leave)
            if isinstance(move, Play):
                plays += 1
                t = time.perf_counter()
                found = opening_of(view, move)
                note_ms.append((time.perf_counter() - t) * 1000)
                if found is not None:
                    kinds[f"{found.what.split()[0].lower()} {found.level}"] += 1
                t = time.perf_counter()
                value_after(view, move, random.Random(seed))
                value_ms.append((time.perf_counter() - t) * 1000)
            state = state.apply(move)
    said = sum(kinds.values())
    last = args.seed + args.games - 1
    print(f"{args.games} games of Hard's static choice (seeds {args.seed}-{last}), {CORE_DESCRIPTION}")
    print(f"plays {plays}, with a sentence {said} ({said / max(1, plays):.0%})")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind:<10} {n}")
    print(f"sentence: median {statistics.median(note_ms):.2f} ms a play, mean {statistics.fmean(note_ms):.2f} ms")
    print(f"value after a play (8 guesses): median {statistics.median(value_ms):.1f} ms")
    harness.report(
        __file__,
        games=args.games,
        seed=args.seed,
        core=CORE_DESCRIPTION,
        plays=plays,
        with_a_sentence=said,
        kinds=dict(sorted(kinds.items())),
        sentence_ms=harness.summary(note_ms),
        value_after_ms=harness.summary(value_ms),
    )


if __name__ == "__main__":
    main()
