"""Learn the leave table by self-play: `python -m cribtiles.bot.tiles.learn_leaves --games 3000 --jobs 2`.

Bots play seeded games against each other (greedy plays with a little exploration, so that unusual
leaves are seen too). Each turn gives one sample: the tiles the player kept, and how many points
that player made on their next turn. A ridge regression on one value per kind of tile plus one per
pair of kinds turns the samples into a value for every leave of 0-4 tiles, measured against the
average next turn. The table is written as JSON into the package, where the bots read it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations_with_replacement
from pathlib import Path

from cribtiles.rules.game import GameState, new_game
from cribtiles.rules.moves import Play

from .equity import kept_tiles
from .exchange import stuck_move
from .leave import KINDS, MAX_LEAVE, LeaveTable, leave_key

Sample = tuple[tuple[int, ...], int]  # (kept kinds, points on the next turn)
_INDEX = {k: i for i, k in enumerate(KINDS)}
_PAIRS = {p: i for i, p in enumerate(combinations_with_replacement(KINDS, 2))}
N_FEATURES = len(KINDS) + len(_PAIRS)


def features(kept: Sequence[int]) -> list[int]:
    """Indices of the active features of a leave: each tile's kind, each pair of tiles' kinds."""
    ks = sorted(kept)
    out = [_INDEX[k] for k in ks]
    out += [len(KINDS) + _PAIRS[(ks[i], ks[j])] for i in range(len(ks)) for j in range(i + 1, len(ks))]
    return out


def play_game(seed: int, table: LeaveTable, explore: float = 0.1) -> list[Sample]:
    """One self-play game; returns a sample per play that had a next turn."""
    rng = random.Random(seed)
    state: GameState = new_game(2, seed=seed)
    pending: dict[int, tuple[int, ...]] = {}
    samples: list[Sample] = []
    while not state.is_over:
        p = state.current
        view = state.view(p)
        plays = view.scorer.scored_plays(view.board, view.rack)
        points = 0
        kept = pending.pop(p) if p in pending else None
        if plays:
            if rng.random() < explore:
                move: Play = rng.choice(plays)[0]
            else:
                move = max(plays, key=lambda ps: ps[1] + table(kept_tiles(view.rack, ps[0])))[0]
            points = next(s for m, s in plays if m == move)
            pending[p] = tuple(t.rack_form.rank for t in kept_tiles(view.rack, move))
            state = state.apply(move)
        else:
            state = state.apply(stuck_move(view, table))
        if kept is not None:
            samples.append((kept, points))
    return samples


def _worker(args: tuple[int, int, dict[str, float]]) -> list[Sample]:
    first, count, values = args
    table = LeaveTable(values)
    out: list[Sample] = []
    for seed in range(first, first + count):
        out.extend(play_game(seed, table))
    return out


def fit(samples: Sequence[Sample], ridge: float = 30.0) -> dict[str, float]:
    """Ridge regression of next-turn points (less their mean) on the leave features."""
    mean = sum(p for _, p in samples) / len(samples)
    n = N_FEATURES
    xtx = [[0.0] * n for _ in range(n)]
    xty = [0.0] * n
    for kept, points in samples:
        f = features(kept)
        y = points - mean
        for i in f:
            xty[i] += y
            row = xtx[i]
            for j in f:
                row[j] += 1.0
    for i in range(n):
        xtx[i][i] += ridge
    w = solve_linear(xtx, xty)
    values = {}
    for size in range(MAX_LEAVE + 1):
        for kept in combinations_with_replacement(KINDS, size):
            values[leave_key(kept)] = round(sum(w[i] for i in features(kept)), 3)
    return values


def solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems of the leave table and of the learned value
    are small, and ridge keeps them well conditioned)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                factor = m[r][col] / m[col][col]
                mr, mc = m[r], m[col]
                for c in range(col, n + 1):
                    mr[c] -= factor * mc[c]
    return [m[i][n] / m[i][i] for i in range(n)]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=3000, help="self-play games per iteration")
    ap.add_argument("--iterations", type=int, default=2, help="rounds of play-then-fit")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "data" / "leaves.json")
    args = ap.parse_args(argv)
    values: dict[str, float] = {}
    samples: list[Sample] = []
    for it in range(args.iterations):
        t0 = time.perf_counter()
        chunk = max(1, args.games // (args.jobs * 8))
        first = args.seed + it * args.games
        jobs = [(s, min(chunk, first + args.games - s), values) for s in range(first, first + args.games, chunk)]
        samples = []
        with ProcessPoolExecutor(args.jobs) as pool:
            for part in pool.map(_worker, jobs):
                samples.extend(part)
        values = fit(samples)
        print(
            f"iteration {it + 1}: {args.games} games, {len(samples)} samples, "
            f"{time.perf_counter() - t0:.0f} s; mean next turn {sum(p for _, p in samples) / len(samples):.2f}",
            file=sys.stderr,
        )
    data = {
        "about": "Crib Tiles leave values, learned by python -m cribtiles.bot.tiles.learn_leaves",
        "games_per_iteration": args.games,
        "iterations": args.iterations,
        "samples": len(samples),
        "seed": args.seed,
        "values": values,
    }
    args.out.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(values)} leave values to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
