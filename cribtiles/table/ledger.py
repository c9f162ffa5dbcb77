"""The ledger of finished games, for both games: the tile game's summary of a finished table, and the
statistics drawn from many games of either (`statistics`): the tile game's by mode and opponent, classic
cribbage's by bot level (`cribbage_ledger`). Games with undos or hints are counted apart from the clean
ones; a game of people only counts games, scores, best plays and Solitaire margins but no wins or losses;
games of bots only and unfinished ones are not counted. The summary itself is `game_summary`'s.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cribtiles.bot.tiles.levels import LEVELS
from cribtiles.rules.game import GameState
from cribtiles.rules.options import Mode

from .cribbage.ledger import CribbageStats, cribbage_statistics
from .game_summary import MODES, Game, TileDetails
from .game_summary import PEOPLE as PEOPLE  # the names the ledger's readers take from it
from .game_summary import GameSummary as GameSummary
from .game_summary import Result as Result
from .saves import save_table
from .tiles.history import history_of
from .tiles.table import Table


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
    details = TileDetails(
        mode=match.options.mode,
        options=match.options.to_text(),
        rounds=len(rounds),
        turns=sum(len(g.turns) for g in rounds),
        undos=table.undos,
        hints=table.hints,
        best_play=best_play,
        highest_line=highest_line,
    )
    return GameSummary(
        id=0,
        key=game_key(seats, rounds),
        game=Game.TILES,
        finished_at=finished_at,
        seed=match.seed,
        seats=seats,
        scores=scores,
        winners=match.winners if over else leaders,  # a match given up: the others won, whoever led
        record=save_table(table),
        details=details,
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
    """Statistics of a history. The tile game's: one line per mode and opponent for the clean games
    (`lines`) and for the games with undos or hints (`marked`), each with a total over its groups;
    `watched` games of bots only are left out, and so are unfinished ones; `games` is every tile game
    given. Classic cribbage's: `cribbage`, by bot level."""

    lines: tuple[StatLine, ...]
    marked: tuple[StatLine, ...]
    total: StatLine | None
    marked_total: StatLine | None
    watched: int
    games: int
    cribbage: CribbageStats


def statistics(games: Sequence[GameSummary]) -> Stats:
    """The statistics of `games` of both games, given in the order they were played (the history gives
    them so): each game's own figures, from its own games."""
    tiles = [g for g in games if g.game is Game.TILES]
    counted = [g for g in tiles if g.result not in (Result.WATCHED, Result.UNFINISHED)]
    clean = [g for g in counted if not g.tiles.marked]
    marked = [g for g in counted if g.tiles.marked]
    return Stats(
        lines=_lines(clean),
        marked=_lines(marked),
        total=stat_line("all", "all", clean) if clean else None,
        marked_total=stat_line("all", "all", marked) if marked else None,
        watched=sum(1 for g in tiles if g.result is Result.WATCHED),
        games=len(tiles),
        cribbage=cribbage_statistics([g for g in games if g.game is Game.CRIBBAGE]),
    )


def _group_order(group: tuple[str, str]) -> tuple[int, int, tuple[int, ...]]:
    """Standard before Solitaire; fewer bots first, weaker first; people only last."""
    mode, opponent = group
    levels = () if opponent == PEOPLE else tuple(LEVELS.index(level) for level in opponent.split("+"))
    return MODES.index(mode), len(levels) if levels else len(LEVELS) + 1, levels


def _lines(games: Sequence[GameSummary]) -> tuple[StatLine, ...]:
    groups: dict[tuple[str, str], list[GameSummary]] = {}
    for g in games:
        groups.setdefault((g.tiles.mode, g.opponent), []).append(g)
    return tuple(
        stat_line(mode, opponent, groups[mode, opponent]) for mode, opponent in sorted(groups, key=_group_order)
    )


def stat_line(mode: str, opponent: str, games: Sequence[GameSummary]) -> StatLine:
    """The figures of tile games `games` (at least one, none of bots only), in the order they were played."""
    results = [g.result for g in games]
    scores = [s for g in games for s in g.people_scores]
    solitaire = (g for g in games if g.tiles.mode == Mode.SOLITAIRE)
    margins = [g.margin for g in solitaire if g.result in (Result.WIN, Result.PEOPLE_ONLY)]
    return StatLine(
        mode=mode,
        opponent=opponent,
        games=len(games),
        wins=results.count(Result.WIN),
        losses=results.count(Result.LOSS),
        ties=results.count(Result.TIE),
        average_score=sum(scores) / len(scores),
        best_score=max(scores),
        best_play=max(g.tiles.best_play for g in games),
        highest_line=max(g.tiles.highest_line for g in games),
        longest_streak=_longest_streak(results),
        best_margin=max(margins) if margins else None,
        matches=sum(1 for g in games if g.tiles.is_match),
        matches_won=sum(1 for g in games if g.tiles.is_match and g.result is Result.WIN),
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
