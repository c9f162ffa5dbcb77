"""The game review's time for a whole two-player game: `python benchmarks/tiles/bench_review.py` prints the
total seconds, the seconds per turn and the budget a turn was given, against the target of the coach's
issue (a whole game under 60 s).

The game is a seeded Hard v Medium game (`--seed`), played to its end by the bots, each move from its
request's seed, as the window plays it. `--worker` times the review as the window runs it, in its
process (`ReviewWorker`: the process's start and the review's journey back included), polled every
16 ms as a frame would; otherwise it runs here. Also: how each turn was weighed and the rollouts a
candidate got on the simulated turns, and the machine's load average (the figures depend on it).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

from cribtiles.bot.tiles.levels import make_bot
from cribtiles.rules.options import RuleOptions
from cribtiles.table import parse_players
from cribtiles.table.tiles.review import DEFAULT_BUDGET, Method, Review, review_table
from cribtiles.table.tiles.review_worker import ReviewWorker
from cribtiles.table.tiles.table import Table

TARGET_SECONDS = 60.0
FRAME = 1 / 60


def bot_game(players: str, seed: int) -> Table:
    table = Table.new(parse_players(players), RuleOptions(), seed)
    while not table.round_over:
        request = table.bot_request()
        table.play_bot(make_bot(request.level).choose(request.view, random.Random(request.seed)), request)
    return table


def in_worker(table: Table, budget: float, seed: int) -> Review:
    worker = ReviewWorker(budget=budget, seed=seed)
    try:
        worker.start(table)
        while (review := worker.result()) is None:
            time.sleep(FRAME)
        return review
    finally:
        worker.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7, help="the game's seed (default 7)")
    ap.add_argument("--players", default="hard,medium", help="the bots that play it (default hard,medium)")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help=f"seconds a turn (default {DEFAULT_BUDGET:g})")
    ap.add_argument("--review-seed", type=int, default=0, help="the review's seed (default 0)")
    ap.add_argument("--worker", action="store_true", help="run the review in its process, as the window does")
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="count the budget and the total in wall seconds or this process's CPU seconds (cpu: as on an idle "
        "machine; not with --worker)",
    )
    args = ap.parse_args()

    table = bot_game(args.players, args.seed)
    turns = len(table.state.turns)
    print(f"game: {args.players} seed {args.seed}, {turns} turns, final scores {table.state.final_scores()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.worker and args.clock == "cpu":
        ap.error("--clock cpu times this process: leave out --worker")
    clock = harness.CLOCKS[args.clock]
    started = clock()
    if args.worker:
        review = in_worker(table, args.budget, args.review_seed)
    else:
        review = review_table(table, args.budget, clock, random.Random(args.review_seed))
    seconds = clock() - started
    methods = Counter(str(t.method) for t in review.turns)
    simulated = [t.samples for t in review.turns if t.method is Method.SIMULATED]
    endgame = [t for t in review.turns if t.method is Method.ENDGAME]
    where = "in its process (ReviewWorker)" if args.worker else "in this process"
    print(f"review {where}: budget {args.budget:g} {args.clock} seconds a turn")
    print(f"total {seconds:.1f} s for {turns} turns: {seconds / turns:.2f} s a turn")
    print("turns weighed: " + ", ".join(f"{k} {v}" for k, v in sorted(methods.items())))
    if simulated:
        print(
            f"rollouts per candidate on simulated turns: median {statistics.median(simulated):g}, "
            f"least {min(simulated)}, most {max(simulated)}"
        )
    if endgame:
        print(f"endgame turns searched exactly: {sum(1 for t in endgame if t.exact)} of {len(endgame)}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    verdict = "met" if seconds < TARGET_SECONDS else "MISSED"
    print(f"target: a whole game under {TARGET_SECONDS:g} s: {verdict}")
    harness.report(
        __file__,
        players=args.players,
        seed=args.seed,
        budget=args.budget,
        clock=args.clock,
        worker=args.worker,
        turns=turns,
        seconds=seconds,
        methods=dict(sorted(methods.items())),
        rollouts_median=statistics.median(simulated) if simulated else None,
        endgame_exact=[sum(1 for t in endgame if t.exact), len(endgame)],
        target_met=seconds < TARGET_SECONDS,
    )
    return 0 if seconds < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
