"""The seer's bound on the tile game (issue 47): `python benchmarks/tiles/bench_seer.py` plays the Expert
told everything hidden (the seer), told only the other rack (the rack-only seer), and the Expert itself,
each over the same paired games against Hard, and prints their win rates with 95% intervals, the luck
left to each and the seers' gain over the Expert.

Each candidate is `KIND[:SECONDS]` (`--bots seer:1,racks:1,expert:0.25,expert:1`; without seconds,
`--budget`): `expert` is the Expert as it ships; `seer` is the Expert's own search whose every guess of the
hidden tiles (`ExpertBot.guess`) is the truth: the other rack, the bag in its order and the game's seed (which
orders the bag after an exchange); `racks` is told the other rack and draws the bag at random from the rest;
`kept` is told only the tiles the other kept at its last turn (its rack then, less what it laid or gave back)
and draws the rest of its rack with the bag. The tiles it drew since are a draw from the tiles this player
cannot see, on which nothing the other did has depended: so `kept`, not `racks`, is the most that inference
from the other's moves could ever recover. Their search is the Expert's in all else: Hard's 40 best
candidates, three turns of the fast policy, the exact endgame once the bag is empty, the same budget in
`--clock` seconds. Told the truth, every round of continuations is the same, so the seer weighs each candidate
once (six rounds, then all but the best fall behind) and answers well within its budget.

The games are the arena's (`cribtiles arena --bots expert,hard --seed S` plays the same bags, seeds and
turns' generators; the seat's bot is made here, `arena.play_game`'s `make`): every seed is played twice,
the seats swapped, and every candidate meets the same seeds, so its gain over the first candidate is
taken seed by seed. The seer lives here and never in a bot of the ladder.
"""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness
import seer

from cribtiles.bot.tiles.base import Bot
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.bot.tiles.sampling import determinize
from cribtiles.bot.tiles.simulate import DEFAULT_BUDGET, ExpertBot
from cribtiles.rules.game import GameState, PlayerView, new_game
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.record import apply_text
from cribtiles.rules.tiles import Tile
from cribtiles.table import arena
from cribtiles.table.runner import run_units
from cribtiles.table.tiles.table import Table

KINDS = ("expert", "seer", "racks", "kept")


def given_up(move: Move) -> list[Tile]:
    """The tiles `move` takes off the rack, in rack form: those laid, or given back; none for a pass."""
    if isinstance(move, Play):
        return [t.rack_form for t in move.tiles]
    return list(move.tiles) if isinstance(move, Exchange) else []


def kept_at_last_turn(truth: GameState, me: int) -> dict[int, tuple[Tile, ...]]:
    """For each other player who has had a turn, the tiles it kept then: its rack as that turn began, less
    the tiles it laid or gave back (all of it after a pass). Its other tiles it drew since, at random from
    the tiles `me` cannot see. Read by replaying the game's record from its seed."""
    state = new_game(truth.players, truth.options, truth.seed, truth.names)
    kept: dict[int, tuple[Tile, ...]] = {}
    for action in truth.log:
        after = apply_text(state, action)
        for turn in after.turns[len(state.turns) :]:
            rack = list(state.racks[turn.player])
            for t in given_up(turn.move):
                rack.remove(t)
            kept[turn.player] = tuple(rack)
        state = after
    if state.racks != truth.racks or state.board != truth.board:
        raise RuntimeError("the game replayed from its record is not the table's")
    return {p: tiles for p, tiles in kept.items() if p != me}


@dataclass
class Seer(ExpertBot):
    """The Expert whose guesses of the hidden tiles are the truth at `table`: the whole state ("seer"), the
    other racks with the bag drawn at random from the tiles left ("racks"), or only the tiles the others
    kept at their last turns, the rest of their racks drawn with the bag ("kept"). Two players only."""

    name: str = "seer"
    infer: bool = False  # the truth needs no inference
    table: Table | None = None
    told: str = "seer"
    #: The truth of the move being chosen, read from the table once a move.
    world: GameState | None = field(default=None, repr=False)
    #: What "kept" is told of the move being chosen: each other's tiles kept at its last turn.
    kept: dict[int, tuple[Tile, ...]] = field(default_factory=dict, repr=False)

    def choose(self, view: PlayerView, rng: Any, budget: float | None = None) -> Move:
        assert self.table is not None, "a seer sits at a table"
        truth = self.table.state
        if truth.current != view.player or truth.racks[view.player] != view.rack or truth.board != view.board:
            raise RuntimeError("the table's state is not the game of this view")
        self.world = truth
        self.kept = kept_at_last_turn(truth, view.player) if self.told == "kept" else {}
        return super().choose(view, rng, budget)

    def guess(self, view: PlayerView, rng: Any, inferred: dict[int, list[tuple[Tile, ...]]]) -> GameState:
        assert self.world is not None
        if self.told == "seer":
            return self.world
        if self.told == "kept":
            return determinize(view, rng, self.kept)
        return determinize(view, rng, {p: self.world.racks[p] for p in range(view.players) if p != view.player})


@dataclass(frozen=True)
class Seat:
    """The maker of a seat's bot (`arena.SeatBot`): Hard for "hard", the candidate for "expert"."""

    kind: str
    budget: float
    clock: str

    def __call__(self, level: str, table: Table) -> Bot:
        if level == "hard":
            return make_bot("hard")
        tick = arena.CLOCKS[self.clock]
        if self.kind == "expert":
            return ExpertBot(budget=self.budget, clock=tick)
        return Seer(name=self.kind, budget=self.budget, clock=tick, table=table, told=self.kind)


def parse_bots(text: str, budget: float) -> list[tuple[str, float]]:
    out = []
    for item in text.split(","):
        kind, _, seconds = item.strip().partition(":")
        if kind not in KINDS:
            raise SystemExit(f"bench_seer: a candidate is one of {', '.join(KINDS)}, not {kind!r}")
        out.append((kind, float(seconds) if seconds else budget))
    return out


def pairs_of(results: list[arena.GameResult]) -> list[seer.Pair]:
    """The candidate's (bot 0's) pairs: games 2k and 2k+1 are seed k with the seats swapped."""
    out = []
    for k in range(0, len(results), 2):
        shares, spreads = [], []
        for game in results[k : k + 2]:
            seat = next(i for i, s in enumerate(game.seats) if s.bot == 0)
            finals = [s.final for s in game.seats]
            shares.append(game.seats[seat].share)
            spreads.append(float(arena.spread(finals, seat)))
        out.append(seer.Pair((shares[0], shares[1]), (spreads[0], spreads[1])))
    return out


#: The phases of a tile game, by the bag as a turn begins (`phase_of`): its first third drawn, the rest
#: of it, and once it is empty (when every tile a player cannot see is on the other rack); and the racks
#: left at the end, taken off their owners' scores.
PHASES = ("opening", "middle", "bag empty", "racks left")


def phase_of(bag: int, full: int) -> str:
    """
    >>> [phase_of(b, 90) for b in (90, 60, 59, 1, 0)]
    ['opening', 'opening', 'middle', 'middle', 'bag empty']
    """
    if bag == 0:
        return "bag empty"
    return "opening" if 3 * bag >= 2 * full else "middle"


def points_by_phase(game: arena.GameResult, seed: int) -> list[dict[str, float]]:
    """Each player's points in each phase of `game`, replayed from its record (game `seed`'s bag)."""
    players = len(game.seats)
    state = new_game(players, RuleOptions(), seed)
    full = state.bag_size()
    points = [dict.fromkeys(PHASES, 0.0) for _ in range(players)]
    for action in game.log:
        phase, before = phase_of(state.bag_size(), full), len(state.turns)
        state = apply_text(state, action)
        for turn in state.turns[before:]:
            points[turn.player][phase] += turn.points
    if state.outcome is None or list(state.outcome.final_scores) != [seat.final for seat in game.seats]:
        raise RuntimeError(f"game {game.game} replayed from its record does not end as it was played")
    for p, seat in enumerate(game.seats):
        points[p]["racks left"] = seat.final - sum(points[p][phase] for phase in PHASES[:-1])
    return points


def phase_nets(results: list[arena.GameResult], run_seed: int) -> list[dict[str, float]]:
    """The candidate's points less Hard's in each phase, for each pair (the mean of its two games)."""
    out = []
    for k in range(0, len(results), 2):
        nets = dict.fromkeys(PHASES, 0.0)
        for game in results[k : k + 2]:
            points = points_by_phase(game, arena.game_seed(run_seed, k // 2))
            mine = next(p for p, s in enumerate(game.seats) if s.bot == 0)
            for phase in PHASES:
                nets[phase] += (points[mine][phase] - points[1 - mine][phase]) / 2
        out.append(nets)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="expert,racks,seer", help="candidates KIND[:SECONDS], kinds " + ",".join(KINDS))
    ap.add_argument(
        "--budget", type=float, default=DEFAULT_BUDGET, help=f"seconds a move (the Expert's {DEFAULT_BUDGET})"
    )
    ap.add_argument("--games", type=int, default=400, help="games for each candidate, two a seed (400)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed, as the arena's (1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    ap.add_argument("--clock", choices=tuple(arena.CLOCKS), default="cpu", help="what a budget counts (cpu)")
    ap.add_argument("--keep", metavar="DIR", help="keep each seed's games in DIR, and start again where a run stopped")
    args = ap.parse_args()
    bots = parse_bots(args.bots, args.budget)
    seeds = max(1, -(-args.games // 2))
    print(f"{len(bots)} candidates against Hard, {2 * seeds} paired games each, seed {args.seed}, {args.clock} seconds")
    figures: dict[str, Any] = {}
    all_pairs: list[list[seer.Pair]] = []
    all_nets: list[list[dict[str, float]]] = []
    for kind, budget in bots:
        label = f"{kind}:{budget:g}"
        setup = arena.Arena(("expert", "hard"), seeds, args.seed, RuleOptions(), budget, args.clock)
        folder = seer.kept_folder(args.keep, "tiles", f"{label}-{args.clock}", args.seed)
        kept = seer.kept_count(folder)
        play = seer.Kept(functools.partial(arena.play_seed, setup, make=Seat(kind, budget, args.clock)), folder)
        cpu = seer.cpu_seconds()
        results, seconds = harness.timed(functools.partial(run_units, seeds, play, setup.games, args.jobs))
        pairs = pairs_of(results)
        f = seer.candidate_figures(pairs)
        moves = [t for g in results for s in g.seats if s.bot == 0 for t in s.move_seconds]
        f["move_seconds"] = {"median": seer.median(moves), "p95": harness.percentile(moves, 0.95)}
        f["moves_a_game"] = len(moves) / len(results)
        f["seconds"] = seconds
        seer.add_costs(f, seer.cpu_seconds() - cpu, seconds, 2 * max(0, seeds - kept), args.jobs)
        f["failures"] = sum(s.failures for g in results for s in g.seats if s.bot == 0)
        if all_pairs:
            f["gain_over_first"] = seer.gain(pairs, all_pairs[0])
        nets = phase_nets(results, args.seed)
        f["phases"] = seer.phase_figures(PHASES, nets, all_nets[0] if all_nets else None)
        all_pairs.append(pairs)
        all_nets.append(nets)
        figures[label] = f
        print(seer.line(label, f), flush=True)
        print(seer.phase_line(PHASES, f["phases"]), flush=True)
    harness.report(__file__, seed=args.seed, clock=args.clock, seeds=seeds, jobs=args.jobs, bots=figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
