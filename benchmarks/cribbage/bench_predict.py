"""How well the opponent's card can be foretold: `python benchmarks/cribbage/bench_predict.py` plays seeded
Hard-v-Hard deals and, at each card Hard lays with two ranks or more to choose from, asks how often each
model of Hard names the rank it laid. It bounds what weighing guesses by the cards laid can learn (the
particle filter in `mid_candidates.filter_play`): a model that names Hard's card no better than chance
tells the hands apart no better either.

Models: Hard itself with another random generator (as near as any model of Hard can come, Hard's guesses
being random); Hard's solver told the other hand (the filter's cheap model); the same over K hands drawn
at random from the cards Hard cannot see; the card that scores most now.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

from cribtiles.bot.cribbage.bots import hard_bot, hard_play
from cribtiles.bot.cribbage.guess import opponent_gone
from cribtiles.bot.cribbage.peg import Solver, fitting, sequence_points
from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.moves import PlayCard


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300, help="seeded deals (each the first deal of a game)")
    ap.add_argument("--seed", type=int, default=1, help="first deal's seed")
    args = ap.parse_args()
    started = time.perf_counter()
    hard = hard_bot()
    names = (
        "Hard, another generator",
        "solver told the hand",
        "solver, 4 random hands",
        "solver, 8 random hands",
        "most points now",
    )
    right = dict.fromkeys(names, 0)
    choices = 0
    for seed in range(args.seed, args.seed + args.deals):
        state = new_game(seed)
        while state.deal_number == 1 and not state.is_over:
            player = state.current_player
            assert player is not None
            view = state.view(player)
            rng = random.Random(f"{seed}/{player}/{len(state.log)}")
            move = hard.choose(view, rng)
            if isinstance(move, PlayCard):
                count = view.count
                options = sorted({c.rank for c in fitting(view.hand, count)})
                if len(options) > 1:
                    choices += 1
                    laid = move.card.rank
                    right[names[0]] += hard_play(view, random.Random(f"other/{seed}/{len(state.log)}")).rank == laid
                    mine = tuple(sorted(c.rank for c in view.hand))
                    pile = tuple(c.rank for c in view.pile)
                    go = opponent_gone(view)
                    solver = Solver()
                    other = tuple(sorted(c.rank for c in state.hands[1 - player]))
                    draw = random.Random(f"draw/{seed}/{len(state.log)}")
                    pool, size = view.unseen, len(other)
                    four = [tuple(sorted(c.rank for c in draw.sample(pool, size))) for _ in range(4)]
                    eight = [tuple(sorted(c.rank for c in draw.sample(pool, size))) for _ in range(8)]
                    for name, hands in ((names[1], [other]), (names[2], four), (names[3], eight)):
                        totals = {r: sum(solver.play(mine, h, pile, count, 0, go, r) for h in hands) for r in options}
                        right[name] += max(options, key=lambda r: (totals[r], min(r, 10), r)) == laid
                    greedy = max(options, key=lambda r: (sequence_points((*pile, r)), min(r, 10), r))
                    right[names[4]] += greedy == laid
            state = state.apply(move)
    print(f"{choices} cards Hard laid with a choice, {args.deals} deals from seed {args.seed}:")
    for name in names:
        print(f"  {name:<26} names it {right[name] / choices:.1%}")
    print(f"  {time.perf_counter() - started:.0f} s")
    harness.report(
        __file__,
        deals=args.deals,
        seed=args.seed,
        choices=choices,
        names_it={name: right[name] / choices if choices else None for name in names},
        seconds=time.perf_counter() - started,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
