"""The cost of one Expert continuation: `python benchmarks/tiles/bench_rollouts.py` prints the CPU
milliseconds a rollout takes (the candidate, the replies, the racks weighed) on fixed positions.

Positions: the views of `bench_bots` with tiles still in the bag (what the Expert simulates), each
with Hard's four best candidates, each played out on the same `--guesses` guesses of the hidden
tiles. Every rollout is timed `--repeat` times in a row, and the best pass counts (the least
disturbed by other work on the machine). The sum of the rollouts' values is printed too: two trees
that play the same continuations give the same sum.

`--against REV` (for example `--against 05aa0fd`) times that commit's rollouts side by side with
this tree's: its `cribtiles` is taken with `git archive` into a temporary folder and its compiled core
built there when a compiler is present (else both run the pure-Python core), and the two trees run
in turns, each in a fresh interpreter, `--rounds` times. The ratio is of the best times.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness
from trees import ROOT, old_tree


def measure(guesses: int, repeat: int, seed: int) -> tuple[int, float, float]:
    """(rollouts, best CPU seconds a rollout, sum of their values) for the tree on sys.path."""
    from cribtiles.bot.tiles.equity import rank_plays
    from cribtiles.bot.tiles.leave import default_leave
    from cribtiles.bot.tiles.sampling import determinize
    from cribtiles.bot.tiles.simulate import rollout
    from cribtiles.rules.moves import Play

    # bench_bots puts this tree first on the path: import it after the tree under test is loaded
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_bots import positions

    told = "score" in rollout.__code__.co_varnames  # a tree whose rollout takes the candidate's score
    leave = default_leave()
    jobs = []
    for i, (_, view) in enumerate(positions(21, seed)):
        if sum(view.bag_sizes) == 0:
            continue
        rng = random.Random(i)
        candidates = rank_plays(view, leave, top=4)
        for _ in range(guesses):
            guess = determinize(view, rng)
            for c in candidates:
                extra = {"score": c.score} if told and isinstance(c.move, Play) else {}
                jobs.append((guess, c.move, view.player, extra))
    best, total = float("inf"), 0.0
    for _ in range(repeat):
        started = time.process_time()
        total = sum(rollout(g, m, me, leave, **extra) for g, m, me, extra in jobs)
        best = min(best, time.process_time() - started)
    return len(jobs), best / len(jobs), total


def run_tree(tree: Path, args: argparse.Namespace) -> tuple[int, float, float]:
    """`measure` in a fresh interpreter with `tree` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, __file__, "--worker", "--guesses", str(args.guesses), "--repeat", str(args.repeat)]
    out = subprocess.run([*cmd, "--seed", str(args.seed)], env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"bench_rollouts: the run in {tree} failed:\n{out.stderr.strip()}")
    n, per, total, where = out.stdout.split()
    if Path(where).resolve() != tree.resolve():
        raise SystemExit(f"bench_rollouts: the run meant for {tree} loaded {where}")
    return int(n), float(per), float(total)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--guesses", type=int, default=30, help="guesses of the hidden tiles a position (30)")
    ap.add_argument("--repeat", type=int, default=3, help="passes over the rollouts; the best counts (3)")
    ap.add_argument("--seed", type=int, default=1, help="the positions' seed (bench_bots's, 1)")
    ap.add_argument("--against", metavar="REV", help="time this commit's rollouts side by side with this tree's")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each tree, in turns (--against; 2)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        n, per, total = measure(args.guesses, args.repeat, args.seed)
        import cribtiles

        print(n, per, total, Path(cribtiles.__file__).parent.parent)
        return 0
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (two cores; the figures depend on it)")
    if not args.against:
        n, per, total = run_tree(ROOT, args)
        print(f"{n} rollouts: {per * 1e3:.3f} ms each (CPU, best of {args.repeat}); sum of values {total:.3f}")
        harness.report(__file__, rollouts=n, cpu_ms_a_rollout=per * 1e3, sum_of_values=total, repeat=args.repeat)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench_rollouts_") as tmp:
        core = old_tree(args.against, Path(tmp), "bench_rollouts")
        best = {"old": float("inf"), "new": float("inf")}
        sums = {}
        for _ in range(args.rounds):
            for name, tree in (("old", Path(tmp)), ("new", ROOT)):
                n, per, total = run_tree(tree, args)
                best[name] = min(best[name], per)
                sums[name] = total
        print(f"{n} rollouts on each tree ({args.against} with {core}), CPU ms a rollout, best of {args.rounds} runs:")
        print(f"  {args.against}: {best['old'] * 1e3:.3f}")
        print(f"  this tree: {best['new'] * 1e3:.3f}")
        print(f"  ratio: {best['old'] / best['new']:.2f}x")
        same = "the same" if abs(sums["old"] - sums["new"]) < 1e-6 else "they differ"
        print(f"  sum of the rollouts' values: {sums['old']:.3f} and {sums['new']:.3f} ({same})")
    harness.report(
        __file__,
        rollouts=n,
        against=args.against,
        cpu_ms_a_rollout={"against": best["old"] * 1e3, "this_tree": best["new"] * 1e3},
        ratio=best["old"] / best["new"],
        same_values=same == "the same",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
