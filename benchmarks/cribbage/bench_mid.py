"""Where the cribbage Expert may gain in the middle game: `python benchmarks/cribbage/bench_mid.py CANDIDATE`
prints the candidate's mean net points per deal over Hard's on the same deals, with its standard error.

Each seeded deal (scores 0-0, far from the end) is played three times: Hard against Hard, and the
candidate in each seat against Hard. Every decision's random generator is derived from the deal, the
player and how many moves came before, so where the candidate chooses as Hard does the copies stay the
same and the difference is exactly 0. The figure, per (deal, seat): the candidate seat's own points minus
the opponent's in its copy, less the same seat's in the Hard copy; split into the play's part (his heels
included) and the show's. A deal's net is far less noisy than a whole game's result.

Candidates (each changes one thing of Hard's; the rest is Hard's):
  hard            Hard itself (a check: every difference 0)
  peg:W           the discard adds W times the kept four's mean net pegging (`bench_mid.peg_value`)
  crib            the discard's crib: sampled with the kept four known, not the rank table
  guesses:N       the play with N guesses at the opponent's hand (Hard: 24)
  hardlike:N      the play with N guesses, the opponent discarding by the crib table (the Expert: 48)
  seer            Hard's look-ahead told the opponent's true hand (a yardstick, not a bot)
  sees:W          hardlike:48 taking the opponent to play its best a share W of the time (Hard: 0.5)
  filter:N:M:B:K  N guesses resampled from M crib-table guesses by how likely each was to lay what the
                  opponent laid (`mid_candidates.filter_play`: Hard's solver over K random hands of the
                  bot's, 0 its true hand; softmax of temperature 1/B, or B < 0 an argmax right -B of the time)
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
import mid_candidates
from mid_candidates import make_candidate, peg_table, stats

from cribtiles.bot.cribbage.bots import CribbageBot, PolicyBot, hard_bot, hard_discard, hard_play
from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.cribbage.options import Phase

Result = tuple[int, int, int]  # (net of the play, net of the show) per seat; the seat's dealer flag


def play_deal(seed: int, bots: tuple[CribbageBot, CribbageBot]) -> tuple[tuple[int, int], tuple[int, int], int]:
    """Deal `seed`'s first deal played by `bots` (by seat): each seat's points in the play (his heels with
    them) and in the show, and the dealer."""
    state: CribbageState = new_game(seed)
    dealer = state.dealer
    after_play: tuple[int, ...] | None = None
    while state.deal_number == 1 and not state.is_over:
        if after_play is None and state.phase not in (Phase.DISCARD, Phase.PLAY):
            after_play = state.scores
        player = state.current_player
        assert player is not None
        view = state.view(player)
        rng = random.Random(f"{seed}/{player}/{len(state.log)}")
        mid_candidates.TRUE_HANDS[:] = state.hands
        state = state.apply(bots[player].choose(view, rng))
    assert after_play is not None
    end = state.scores
    return (after_play[0], after_play[1]), (end[0] - after_play[0], end[1] - after_play[1]), dealer


def one(args: tuple[int, str]) -> list[tuple[float, float, int]]:
    """For deal `seed`: per seat (0, 1) the candidate's (play, show) net gain over Hard and whether it dealt."""
    seed, name = args
    hard = hard_bot()
    cand = make_candidate(name)
    if isinstance(cand, PolicyBot) and cand.play is hard_play:
        # a discard candidate: where both seats discard as Hard, the copies are the same deal
        start = new_game(seed)
        if all(
            cand.discard(start.view(s), random.Random(0)) == hard_discard(start.view(s), random.Random(0))
            for s in (0, 1)
        ):
            return [(0.0, 0.0, int(start.dealer == s)) for s in (0, 1)]
    base_peg, base_show, dealer = play_deal(seed, (hard, hard))
    out = []
    for seat in (0, 1):
        bots = (cand, hard) if seat == 0 else (hard, cand)
        peg, show, _ = play_deal(seed, bots)
        o = 1 - seat
        d_peg = (peg[seat] - peg[o]) - (base_peg[seat] - base_peg[o])
        d_show = (show[seat] - show[o]) - (base_show[seat] - base_show[o])
        out.append((float(d_peg), float(d_show), int(dealer == seat)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidate", help="hard, peg:W, crib, guesses:N (see the module's text)")
    ap.add_argument("--deals", type=int, default=1000, help="deals (each played with the candidate in both seats)")
    ap.add_argument("--seed", type=int, default=1, help="first deal's seed")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    started = time.perf_counter()
    if args.candidate.startswith("peg"):
        peg_table()  # made once with both cores, before the deals
    work = [(args.seed + i, args.candidate) for i in range(args.deals)]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = [r for deal in pool.imap(one, work, chunksize=4) for r in deal]
    total = [p + s for p, s, _ in rows]
    changed = sum(1 for t, (p, s, _) in zip(total, rows, strict=True) if p or s)
    print(f"candidate {args.candidate}: {args.deals} deals x 2 seats = {len(rows)} pairs, seeds {args.seed}..")
    print(f"  pairs that differ from Hard's copy: {changed}")
    figures = {}
    for label, xs in (
        ("net per deal", total),
        ("  play part", [p for p, _, _ in rows]),
        ("  show part", [s for _, s, _ in rows]),
        ("  as dealer", [p + s for p, s, d in rows if d]),
        ("  as pone", [p + s for p, s, d in rows if not d]),
    ):
        m, se = stats(xs)
        print(f"  {label:<14} {m:+.4f} ± {se:.4f} (s.e.)")
        figures[label.strip().replace(" ", "_")] = {"mean": m, "se": se, "ci95": harness.mean_ci(xs)[1]}
    print(f"  {time.perf_counter() - started:.0f} s")
    harness.report(
        __file__,
        candidate=args.candidate,
        deals=args.deals,
        seed=args.seed,
        differ=changed,
        seconds=time.perf_counter() - started,
        **figures,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
