"""Expert's endgame search: `python benchmarks/tiles/bench_endgame.py` prints how many bag-empty two-player
positions it solves exactly within its budget, and how long that takes.

Positions: seeded games of the Hard bot against itself, each taken at its first turn with the bag
empty (the largest endgame of the game: both racks as full as they get), 30 by default. Each is
searched with Expert's deadline (its 1.5 s budget less the margin it keeps) and the report gives the
share solved exactly (the search reached the end of the game on every line), the time to the exact
answer (median, p95, max), and the nodes searched. `--budget`, `--positions`, `--seed` change it;
`--clock cpu` counts the budget in this process's CPU seconds.
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

from cribtiles.bot import make_bot
from cribtiles.bot.tiles.endgame import ENDGAME_MARGIN, solve_view
from cribtiles.bot.tiles.simulate import DEFAULT_BUDGET
from cribtiles.rules import PlayerView, new_game


def endgame_positions(count: int, seed: int) -> list[PlayerView]:
    """The first bag-empty position (the player to move's view) of `count` seeded Hard-vs-Hard games."""
    hard = make_bot("hard")
    out: list[PlayerView] = []
    game = 0
    while len(out) < count:
        state = new_game(2, seed=seed + game)
        while not state.is_over:
            view = state.view(state.current)
            if sum(view.bag_sizes) == 0:
                out.append(view)
                break
            state = state.apply(hard.choose(view, random.Random(f"{seed + game}/{len(state.turns)}")))
        game += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--positions", type=int, default=30, help="bag-empty positions (30)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="seconds per move (Expert's, 1.5)")
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="count the budget in wall seconds (as in the window) or this process's CPU seconds (cpu: as on an "
        "idle machine, whatever else runs)",
    )
    args = ap.parse_args()
    views = endgame_positions(max(1, args.positions), args.seed)
    times: list[float] = []
    nodes: list[int] = []
    exact = 0
    clock = harness.CLOCKS[args.clock]
    for view in views:
        started = clock()
        result = solve_view(view, started + args.budget - ENDGAME_MARGIN, clock)
        times.append(clock() - started)
        nodes.append(result.nodes)
        exact += result.exact
    racks = [(len(v.rack), len(v.unseen)) for v in views]
    print(
        f"Crib Tiles endgame search: {len(views)} bag-empty positions of Hard-vs-Hard games (seed {args.seed}), "
        f"racks {min(a + b for a, b in racks)}-{max(a + b for a, b in racks)} tiles in all, "
        f"budget {args.budget:g} {args.clock} seconds"
    )
    print(f"exact within the budget: {exact} of {len(views)} ({100 * exact / len(views):.1f}%)")
    p95 = harness.percentile(times, 0.95)
    print(f"seconds: median {statistics.median(times):.3f}, p95 {p95:.3f}, max {max(times):.3f}")
    print(f"nodes: median {statistics.median(nodes):.0f}, max {max(nodes)}")
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} (two cores)")
    harness.report(
        __file__,
        positions=len(views),
        exact=exact,
        seconds=harness.summary(times),
        nodes_median=statistics.median(nodes),
        budget=args.budget,
        clock=args.clock,
        seed=args.seed,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
