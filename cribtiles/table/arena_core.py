"""What the arena does alike for every game: bots play a game to its end through the table's own turn
loop (`core.GameTable`: its `BotRequest`s, `play_bot`), each decision timed and seeded by the arena;
the records of a game and of its seats; each bot's standing (win rate, score, spread, seconds, failures)
and the report of it, as JSON and as text; and the run with its progress bar and Ctrl-C. Each game's
arena (`arena` for tiles, `cribbage_arena`) says how its games are set up and what more it reports.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from cribtiles.signals import sigint_ignored
from cribtiles.terminal import say

from .core import BotRequest, GameTable
from .runner import Interrupted, Progress

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054
CI_METHOD = "wilson score interval over games, ties counted as a share of the win"
#: The exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

V = TypeVar("V")
M = TypeVar("M")
R = TypeVar("R")
G = TypeVar("G")


# --- what the arena records of a game ---


@dataclass(frozen=True, kw_only=True)
class SeatRecord:
    """What every game's arena records of a seat: the bot that sat there (its index in the arena's
    levels), its final score and its failures. Each game's `SeatResult` adds its own points and times."""

    bot: int
    final: int
    failures: int


S = TypeVar("S", bound=SeatRecord)


@dataclass(frozen=True, kw_only=True)
class GameRecord(Generic[S]):
    """What every game's arena records of a game: its number in the run and its seats, in seat order.
    Each game's `GameResult` adds its record of the play."""

    game: int
    seats: tuple[S, ...]


@dataclass(frozen=True)
class Played:
    """What the arena measured of each seat over a game: its decisions' seconds and its failures (a bot
    that raised, or proposed a move the table refused)."""

    seconds: tuple[tuple[float, ...], ...]
    failures: tuple[int, ...]


def play_out(
    table: GameTable[V, M, R],
    choose: Callable[[BotRequest[V], random.Random], tuple[M, bool]],
    rng: Callable[[int], random.Random],
    clock: Callable[[], float],
    replaced: Callable[[R, M], bool] = lambda made, move: False,
    most_moves: int = 100_000,
) -> Played:
    """Play the game at `table` (bots in every seat) to its end through the table's turn loop: for each
    turn the table's request, the move chosen by `choose` (with `rng(turn)`, and whether the bot
    failed), timed by `clock`, then made by `play_bot`; `replaced` tells a move the table replaced."""
    seconds: list[list[float]] = [[] for _ in table.seats]
    failures = [0] * len(table.seats)
    for _ in range(most_moves):
        if table.is_over or table.to_move is None:
            return Played(tuple(tuple(s) for s in seconds), tuple(failures))
        request = table.bot_request()
        started = clock()
        move, failed = choose(request, rng(request.turn))
        seconds[request.seat].append(clock() - started)
        made = table.play_bot(move, request)
        failures[request.seat] += failed or replaced(made, move)
    raise RuntimeError(f"the game did not end in {most_moves} moves: a bot is stuck")


def bot_labels(levels: Sequence[str]) -> tuple[str, ...]:
    """Names for the report: a level given again gets a number.

    >>> bot_labels(["medium", "hard", "medium"])
    ('medium', 'hard', 'medium#2')
    """
    seen: dict[str, int] = {}
    out = []
    for level in levels:
        seen[level] = seen.get(level, 0) + 1
        out.append(level if seen[level] == 1 else f"{level}#{seen[level]}")
    return tuple(out)


def seeded(text: str) -> int:
    """A game seed drawn from `text` (string seeding is stable across processes)."""
    return random.Random(text).getrandbits(32)


def seatings(n: int) -> list[tuple[int, ...]]:
    """For each rotation, the bot in each seat: every bot sits in every seat once.

    >>> seatings(3)
    [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    """
    return [tuple((seat + r) % n for seat in range(n)) for r in range(n)]


# --- figures ---


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (`successes` may be fractional: ties count a share).

    >>> [round(x, 3) for x in wilson_interval(15, 20)]
    [0.531, 0.888]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (`q` from 0 to 1); 0 for no values.

    >>> percentile([5, 1, 4, 2, 3], 0.95)
    5
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def rounded(x: float) -> float:
    """A figure as the JSON report gives it."""
    return round(x, 6)


@dataclass(frozen=True, kw_only=True)
class Standing:
    """A bot's figures that every game's arena gives: its games, its win rate with the 95% interval, its
    mean final score and spread, the seconds of its decisions (median, 95th percentile) and its failures.
    Each game's `BotSummary` adds its own."""

    label: str
    games: int
    win_rate: float
    ci95: tuple[float, float]
    mean_score: float
    mean_spread: float
    seconds_median: float
    seconds_p95: float
    failures: int


@dataclass(frozen=True)
class Outing:
    """A bot's part in one game, as its standing counts it: its share of the win (ties: a part), its
    final score, its spread, the seconds of its decisions and its failures."""

    share: float
    final: int
    spread: int
    seconds: tuple[float, ...]
    failures: int


def standing(label: str, outings: Sequence[Outing]) -> Standing:
    """The standing of the bot `label` over its games."""
    games = len(outings)
    wins = sum(o.share for o in outings)
    times = [t for o in outings for t in o.seconds]
    return Standing(
        label=label,
        games=games,
        win_rate=wins / games if games else 0.0,
        ci95=wilson_interval(wins, games),
        mean_score=statistics.fmean(o.final for o in outings) if games else 0.0,
        mean_spread=statistics.fmean(o.spread for o in outings) if games else 0.0,
        seconds_median=statistics.median(times) if times else 0.0,
        seconds_p95=percentile(times, 0.95),
        failures=sum(o.failures for o in outings),
    )


def standing_json(
    s: Standing,
    seconds: str,
    counts: Mapping[str, Any] | None = None,
    figures: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A bot's entry in the --json object: its standing, with the game's own `counts` (after its games),
    `figures` (after its spread) and `after` (last); `seconds` names the decisions' seconds."""
    r = rounded
    return {
        "games": s.games,
        **(counts or {}),
        "win_rate": r(s.win_rate),
        "ci95": [r(s.ci95[0]), r(s.ci95[1])],
        "mean_score": r(s.mean_score),
        "mean_spread": r(s.mean_spread),
        **(figures or {}),
        seconds: {"median": r(s.seconds_median), "p95": r(s.seconds_p95)},
        "failures": s.failures,
        **(after or {}),
    }


def report_head(games: int, finished: int | None, seed: int) -> dict[str, Any]:
    """The JSON report's first keys, the same for every game. `finished`: the games played when Ctrl-C
    stopped the run (None: it ran to the end); `games` is always the number the figures are about."""
    return {
        "games": games if finished is None else finished,
        "games_planned": games,
        "interrupted": finished is not None,
        "seed": seed,
    }


def report_object(
    head: dict[str, Any],
    seconds: float,
    bots: dict[str, dict[str, Any]],
    first: Mapping[str, Any] | None = None,
    setup: Mapping[str, Any] | None = None,
    notes: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The --json object: the game's `first` keys, the `head` (`report_head`), its `setup`, how the
    interval is made and the game's other `notes`, the run's seconds and each bot's entry."""
    return {
        **(first or {}),
        **head,
        **(setup or {}),
        "ci95_method": CI_METHOD,
        **(notes or {}),
        "seconds": rounded(seconds),
        "bots": bots,
    }


@dataclass(frozen=True)
class Layout:
    """The columns of a text report's rows: the widths of the label, the score and the seconds' median
    (headed `seconds`, shown with `digits` decimals); the game's own columns come between the spread
    and the seconds."""

    label: int
    score: int
    seconds: str
    digits: int

    def columns(self, own: str) -> str:
        return (
            f"{'bot':<{self.label}} {'win rate':>8}  {'95% CI (Wilson)':<16} {'score':>{self.score}} {'spread':>7} "
            f"{own} {self.seconds:>{len(self.seconds)}} {'p95':>7} {'failures':>8}"
        )

    def row(self, s: Standing, own: str) -> str:
        return (
            f"{s.label:<{self.label}} {s.win_rate:>8.1%}  [{s.ci95[0]:5.1%}, {s.ci95[1]:5.1%}] "
            f"{s.mean_score:>{self.score}.1f} {s.mean_spread:>+7.1f} {own} "
            f"{s.seconds_median:>{len(self.seconds)}.{self.digits}f} {s.seconds_p95:>7.4f} {s.failures:>8}"
        )


def report_lines(head: str, columns: str, rows: Sequence[str], legend: str, tail: str) -> str:
    """The text report: what was played, the figures' header, a row for each bot, what they mean, and
    how long it took (or where Ctrl-C stopped it)."""
    return "\n".join([head, columns, *rows, legend, tail])


def interrupted_line(games: int, finished: int, seconds: float) -> str:
    return (
        f"Interrupted (Ctrl-C) after {finished} of {games} games, in {seconds:.1f} s: "
        f"the figures are for the {finished} games finished."
    )


def tail_line(games: int, finished: int | None, seconds: float) -> str:
    return f"{games} games in {seconds:.1f} s" if finished is None else interrupted_line(games, finished, seconds)


# --- the run ---


class ArenaSetup(Protocol):
    """What the run asks of an arena's setup, whatever its game: how many games it plays."""

    @property
    def games(self) -> int: ...


A = TypeVar("A", bound=ArenaSetup)
B = TypeVar("B")


@dataclass(frozen=True)
class Reporting(Generic[A, G, B]):
    """How a game's arena is run and reported: `run` plays a setup's games (in `jobs` processes, Ctrl-C
    raising `Interrupted` with the games finished), `summarize` makes each bot's figures of them, `text`
    and `json` report the figures."""

    run: Callable[[A, int, Progress | None], Sequence[G]]
    summarize: Callable[[A, Sequence[G]], Sequence[B]]
    text: Callable[[A, Sequence[B], float, int | None], str]
    json: Callable[[A, Sequence[B], float, int | None], dict[str, Any]]

    def report(
        self, setup: A, results: Sequence[G], seconds: float, finished: int | None
    ) -> tuple[str, dict[str, Any]]:
        """The report of `results`: as text, and as the --json object."""
        summaries = self.summarize(setup, results)
        return self.text(setup, summaries, seconds, finished), self.json(setup, summaries, seconds, finished)


def run_and_report(reporting: Reporting[A, Any, Any], setup: A, jobs: int, as_json: bool) -> int:
    """Run the arena `setup` (of either game) and print its report; 0, or 130 when Ctrl-C stopped it (the
    report then covers the games finished)."""
    started = time.perf_counter()
    try:
        progress = progress_bar(started)
        finished: int | None = None
        try:
            results = reporting.run(setup, jobs, progress)
        except Interrupted as stop:
            results, finished = stop.results, len(stop.results)
            if progress is not None:
                print(file=sys.stderr)  # end the progress bar's line
        with sigint_ignored():
            print_report(reporting, setup, results, time.perf_counter() - started, as_json, finished)
    except KeyboardInterrupt:  # between the games and the report, or before the games began
        say("cribtiles arena: interrupted.")
        return EXIT_INTERRUPTED
    return 0 if finished is None else EXIT_INTERRUPTED


def progress_bar(started: float) -> Progress | None:
    """A one-line progress bar on stderr, when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        elapsed = time.perf_counter() - started
        eta = elapsed / done * (total - done) if done else 0.0
        end = "\n" if done == total else ""
        bar = "#" * filled + "." * (width - filled)
        print(f"\r[{bar}] {done}/{total} games, {elapsed:.0f} s, {eta:.0f} s left ", end=end, file=sys.stderr)
        sys.stderr.flush()

    return show


def print_report(
    reporting: Reporting[A, G, Any],
    setup: A,
    results: Sequence[G],
    seconds: float,
    as_json: bool,
    finished: int | None,
) -> None:
    """The report of `setup`'s `results` on standard output, as JSON or as text (with JSON, where Ctrl-C
    stopped the run is said on standard error)."""
    text, data = reporting.report(setup, results, seconds, finished)
    if as_json:
        print(json.dumps(data, indent=2))
        if finished is not None:
            print(interrupted_line(setup.games, finished, seconds), file=sys.stderr)
    else:
        print(text)
    sys.stdout.flush()
