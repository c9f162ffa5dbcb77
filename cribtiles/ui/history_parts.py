"""What each game's parts of the History and Statistics screens are made of (its `HISTORY_ROW` and
`STATISTICS_PAGE` parts in `cribtiles.games`): the words and colour every game's row shares, and the shape
of a page of statistics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cribtiles.table.game_summary import GameSummary
from cribtiles.table.ledger import Stats

#: The colour of a game won, in a game's row.
WON = (150, 220, 130)

#: One row of a statistics table as drawn: its label, its cells, and whether it is a total (gold).
Row = tuple[str, tuple[str, ...], bool]
#: One section of a page: its title, its column headings (two lines at most, split by a newline), its rows.
Section = tuple[str, tuple[str, ...], list[Row]]


@dataclass(frozen=True)
class StatisticsPage:
    """A game's page of the Statistics screen: its name on the page's tab, whether the history has any of its
    games counted, and the page made from the statistics (its sections, what it says when it has none, and a
    note under it, each of its lines on a line of its own)."""

    label: str
    played: Callable[[Stats], bool]
    page: Callable[[Stats], tuple[list[Section], str, str]]


def when(summary: GameSummary) -> str:
    """The date and time a game ended, as the list shows it: 2026-11-30 14:05."""
    return summary.finished_at.replace("T", " ")[:16]


def resigned(summary: GameSummary) -> list[str]:
    """Who gave the game up, if anyone: ['Ben resigned'] ('you' for the one person at a table of bots)."""
    seat = summary.resigned
    if seat is None:
        return []
    alone = summary.people == (seat,) and bool(summary.bots)
    return ["you resigned" if alone else f"{summary.seats[seat][0]} resigned"]
