"""The cribbage arena's games and figures: two cribbage bots play paired games through the cribbage
table, and it reports win rates, points and skunks. The one arena (`arena`) runs it:
`cribtiles arena --game cribbage --bots hard,medium --games 400 --seed 1 --jobs 2` (or its alias
`cribtiles cribbage arena ...`).

Games are paired deals: games 2k and 2k+1 are the same game seed (the same cut, the same cards in every
deal) with the bots' seats swapped, so each bot holds the other's cards in the other game and the luck of
the deal falls on both alike. The variants (`--variant`): five-card (two bots, to 61), partnerships (two
bots, each playing both seats of a side; paired the same way) and three players (three bots, each seed played
three times, the seats rotated). Each decision's random generator comes from (seed, game, decision), so a
run depends only on its arguments, never on `--jobs`.

Figures, for each bot: the win rate with a 95% Wilson score interval over the games; the mean final
score and spread (own minus the opponent's); skunks and double skunks inflicted (the loser under 91 or
61); points pegged in the play and counted in the show (hand and crib) per deal; seconds per decision
(median and 95th percentile); failures (a bot that raised or proposed an illegal move; the first legal
move was made instead).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cribtiles.bot.cribbage.bots import CribbageBot, choose_reporting
from cribtiles.bot.cribbage.levels import make_cribbage_bot
from cribtiles.cribbage.events import DOUBLE_SKUNK_FROM, DOUBLE_SKUNK_MARGIN, SKUNK_MARGIN, MarginKind
from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.cribbage.moves import Move
from cribtiles.cribbage.options import CribbageOptions, Variant
from cribtiles.cribbage.peg import PegKind
from cribtiles.cribbage.show import ShowKind
from cribtiles.cribbage.view import CribbageView

from ..arena_core import (
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
    seatings,
    seeded,
    standing,
    standing_json,
    tail_line,
)
from ..core import BotRequest
from ..runner import Progress, run_units
from ..seats import Seat
from .table import CribbageTable

SEATS = 2  # the bots of a two-player arena (and of partnerships: one a side)
#: A game ends long before this many moves (about 9 deals of some 20 moves); more means a bot is stuck.
MAX_MOVES = 2000


@dataclass(frozen=True)
class CribbageArena:
    """The bots (by level, in seats 0 and 1 of each even game; three with three players), how many pairs
    of games (rotations of three with three players), the seed."""

    levels: tuple[str, ...]
    pairs: int
    seed: int
    options: CribbageOptions = field(default_factory=CribbageOptions)

    @property
    def bots(self) -> int:
        return len(self.levels)

    @property
    def games(self) -> int:
        return self.bots * self.pairs

    @property
    def labels(self) -> tuple[str, ...]:
        return bot_labels(self.levels)

    def bot_at(self, rotation: tuple[int, ...], seat: int) -> int:
        """The bot in `seat` of a game seated by `rotation` (partners: seats 0 and 2 are one bot's)."""
        return rotation[seat % len(rotation)]


def game_seed(seed: int, pair: int) -> int:
    """The game seed of the pair-th pair of games (string seeding is stable across processes)."""
    return seeded(f"cribtiles-cribbage-arena/{seed}/pair/{pair}")


def decision_rng(seed: int, game: int, decision: int) -> random.Random:
    return random.Random(f"cribtiles-cribbage-arena/{seed}/game/{game}/decision/{decision}")


def seating(game: int, bots: int = SEATS) -> tuple[int, ...]:
    """Which bot sits in seat 0 and seat 1: swapped in the second game of each pair (the tile arena's
    rotations of two; of three with three bots).

    >>> seating(0), seating(1), seating(6), seating(4, 3)
    ((0, 1), (1, 0), (0, 1), (1, 2, 0))
    """
    return seatings(bots)[game % bots]


# --- playing ---


@dataclass(frozen=True, kw_only=True)
class SeatResult(SeatRecord):
    """One seat's game (`final`: its side's score; partners' seats both tell it): besides what every
    arena records, whether and how it won, its points pegged and shown, the deals, its decisions' seconds."""

    won: bool
    margin: MarginKind | None  # how this seat won (None when it lost)
    peg_points: int
    show_points: int
    deals: int
    decision_seconds: tuple[float, ...]


@dataclass(frozen=True, kw_only=True)
class GameResult(GameRecord[SeatResult]):
    seed: int
    moves: tuple[str, ...]  # the game's record, as notation


#: What makes the bot of a seat, given its level and the table it sits at: the arena's own is the
#: level's bot, which sees only its view; a benchmark's yardstick may read the table's hidden cards
#: through it (`benchmarks/cribbage/bench_seer.py`), a bot of the ladder never does.
SeatBot = Callable[[str, CribbageTable], CribbageBot]


def play_game(arena: CribbageArena, game: int, make: SeatBot | None = None) -> GameResult:
    """Game number `game` of the run, played to the end at the cribbage table (its turn loop and its
    bots' requests, as in the window); `make`: the seats' bots (default: each level's)."""
    rotation = seating(game, arena.bots)
    players = arena.options.variant.players
    seats = tuple(arena.bot_at(rotation, p) for p in range(players))
    seed = game_seed(arena.seed, game // arena.bots)
    names = tuple(arena.labels[b] if players == arena.bots else f"{arena.labels[b]}@{p}" for p, b in enumerate(seats))
    table = CribbageTable(
        new_game(seed, names, arena.options), seats=[Seat(names[p], arena.levels[b]) for p, b in enumerate(seats)]
    )

    made = make or (lambda level, _table: make_cribbage_bot(level))
    bots = [made(arena.levels[b], table) for b in seats]

    def choose(request: BotRequest[CribbageView], rng: random.Random) -> tuple[Move, bool]:
        move, failure = choose_reporting(bots[request.seat], request.view, rng)
        return move, bool(failure)

    played = play_out(
        table, choose, lambda ply: decision_rng(arena.seed, game, ply), time.perf_counter, most_moves=MAX_MOVES
    )
    peg, show = [0] * players, [0] * players
    for happening in table.take_pending():
        for event in happening.events:
            if isinstance(event.kind, PegKind):
                peg[event.player] += event.points
            elif isinstance(event.kind, ShowKind):
                show[event.player] += event.points
    times = [list(t) for t in played.seconds]
    results = _seat_results(table.state, seats, times, list(played.failures), peg, show)
    return GameResult(game=game, seed=seed, seats=results, moves=table.state.log)


def _seat_results(
    state: CribbageState,
    seats: tuple[int, ...],
    times: list[list[float]],
    failures: list[int],
    peg: list[int],
    show: list[int],
) -> tuple[SeatResult, ...]:
    outcome = state.outcome
    assert outcome is not None
    return tuple(
        SeatResult(
            bot=seats[p],
            final=outcome.scores[state.side_of(p)],
            won=outcome.winner == state.side_of(p),
            margin=outcome.margin_kind if outcome.winner == state.side_of(p) else None,
            peg_points=peg[p],
            show_points=show[p],
            deals=state.deal_number,
            decision_seconds=tuple(times[p]),
            failures=failures[p],
        )
        for p in range(state.players)
    )


def play_pair(arena: CribbageArena, pair: int, make: SeatBot | None = None) -> list[GameResult]:
    """Both games of a pair (the three of a rotation with three bots): the unit of work of a worker process."""
    return [play_game(arena, arena.bots * pair + k, make) for k in range(arena.bots)]


def run(
    arena: CribbageArena, jobs: int = 1, progress: Progress | None = None, make: SeatBot | None = None
) -> list[GameResult]:
    """Play every game (in `jobs` processes), the results in game order whatever finished first; `make`
    (which must pickle, for the workers) as in `play_game`."""
    return run_units(arena.pairs, functools.partial(play_pair, arena, make=make), arena.games, jobs, progress)


# --- figures ---


@dataclass(frozen=True, kw_only=True)
class BotSummary(Standing):
    """A bot's standing, with its wins, the skunks it inflicted and its points pegged and shown a deal."""

    wins: int
    skunks: int
    double_skunks: int
    peg_per_deal: float
    show_per_deal: float


def summarize(arena: CribbageArena, results: Sequence[GameResult]) -> list[BotSummary]:
    return [_summarize_bot(arena, b, results) for b in range(arena.bots)]


def _bot_in_game(game: GameResult, bot: int) -> tuple[SeatResult, SeatResult]:
    """`bot`'s part of one game (both seats of a side summed, as one) and its opponents' (the best final
    among them, for the spread: with two sides, the other side's)."""
    mine = [s for s in game.seats if s.bot == bot]
    others = [s for s in game.seats if s.bot != bot]
    first = mine[0]
    merged = SeatResult(
        bot=bot,
        final=first.final,
        won=first.won,
        margin=first.margin,
        peg_points=sum(s.peg_points for s in mine),
        show_points=sum(s.show_points for s in mine),
        deals=first.deals,
        decision_seconds=tuple(t for s in mine for t in s.decision_seconds),
        failures=sum(s.failures for s in mine),
    )
    return merged, max(others, key=lambda s: s.final)


def _summarize_bot(arena: CribbageArena, bot: int, results: Sequence[GameResult]) -> BotSummary:
    mine = [_bot_in_game(g, bot) for g in results]
    deals = sum(s.deals for s, _ in mine)
    outings = [Outing(s.won, s.final, s.final - o.final, s.decision_seconds, s.failures) for s, o in mine]
    return BotSummary(
        **vars(standing(arena.labels[bot], outings)),
        wins=sum(s.won for s, _ in mine),
        skunks=sum(s.margin is not None and s.margin is not MarginKind.WIN for s, _ in mine),
        double_skunks=sum(s.margin is MarginKind.DOUBLE_SKUNK for s, _ in mine),
        peg_per_deal=sum(s.peg_points for s, _ in mine) / deals if deals else 0.0,
        show_per_deal=sum(s.show_points for s, _ in mine) / deals if deals else 0.0,
    )


def report_json(
    arena: CribbageArena, summaries: Sequence[BotSummary], seconds: float, finished: int | None = None
) -> dict[str, Any]:
    """The --json object (only `seconds` and each `decision_seconds` depend on the machine)."""

    r = rounded
    bots = {
        s.label: standing_json(
            s,
            "decision_seconds",
            counts={"wins": s.wins},
            figures={
                "skunks": s.skunks,
                "double_skunks": s.double_skunks,
                "peg_per_deal": r(s.peg_per_deal),
                "show_per_deal": r(s.show_per_deal),
            },
        )
        for s in summaries
    }
    options = arena.options
    return report_object(
        report_head(arena.games, finished, arena.seed),
        seconds,
        bots,
        first={"game": "classic cribbage"},
        setup={
            **({"variant": str(options.variant)} if options.variant is not Variant.SIX_CARD else {}),
            "muggins": options.muggins,
            "target": options.target,
        },
    )


DEFAULT_TARGET = 121
#: The text report's columns.
LAYOUT = Layout(label=10, score=6, seconds="s/decision median", digits=5)


def _units(arena: CribbageArena) -> str:
    if arena.bots == SEATS:
        return "paired deals, seats swapped"
    return "deals played three times, seats rotated"


def report_text(
    arena: CribbageArena, summaries: Sequence[BotSummary], seconds: float, finished: int | None = None
) -> str:
    head = (
        f"Crib Tiles cribbage arena: {' vs '.join(arena.labels)}, {arena.games} games "
        f"({arena.pairs} {_units(arena)}), seed {arena.seed}"
        + ("" if arena.options.variant is Variant.SIX_CARD else f", {arena.options.variant.words}")
        + ("" if arena.options.target == DEFAULT_TARGET else f", to {arena.options.target}")
        + (", muggins" if arena.options.muggins else "")
    )
    rows = [LAYOUT.row(s, f"{s.skunks:>6} {s.peg_per_deal:>8.2f} {s.show_per_deal:>9.2f}") for s in summaries]
    target = arena.options.target
    opponent = "the opponent's" if arena.bots == SEATS else "the best opponent's"
    double = f"no double in a game to {target}"
    if target >= DOUBLE_SKUNK_FROM:
        double = f"double: {target - DOUBLE_SKUNK_MARGIN}"
    lurch = f"{target - SKUNK_MARGIN} ({double})"
    legend = (
        f"spread = own final score minus {opponent}; skunks = wins with the loser under {lurch};\n"
        "peg/deal = points pegged in the play per deal; show/deal = hand and crib points per deal."
    )
    if arena.options.variant is Variant.PARTNERSHIP:
        legend += "\nPartnerships: each bot plays both seats of a side; its points are the side's."
    columns = LAYOUT.columns("skunks peg/deal show/deal")
    return report_lines(head, columns, rows, legend, tail_line(arena.games, finished, seconds))


#: How the one arena runs and reports a cribbage setup.
REPORTING = Reporting(run, summarize, report_text, report_json)
