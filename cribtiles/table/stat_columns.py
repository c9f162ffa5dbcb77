"""The statistics' columns, for both games, written once: the window's Statistics screen and
`cribtiles stats` show the same figures under the same headings.

A column is a heading (two lines at most, split by a newline, as the window writes it; the command
line writes it on one line) and what its cell shows for one line of figures ("" when there is
nothing to show: a win rate of games nobody could win, a best hand before any hand was counted).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .cribbage.ledger import CribbageLine
from .ledger import PEOPLE, StatLine

L = TypeVar("L")


@dataclass(frozen=True)
class Column(Generic[L]):
    heading: str
    cell: Callable[[L], str]

    @property
    def one_line(self) -> str:
        """The heading on one line, in lower case: `Skunks\\ngiven` -> `skunks given`."""
        return self.heading.replace("\n", " ").lower()


def shown_lines(lines: Sequence[L], total: L | None) -> list[L]:
    """The lines of a table, and under them the total when there is more than one line."""
    return [*lines, total] if total is not None and len(lines) > 1 else list(lines)


def _decided(line: StatLine, figure: int) -> str:
    """A count of wins, losses or a streak: none for a game of people only (nobody to win against)."""
    return "" if line.opponent == PEOPLE else str(figure)


def _one_place(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _skunks(n: int, doubled: int) -> str:
    """'2 (1)': two skunks, one of them double (BY_THE_BOOK, under the table, says so)."""
    return f"{n} ({doubled})" if doubled else str(n)


TILE_COLUMNS: tuple[Column[StatLine], ...] = (
    Column("Games", lambda ln: str(ln.games)),
    Column("Won", lambda ln: _decided(ln, ln.wins)),
    Column("Lost", lambda ln: _decided(ln, ln.losses)),
    Column("Tied", lambda ln: _decided(ln, ln.ties)),
    Column("Win %", lambda ln: "" if ln.win_rate is None else f"{100 * ln.win_rate:.0f}%"),
    Column("Average", lambda ln: f"{ln.average_score:.1f}"),
    Column("Best", lambda ln: str(ln.best_score)),
    Column("Best play", lambda ln: str(ln.best_play)),
    Column("Best line", lambda ln: str(ln.highest_line)),
    Column("Streak", lambda ln: _decided(ln, ln.longest_streak)),
    Column("Solitaire\nmargin", lambda ln: "" if ln.best_margin is None else f"+{ln.best_margin}"),
    Column("Matches\nwon", lambda ln: f"{ln.matches_won} of {ln.matches}" if ln.matches else ""),
)

#: What the By the book column and the skunks' brackets mean, under the cribbage statistics.
BY_THE_BOOK = "By the book: won–lost, a skunk two games, a double skunk three. Skunks 2 (1): two, one double."

CRIBBAGE_COLUMNS: tuple[Column[CribbageLine], ...] = (
    Column("Games", lambda ln: str(ln.games)),
    Column("Won", lambda ln: str(ln.wins)),
    Column("Lost", lambda ln: str(ln.losses)),
    Column("Win %", lambda ln: f"{100 * ln.win_rate:.0f}%"),
    Column("By the\nbook", lambda ln: f"{ln.games_won_by_the_book}–{ln.games_lost_by_the_book}"),
    Column("Skunks\ngiven", lambda ln: _skunks(ln.skunks_given, ln.double_skunks_given)),
    Column("Skunks\ntaken", lambda ln: _skunks(ln.skunks_taken, ln.double_skunks_taken)),
    Column("Average\nscore", lambda ln: f"{ln.average_score:.1f}"),
    Column("Average\nhand", lambda ln: _one_place(ln.average_hand)),
    Column("Best\nhand", lambda ln: "" if ln.best_hand is None else str(ln.best_hand)),
    Column("Average\ncrib", lambda ln: _one_place(ln.average_crib)),
    Column("Pegged\na game", lambda ln: f"{ln.average_pegged:.1f}"),
    Column("Streak", lambda ln: str(ln.longest_streak)),
)


#: The second table of classic cribbage: the hands, the pegging and the counting.
CRIBBAGE_COUNT_COLUMNS: tuple[Column[CribbageLine], ...] = (
    Column("Deals", lambda ln: str(ln.deals)),
    Column("Pegged\na deal", lambda ln: "" if ln.average_pegged_deal is None else f"{ln.average_pegged_deal:.2f}"),
    Column("Hands", lambda ln: str(ln.hands)),
    Column("Cribs", lambda ln: str(ln.cribs)),
    Column("Best\ncrib", lambda ln: "" if ln.best_crib is None else str(ln.best_crib)),
    Column("24 and\nover", lambda ln: str(ln.big_hands)),
    Column("29s", lambda ln: str(ln.twenty_nines)),
    Column("Points\nmissed", lambda ln: str(ln.missed)),
    Column("Muggins\ngames", lambda ln: str(ln.muggins_games)),
    Column("Muggins\ntaken", lambda ln: str(ln.muggins_won) if ln.muggins_games else ""),
    Column("Muggins\nagainst", lambda ln: str(ln.muggins_lost) if ln.muggins_games else ""),
    Column("Counts\ncorrected", lambda ln: f"{ln.corrected} in {ln.manual_games}" if ln.manual_games else ""),
)

#: What the second table's columns mean, under it.
COUNTS_NOTE = (
    "Muggins taken: by your calls; against: by the bot's, over the Muggins games stored with them. "
    "Corrected: your wrong counts, counting by hand."
)


def group_words(line: StatLine) -> str:
    """The tile game's group of a line: 'Standard v hard', 'Solitaire people only', 'All games'."""
    if line.opponent == "all":
        return "All games"
    kind = "Solitaire" if line.mode == "solitaire" else "Standard"
    against = "people only" if line.opponent == PEOPLE else "v " + line.opponent.replace("+", " + ")
    return f"{kind} {against}"


def level_words(line: CribbageLine) -> str:
    """Classic cribbage's group of a line: 'v hard', 'All games'."""
    return "All games" if line.level == "all" else f"v {line.level}"
