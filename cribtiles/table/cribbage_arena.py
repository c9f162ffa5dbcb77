"""The cribbage arena: two cribbage bots play paired games, and it reports win rates, points and skunks.

`cribtiles cribbage arena --bots hard,medium --games 400 --seed 1 --jobs 2` (or `python -m
cribtiles.table.cribbage_arena ...`).

Games are paired deals: games 2k and 2k+1 are the same game seed (the same cut, the same cards in every
deal) with the bots' seats swapped, so each bot holds the other's cards in the other game and the luck of
the deal falls on both alike. Each decision's random generator comes from (seed, game, decision), so a
run depends only on its arguments, never on `--jobs`.

Figures, for each bot: the win rate with a 95% Wilson score interval over the games; the mean final
score and spread (own minus the opponent's); skunks and double skunks inflicted (the loser under 91 or
61); points pegged in the play and counted in the show (hand and crib) per deal; seconds per decision
(median and 95th percentile); failures (a bot that raised or proposed an illegal move; the first legal
move was made instead).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cribtiles.bot.cribbage_bots import CribbageBot, choose_reporting
from cribtiles.bot.cribbage_levels import LEVELS, make_cribbage_bot
from cribtiles.cribbage.events import MarginKind
from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.cribbage.options import CribbageOptions
from cribtiles.cribbage.peg import PegKind
from cribtiles.cribbage.show import ShowKind
from cribtiles.quoting import quoted
from cribtiles.signals import sigint_ignored
from cribtiles.terminal import parsed, say

from .arena import CI_METHOD, EXIT_INTERRUPTED, percentile, wilson_interval
from .runner import Interrupted, Progress, jobs_problem, run_units

SEATS = 2
#: A game ends long before this many moves (about 9 deals of some 20 moves); more means a bot is stuck.
MAX_MOVES = 2000


@dataclass(frozen=True)
class CribbageArena:
    """The two bots (by level, in seats 0 and 1 of each even game), how many pairs of games, the seed."""

    levels: tuple[str, str]
    pairs: int
    seed: int
    options: CribbageOptions = field(default_factory=CribbageOptions)

    @property
    def games(self) -> int:
        return SEATS * self.pairs

    @property
    def labels(self) -> tuple[str, str]:
        a, b = self.levels
        return (a, b) if a != b else (a, f"{b}#2")


def game_seed(seed: int, pair: int) -> int:
    """The game seed of the pair-th pair of games (string seeding is stable across processes)."""
    return random.Random(f"cribtiles-cribbage-arena/{seed}/pair/{pair}").getrandbits(32)


def decision_rng(seed: int, game: int, decision: int) -> random.Random:
    return random.Random(f"cribtiles-cribbage-arena/{seed}/game/{game}/decision/{decision}")


def seating(game: int) -> tuple[int, int]:
    """Which bot sits in seat 0 and seat 1: swapped in the second game of each pair.

    >>> seating(0), seating(1), seating(6)
    ((0, 1), (1, 0), (0, 1))
    """
    return (0, 1) if game % 2 == 0 else (1, 0)


# --- playing ---


@dataclass(frozen=True)
class SeatResult:
    bot: int
    final: int
    won: bool
    margin: MarginKind | None  # how this seat won (None when it lost)
    peg_points: int
    show_points: int
    deals: int
    decision_seconds: tuple[float, ...]
    failures: int


@dataclass(frozen=True)
class GameResult:
    game: int
    seed: int
    seats: tuple[SeatResult, SeatResult]
    moves: tuple[str, ...]  # the game's record, as notation


def play_game(arena: CribbageArena, game: int) -> GameResult:
    """Game number `game` of the run, played to the end."""
    seats = seating(game)
    bots: list[CribbageBot] = [make_cribbage_bot(arena.levels[b]) for b in seats]
    seed = game_seed(arena.seed, game // 2)
    state = new_game(seed, (arena.labels[seats[0]], arena.labels[seats[1]]), arena.options)
    times: list[list[float]] = [[], []]
    failures = [0, 0]
    peg = [0, 0]
    show = [0, 0]
    for decision in range(MAX_MOVES):
        if state.is_over:
            break
        player = state.current_player
        assert player is not None
        started = time.perf_counter()
        move, failure = choose_reporting(bots[player], state.view(player), decision_rng(arena.seed, game, decision))
        times[player].append(time.perf_counter() - started)
        failures[player] += bool(failure)
        state = state.apply(move)
        for event in state.events:
            if isinstance(event.kind, PegKind):
                peg[event.player] += event.points
            elif isinstance(event.kind, ShowKind):
                show[event.player] += event.points
    else:
        raise RuntimeError(f"game {game} (seed {seed}) did not end in {MAX_MOVES} moves")
    return GameResult(game, seed, _seat_results(state, seats, times, failures, peg, show), state.log)


def _seat_results(
    state: CribbageState,
    seats: tuple[int, int],
    times: list[list[float]],
    failures: list[int],
    peg: list[int],
    show: list[int],
) -> tuple[SeatResult, SeatResult]:
    outcome = state.outcome
    assert outcome is not None
    results = tuple(
        SeatResult(
            bot=seats[p],
            final=outcome.scores[p],
            won=outcome.winner == p,
            margin=outcome.margin_kind if outcome.winner == p else None,
            peg_points=peg[p],
            show_points=show[p],
            deals=state.deal_number,
            decision_seconds=tuple(times[p]),
            failures=failures[p],
        )
        for p in range(SEATS)
    )
    return (results[0], results[1])


def play_pair(arena: CribbageArena, pair: int) -> list[GameResult]:
    """Both games of a pair: the unit of work of a worker process."""
    return [play_game(arena, 2 * pair), play_game(arena, 2 * pair + 1)]


def run(arena: CribbageArena, jobs: int = 1, progress: Progress | None = None) -> list[GameResult]:
    """Play every game (in `jobs` processes), the results in game order whatever finished first."""
    return run_units(arena.pairs, functools.partial(play_pair, arena), arena.games, jobs, progress)


# --- figures ---


@dataclass(frozen=True)
class BotSummary:
    label: str
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_score: float
    mean_spread: float
    skunks: int
    double_skunks: int
    peg_per_deal: float
    show_per_deal: float
    decision_median: float
    decision_p95: float
    failures: int


def summarize(arena: CribbageArena, results: Sequence[GameResult]) -> list[BotSummary]:
    return [_summarize_bot(arena, b, results) for b in range(SEATS)]


def _summarize_bot(arena: CribbageArena, bot: int, results: Sequence[GameResult]) -> BotSummary:
    mine = [(s, g.seats[1 - p]) for g in results for p, s in enumerate(g.seats) if s.bot == bot]
    games = len(mine)
    wins = sum(s.won for s, _ in mine)
    deals = sum(s.deals for s, _ in mine)
    times = [t for s, _ in mine for t in s.decision_seconds]
    return BotSummary(
        label=arena.labels[bot],
        games=games,
        wins=wins,
        win_rate=wins / games if games else 0.0,
        ci95=wilson_interval(wins, games),
        mean_score=statistics.fmean(s.final for s, _ in mine) if games else 0.0,
        mean_spread=statistics.fmean(s.final - o.final for s, o in mine) if games else 0.0,
        skunks=sum(s.margin is not None and s.margin is not MarginKind.WIN for s, _ in mine),
        double_skunks=sum(s.margin is MarginKind.DOUBLE_SKUNK for s, _ in mine),
        peg_per_deal=sum(s.peg_points for s, _ in mine) / deals if deals else 0.0,
        show_per_deal=sum(s.show_points for s, _ in mine) / deals if deals else 0.0,
        decision_median=statistics.median(times) if times else 0.0,
        decision_p95=percentile(times, 0.95),
        failures=sum(s.failures for s, _ in mine),
    )


def report_json(
    arena: CribbageArena, summaries: Sequence[BotSummary], seconds: float, finished: int | None = None
) -> dict[str, Any]:
    """The --json object (only `seconds` and each `decision_seconds` depend on the machine)."""

    def r(x: float) -> float:
        return round(x, 6)

    return {
        "game": "classic cribbage",
        "games": arena.games if finished is None else finished,
        "games_planned": arena.games,
        "interrupted": finished is not None,
        "seed": arena.seed,
        "muggins": arena.options.muggins,
        "target": arena.options.target,
        "ci95_method": CI_METHOD,
        "seconds": r(seconds),
        "bots": {
            s.label: {
                "games": s.games,
                "wins": s.wins,
                "win_rate": r(s.win_rate),
                "ci95": [r(s.ci95[0]), r(s.ci95[1])],
                "mean_score": r(s.mean_score),
                "mean_spread": r(s.mean_spread),
                "skunks": s.skunks,
                "double_skunks": s.double_skunks,
                "peg_per_deal": r(s.peg_per_deal),
                "show_per_deal": r(s.show_per_deal),
                "decision_seconds": {"median": r(s.decision_median), "p95": r(s.decision_p95)},
                "failures": s.failures,
            }
            for s in summaries
        },
    }


def report_text(
    arena: CribbageArena, summaries: Sequence[BotSummary], seconds: float, finished: int | None = None
) -> str:
    head = (
        f"Crib Tiles cribbage arena: {' vs '.join(arena.labels)}, {arena.games} games "
        f"({arena.pairs} paired deals, seats swapped), seed {arena.seed}"
        + (", muggins" if arena.options.muggins else "")
    )
    columns = (
        f"{'bot':<10} {'win rate':>8}  {'95% CI (Wilson)':<16} {'score':>6} {'spread':>7} {'skunks':>6} "
        f"{'peg/deal':>8} {'show/deal':>9} {'s/decision median':>17} {'p95':>7} {'failures':>8}"
    )
    rows = [
        f"{s.label:<10} {s.win_rate:>8.1%}  [{s.ci95[0]:5.1%}, {s.ci95[1]:5.1%}] {s.mean_score:>6.1f} "
        f"{s.mean_spread:>+7.1f} {s.skunks:>6} {s.peg_per_deal:>8.2f} {s.show_per_deal:>9.2f} "
        f"{s.decision_median:>17.5f} {s.decision_p95:>7.4f} {s.failures:>8}"
        for s in summaries
    ]
    legend = (
        "spread = own final score minus the opponent's; skunks = wins with the loser under 91 (double: 61);\n"
        "peg/deal = points pegged in the play per deal; show/deal = hand and crib points per deal."
    )
    if finished is None:
        tail = f"{arena.games} games in {seconds:.1f} s"
    else:
        tail = f"Interrupted (Ctrl-C) after {finished} of {arena.games} games, in {seconds:.1f} s."
    return "\n".join([head, columns, *rows, legend, tail])


# --- the command line ---


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The arena's options on `ap`: the `cribtiles cribbage arena` subcommand's parser, or this module's
    own (`python -m cribtiles.table.cribbage_arena`). `prepare` checks them."""
    ap.description = "Measure cribbage bots against each other over paired deals (the same cards, seats swapped)."
    ap.add_argument("--bots", required=True, help=f"two levels separated by a comma, from {', '.join(LEVELS)}")
    ap.add_argument("--games", type=int, default=400, help="total games, rounded up to whole pairs (400)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the whole run (1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (one per core)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    ap.add_argument("--muggins", action="store_true", help="play with the muggins rule")


def parse_arena(argv: Sequence[str]) -> tuple[CribbageArena, int, bool]:
    """As the tile arena's `parse_arena`: the arena, its jobs, JSON or not; bad arguments exit with code 2."""
    return arena_from(*parsed("cribtiles cribbage arena", add_arguments, argv))


def arena_from(ap: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[CribbageArena, int, bool]:
    """As the tile arena's `arena_from`, for two cribbage bots (refused with `ap.error`)."""
    levels = tuple(b.strip().lower() for b in args.bots.split(","))
    unknown = [b for b in levels if b not in LEVELS]
    if unknown:
        ap.error(f"there is no cribbage bot level {quoted(unknown[0])}; the levels are {', '.join(LEVELS)}")
    if len(levels) != SEATS:
        ap.error(f"a cribbage arena needs exactly 2 bots, not {len(levels)}")
    if args.games < 1:
        ap.error("--games must be at least 1")
    if jobs_problem(args.jobs):
        ap.error(jobs_problem(args.jobs))
    pairs = -(-args.games // SEATS)
    options = CribbageOptions(muggins=args.muggins)
    return CribbageArena((levels[0], levels[1]), pairs, args.seed, options), args.jobs, args.json


def prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles cribbage arena`: the run that the parsed arguments ask for (checked by `arena_from`)."""
    return functools.partial(run_and_report, *arena_from(ap, args))


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m cribtiles.table.cribbage_arena ...`: as `cribtiles cribbage arena ...` (bad arguments
    exit with code 2)."""
    return run_and_report(*parse_arena(sys.argv[1:] if argv is None else list(argv)))


def run_and_report(arena: CribbageArena, jobs: int, as_json: bool) -> int:
    """Run the arena and print its report; 0, or 130 when Ctrl-C stopped it (the report covers the games done)."""
    started = time.perf_counter()
    try:
        finished: int | None = None
        try:
            results = run(arena, jobs)
        except Interrupted as stop:
            results, finished = stop.results, len(stop.results)
        with sigint_ignored():
            summaries = summarize(arena, results)
            seconds = time.perf_counter() - started
            if as_json:
                print(json.dumps(report_json(arena, summaries, seconds, finished), indent=2))
            else:
                print(report_text(arena, summaries, seconds, finished))
            sys.stdout.flush()
    except KeyboardInterrupt:
        say("cribtiles cribbage arena: interrupted.")
        return EXIT_INTERRUPTED
    return 0 if finished is None else EXIT_INTERRUPTED


if __name__ == "__main__":
    # Run the module's own import, so that worker processes unpickle cribtiles.table.cribbage_arena.
    from cribtiles.table.cribbage_arena import main as _main

    raise SystemExit(_main())
