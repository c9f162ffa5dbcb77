"""Classic cribbage's page of the Statistics screen (its `STATISTICS_PAGE` part in `cribtiles.games`): per
bot level, the clean games, their hands, pegging and counting, the games with undos or hints apart, and the
other variants each on its own."""

from __future__ import annotations

from collections.abc import Sequence

from cribtiles.table.cribbage.ledger import CribbageLine, CribbageStats
from cribtiles.table.game_summary import VARIANT_WORDS
from cribtiles.table.ledger import Stats
from cribtiles.table.stat_columns import (
    BY_THE_BOOK,
    COUNTS_NOTE,
    CRIBBAGE_COLUMNS,
    CRIBBAGE_COUNT_COLUMNS,
    Column,
    level_words,
    shown_lines,
)

from ..history_parts import Row, Section, StatisticsPage


def cribbage_rows(
    stats: CribbageStats, columns: Sequence[Column[CribbageLine]] = CRIBBAGE_COLUMNS, marked: bool = False
) -> list[Row]:
    """The rows of the games without undos or hints (`marked`: of those with them), in `columns`."""
    lines, total = (stats.marked, stats.marked_total) if marked else (stats.lines, stats.total)
    shown = shown_lines(lines, total)
    return [(level_words(ln), tuple(c.cell(ln) for c in columns), ln is total) for ln in shown]


def page(stats: Stats) -> tuple[list[Section], str, str]:
    """The page's sections, what it says when it has none, and its notes (the best hand, how to read it)."""
    cribbage = stats.cribbage
    cribbage_heads = tuple(c.heading for c in CRIBBAGE_COLUMNS)
    rows = cribbage_rows(cribbage)
    sections = [("Your games of classic cribbage", cribbage_heads, rows)] if rows else []
    if rows:
        count_heads = tuple(c.heading for c in CRIBBAGE_COUNT_COLUMNS)
        count_rows = cribbage_rows(cribbage, CRIBBAGE_COUNT_COLUMNS)
        sections.append(("Hands, pegging and counting", count_heads, count_rows))
    marked_rows = cribbage_rows(cribbage, marked=True)
    if marked_rows:
        sections.append(("Games with undos or hints, counted apart", cribbage_heads, marked_rows))
    variant_rows: list[Row] = [
        (VARIANT_WORDS.get(ln.level, ln.level).capitalize(), tuple(c.cell(ln) for c in CRIBBAGE_COLUMNS), False)
        for ln in cribbage.variants
    ]
    if variant_rows:  # each apart from the six-card game's figures: its hands and pegging are not the same
        sections.append(("The other variants, each on its own", cribbage_heads, variant_rows))
    empty = "No games of classic cribbage yet: they are counted here, by bot level, when they end."
    total = cribbage.total
    notes = []
    if total is not None and total.best_hand is not None:
        notes.append(f"Your best hand: {total.best_hand}, {total.best_hand_cards}.")
    if total is not None:
        notes = [" ".join([*notes, BY_THE_BOOK]), COUNTS_NOTE]
    note = "\n".join(notes)  # each its own line or lines
    return sections, empty, note


PAGE = StatisticsPage(label="Classic cribbage", played=lambda stats: bool(stats.cribbage.games), page=page)
