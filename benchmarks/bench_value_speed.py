"""What one learned value of a position costs: `python benchmarks/bench_value_speed.py` prints milliseconds a
position for the features and for the whole value, on the compiled core and on the plain-Python
reference (`reference_position_features`, which is what `CRIBTILES_CORE=python` runs), over the positions
of fresh self-play games, each on a board object with nothing cached on it (as a continuation's last
position is). It checks on the way that both paths give the same features to the bit.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.simulate import policy_turn
from cribtiles.bot.tiles.value import default_value, spread
from cribtiles.bot.tiles.value_features import position_features, reference_position_features
from cribtiles.rules import Board, new_game
from cribtiles.rules.game import PlayerView
from cribtiles.rules.movegen import CORE, CORE_DESCRIPTION


def positions(seed: int, games: int) -> list[PlayerView]:
    """The mover's view before every turn of `games` two-player games of the continuation policy."""
    leave = default_leave()
    out = []
    for s in range(seed, seed + games):
        state = new_game(2, seed=s)
        while not state.is_over:
            out.append(state.view(state.current))
            state = policy_turn(state, leave)
    return out


def timed(fn: Callable[[PlayerView], object], views: list[PlayerView], repeat: int) -> list[float]:
    """Milliseconds of each call, the best of `repeat` rounds for each position, each on a fresh board."""
    best = [float("inf")] * len(views)
    for _ in range(repeat):
        for i, view in enumerate(views):
            fresh = replace(view, board=Board(view.board.cells))
            t = time.perf_counter()
            fn(fresh)
            best[i] = min(best[i], (time.perf_counter() - t) * 1000)
    return best


def line(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    mean = statistics.fmean(times)
    return (
        f"{name:<34} median {statistics.median(times):6.3f} ms  mean {mean:6.3f} ms  p95 {p95:6.3f} ms"
        f"  ({1000 / mean:,.0f} a second)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=20, help="self-play games whose positions are timed")
    ap.add_argument("--seed", type=int, default=1_000_000, help="their first seed")
    ap.add_argument("--repeat", type=int, default=3, help="rounds; each position's best round counts")
    args = ap.parse_args()
    model = default_value()
    if model is None:
        print("no learned value is shipped (cribtiles/bot/tiles/data/value.json)")
        return 1
    leave = default_leave()
    views = positions(args.seed, args.games)
    print(f"{len(views)} positions of {args.games} games from seed {args.seed}; the core in use: {CORE_DESCRIPTION}")
    same = sum(position_features(v, leave) == reference_position_features(v, leave) for v in views)
    print(f"the features agree to the bit on {same} of {len(views)} positions")

    def reference_value(view: PlayerView) -> float:
        return spread(view.scores, view.player) + model.remaining(reference_position_features(view, leave))

    rows: list[tuple[str, Callable[[PlayerView], object]]] = [
        ("features, reference (plain Python)", lambda v: reference_position_features(v, leave)),
        ("value, reference (plain Python)", reference_value),
    ]
    if CORE == "compiled":
        rows = [
            ("features, compiled core", lambda v: position_features(v, leave)),
            ("value, compiled core", lambda v: model(v, leave)),
            *rows,
        ]
    figures = {}
    for name, fn in rows:
        figures[name] = timed(fn, views, args.repeat)
        print(line(name, figures[name]))
    if CORE == "compiled":
        ratio = statistics.fmean(figures["value, reference (plain Python)"]) / statistics.fmean(
            figures["value, compiled core"]
        )
        print(f"the value on the compiled core: {ratio:.0f} times as fast as the reference")
    return 0 if same == len(views) else 1


if __name__ == "__main__":
    raise SystemExit(main())
