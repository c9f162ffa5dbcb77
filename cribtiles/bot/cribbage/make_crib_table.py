"""Compute Hard's crib table: `python -m cribtiles.bot.cribbage.make_crib_table --samples 4000 --seed 1 --jobs 2`.

For each pair of discarded ranks (91) and each owner of the crib (the bot's, the opponent's): deal the
two cards random suits, deal the opponent six of the other cards, let the opponent discard as Medium
does (its best hand over the starters, plus its plain crib value, minus it when the crib is the bot's),
and add the crib's exact expected show over the 44 starters left. Each entry's deals come from its own
random generator (seed, ranks, owner), so any entry can be recomputed alone and must come out the same.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cribtiles.cribbage.cards import DECK, Card

from .crib import DATA_FILE, pair_key
from .discard import RANKS, SUITS, Remaining, best_split, plain_worth, show_sum

OPPONENT_SIX = 6
DECIMALS = 4
OWNERS = ("own", "opponent")


def crib_entry(a: int, b: int, own_crib: bool, samples: int, seed: int) -> float:
    """The mean, over `samples` deals, of the crib's expected show when the bot lays away ranks a and b
    (`own_crib`: the bot deals, so the opponent lays away against it), rounded to `DECIMALS`."""
    rng = random.Random(f"cribtiles-crib-table/{seed}/{pair_key(a, b)}/{'own' if own_crib else 'opponent'}")
    # the opponent throws to its own crib when the bot's is not the crib
    opponent_worth = plain_worth(own_crib=not own_crib)
    total = 0.0
    for _ in range(samples):
        if a == b:
            sa, sb = rng.sample(SUITS, 2)
        else:
            sa, sb = rng.choice(SUITS), rng.choice(SUITS)
        mine = (Card(a, sa), Card(b, sb))
        rest = [c for c in DECK if c not in mine]
        six = rng.sample(rest, OPPONENT_SIX)
        theirs = best_split(six, opponent_worth).discarded
        left = Remaining.of(c for c in rest if c not in six)
        total += show_sum((*mine, *theirs), left, crib=True) / left.size
    return round(total / samples, DECIMALS)


def _entry(args: tuple[int, int, bool, int, int]) -> tuple[str, str, float]:
    a, b, own, samples, seed = args
    return (OWNERS[0] if own else OWNERS[1], pair_key(a, b), crib_entry(a, b, own, samples, seed))


def make_table(samples: int, seed: int, jobs: int) -> dict[str, object]:
    work = [(a, b, own, samples, seed) for own in (True, False) for a in RANKS for b in RANKS if a <= b]
    values: dict[str, dict[str, float]] = {owner: {} for owner in OWNERS}
    if jobs <= 1:
        done = map(_entry, work)
        for owner, key, v in done:
            values[owner][key] = v
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for owner, key, v in pool.map(_entry, work, chunksize=4):
                values[owner][key] = v
    return {
        "about": (
            "Crib Tiles cribbage crib table: the crib's expected points for each pair of ranks laid away, "
            "made by python -m cribtiles.bot.cribbage.make_crib_table; the opponent lays away as the Medium bot does"
        ),
        "seed": seed,
        "samples": samples,
        "own": values["own"],
        "opponent": values["opponent"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cribtiles.bot.cribbage.make_crib_table", description=__doc__)
    ap.add_argument("--samples", type=int, default=4000, help="deals per entry (4000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the deals (1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "data" / DATA_FILE, help="where to write")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    table = make_table(args.samples, args.seed, args.jobs)
    args.out.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    seconds = time.perf_counter() - started
    print(f"wrote {args.out} ({args.samples} deals per entry, seed {args.seed}) in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
