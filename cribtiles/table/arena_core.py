"""What the arena does alike for every game: bots play a game to its end through the table's own turn
loop (`core.GameTable`: its `BotRequest`s, `play_bot`), each decision timed and seeded by the arena,
and the figures' statistics and report layout. Each game's arena (`arena` for tiles, `cribbage_arena`)
says how its games are set up and what it reports.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .core import BotRequest, GameTable

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054
CI_METHOD = "wilson score interval over games, ties counted as a share of the win"
#: The exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

V = TypeVar("V")
M = TypeVar("M")
R = TypeVar("R")


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


def report_head(games: int, finished: int | None, seed: int) -> dict[str, Any]:
    """The JSON report's first keys, the same for every game. `finished`: the games played when Ctrl-C
    stopped the run (None: it ran to the end); `games` is always the number the figures are about."""
    return {
        "games": games if finished is None else finished,
        "games_planned": games,
        "interrupted": finished is not None,
        "seed": seed,
    }


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
