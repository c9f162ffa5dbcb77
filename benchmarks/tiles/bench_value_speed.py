"""What one learned value of a position costs: `python benchmarks/tiles/bench_value_speed.py` prints milliseconds a
position for the features and for the whole value, on the compiled core and on the plain-Python
reference (`reference_position_features`, which is what `CRIBTILES_CORE=python` runs), over the positions
of fresh self-play games, each on a board object with nothing cached on it (as a continuation's last
position is). It checks on the way that both paths give the same features to the bit.

`--rev REV` also times commit REV's value beside this tree's (its compiled core built in a scratch
folder), each in a fresh interpreter that imports only that tree (`python -S`), in turns, twice.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.simulate import policy_turn
from cribtiles.bot.tiles.value import default_value, spread
from cribtiles.bot.tiles.value_features import position_features, reference_position_features
from cribtiles.rules import Board, new_game
from cribtiles.rules.game import PlayerView
from cribtiles.rules.movegen import CORE, CORE_DESCRIPTION

ROOT = Path(__file__).resolve().parents[2]
#: What `--rev` runs in each tree: its features and its value on the same positions, in words.
WORKER = """
import sys, time, statistics
from dataclasses import replace
from pathlib import Path
from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.simulate import policy_turn
from cribtiles.bot.tiles.value import default_value
from cribtiles.bot.tiles.value_features import position_features
from cribtiles.rules import Board, new_game
from cribtiles.rules.movegen import CORE
seed, games, repeat = map(int, sys.argv[1:4])
leave, model = default_leave(), default_value()
views = []
for s in range(seed, seed + games):
    state = new_game(2, seed=s)
    while not state.is_over:
        views.append(state.view(state.current))
        state = policy_turn(state, leave)
def timed(fn):
    best = [float("inf")] * len(views)
    for _ in range(repeat):
        for i, v in enumerate(views):
            fresh = replace(v, board=Board(v.board.cells))
            t = time.perf_counter()
            fn(fresh)
            best[i] = min(best[i], (time.perf_counter() - t) * 1000)
    return statistics.median(best), statistics.fmean(best)
f = timed(lambda v: position_features(v, leave))
w = timed(lambda v: model(v, leave))
print(f"{CORE} core, {len(views)} positions: features median {f[0]:.3f} ms mean {f[1]:.3f} ms;"
      f" value median {w[0]:.3f} ms mean {w[1]:.3f} ms")
"""


def side_by_side(rev: str, seed: int, games: int, repeat: int) -> None:
    """REV's value and this tree's, each in its own interpreter (which finds only that tree: `-c` puts
    its folder first on the path, `-S` keeps out the editable install), in turns."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from trees import old_tree

    with tempfile.TemporaryDirectory() as scratch:
        print(f"{rev}: {old_tree(rev, Path(scratch), 'bench_value_speed')}")
        for _ in range(2):
            for name, tree in ((rev, scratch), ("this tree", str(ROOT))):
                env = {**os.environ, "PYTHONPATH": tree}
                env.pop("CRIBTILES_CORE", None)
                run = [sys.executable, "-S", "-c", WORKER, str(seed), str(games), str(repeat)]
                done = subprocess.run(run, cwd=tree, env=env, capture_output=True, text=True, check=False)
                said = done.stdout.strip() or done.stderr.strip().splitlines()[-1]
                print(f"{name:<10} {said}")


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
    p95 = harness.percentile(times, 0.95)
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
    ap.add_argument("--rev", help="also time this commit's value beside this tree's (git rev)")
    args = ap.parse_args()
    if args.rev:
        side_by_side(args.rev, args.seed, args.games, args.repeat)
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
    harness.report(
        __file__,
        positions=len(views),
        core=CORE_DESCRIPTION,
        features_agree=[same, len(views)],
        ms={name: harness.summary(times) for name, times in figures.items()},
    )
    return 0 if same == len(views) else 1


if __name__ == "__main__":
    raise SystemExit(main())
