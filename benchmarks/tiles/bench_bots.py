"""Bot move latency: `python benchmarks/tiles/bench_bots.py` prints median, p95 and max seconds per move by level.

Positions: seeded games of the Medium bot against itself, taken early (15% of the turns), mid-game
(50%) and late (90%, often with the bag empty: Expert's endgame search) — 7 games, 21 positions by
default. Every level moves once in every position (`--repeat` for more); Expert thinks with its
default budget of 1.5 s unless `--budget` says otherwise. `--clock cpu` counts that budget, and times
every move, in this process's CPU seconds, so that other work on the machine does not shorten it. The
report adds how many continuations Expert played out per simulated move and how many of its endgame
searches were exact. `--levels beginner,medium --positions 6` shortens the run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import harness

from cribtiles.bot import LEVELS, make_bot
from cribtiles.bot.tiles.simulate import DEFAULT_BUDGET, ExpertBot
from cribtiles.rules import PlayerView, new_game

PHASES = (("early", 0.15), ("mid", 0.5), ("late", 0.9))


def positions(count: int, seed: int) -> list[tuple[str, PlayerView]]:
    """`count` views of the player to move, early, mid and late in seeded Medium-vs-Medium games."""
    medium = make_bot("medium")
    out: list[tuple[str, PlayerView]] = []
    game = 0
    while len(out) < count:
        state = new_game(2, seed=seed + game)
        states = [state]
        while not state.is_over:
            view = state.view(state.current)
            state = state.apply(medium.choose(view, random.Random(f"{seed + game}/{len(state.turns)}")))
            states.append(state)
        playable = states[:-1]  # the last state is over: nobody is to move
        for phase, fraction in PHASES:
            chosen = playable[min(len(playable) - 1, int(fraction * len(playable)))]
            out.append((phase, chosen.view(chosen.current)))
        game += 1
    return out[:count]


@dataclass
class Thinking:
    """What Expert did in the moves timed: continuations played out per simulated move, and how many
    of its endgame searches (bag empty) were exact."""

    continuations: list[int] = field(default_factory=list)
    endgames: int = 0
    exact: int = 0

    def note(self, bot: object) -> None:
        if not isinstance(bot, ExpertBot):
            return
        if bot.last_endgame is not None:
            self.endgames += 1
            self.exact += bot.last_endgame.exact
        elif bot.last_samples:
            self.continuations.append(sum(bot.last_samples.values()))


def latencies(
    level: str,
    views: list[tuple[str, PlayerView]],
    budget: float | None,
    repeat: int,
    thinking: Thinking,
    clock: str,
    fields: dict[str, object] | None = None,
) -> list[float]:
    bot = make_bot(level, budget)
    tick = harness.CLOCKS[clock]
    if isinstance(bot, ExpertBot):
        bot.clock = tick
        for name, value in (fields or {}).items():
            setattr(bot, name, value)
    times = []
    for i, (_, view) in enumerate(views):
        for r in range(repeat):
            rng = random.Random(f"bench/{i}/{r}")
            started = tick()
            bot.choose(view, rng)
            times.append(tick() - started)
            thinking.note(bot)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--levels", default=",".join(LEVELS), help="levels to time, separated by commas (all)")
    ap.add_argument("--positions", type=int, default=21, help="number of positions (21)")
    ap.add_argument("--repeat", type=int, default=1, help="moves per position and level (1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, help=f"Expert's seconds per move (its default, {DEFAULT_BUDGET:g})")
    ap.add_argument(
        "--clock",
        choices=tuple(harness.CLOCKS),
        default="wall",
        help="time moves, and Expert's budget, in wall seconds (wall, as in the window) or in this process's "
        "CPU seconds (cpu: what the figures would be on an idle machine, whatever else runs)",
    )
    ap.add_argument(
        "--set", action="append", default=[], metavar="FIELD=VALUE", help="set a field of the Expert (use_value=true)"
    )
    args = ap.parse_args()
    fields: dict[str, object] = {}
    for item in args.set:
        name, sep, text = item.partition("=")
        try:
            fields[name] = json.loads(text)
        except ValueError:
            sep = ""
        if not sep or not hasattr(ExpertBot(), name):
            ap.error(f"--set takes FIELD=VALUE with a field of the Expert and a value (true, 0.5, 2), not {item!r}")
    levels = [lv.strip().lower() for lv in args.levels.split(",") if lv.strip()]
    bad = [lv for lv in levels if lv not in LEVELS]
    if bad or args.positions < 1 or args.repeat < 1:
        ap.error(f"levels are {', '.join(LEVELS)}; --positions and --repeat must be at least 1")
    views = positions(args.positions, args.seed)
    phases = {p: sum(1 for q, _ in views if q == p) for p, _ in PHASES}
    bag_empty = sum(1 for _, v in views if sum(v.bag_sizes) == 0)
    print(
        f"Crib Tiles bot latency{' (the Expert with ' + ', '.join(args.set) + ')' if args.set else ''}: "
        f"{len(views)} positions ("
        + ", ".join(f"{n} {p}" for p, n in phases.items())
        + f"; {bag_empty} with the bag empty), {args.repeat} move(s) each, seed {args.seed}, {args.clock} seconds"
    )
    print(f"{'level':<10} {'budget':>7} {'median s':>9} {'p95 s':>9} {'max s':>9} {'moves':>6}")
    thinking = Thinking()
    by_level: dict[str, object] = {}
    for level in levels:
        budget = args.budget if level == "expert" else None
        times = latencies(level, views, budget, args.repeat, thinking, args.clock, fields)
        shown = f"{budget if budget is not None else DEFAULT_BUDGET:g}" if level == "expert" else "-"
        print(
            f"{level:<10} {shown:>7} {statistics.median(times):>9.4f} {harness.percentile(times, 0.95):>9.4f}"
            f" {max(times):>9.4f} {len(times):>6}"
        )
        by_level[level] = harness.summary(times)
    if thinking.continuations:
        c = thinking.continuations
        print(
            f"expert: continuations played out per simulated move: median {statistics.median(c):.0f}, "
            f"min {min(c)}, max {max(c)} ({len(c)} moves; a move with one candidate left needs none)"
        )
    if thinking.endgames:
        print(f"expert: endgame searches (bag empty) exact within the budget: {thinking.exact} of {thinking.endgames}")
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} (two cores; the figures depend on it)")
    c = thinking.continuations
    harness.report(
        __file__,
        seconds_a_move=by_level,
        clock=args.clock,
        positions=len(views),
        seed=args.seed,
        continuations_median=statistics.median(c) if c else None,
        endgames_exact=[thinking.exact, thinking.endgames],
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
