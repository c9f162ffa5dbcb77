"""The ledger of finished games: one summary of each (who sat where, the final scores, the marks of
undos and hints, the record to replay it from) and the statistics drawn from many of them.

Whose games are "yours": the people at the table, taken together. With one person that is that person;
with several people and bots, the people win when the winners are all people, tie when people share the
win with a bot, and lose when only bots won. A game of people only (a hot-seat game, or one person at
both sides of Solitaire) is its own group, "people": there is nobody to win against, so it counts games,
scores, best plays and Solitaire margins but no wins or losses. A game of bots only was watched, not
played: it stays in the history and is left out of the statistics. Games with undos or hints are counted
apart from the clean ones.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from cribtiles.bot.levels import LEVELS
from cribtiles.quoting import quoted
from cribtiles.rules.game import GameState
from cribtiles.rules.options import Mode, RuleOptions

from .history import history_of
from .model import Table
from .saves import save_table

PEOPLE = "people"  # the opponent of a game of people only
MODES = tuple(Mode)


class Result(StrEnum):
    """How a finished game went for the people at the table."""

    WIN = "win"  # the winners are all people
    TIE = "tie"  # people share the win with a bot
    LOSS = "loss"  # only bots won
    PEOPLE_ONLY = "people only"  # nobody to win against: a game of people only
    WATCHED = "watched"  # bots only: nobody's game
    UNFINISHED = "unfinished"  # left unfinished when a new game was started over it: not counted


@dataclass(frozen=True)
class GameSummary:
    """One finished game (or whole match) as the history keeps it.

    `scores` are the final scores (a match's totals), `winners` the seats that won (ties share),
    `best_play` the most a person scored for one play and `highest_line` the most a single line scored in
    a person's play (0 when no person played). `record` is the table's save, from which the game is
    rebuilt exactly (`load_table`). `key` is a digest of the game itself (seats, rules, seed, every
    action), so the same finished game recorded twice has the same key; `id` is 0 until it is stored."""

    id: int
    key: str
    finished_at: str  # ISO 8601 local time to the second: 2026-11-30T14:05:09
    mode: str  # "standard" or "solitaire"
    options: str  # RuleOptions.to_text()
    seed: int
    seats: tuple[tuple[str, str | None], ...]  # (name, bot level or None for a person)
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    turns: int
    undos: int
    hints: int
    best_play: int
    highest_line: int
    record: str
    unfinished: bool = False  # kept as it stood when a new game was started over it; `winners` lead

    def __post_init__(self) -> None:
        if len(self.scores) != len(self.seats) or not self.seats:
            raise ValueError(f"{len(self.seats)} seats need as many scores, not {len(self.scores)}")
        if not self.winners or any(not 0 <= w < len(self.seats) for w in self.winners):
            raise ValueError(f"the winners {self.winners} are not seats of the game")
        if self.mode not in MODES:
            raise ValueError(f"there is no mode {quoted(self.mode)}")
        if any(level is not None and level not in LEVELS for _, level in self.seats):
            raise ValueError("a seat has a bot level this version does not know")

    @property
    def people(self) -> tuple[int, ...]:
        """The seats of people."""
        return tuple(i for i, (_, level) in enumerate(self.seats) if level is None)

    @property
    def bots(self) -> tuple[int, ...]:
        return tuple(i for i, (_, level) in enumerate(self.seats) if level is not None)

    @property
    def opponent(self) -> str:
        """The bot levels at the table, weakest first ("hard", "easy+hard"), or "people" with no bot."""
        levels = sorted((level for _, level in self.seats if level is not None), key=LEVELS.index)
        return "+".join(levels) if levels else PEOPLE

    @property
    def marked(self) -> bool:
        """Plays were taken back or hints asked for."""
        return self.undos > 0 or self.hints > 0

    @property
    def is_match(self) -> bool:
        return self.rounds > 1

    @property
    def planned_rounds(self) -> int:
        """The rounds its rules asked for (an unfinished match played fewer); `rounds` when unreadable."""
        try:
            return RuleOptions.parse(self.options).rounds if self.options else self.rounds
        except ValueError:
            return self.rounds

    @property
    def rounds_words(self) -> str:
        """ "match of 3", or for a match left unfinished "round 2 of 3" ("" for a single game)."""
        if self.unfinished and self.planned_rounds > 1:
            return f"round {self.rounds} of {self.planned_rounds}"
        return f"match of {self.rounds}" if self.is_match else ""

    @property
    def result(self) -> Result:
        """How the game went for the people at the table (see the module's notes)."""
        people, bots = self.people, self.bots
        if self.unfinished:
            return Result.UNFINISHED
        if not people:
            return Result.WATCHED
        if not bots:
            return Result.PEOPLE_ONLY
        won = set(self.winners)
        if won <= set(people):
            return Result.WIN
        return Result.TIE if won & set(people) else Result.LOSS

    @property
    def people_scores(self) -> tuple[int, ...]:
        return tuple(self.scores[p] for p in self.people)

    @property
    def margin(self) -> int:
        """By how much the winners led the best of the others (0 on a tie of everyone)."""
        best = max(self.scores)
        rest = [s for s in self.scores if s != best]
        return best - max(rest) if rest else 0


def summarize(table: Table, finished_at: str, unfinished: bool = False) -> GameSummary:
    """The summary of the finished game (or whole match) at `table`; ValueError while it is still played,
    unless `unfinished` keeps it as it stands (the scores so far, the leaders as `winners`)."""
    match = table.match
    over = match.is_over and table.round_over
    if not over and not unfinished:
        raise ValueError("the game is not over yet")
    rounds = (*match.finished, match.game)
    scores = standing(table)
    leaders = tuple(p for p, s in enumerate(scores) if s == max(scores))
    people = set(table.people)
    best_play = highest_line = 0
    for game in rounds:
        for record in history_of(game):
            if record.score is None or record.player not in people:
                continue
            best_play = max(best_play, record.kept)
            highest_line = max(highest_line, *(line.total for line in record.score.lines))
    seats = tuple((s.name, s.level) for s in table.seats)
    return GameSummary(
        id=0,
        key=game_key(seats, rounds),
        finished_at=finished_at,
        mode=match.options.mode,
        options=match.options.to_text(),
        seed=match.seed,
        seats=seats,
        scores=scores,
        winners=leaders,
        rounds=len(rounds),
        turns=sum(len(g.turns) for g in rounds),
        undos=table.undos,
        hints=table.hints,
        best_play=best_play,
        highest_line=highest_line,
        record=save_table(table),
        unfinished=not over,
    )


def standing(table: Table) -> tuple[int, ...]:
    """Each player's total as the game (or match) at `table` stands: the rounds over, and the round in
    play with its scores so far."""
    match = table.match
    if match.game.is_over:
        return match.totals
    return tuple(t + s for t, s in zip(match.totals, match.game.scores, strict=True))


def game_key(seats: Sequence[tuple[str, str | None]], rounds: Iterable[GameState]) -> str:
    """A digest of a game as it was played: the seats, and each round's rules, seed and actions. It
    depends on nothing else (not the time, not the save's layout), so a game recorded twice is known."""
    games = [{"options": g.options.to_text(), "seed": g.seed, "actions": list(g.log)} for g in rounds]
    text = json.dumps({"seats": [list(s) for s in seats], "rounds": games}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- statistics ---


@dataclass(frozen=True)
class StatLine:
    """The figures of one group of games: a mode against one opponent ("all" in a total).

    Scores are the people's final scores (each person's, in a game of several people). `longest_streak`
    is the most wins in a row, in the order the games were played (a tie or a loss ends a streak).
    `best_margin` is the most a won Solitaire game was won by (every Solitaire game of people only
    counts, by its winning side's lead), None when there is none."""

    mode: str
    opponent: str
    games: int
    wins: int
    losses: int
    ties: int
    average_score: float
    best_score: int
    best_play: int
    highest_line: int
    longest_streak: int
    best_margin: int | None
    matches: int
    matches_won: int

    @property
    def win_rate(self) -> float | None:
        """Wins as a share of the games that could be won or lost (None for people only)."""
        decided = self.wins + self.losses + self.ties
        return self.wins / decided if decided else None


@dataclass(frozen=True)
class Stats:
    """Statistics of a history: one line per mode and opponent for the clean games (`lines`) and for the
    games with undos or hints (`marked`), each with a total over its groups; `watched` games of bots only
    are left out, and so are unfinished ones; `games` is every game given."""

    lines: tuple[StatLine, ...]
    marked: tuple[StatLine, ...]
    total: StatLine | None
    marked_total: StatLine | None
    watched: int
    games: int


def statistics(games: Sequence[GameSummary]) -> Stats:
    """The statistics of `games`, given in the order they were played (the history gives them so)."""
    counted = [g for g in games if g.result not in (Result.WATCHED, Result.UNFINISHED)]
    clean = [g for g in counted if not g.marked]
    marked = [g for g in counted if g.marked]
    return Stats(
        lines=_lines(clean),
        marked=_lines(marked),
        total=stat_line("all", "all", clean) if clean else None,
        marked_total=stat_line("all", "all", marked) if marked else None,
        watched=sum(1 for g in games if g.result is Result.WATCHED),
        games=len(games),
    )


def _group_order(group: tuple[str, str]) -> tuple[int, int, tuple[int, ...]]:
    """Standard before Solitaire; fewer bots first, weaker first; people only last."""
    mode, opponent = group
    levels = () if opponent == PEOPLE else tuple(LEVELS.index(level) for level in opponent.split("+"))
    return MODES.index(mode), len(levels) if levels else len(LEVELS) + 1, levels


def _lines(games: Sequence[GameSummary]) -> tuple[StatLine, ...]:
    groups: dict[tuple[str, str], list[GameSummary]] = {}
    for g in games:
        groups.setdefault((g.mode, g.opponent), []).append(g)
    return tuple(
        stat_line(mode, opponent, groups[mode, opponent]) for mode, opponent in sorted(groups, key=_group_order)
    )


def stat_line(mode: str, opponent: str, games: Sequence[GameSummary]) -> StatLine:
    """The figures of `games` (at least one, none of bots only), in the order they were played."""
    results = [g.result for g in games]
    scores = [s for g in games for s in g.people_scores]
    margins = [g.margin for g in games if g.mode == Mode.SOLITAIRE and g.result in (Result.WIN, Result.PEOPLE_ONLY)]
    return StatLine(
        mode=mode,
        opponent=opponent,
        games=len(games),
        wins=results.count(Result.WIN),
        losses=results.count(Result.LOSS),
        ties=results.count(Result.TIE),
        average_score=sum(scores) / len(scores),
        best_score=max(scores),
        best_play=max(g.best_play for g in games),
        highest_line=max(g.highest_line for g in games),
        longest_streak=_longest_streak(results),
        best_margin=max(margins) if margins else None,
        matches=sum(1 for g in games if g.is_match),
        matches_won=sum(1 for g in games if g.is_match and g.result is Result.WIN),
    )


def _longest_streak(results: Sequence[Result]) -> int:
    """The most wins in a row; a game of people only neither adds to a streak nor ends it."""
    best = run = 0
    for r in results:
        if r is Result.WIN:
            run += 1
            best = max(best, run)
        elif r is not Result.PEOPLE_ONLY:
            run = 0
    return best
