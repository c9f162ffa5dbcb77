"""How well the learned value predicts a game's outcome: `python benchmarks/tiles/bench_value_fit.py` prints, on
positions of fresh self-play games (seeds the training never saw), the shipped value's error and
correlation against the final spread, beside today's judgement (the spread now plus the rack's value as
Hard weighs it) on the same positions, overall and by tiles left in the bag; then what one position
costs (its features, and the value), on the move generator in use (`CRIBTILES_CORE=python` for the
pure-Python one).

`--train-games N` also fits, on N games from the training seeds, the value with and without the
features that read the board, and shows both on the same positions: what the board adds, at equal data.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness
sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness
from bench_value_speed import positions

from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.value import Value, default_value
from cribtiles.bot.tiles.value_features import BOARD_FEATURES, FEATURE_NAMES, position_features
from cribtiles.bot.train_value import fit, print_report, report, self_play, split
from cribtiles.rules.movegen import CORE_DESCRIPTION

FIT_COLUMNS = ("positions", "rmse", "corr", "corr_rest")


def cost(games: int, seed: int, model: Value) -> tuple[float, float, int]:
    """Median milliseconds a position for its features and for the whole value (features and sum),
    over the positions of `games` games, each board fresh (no tables cached on it)."""
    leave = default_leave()
    views = positions(seed, games)
    feats, whole = [], []
    for view in views:
        view.board.derived.clear()
        t0 = time.perf_counter()
        position_features(view, leave)
        t1 = time.perf_counter()
        view.board.derived.clear()
        model(view, leave)
        t2 = time.perf_counter()
        feats.append(t1 - t0)
        whole.append(t2 - t1)
    return statistics.median(feats) * 1000, statistics.median(whole) * 1000, len(views)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000, help="fresh games whose positions are measured")
    ap.add_argument("--seed", type=int, default=1_000_000, help="their first seed (training starts at 1)")
    ap.add_argument("--train-games", type=int, default=0, help="also fit with and without the board on so many")
    ap.add_argument("--train-seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    model = default_value()
    if model is None:
        print("no learned value is shipped (cribtiles/bot/tiles/data/value.json)")
        return 1
    t0 = time.perf_counter()
    held = self_play(args.seed, args.games, jobs=args.jobs)
    models: dict[str, Value] = {"learned value": model}
    if args.train_games:
        train, _ = split(self_play(args.train_seed, args.train_games, jobs=args.jobs), args.train_seed)
        plain = [f for f in FEATURE_NAMES if f not in BOARD_FEATURES]
        models = {
            f"no board, {args.train_games} g": fit(train, plain),
            f"board, {args.train_games} g": fit(train, FEATURE_NAMES),
            "learned value": model,
        }
    print(f"{len(held)} positions of {args.games} games from seed {args.seed} ({time.perf_counter() - t0:.0f} s)")
    print("RMSE and corr: against the final spread; corr rest: against the spread still to come")
    table = report(held, models)
    print_report(table)
    features_ms, value_ms, n = cost(min(args.games, 20), args.seed, model)
    print(f"one position on the {CORE_DESCRIPTION}, median of {n}:", end=" ")
    print(f"features {features_ms:.3f} ms, value {value_ms:.3f} ms")
    harness.report(
        __file__,
        games=args.games,
        seed=args.seed,
        positions=len(held),
        fit={  # per phase of the bag, each judge's positions, RMSE, correlation and correlation of the rest
            phase: {name: dict(zip(FIT_COLUMNS, row, strict=True)) for name, row in judges.items()}
            for phase, judges in table.items()
        },
        core=CORE_DESCRIPTION,
        ms_a_position={"features": features_ms, "value": value_ms, "n": n},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
