"""The tile game's statistics (its `STATISTICS` part in `cribtiles.games`), drawn from its games of a
history: one line per mode and opponent, the clean games apart from those with undos or hints, each with a
total. A game of people only counts games, scores, best plays and Solitaire margins but no wins or losses;
games of bots only and unfinished ones are not counted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.bot.tiles.levels import LEVELS
from cribtiles.rules.options import Mode

from ..game_summary import MODES, PEOPLE, GameSummary, Result


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
class TileStats:
    """The tile game's statistics: one line per mode and opponent for the clean games (`lines`) and for the
    games with undos or hints (`marked`), each with a total over its groups; `watched` games of bots only
    are left out, and so are unfinished ones; `games` is every tile game given."""

    lines: tuple[StatLine, ...]
    marked: tuple[StatLine, ...]
    total: StatLine | None
    marked_total: StatLine | None
    watched: int
    games: int


def tile_statistics(tiles: Sequence[GameSummary]) -> TileStats:
    """The statistics of the tile games `tiles`, given in the order they were played."""
    counted = [g for g in tiles if g.result not in (Result.WATCHED, Result.UNFINISHED)]
    clean = [g for g in counted if not g.tiles.marked]
    marked = [g for g in counted if g.tiles.marked]
    return TileStats(
        lines=_lines(clean),
        marked=_lines(marked),
        total=stat_line("all", "all", clean) if clean else None,
        marked_total=stat_line("all", "all", marked) if marked else None,
        watched=sum(1 for g in tiles if g.result is Result.WATCHED),
        games=len(tiles),
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
