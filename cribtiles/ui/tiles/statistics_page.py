"""The tile game's page of the Statistics screen (its `STATISTICS_PAGE` part in `cribtiles.games`): per mode
and opponent, the clean games first, then the games with undos or hints apart, each with its total."""

from __future__ import annotations

from collections.abc import Sequence

from cribtiles.table.ledger import StatLine, Stats
from cribtiles.table.stat_columns import TILE_COLUMNS, group_words, shown_lines
from cribtiles.table.tiles.stats import TileStats

from ..history_parts import Row, Section, StatisticsPage


def sections(stats: TileStats) -> list[tuple[str, Sequence[StatLine], StatLine | None]]:
    """The tile game's sections: the clean games, then those with undos or hints."""
    out: list[tuple[str, Sequence[StatLine], StatLine | None]] = []
    if stats.lines:
        out.append(("Your games", stats.lines, stats.total))
    if stats.marked:
        out.append(("Games with undos or hints, counted apart", stats.marked, stats.marked_total))
    return out


def _rows(lines: Sequence[StatLine], total: StatLine | None) -> list[Row]:
    shown = shown_lines(lines, total)
    return [(group_words(ln), tuple(c.cell(ln) for c in TILE_COLUMNS), ln is total) for ln in shown]


def page(stats: Stats) -> tuple[list[Section], str, str]:
    """The page's sections, what it says when it has none, and the games of bots only it left out."""
    heads = tuple(c.heading for c in TILE_COLUMNS)
    shown = [(title, heads, _rows(lines, total)) for title, lines, total in sections(stats.tiles)]
    empty = "No games to count yet: the statistics grow with every game you finish against a bot."
    watched = stats.tiles.watched
    note = f"{watched} game(s) of bots only were watched, not played: they are in the history only." if watched else ""
    return shown, empty, note


PAGE = StatisticsPage(label="Kings Cribbage", played=lambda stats: bool(stats.lines or stats.marked), page=page)
