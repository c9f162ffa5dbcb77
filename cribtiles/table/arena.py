"""The one arena, for both games: bots play bots over paired games through the game's table, and it
reports win rates, scores and move times (and for cribbage points and skunks: `cribbage_arena`).

`python -m cribtiles.table.arena --bots hard,medium --games 400 --seed 1 --jobs 2` (or `cribtiles arena ...`);
`cribtiles arena --game cribbage --bots hard,medium --games 40 --seed 1` (or `cribtiles cribbage arena ...`).

The tile game (`--game tiles`, the default):

Games are paired: every seed (one shuffled bag) is played once per seating, the seats rotating so that
each bot plays every seat on the same tiles (2 bots: seats swapped; 3-4 bots: n rotations). Luck of
the bag and of the seat then falls on every bot alike. Each move's random generator is derived from
(seed, game, turn), so a run depends only on its arguments, never on `--jobs`.

Figures, for each bot:
- win rate: ties count as a share of the win (half for two tied players), with a 95% Wilson score
  interval over the games (the games of a seed are treated as independent; pairing mostly cancels
  the luck of the bag, so the interval tends to be wide rather than narrow);
- mean score: the final score, after the rack deductions;
- mean spread: own final score minus the best final score among the other players (in a two-player
  game simply own minus the opponent's);
- points per turn: points scored by plays (as declared, under Joker) per turn taken, passes and
  exchanges included;
- seconds per move: median and 95th percentile of the time around the bot's choice, counted by the
  arena's clock (`--clock`: the process's CPU seconds, or wall seconds);
- failures: moves where the bot raised or proposed an illegal move; the greedy move was played instead.

Ctrl-C stops a run at once: the worker processes (which ignore SIGINT, and die with the arena) are
ended, and the figures of the games finished so far are printed, with exit code 130.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cribtiles.bot.cribbage import levels as cribbage_levels
from cribtiles.bot.tiles.base import Bot, choose_safely
from cribtiles.bot.tiles.levels import LEVELS, make_bot
from cribtiles.bot.tiles.simulate import ExpertBot
from cribtiles.cribbage.options import CribbageOptions, Variant
from cribtiles.games import ARENA, GAMES, game_named
from cribtiles.quoting import quoted
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move
from cribtiles.rules.options import Mode, RuleOptions
from cribtiles.terminal import parsed

from .arena_core import (
    GameRecord,
    Layout,
    Outing,
    Reporting,
    SeatRecord,
    Standing,
    bot_labels,
    play_out,
    report_head,
    report_lines,
    report_object,
    rounded,
    run_and_report,
    seatings,
    seeded,
    standing,
    standing_json,
    tail_line,
)
from .arena_core import wilson_interval as wilson_interval
from .cribbage import arena as cribbage_arena
from .cribbage.arena import CribbageArena
from .runner import Interrupted as Interrupted
from .runner import Progress, budget_problem, jobs_problem, run_units
from .seats import Seat
from .tiles.history import TurnRecord
from .tiles.table import BotRequest, Table

MIN_BOTS, MAX_BOTS = 2, 4
SPREAD_DEFINITION = "own final score minus the best final score among the other players"


# --- what to play ---


@dataclass(frozen=True)
class Arena:
    """The bots (by level, one per seat of the first seating), how many seeds, the rules."""

    levels: tuple[str, ...]
    seeds: int
    seed: int
    options: RuleOptions
    budget: float | None = None
    #: What the thinking bots' budget is counted in: CPU seconds of their own process ("cpu", the
    #: default: the figures then do not depend on other work on the machine) or wall seconds ("wall",
    #: as in the window, where a person waits).
    clock: str = "cpu"

    @property
    def labels(self) -> tuple[str, ...]:
        return bot_labels(self.levels)

    @property
    def games(self) -> int:
        return self.seeds * len(self.levels)


def game_seed(seed: int, index: int) -> int:
    """The seed of the index-th bag of a run (string seeding is stable across processes)."""
    return seeded(f"cribtiles-arena/{seed}/bag/{index}")


def move_rng(seed: int, game: int, turn: int) -> random.Random:
    return random.Random(f"cribtiles-arena/{seed}/game/{game}/turn/{turn}")


# --- playing ---


@dataclass(frozen=True, kw_only=True)
class SeatResult(SeatRecord):
    """One seat's game: besides what every arena records, its share of the win, its play points and
    turns, and the seconds of its moves."""

    share: float
    play_points: int
    turns: int
    move_seconds: tuple[float, ...]


@dataclass(frozen=True, kw_only=True)
class GameResult(GameRecord[SeatResult]):
    log: tuple[str, ...] = ()  # the game's record: every action, as the table model wrote it


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def arena_bot(arena: Arena, level: str) -> Bot:
    """A bot of that level, with the arena's budget, timing its thinking by the arena's clock."""
    bot = make_bot(level, arena.budget)
    if isinstance(bot, ExpertBot):
        bot.clock = CLOCKS[arena.clock]
    return bot


#: What makes the bot of a seat, given its level and the table it sits at: the arena's own is the
#: level's bot (`arena_bot`), which sees only its view; a benchmark's yardstick may read the table's
#: hidden tiles through it (`benchmarks/tiles/bench_seer.py`), a bot of the ladder never does.
SeatBot = Callable[[str, Table], Bot]


def play_game(arena: Arena, index: int, rotation: int, make: SeatBot | None = None) -> GameResult:
    """The game of bag `index` with seating `rotation`, played to the end through the table (the
    same turn loop, Joker manners and records as the window's); a bot that raises is counted a
    failure and its move replaced by the greedy one, as is an illegal move (by the table). `make`:
    the seats' bots (default: each level's, `arena_bot`)."""
    n = len(arena.levels)
    seating = seatings(n)[rotation]
    game = index * n + rotation
    seats = [Seat(arena.labels[b], arena.levels[b]) for b in seating]
    table = Table.new(seats, arena.options, seed=game_seed(arena.seed, index))
    made = make or (lambda level, _table: arena_bot(arena, level))
    bots = [_Watched(made(arena.levels[b], table)) for b in seating]

    def choose(request: BotRequest, rng: random.Random) -> tuple[Move, bool]:
        bot = bots[request.seat]
        before = bot.failures
        return choose_safely(bot, request.view, rng, arena.budget), bot.failures > before

    def replaced(record: TurnRecord, move: Move) -> bool:
        return record.turn.move != move

    played = play_out(table, choose, lambda turn: move_rng(arena.seed, game, turn), CLOCKS[arena.clock], replaced)
    return _result(game, table, seating, played.seconds, played.failures)


@dataclass
class _Watched:
    """A bot whose exceptions are counted (and re-raised, for `choose_safely` to catch)."""

    bot: Bot
    name: str = ""
    failures: int = 0

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        try:
            return self.bot.choose(view, rng, budget)
        except Exception:
            self.failures += 1
            raise


def _result(
    game: int, table: Table, seating: Sequence[int], seconds: Sequence[tuple[float, ...]], failures: Sequence[int]
) -> GameResult:
    state = table.state
    assert state.outcome is not None
    shares = state.outcome.returns()
    seats = []
    for p, bot in enumerate(seating):
        mine = [t for t in state.turns if t.player == p]
        seats.append(
            SeatResult(
                bot=bot,
                final=state.outcome.final_scores[p],
                share=shares[p],
                play_points=sum(t.points for t in mine if t.is_play),
                turns=len(mine),
                move_seconds=seconds[p],
                failures=failures[p],
            )
        )
    return GameResult(game=game, seats=tuple(seats), log=state.log)


def play_seed(arena: Arena, index: int, make: SeatBot | None = None) -> list[GameResult]:
    """Every seating of bag `index`: the unit of work of a worker process."""
    return [play_game(arena, index, r, make) for r in range(len(arena.levels))]


def run(arena: Arena, jobs: int = 1, progress: Progress | None = None, make: SeatBot | None = None) -> list[GameResult]:
    """Play the whole arena (in `jobs` processes), the games in order whatever finished first; `make`
    (which must pickle, for the workers) as in `play_game`.

    Ctrl-C (KeyboardInterrupt) ends the workers at once and raises `Interrupted` with the games done."""
    return run_units(arena.seeds, functools.partial(play_seed, arena, make=make), arena.games, jobs, progress)


# --- figures ---


def spread(finals: Sequence[int], seat: int) -> int:
    """Own final score minus the best of the others' (2 players: minus the opponent's)."""
    return finals[seat] - max(s for p, s in enumerate(finals) if p != seat)


@dataclass(frozen=True, kw_only=True)
class BotSummary(Standing):
    """A bot's standing, with its play points per turn and its games in each seat."""

    points_per_turn: float
    seats: tuple[int, ...]


def summarize(arena: Arena, results: Sequence[GameResult]) -> list[BotSummary]:
    return [_summarize_bot(arena, b, results) for b in range(len(arena.levels))]


def _summarize_bot(arena: Arena, bot: int, results: Sequence[GameResult]) -> BotSummary:
    n = len(arena.levels)
    mine: list[tuple[int, SeatResult, tuple[int, ...]]] = []
    for game in results:
        finals = tuple(s.final for s in game.seats)
        mine.extend((seat, s, finals) for seat, s in enumerate(game.seats) if s.bot == bot)
    turns = sum(s.turns for _, s, _ in mine)
    seat_games = [0] * n
    for seat, _, _ in mine:
        seat_games[seat] += 1
    outings = [Outing(s.share, s.final, spread(f, seat), s.move_seconds, s.failures) for seat, s, f in mine]
    return BotSummary(
        **vars(standing(arena.labels[bot], outings)),
        points_per_turn=sum(s.play_points for _, s, _ in mine) / turns if turns else 0.0,
        seats=tuple(seat_games),
    )


def report_json(
    arena: Arena, summaries: Sequence[BotSummary], seconds: float, finished: int | None = None
) -> dict[str, Any]:
    """The --json object (only `seconds` and each `move_seconds` depend on the machine).

    `finished`: the games played when Ctrl-C stopped the run (None: it ran to the end). `games` is
    always the number of games the figures are about, `games_planned` what the run was asked for."""

    bots = {
        s.label: standing_json(
            s,
            "move_seconds",
            figures={"points_per_turn": rounded(s.points_per_turn)},
            after={"seat_games": list(s.seats)},
        )
        for s in summaries
    }
    return report_object(
        report_head(arena.games, finished, arena.seed),
        seconds,
        bots,
        setup={"rules": arena.options.to_text(), "clock": arena.clock},
        notes={"spread": SPREAD_DEFINITION},
    )


#: The text report's columns.
LAYOUT = Layout(label=12, score=7, seconds="s/move median", digits=4)


def report_text(arena: Arena, summaries: Sequence[BotSummary], seconds: float, finished: int | None = None) -> str:
    n = len(arena.levels)
    head = (
        f"Crib Tiles arena: {' vs '.join(arena.labels)}, {arena.games} games "
        f"({arena.seeds} bags x {n} seatings), seed {arena.seed}\n"
        f"rules: {arena.options.to_text()}"
        + (f"; budget {arena.budget:g} s per move" if arena.budget is not None else "")
        + (
            "; thinking timed in CPU seconds (--clock cpu)"
            if arena.clock == "cpu"
            else "; thinking timed in wall seconds"
        )
    )
    rows = [LAYOUT.row(s, f"{s.points_per_turn:>8.2f}") for s in summaries]
    legend = (
        f"Ties count a share of the win. spread = {SPREAD_DEFINITION}.\n"
        "pts/turn = play points per turn taken; "
        f"s/move = {'CPU' if arena.clock == 'cpu' else 'wall'} seconds per move."
    )
    return report_lines(head, LAYOUT.columns("pts/turn"), rows, legend, tail_line(arena.games, finished, seconds))


#: How the one arena runs and reports a tile game setup.
REPORTING = Reporting(run, summarize, report_text, report_json)


# --- the command line ---


#: Each game's games when --games is not given.
DEFAULT_GAMES = {"tiles": 100, "cribbage": 400}
#: The options of the tile game only, as argparse names them, and their defaults.
TILE_ONLY = {"mode": None, "rules": "", "budget": None, "clock": "cpu"}

Setup = Arena | CribbageArena


def add_arguments(ap: argparse.ArgumentParser, game: str = "tiles") -> None:
    """The arena's options on `ap`: the `cribtiles arena` subcommand's parser, `cribtiles cribbage
    arena`'s (whose game is cribbage), or this module's own (`python -m cribtiles.table.arena`).
    `prepare` checks them."""
    ap.description = (
        "Measure bots against each other over paired games (the same bag or deals, seats rotated), "
        "in the tile game or in classic cribbage (--game cribbage)."
    )
    ap.add_argument("--game", choices=tuple(GAMES), default=game, help=f"the game the bots play ({game})")
    ap.add_argument(
        "--bots",
        required=True,
        help=f"2-4 levels separated by commas, from {', '.join(LEVELS)} "
        f"(cribbage: two, from {', '.join(cribbage_levels.LEVELS)})",
    )
    ap.add_argument(
        "--games",
        type=int,
        help="total games, rounded up to whole rotations (tiles: 100, cribbage: 400)",
    )
    ap.add_argument("--seed", type=int, default=1, help="seed of the whole run (1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (one per core)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    tiles = ap.add_argument_group("the tile game")
    tiles.add_argument("--mode", choices=tuple(Mode), help="solitaire: two bots as Dark and Light")
    tiles.add_argument("--rules", default="", help="rule options, like start=high,exchange=any-time,joker=on")
    tiles.add_argument("--budget", type=float, help="seconds per move for the bots that think (Expert: 1.5)")
    tiles.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="cpu",
        help="what a thinking bot's budget counts: its own CPU seconds (cpu, the default: other work on the "
        "machine does not weaken it) or wall seconds (wall, as in the window)",
    )
    cribbage = ap.add_argument_group("classic cribbage")
    cribbage.add_argument("--muggins", action="store_true", help="play with the muggins rule")
    cribbage.add_argument(
        "--variant",
        choices=tuple(v.value for v in Variant),
        default=Variant.SIX_CARD.value,
        help="six-card (two bots, the default), five-card (two bots, to 61), three-player (three bots), "
        "partnership (two bots, one a side)",
    )


def parse_arena(argv: Sequence[str], game: str = "tiles") -> tuple[Setup, int, bool]:
    """The arena, the number of jobs and whether to print JSON; bad arguments exit with code 2."""
    name = f"{game_named(game).command} arena"
    return arena_from(*parsed(name, functools.partial(add_arguments, game=game), argv))


def arena_from(ap: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[Setup, int, bool]:
    """The arena of parsed arguments, the number of jobs and whether to print JSON; arguments that do not
    make an arena are refused as argparse refuses (`ap.error`: the usage, the reason, exit code 2)."""
    games = DEFAULT_GAMES[args.game] if args.games is None else args.games
    if games < 1:
        ap.error("--games must be at least 1")
    problem = jobs_problem(args.jobs)
    if problem:
        ap.error(problem)
    levels = tuple(b.strip().lower() for b in args.bots.split(","))
    made = game_named(args.game).part(ARENA)  # the game's own arena, its flags checked
    return made(ap, args, levels, games), args.jobs, args.json


def tile_arena(ap: argparse.ArgumentParser, args: argparse.Namespace, levels: tuple[str, ...], games: int) -> Arena:
    unknown = [b for b in levels if b not in LEVELS]
    if unknown:
        ap.error(f"there is no bot level {quoted(unknown[0])}; the levels are {', '.join(LEVELS)}")
    if not MIN_BOTS <= len(levels) <= MAX_BOTS:
        ap.error(f"an arena needs {MIN_BOTS} to {MAX_BOTS} bots, not {len(levels)}")
    if args.muggins:
        ap.error("--muggins is a rule of classic cribbage: give --game cribbage")
    if args.variant != Variant.SIX_CARD.value:
        ap.error("--variant is a variant of classic cribbage: give --game cribbage")
    problem = budget_problem(args.budget)
    if problem:
        ap.error(problem)
    try:
        options = RuleOptions.parse(args.rules)
        if args.mode is not None:
            options = replace(options, mode=args.mode)
    except ValueError as e:
        ap.error(f"--rules: {e}")
    if options.rounds != 1:
        ap.error("the arena plays single games: leave out rounds=")
    if options.solitaire and len(levels) != 2:
        ap.error("Solitaire is played by two sides, Dark and Light: give exactly 2 bots")
    seeds = -(-games // len(levels))
    return Arena(levels, seeds, args.seed, options, args.budget, args.clock)


def cribbage_arena_of(
    ap: argparse.ArgumentParser, args: argparse.Namespace, levels: tuple[str, ...], games: int
) -> CribbageArena:
    unknown = [b for b in levels if b not in cribbage_levels.LEVELS]
    if unknown:
        ap.error(
            f"there is no cribbage bot level {quoted(unknown[0])}; the levels are {', '.join(cribbage_levels.LEVELS)}"
        )
    variant = Variant(args.variant)
    bots = 3 if variant is Variant.THREE else cribbage_arena.SEATS
    if len(levels) != bots:
        ap.error(
            f"a cribbage arena{'' if bots == 2 else ' of three players'} needs exactly {bots} bots, not {len(levels)}"
        )
    given = [f"--{name}" for name, default in TILE_ONLY.items() if getattr(args, name) != default]
    if given:
        ap.error(f"{given[0]} is for the tile game, not for cribbage")
    pairs = -(-games // bots)
    target = 61 if variant is Variant.FIVE_CARD else 121
    options = CribbageOptions(muggins=args.muggins, variant=variant, target=target)
    return CribbageArena(levels, pairs, args.seed, options)


def prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles arena` (and `cribtiles cribbage arena`): the run that the parsed arguments ask for
    (checked by `arena_from`)."""
    return functools.partial(run_setup, *arena_from(ap, args))


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m cribtiles.table.arena ...`: as `cribtiles arena ...` (bad arguments exit with code 2)."""
    return run_setup(*parse_arena(sys.argv[1:] if argv is None else list(argv)))


def run_setup(setup: Setup, jobs: int, as_json: bool) -> int:
    """Run the arena `setup`, of either game, and print its report (`arena_core.run_and_report`)."""
    if isinstance(setup, CribbageArena):
        return run_and_report(cribbage_arena.REPORTING, setup, jobs, as_json)
    return run_and_report(REPORTING, setup, jobs, as_json)


if __name__ == "__main__":
    # Run the module's own import, so that worker processes unpickle cribtiles.table.arena, not __main__.
    from cribtiles.table.arena import main as _main

    raise SystemExit(_main())
