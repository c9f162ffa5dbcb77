"""A tile game's row on the History screen (its `HISTORY_ROW` part in `cribtiles.games`): when it ended,
Standard or Solitaire (a match) against whom, the players with their final scores, how it went for the
people, and its marks (who resigned, undos, hints)."""

from __future__ import annotations

from cribtiles.table.game_summary import PEOPLE, GameSummary, Result

from ..history_parts import WON, resigned, when
from ..paint import CREAM, DIM, GOLD
from ..screens import Cells

RESULT_WORDS = {
    Result.WIN: "won",
    Result.LOSS: "lost",
    Result.TIE: "tied",
    Result.PEOPLE_ONLY: "",
    Result.WATCHED: "watched",
    Result.UNFINISHED: "unfinished",
}


def cells(summary: GameSummary) -> Cells:
    """The row's five cells and their colours (a game won in green)."""
    result = summary.result
    shade = WON if result is Result.WIN else CREAM
    texts = (when(summary), what(summary), players(summary), RESULT_WORDS[result], marks(summary))
    return texts, (DIM, CREAM, CREAM, shade, GOLD)


def what(summary: GameSummary) -> str:
    """The kind of tile game: Standard or Solitaire, a match of N rounds, against whom."""
    kind = "Solitaire" if summary.tiles.mode == "solitaire" else "Standard"
    if summary.rounds_words:
        kind += f", {summary.rounds_words}"
    against = "people" if summary.opponent == PEOPLE else summary.opponent.replace("+", " + ")
    return f"{kind} · {against}"


def players(summary: GameSummary) -> str:
    """Each player with their final score, winners marked: You 112 · Hard 98 (a game kept unfinished
    has no winner to mark, only scores as it was left)."""
    parts = []
    for i, ((name, _), score) in enumerate(zip(summary.seats, summary.scores, strict=True)):
        star = "» " if i in summary.winners and not summary.unfinished else ""  # the font has no star
        parts.append(f"{star}{name} {score}")
    return " · ".join(parts)


def marks(summary: GameSummary) -> str:
    """Who resigned, and a tile game's undos and hints: 'Ben resigned, 2 undos, 1 hint'."""
    d, out = summary.tiles, resigned(summary)
    if d.undos:
        out.append(f"{d.undos} undo{'s' if d.undos != 1 else ''}")
    if d.hints:
        out.append(f"{d.hints} hint{'s' if d.hints != 1 else ''}")
    return ", ".join(out)
