"""The seer's bound on classic cribbage (issue 47): `python benchmarks/cribbage/bench_seer.py` plays the
Expert told everything hidden (the seer), told only the other hand (the hand seer), and the Expert itself,
each over the same paired games against Hard, and prints their win rates with 95% intervals, the luck left
to each and the seers' gain over the Expert.

Candidates (`--bots expert,hands,seer`): `expert` is the Expert as it ships. `hands` is the Expert whose
guesses at the opponent's hand in the play (`expert_play`'s guesser) are the one true hand. `seer` is told
besides the starter to come and the crib: its discard is the Expert's judged on the truth (each split's
kept hand counted with the true starter, and the crib with the opponent's two cards, those they laid or,
laying first, those Hard's discard lays from the six they hold; far from the end hand plus or minus crib,
near it `split_win_chance` of those exact points), and near the end its play ends each line on the true
crib (`expert_play`'s leaf). The Expert's budget in cribbage is its guesses, not a clock; told the truth one
guess is all of them. The hand seer's discard is the Expert's: the other six would tell it little before the
cut but which of the unseen cards can be the starter.

The games are the arena's (`cribtiles arena --game cribbage --bots expert,hard --seed S` plays the same
deals and generators; the seat's bot is made here, `cribbage_arena.play_game`'s `make`), every candidate on
the same seeds, so its gain over the first is taken seed by seed. The seer never sits in the ladder.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness
import seer

from cribtiles.bot.cribbage.bots import CribbageBot, PolicyBot, hard_discard
from cribtiles.bot.cribbage.crib import default_table
from cribtiles.bot.cribbage.discard import Split, splits
from cribtiles.bot.cribbage.expert import (
    expert_play,
    near_the_end,
    needs_of,
    show_leaf,
    split_win_chance,
    win_discard,
)
from cribtiles.bot.cribbage.levels import make_cribbage_bot
from cribtiles.bot.cribbage.odds import WinOdds, default_win_odds
from cribtiles.bot.cribbage.peg import Ranks
from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.game import CribbageState
from cribtiles.cribbage.show import score_show
from cribtiles.cribbage.view import CribbageView
from cribtiles.table.cribbage import arena
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.runner import run_units

KINDS = ("expert", "hands", "seer")


@dataclass(frozen=True)
class Truth:
    """What is hidden at `table`, read for the seat whose view is given (two players, six-card)."""

    table: CribbageTable

    def state(self, view: CribbageView) -> CribbageState:
        state = self.table.state
        if state.hands[view.player] != view.hand or state.dealer != view.dealer:
            raise RuntimeError("the table's state is not the game of this view")
        return state

    def hand(self, view: CribbageView, guesses: int, rng: random.Random) -> list[Ranks]:
        """The guesser: the opponent's true hand, as the one guess."""
        return [tuple(sorted(c.rank for c in self.state(view).hands[view.opponent]))]

    def leaf(self, view: CribbageView, theirs_four: Ranks, odds: WinOdds) -> Any:
        """The end of a line of the play, on the true crib."""
        state = self.state(view)
        assert state.starter is not None
        crib = score_show(state.crib, state.starter, True).total
        return show_leaf(view, theirs_four, odds, ((crib, 1.0),))

    def their_laid(self, view: CribbageView, rng: random.Random) -> tuple[Card, ...]:
        """The two the opponent lays in the crib: laid already, or what Hard's discard lays from their six."""
        state = self.state(view)
        opponent = view.opponent
        if state.discarded[opponent]:
            return state.discards[opponent]
        return hard_discard(state.view(opponent), rng).discarded

    def discard(self, view: CribbageView, rng: random.Random) -> Split:
        """The Expert's discard judged on the truth: the true starter, the true crib."""
        starter = self.state(view).stock[0]
        theirs = self.their_laid(view, rng)
        dealer = view.dealer == view.player
        near = near_the_end(view)
        best: tuple[float, Split] | None = None
        for s in splits(view.hand):
            hand = score_show(s.kept, starter, False).total
            crib = score_show((*s.discarded, *theirs), starter, True).total
            if near:
                worth = split_win_chance(((hand, 1.0),), ((crib, 1.0),), needs_of(view), dealer, default_win_odds())
            else:
                worth = hand + (crib if dealer else -crib)
            if best is None or worth > best[0] + 1e-12:
                best = (worth, s)
        assert best is not None
        return best[1]


@dataclass(frozen=True)
class Seat:
    """The maker of a seat's bot (`cribbage_arena.SeatBot`): Hard for "hard", the candidate for "expert"."""

    kind: str

    def __call__(self, level: str, table: CribbageTable) -> CribbageBot:
        if level == "hard" or self.kind == "expert":
            return make_cribbage_bot(level)
        truth = Truth(table)
        if self.kind == "hands":
            return PolicyBot("hands", win_discard(), expert_play(guesser=truth.hand))
        return PolicyBot("seer", truth.discard, expert_play(guesser=truth.hand, leaf=truth.leaf))


def pairs_of(results: list[arena.GameResult]) -> list[seer.Pair]:
    """The candidate's (bot 0's) pairs: games 2k and 2k+1 are one seed with the seats swapped."""
    out = []
    for k in range(0, len(results), 2):
        shares, spreads = [], []
        for game in results[k : k + 2]:
            mine = next(s for s in game.seats if s.bot == 0)
            theirs = next(s for s in game.seats if s.bot != 0)
            shares.append(1.0 if mine.won else 0.0)
            spreads.append(float(mine.final - theirs.final))
        out.append(seer.Pair((shares[0], shares[1]), (spreads[0], spreads[1])))
    return out


#: The phases a deal's points come from, as the arena counts them for a seat (`SeatResult`): the play's
#: pegging, and the show (the hand, and the crib for the dealer).
PHASES = ("pegging a deal", "show a deal")


def phase_nets(results: list[arena.GameResult]) -> list[dict[str, float]]:
    """The candidate's points a deal less Hard's, by phase, for each pair (the mean of its two games): where
    its edge is made. Laid beside another candidate's, seed by seed, it says which phase the hidden cards
    pay in."""
    out = []
    for k in range(0, len(results), 2):
        nets = {phase: 0.0 for phase in PHASES}
        for game in results[k : k + 2]:
            mine = next(s for s in game.seats if s.bot == 0)
            theirs = next(s for s in game.seats if s.bot != 0)
            deals = max(1, mine.deals)
            nets["pegging a deal"] += (mine.peg_points - theirs.peg_points) / deals / 2
            nets["show a deal"] += (mine.show_points - theirs.show_points) / deals / 2
        out.append(nets)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="expert,hands,seer", help="candidates, of " + ",".join(KINDS))
    ap.add_argument("--games", type=int, default=2000, help="games for each candidate, two a seed (2000)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed, as the arena's (1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    ap.add_argument("--keep", metavar="DIR", help="keep each seed's games in DIR, and start again where a run stopped")
    args = ap.parse_args()
    kinds = [k.strip() for k in args.bots.split(",")]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        ap.error(f"a candidate is one of {', '.join(KINDS)}, not {unknown[0]!r}")
    pairs_wanted = max(1, -(-args.games // 2))
    print(f"{len(kinds)} candidates against Hard, {2 * pairs_wanted} paired games each, seed {args.seed}")
    default_table(), default_win_odds()  # loaded once, before any candidate's clock starts
    figures: dict[str, Any] = {}
    all_pairs: list[list[seer.Pair]] = []
    all_nets: list[list[dict[str, float]]] = []
    for kind in kinds:
        setup = arena.CribbageArena(("expert", "hard"), pairs_wanted, args.seed)
        folder = seer.kept_folder(args.keep, "cribbage", kind, args.seed)
        kept = seer.kept_count(folder)
        play = seer.Kept(functools.partial(arena.play_pair, setup, make=Seat(kind)), folder)
        cpu = seer.cpu_seconds()
        results, seconds = harness.timed(functools.partial(run_units, pairs_wanted, play, setup.games, args.jobs))
        pairs = pairs_of(results)
        f = seer.candidate_figures(pairs)
        seer.add_costs(f, seer.cpu_seconds() - cpu, seconds, 2 * max(0, pairs_wanted - kept), args.jobs)
        f["failures"] = sum(s.failures for g in results for s in g.seats if s.bot == 0)
        if all_pairs:
            f["gain_over_first"] = seer.gain(pairs, all_pairs[0])
        nets = phase_nets(results)
        f["phases"] = seer.phase_figures(PHASES, nets, all_nets[0] if all_nets else None)
        all_pairs.append(pairs)
        all_nets.append(nets)
        figures[kind] = f
        print(seer.line(kind, f), flush=True)
        print(seer.phase_line(PHASES, f["phases"]), flush=True)
    harness.report(__file__, seed=args.seed, pairs=pairs_wanted, jobs=args.jobs, bots=figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
