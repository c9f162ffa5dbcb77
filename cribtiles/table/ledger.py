"""The ledger of finished games, for both games: the tile game's summary of a finished table, and the
statistics drawn from many games of either (`statistics`), each game's by its own part (`STATISTICS`): the
tile game's by mode and opponent (`tiles.stats`), classic cribbage's by bot level (`cribbage.ledger`).
Games with undos or hints are counted apart from the clean ones; games of bots only and unfinished ones
are not counted. The summary itself is `game_summary`'s.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cribtiles.games import GAMES, STATISTICS
from cribtiles.rules.game import GameState

from .cribbage.ledger import CribbageStats
from .game_summary import PEOPLE as PEOPLE  # the names the ledger's readers take from it
from .game_summary import Game, TileDetails
from .game_summary import GameSummary as GameSummary
from .game_summary import Result as Result
from .saves import save_table
from .tiles.history import history_of
from .tiles.stats import StatLine as StatLine  # the names the ledger's readers take from it
from .tiles.stats import TileStats
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
class Stats:
    """Statistics of a history: each game's own (its `STATISTICS` part), from its own games, in a field
    named for the game. The tile game's (`tiles`, read through `lines`, `marked`, `total`, `marked_total`,
    `watched` and `games` too, as before it had a field): by mode and opponent; classic cribbage's
    (`cribbage`): by bot level."""

    tiles: TileStats
    cribbage: CribbageStats

    @property
    def lines(self) -> tuple[StatLine, ...]:
        return self.tiles.lines

    @property
    def marked(self) -> tuple[StatLine, ...]:
        return self.tiles.marked

    @property
    def total(self) -> StatLine | None:
        return self.tiles.total

    @property
    def marked_total(self) -> StatLine | None:
        return self.tiles.marked_total

    @property
    def watched(self) -> int:
        return self.tiles.watched

    @property
    def games(self) -> int:
        return self.tiles.games


def statistics(games: Sequence[GameSummary]) -> Stats:
    """The statistics of `games` of both games, given in the order they were played (the history gives
    them so): each game's own figures, drawn by its `STATISTICS` part from its own games."""
    figures = {kind.name: kind.part(STATISTICS)([g for g in games if g.game == kind.name]) for kind in GAMES.values()}
    return Stats(**figures)
