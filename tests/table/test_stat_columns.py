"""The statistics' columns both games' screens and `cribtiles stats` share (cribtiles.table.stat_columns)."""

from __future__ import annotations

from cribtiles.table.ledger import statistics
from cribtiles.table.stat_columns import CRIBBAGE_COLUMNS, TILE_COLUMNS, group_words, shown_lines
from tests.table.test_ledger import EASY, HARD, YOU, game


def test_a_tile_line_under_the_columns() -> None:
    stats = statistics([game((YOU, HARD), (300, 200)), game((YOU, HARD), (100, 200)), game((YOU, EASY), (9, 8))])
    hard = next(line for line in stats.lines if line.opponent == "hard")
    assert [c.cell(hard) for c in TILE_COLUMNS] == ["2", "1", "1", "0", "50%", "200.0", "300", "0", "0", "1", "", ""]
    assert group_words(hard) == "Standard v hard"
    assert shown_lines(stats.lines, stats.total)[-1] is stats.total and shown_lines(stats.lines[:1], stats.total) == [
        stats.lines[0]
    ]


def test_people_alone_have_nobody_to_win_against() -> None:
    ann, ben = ("Ann", None), ("Ben", None)
    stats = statistics([game((ann, ben), (100, 200)), game((ann, ben), (150, 90), mode="solitaire")])
    for line in stats.lines:
        cells = dict(zip((c.heading for c in TILE_COLUMNS), (c.cell(line) for c in TILE_COLUMNS), strict=True))
        assert cells["Won"] == cells["Lost"] == cells["Tied"] == cells["Streak"] == cells["Win %"] == ""
        assert cells["Games"] == "1" and group_words(line).endswith("people only")


def test_headings_are_two_lines_at_most_and_one_line_for_the_command_line() -> None:
    for column in (*TILE_COLUMNS, *CRIBBAGE_COLUMNS):
        assert column.heading.count("\n") <= 1 and "\n" not in column.one_line
    assert [c.one_line for c in CRIBBAGE_COLUMNS][4:6] == ["by the book", "skunks given"]
