"""Where the cribbage Expert may gain near the end: `python benchmarks/cribbage/bench_end.py CANDIDATE`
prints the candidate's extra share of games won over a base bot's (Hard by default), from the same
positions near the end, with its standard error.

Positions: seeded games of Hard against itself, each stopped at the first deal that begins with either
player within `--within` points (70) of 121. Each position is played out to the end three times: the base
bot against Hard, and the candidate in each seat against Hard. Later deals are shuffled from the game's
seed and the deal's number, and every decision's generator is derived from the position, the player and
how many moves came before, so where the candidate chooses as the base does the copies stay the same and
the difference is exactly 0. The figure, per (position, seat): the candidate copy's result (1 won, 0 lost)
less the base copy's for that seat; and the same for the points spread at the end.

Candidates and bases (a name, or a name with options after colons):
  hard                  Hard
  expert                the Expert as shipped
  expert:W              the Expert playing to win within W points (45 shipped; 121: all the game)
  expert:W:hardlike:N   ... with N guesses in the whole play, kept as Hard's crib-table discard would keep them
  expert:W:guesses:N    ... with N plain guesses (as Hard's) in the whole play

Measured (one core, load 3-7):
  expert --base hard --within 70 --positions 120 --seed 1001 (the Expert of 48 plain guesses): 13 of 240
    pairs differ; games won +2.08 +- 1.50 points, spread +0.15 +- 0.44 (805 s)
  expert --base hard --within 70 --positions 120 --seed 2001 (the Expert as shipped: 48 crib-table
    guesses): 30 of 240 pairs differ; games won +2.50 +- 2.28 points, spread +0.07 +- 0.54 (603 s)
  expert:80 --base expert --within 80 --positions 150 --seed 1 (both with 24 guesses): 13 of 300 pairs
    differ; games won +0.33 +- 1.20 points, spread +0.14 +- 0.23 (2,293 s): playing to win from 80 points
    rather than 45 changes too little to show, so WITHIN stays 45
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness
from mid_candidates import stats

from cribtiles.bot.cribbage.bots import CribbageBot, hard_bot
from cribtiles.bot.cribbage.expert import EXPERT_GUESSES, WITHIN, expert_bot
from cribtiles.bot.cribbage.guess import guess_hands, table_guess_hands
from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.cribbage.options import Phase

TARGET = 121


def make_bot(name: str) -> CribbageBot:
    parts = name.split(":")
    if parts == ["hard"]:
        return hard_bot()
    if parts[0] != "expert":
        raise ValueError(f"no candidate {name!r}")
    within = int(parts[1]) if len(parts) > 1 else WITHIN
    guesses, guesser = EXPERT_GUESSES, table_guess_hands
    if len(parts) > 2:
        kind, n = parts[2], int(parts[3])
        guesses = n
        if kind == "guesses":
            guesser = guess_hands
        elif kind != "hardlike":
            raise ValueError(f"no candidate {name!r}")
    return expert_bot(guesses=guesses, within=within, guesser=guesser)


def position(seed: int, within: int) -> CribbageState | None:
    """Seed `seed`'s Hard-v-Hard game at the first deal's start with either player within `within`."""
    hard = hard_bot()
    state = new_game(seed)
    while not state.is_over:
        if state.phase is Phase.DISCARD and not any(state.discards) and TARGET - max(state.scores) <= within:
            return state
        player = state.current_player
        assert player is not None
        state = state.apply(hard.choose(state.view(player), random.Random(f"start/{seed}/{len(state.log)}")))
    return None


def play_out(seed: int, start: CribbageState, bots: tuple[CribbageBot, CribbageBot]) -> CribbageState:
    state = start
    while not state.is_over:
        player = state.current_player
        assert player is not None
        view = state.view(player)
        state = state.apply(bots[player].choose(view, random.Random(f"{seed}/{player}/{len(state.log)}")))
    return state


def one(args: tuple[int, str, str, int]) -> list[tuple[float, float]] | None:
    """For position `seed`: per seat, the candidate's (won, spread) less the base's."""
    seed, cand_name, base_name, within = args
    start = position(seed, within)
    if start is None:
        return None
    hard, cand, base = hard_bot(), make_bot(cand_name), make_bot(base_name)
    hard_copy = play_out(seed, start, (hard, hard)) if base_name == "hard" else None  # the same in either seat
    out = []
    for seat in (0, 1):
        o = 1 - seat
        rows = []
        for bot in (base, cand):
            end = hard_copy if bot is base and hard_copy is not None else None
            if end is None:
                end = play_out(seed, start, (bot, hard) if seat == 0 else (hard, bot))
            rows.append((float(end.scores[seat] >= TARGET), float(end.scores[seat] - end.scores[o])))
        out.append((rows[1][0] - rows[0][0], rows[1][1] - rows[0][1]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidate", help="hard, expert, expert:W, expert:W:hardlike:N (see the module's text)")
    ap.add_argument("--base", default="hard", help="the bot the candidate is compared with (hard)")
    ap.add_argument("--positions", type=int, default=200, help="positions (each with the candidate in both seats)")
    ap.add_argument("--seed", type=int, default=1, help="first game's seed")
    ap.add_argument("--within", type=int, default=70, help="a position: either player within this of 121 (70)")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    started = time.perf_counter()
    work = [(args.seed + i, args.candidate, args.base, args.within) for i in range(args.positions)]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = [r for pos in pool.imap(one, work, chunksize=2) if pos is not None for r in pos]
    won = [w for w, _ in rows]
    spread = [s for _, s in rows]
    print(
        f"candidate {args.candidate} v base {args.base}: {len(rows) // 2} positions x 2 seats, "
        f"within {args.within}, seeds {args.seed}.."
    )
    print(f"  pairs whose result differs from the base's copy: {sum(1 for w in won if w)}")
    figures = {}
    for label, xs, scale in (("games won", won, 100.0), ("spread", spread, 1.0)):
        m, se = stats(xs)
        print(f"  {label:<10} {m * scale:+.2f} ± {se * scale:.2f} (s.e.){' points of games' if scale > 1 else ''}")
        half = harness.mean_ci(xs)[1] if xs else None
        figures[label.replace(" ", "_")] = {"mean": m * scale, "se": se * scale, "ci95": half and half * scale}
    print(f"  {time.perf_counter() - started:.0f} s")
    harness.report(
        __file__,
        candidate=args.candidate,
        base=args.base,
        positions=len(rows) // 2,
        within=args.within,
        seed=args.seed,
        differ=sum(1 for w in won if w),
        seconds=time.perf_counter() - started,
        **figures,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
