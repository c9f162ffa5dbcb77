"""Cribbage bot latency: `python benchmarks/cribbage/bench_bots.py` prints median, p95 and max seconds per
decision by level, the discard (the target: under 0.1 s) and the play apart.

Positions: every discard and every card laid in seeded games of the Medium bot against itself (3 games
by default, some 150 positions). Every level decides every position once (`--repeat` for more), with a
fresh bot and a seeded generator. `--games 1 --levels hard` shortens the run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

from cribtiles.bot.cribbage.levels import LEVELS, make_cribbage_bot
from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.view import CribbageView

KINDS = (Phase.DISCARD, Phase.PLAY)


def positions(games: int, seed: int) -> list[CribbageView]:
    """The views of every discard and every card to lay (with a card that fits) in seeded Medium games."""
    medium = make_cribbage_bot("medium")
    out: list[CribbageView] = []
    for game in range(games):
        state = new_game(seed + game)
        while not state.is_over:
            player = state.current_player
            assert player is not None
            view = state.view(player)
            if view.phase is Phase.DISCARD or (view.phase is Phase.PLAY and len(view.legal) > 1):
                out.append(view)
            state = state.apply(medium.choose(view, random.Random(f"{seed + game}/{len(state.log)}")))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="Medium-vs-Medium games to take positions from (3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="decide every position this many times (1)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="wall seconds, or this process's CPU")
    ap.add_argument("--levels", default=",".join(LEVELS), help=f"levels to time ({','.join(LEVELS)})")
    args = ap.parse_args()
    clock = harness.CLOCKS[args.clock]
    views = positions(args.games, args.seed)
    counts = {k: sum(v.phase is k for v in views) for k in KINDS}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{len(views)} positions ({counts[Phase.DISCARD]} discards, {counts[Phase.PLAY]} cards to lay with a choice) "
        f"from {args.games} Medium games, seed {args.seed}; load average {load:.2f}, {args.clock} seconds"
    )
    print(f"{'level':<8} {'decision':<8} {'n':>5} {'median s':>10} {'p95 s':>10} {'max s':>10}")
    seconds: dict[str, dict[str, object]] = {}
    for name in args.levels.split(","):
        times: dict[Phase, list[float]] = {k: [] for k in KINDS}
        for i, view in enumerate(views * args.repeat):
            bot = make_cribbage_bot(name)
            rng = random.Random(f"bench/{i}")
            started = clock()
            bot.choose(view, rng)
            times[view.phase].append(clock() - started)
        for kind in KINDS:
            t = times[kind]
            print(
                f"{name:<8} {kind.value:<8} {len(t):>5} {statistics.median(t):>10.5f} "
                f"{harness.percentile(t, 0.95):>10.5f} {max(t):>10.5f}"
            )
        seconds[name] = {kind.value: harness.summary(times[kind]) for kind in KINDS if times[kind]}
    harness.report(__file__, games=args.games, seed=args.seed, clock=args.clock, positions=len(views), seconds=seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
