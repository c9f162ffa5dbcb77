"""Does the learned value choose better plays than Hard's static equity? `python benchmarks/tiles/bench_value_choice.py`

From positions of self-play games (the first turn with `--low` to `--high` tiles in the bag), Hard's
best `--candidates` plays are each followed by the continuation policy to the end of the game, from
the same `--guesses` guesses of the hidden tiles (the same for every candidate, so they meet the same
luck): the mean final spread is the candidate's worth under that policy, the thing the value was
trained to predict. Each judge picks a candidate without playing out: Hard's equity (score, leave and
what the play opens), score plus leave alone, and the learned value of the position after the play
(the opponent about to move, over the same guesses); with `--continuations`, also the Expert's
continuations (`simulate.rollout`, three turns after the play) from as many other guesses, ended on
the racks' worth as today, on the learned value, on both half and half, and one turn long ended on the
value. Printed: each judge's regret (the best
candidate's worth less its pick's) and its correlation with the worths within a position, and the
regret's paired difference from Hard's, with standard errors.
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

from cribtiles.bot.tiles.equity import kept_tiles, leave_equity, rank_plays
from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.sampling import determinize
from cribtiles.bot.tiles.simulate import policy_turn, rollout
from cribtiles.bot.tiles.value import Value, default_value
from cribtiles.rules import GameState, Play, new_game


def position(seed: int, low: int, high: int) -> GameState | None:
    """Self-play game `seed` at its first turn with at most `high` tiles in the bag, if it has `low`."""
    leave = default_leave()
    state = new_game(2, seed=seed)
    while not state.is_over and state.bag_size() > high:
        state = policy_turn(state, leave)
    return None if state.is_over or state.bag_size() < low else state


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--guesses", type=int, default=64)
    ap.add_argument("--candidates", type=int, default=8)
    ap.add_argument("--low", type=int, default=9)
    ap.add_argument("--high", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2_000_000)
    ap.add_argument("--continuations", action="store_true", help="judge by the Expert's continuations too")
    args = ap.parse_args()
    leave, model = default_leave(), default_value()
    if model is None:
        print("no learned value is shipped (cribtiles/bot/tiles/data/value.json)")
        return 1
    judges: tuple[str, ...] = ("hard", "score + leave", "learned value")
    #: The Expert's continuations: (turns after the play, the learned value's share of their end).
    endings = {
        "rollout, racks": (3, 0.0),
        "rollout, value": (3, 1.0),
        "rollout, half": (3, 0.5),
        "rollout 1, value": (1, 1.0),
    }
    if args.continuations:
        judges += tuple(endings)
    regret: dict[str, list[float]] = {j: [] for j in judges}
    corr: dict[str, list[float]] = {j: [] for j in judges}
    t0 = time.perf_counter()
    seed = args.seed
    while len(regret["hard"]) < args.positions:
        state = position(seed, args.low, args.high)
        seed += 1
        if state is None:
            continue
        me, opp = state.current, 1 - state.current
        view = state.view(me)
        cands = rank_plays(view, leave, top=args.candidates)
        if len(cands) < 3:
            continue
        rng = random.Random(f"value-choice/{seed}")
        guesses = [determinize(view, rng) for _ in range(args.guesses)]
        worth, valued = [], []
        plays = [c.move for c in cands if isinstance(c.move, Play)]
        for c, play in zip(cands, plays, strict=True):
            ends, values = [], []
            for guess in guesses:
                after = guess.apply_generated(play, c.score)
                values.append(-model(after.view(opp), leave) if not after.is_over else None)
                while not after.is_over:
                    after = policy_turn(after, leave)
                final = after.final_scores()
                ends.append(final[me] - final[opp])
                if values[-1] is None:
                    values[-1] = ends[-1]
            worth.append(statistics.fmean(ends))
            valued.append(statistics.fmean(v for v in values if v is not None))
        picks = {
            "hard": [c.equity for c in cands],
            "score + leave": [
                c.score + leave_equity(view, kept_tiles(view.rack, p), leave) for c, p in zip(cands, plays, strict=True)
            ],
            "learned value": valued,
        }
        if args.continuations:
            others = [determinize(view, rng) for _ in range(args.guesses)]
            for name, (turns, weight) in endings.items():
                use: Value | None = model if weight > 0 else None
                picks[name] = [
                    statistics.fmean(rollout(g, p, me, leave, turns, c.score, use, weight) for g in others)
                    for c, p in zip(cands, plays, strict=True)
                ]
        best = max(worth)
        for name, judged in picks.items():
            pick = max(range(len(judged)), key=judged.__getitem__)
            regret[name].append(best - worth[pick])
            if len(set(judged)) > 1 and len(set(worth)) > 1:
                corr[name].append(statistics.correlation(judged, worth))
    n = len(regret["hard"])
    print(
        f"{n} positions with {args.low}-{args.high} tiles in the bag, {args.candidates} of Hard's candidates, "
        f"{args.guesses} playouts each ({time.perf_counter() - t0:.0f} s)"
    )
    for name in judges:
        r, rs = regret[name], corr[name]
        diff = [a - b for a, b in zip(r, regret["hard"], strict=True)]
        print(
            f"{name:<14} regret {statistics.fmean(r):5.2f} ± {statistics.stdev(r) / n**0.5:.2f}"
            f"  (against Hard {statistics.fmean(diff):+.2f} ± {statistics.stdev(diff) / n**0.5:.2f})"
            f"  correlation within a position {statistics.fmean(rs):.3f} ± {statistics.stdev(rs) / len(rs) ** 0.5:.3f}"
        )
    harness.report(
        __file__,
        positions=n,
        guesses=args.guesses,
        candidates=args.candidates,
        bag=[args.low, args.high],
        seed=args.seed,
        regret={name: dict(zip(("mean", "ci95"), harness.mean_ci(regret[name]), strict=True)) for name in judges},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
