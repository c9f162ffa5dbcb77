"""The Expert's late game against Hard: `python benchmarks/tiles/bench_late_game.py` prints the Expert's mean
spread over Hard from late positions played to the end, and `--against REV` pairs it with that commit's.

Positions: seeded Hard-v-Hard games, each taken at the first turn with at most `--bag` tiles in the
bag (8: a turn or two before it empties). From each, the Expert plays one seat and Hard the other to
the end of the game, then the seats are swapped; the figure is the Expert's final spread, averaged
over both seatings. Every move's random generator is derived from the position and the turn, and
the Expert counts its budget in CPU seconds, so other work on the machine does not weaken it.

A whole game's spread (the arena's) mixes the late game with the luck of the whole bag; here each
position is played by both trees from the same tiles, so a change to the Expert's late game shows in
the paired difference, printed with its standard error. `--against` takes that commit's `cribtiles`
with `git archive` into a temporary folder (with its compiled core, when a compiler is present) and
runs each tree in a fresh interpreter. Both trees must find the same positions (the same Hard): a
digest of them is compared, and a difference is said plainly rather than paired.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness
from trees import ROOT, old_tree


def late_position(seed: int, bag: int) -> Any:
    """The state of seeded Hard-v-Hard game `seed` at its first turn with at most `bag` tiles in the
    bag (None if it ends first)."""
    from cribtiles.bot import make_bot
    from cribtiles.rules import new_game

    hard = make_bot("hard")
    state = new_game(2, seed=seed)
    while not state.is_over:
        if state.bag_size() <= bag:
            return state
        view = state.view(state.current)
        state = state.apply(hard.choose(view, random.Random(f"{seed}/{len(state.turns)}")))
    return None


def duel(seed: int, bag: int, budget: float, fields: dict[str, Any] | None = None) -> tuple[int, str, list[int]] | None:
    """(seed, digest of the position, the Expert's spread in each seating), or None without a position.
    `fields` are set on the Expert (`--set`)."""
    from cribtiles.bot import make_bot
    from cribtiles.bot.tiles.simulate import ExpertBot

    start = late_position(seed, bag)
    if start is None:
        return None
    digest = hashlib.sha256(f"{start.board}|{start.racks}|{start.bags}|{start.scores}".encode()).hexdigest()[:12]
    spreads = []
    for expert in (0, 1):
        bots = {
            expert: ExpertBot(budget=budget, clock=time.process_time, **(fields or {})),
            1 - expert: make_bot("hard"),
        }
        state = start
        while not state.is_over:
            p = state.current
            state = state.apply(bots[p].choose(state.view(p), random.Random(f"late/{seed}/{len(state.turns)}")))
        final = state.final_scores()
        spreads.append(final[expert] - final[1 - expert])
    return seed, digest, spreads


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every position's duel, in `--jobs` processes, for the tree on sys.path."""
    import functools
    from multiprocessing import Pool

    seeds = range(args.seed, args.seed + args.positions)
    work = functools.partial(duel, bag=args.bag, budget=args.budget, fields=expert_fields(args.set))
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            rows = pool.map(work, seeds, chunksize=1)
    else:
        rows = [work(s) for s in seeds]
    return {str(seed): [digest, spreads] for seed, digest, spreads in filter(None, rows)}


def expert_fields(settings: list[str]) -> dict[str, Any]:
    """`--set` FIELD=VALUE pairs as the Expert's fields, each VALUE read as JSON (true, 0.5, 2)."""
    fields = {}
    for item in settings:
        name, sep, text = item.partition("=")
        if not sep or not name.isidentifier():
            raise SystemExit(f"bench_late_game: --set takes FIELD=VALUE, not {item!r}")
        try:
            fields[name] = json.loads(text)
        except ValueError:
            raise SystemExit(f"bench_late_game: {text!r} is not a value (true, 0.5, 2 ...)") from None
    return fields


def run_tree(tree: Path, args: argparse.Namespace, settings: list[str] | None = None) -> dict[str, Any]:
    """`measure` in a fresh interpreter with `tree` first on the path, its Expert given `settings`."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    options = ["--positions", str(args.positions), "--seed", str(args.seed), "--bag", str(args.bag)]
    options += ["--budget", str(args.budget), "--jobs", str(args.jobs)]
    options += [f"--set={item}" for item in settings or []]
    out = subprocess.run([sys.executable, __file__, "--worker", *options], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"bench_late_game: the run in {tree} failed:\n{out.stderr.strip()}")
    found = json.loads(out.stdout)
    if Path(found["tree"]).resolve() != tree.resolve():
        raise SystemExit(f"bench_late_game: the run meant for {tree} loaded {found['tree']}")
    return dict(found["duels"])


def all_spreads(duels: dict[str, Any]) -> list[int]:
    return [s for _, pair in duels.values() for s in pair]


def mean(spreads: list[int]) -> float:
    return sum(spreads) / len(spreads)


def mean_spread(duels: dict[str, Any]) -> float:
    spreads = all_spreads(duels)
    return mean(spreads) if spreads else float("nan")


def win_share(spreads: list[int]) -> float:
    """The Expert's share of the games with these final spreads (a tie counts half)."""
    return sum(1.0 if s > 0 else 0.5 if s == 0 else 0.0 for s in spreads) / len(spreads)


def win_rate(duels: dict[str, Any]) -> float:
    spreads = all_spreads(duels)
    return win_share(spreads) if spreads else float("nan")


def summary(duels: dict[str, Any]) -> str:
    return f"the Expert's mean spread {mean_spread(duels):+.2f}, its games won {100 * win_rate(duels):.1f}%"


def paired(
    old: dict[str, Any], new: dict[str, Any], of: Callable[[list[int]], float] = mean
) -> tuple[int, float, float]:
    """(positions, the mean over positions of new less old, its standard error), each tree's figure for
    a position being `of` its pair of spreads: their mean by default, or `win_share`."""
    diffs = [of(new[k][1]) - of(old[k][1]) for k in old if k in new]
    n = len(diffs)
    if n < 2:
        return n, float("nan"), float("nan")
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return n, mean, sd / math.sqrt(n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--positions", type=int, default=150, help="late positions, each played twice (150)")
    ap.add_argument("--seed", type=int, default=1000, help="the first position's game seed (1000)")
    ap.add_argument("--bag", type=int, default=8, help="a position is the first turn with this many in the bag (8)")
    ap.add_argument("--budget", type=float, default=1.5, help="the Expert's CPU seconds a move (1.5)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (one per core)")
    ap.add_argument("--against", metavar="REV", help="pair this tree's duels with that commit's")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="set a field of this tree's Expert (not --against's), e.g. use_value=true; repeatable",
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        import cribtiles

        print(json.dumps({"tree": str(Path(cribtiles.__file__).parent.parent), "duels": measure(args)}))
        return 0
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (the budget is CPU seconds)")
    what = f"{args.positions} games from seed {args.seed}, each at its first turn with at most {args.bag} in the bag"
    print(f"Crib Tiles late game, Expert ({args.budget:g} s) v Hard, both seatings: {what}")
    started = time.perf_counter()
    figures: dict[str, Any] = {}
    if args.set:
        print(f"  this tree's Expert with {', '.join(args.set)}")
    if not args.against:
        duels = run_tree(ROOT, args, args.set)
        print(f"  {len(duels)} positions: {summary(duels)}")
        spreads = all_spreads(duels)
        if spreads:
            figures["spread"] = dict(zip(("mean", "ci95"), harness.mean_ci(spreads), strict=True))
    else:
        with tempfile.TemporaryDirectory(prefix="bench_late_game_") as tmp:
            core = old_tree(args.against, Path(tmp), "bench_late_game")
            old = run_tree(Path(tmp), args)
            duels = run_tree(ROOT, args, args.set)
        print(f"  {args.against} ({core}): {len(old)} positions, {summary(old)}")
        print(f"  this tree: {len(duels)} positions, {summary(duels)}")
        if any(old[k][0] != duels[k][0] for k in old if k in duels) or old.keys() != duels.keys():
            print("  the two trees found different positions (their Hard differs): the spreads are not paired")
        else:
            n, diff, se = paired(old, duels)
            print(f"  paired over {n} positions: this tree less {args.against} {diff:+.2f} ± {se:.2f} (standard error)")
            figures["paired_spread"] = {"mean": diff, "se": se}
            n, diff, se = paired(old, duels, win_share)
            print(f"  games won, paired: this tree less {args.against} {100 * diff:+.1f} ± {100 * se:.1f} points")
            figures["paired_won_points"] = {"mean": 100 * diff, "se": 100 * se}
        figures["against"] = {"rev": args.against, "spread": mean_spread(old), "won": win_rate(old)}
    print(f"  {time.perf_counter() - started:.0f} s")
    harness.report(
        __file__,
        positions=len(duels),
        won=win_rate(duels),
        budget=args.budget,
        bag=args.bag,
        seed=args.seed,
        expert_set=args.set,
        seconds=time.perf_counter() - started,
        **figures,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
