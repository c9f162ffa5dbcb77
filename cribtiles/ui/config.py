"""What the window needs from the app: the player's preferences and where to keep the game.

The app owns files and folders; the window only calls `Keeper` (so the ui never imports the app).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Protocol, TypeAlias

from cribtiles.cribbage.game import CribbageState
from cribtiles.games import REBUILT, game_named
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.table.cribbage.ledger import summarize_cribbage
from cribtiles.table.cribbage.session import FinishedCribbage
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.game_summary import GameSummary
from cribtiles.table.keeping import kept_by, of_kind
from cribtiles.table.ledger import Stats, statistics, summarize
from cribtiles.table.saves import SavedTable
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table

#: A game's table, of whichever game it is: what a game of the history is rebuilt as, and what the window
#: replays, reviews and exports (each by its game's own part, `REPLAYED`, `REVIEWED`).
AnyTable: TypeAlias = SavedTable


class Keeper(Protocol):
    """Saves for the window: the game after every turn, the preferences when they change."""

    def save(self, table: Table | CribbageTable) -> bool:
        """Save the game in play at the table, of either game (`Keeps`); whether it was saved (never raises)."""
        ...

    @property
    def unsaved(self) -> str | None:
        """Why a game in play is not saved as it stands (its latest save failed), or None."""
        ...

    def save_preferences(self, prefs: Preferences) -> None: ...

    def load_cribbage(self) -> tuple[CribbageTable | None, str]:
        """The saved cribbage game, and a message when it was damaged (set aside, never raised)."""
        ...

    # the history of finished games (the app keeps it in a database; none of these ever raises)

    def record(self, game: Table | FinishedCribbage) -> None:
        """Add the finished game of either game (a tile game or whole match at its table, a game of cribbage
        with its person and bot level; None: another person, online) to the history (`Keeps`), once however
        often it is called; a game not over is not recorded."""
        ...

    def past_games(self) -> list[GameSummary]:
        """The finished games of both games, the newest last."""
        ...

    def statistics(self) -> Stats:
        """The statistics of both games."""
        ...

    def past_game(self, game_id: int) -> Table | CribbageTable | None:
        """The table of finished game `game_id` (a `GameSummary.id`) of either game, rebuilt by its own game
        to be replayed; None if there is none (or it cannot be replayed)."""
        ...

    def export_game(self, table: AnyTable) -> str:
        """Write the game's record (of either game) to a file of its own; where it went, or why it could
        not, in words."""
        ...

    def history_note(self) -> str:
        """What the history said since this was last asked ("" when all went well), in words for the
        screen: that it could not be read (locked by another program, a link), that games in it were left
        out, that a game could not be stored. A screen that finds no games shows this instead of "no games"."""
        ...

    # the puzzles solved ("find the best play"), kept with the history; neither ever raises

    def solved_puzzles(self) -> dict[str, int]:
        """The puzzles solved, by id, each with the points found."""
        ...

    def mark_solved(self, puzzle_id: str, points: int) -> None:
        """Remember that puzzle `puzzle_id` was solved with `points` (solved again: its most points)."""
        ...


class NoKeeper:
    """Keeps nothing on disk (the self-test and benchmarks): the games' history lives in memory."""

    def __init__(self) -> None:
        self.saved: list[GameState] = []
        self.games: list[GameSummary] = []
        self.solved: dict[str, int] = {}
        self.cribbage: str | None = None  # the cribbage game's save, as JSON

    unsaved: str | None = None  # nothing is written, so nothing fails to be

    def save(self, table: Table | CribbageTable) -> bool:
        return kept_by(table).save(self, table)

    def record(self, game: Table | FinishedCribbage) -> None:
        kept_by(game).record(self, game)

    def save_game(self, game: Table | GameState | Match) -> bool:
        self.saved.append(game.state if isinstance(game, Table) else game.game if isinstance(game, Match) else game)
        return True

    def save_preferences(self, prefs: Preferences) -> None:
        pass

    def save_cribbage(self, table: CribbageTable) -> bool:
        self.cribbage = table.to_json()
        return True

    def load_cribbage(self) -> tuple[CribbageTable | None, str]:
        return (None if self.cribbage is None else CribbageTable.from_json(self.cribbage)), ""

    def record_game(self, table: Table) -> None:
        if not (table.match_over and table.round_over):
            return
        summary = summarize(table, time.strftime("%Y-%m-%dT%H:%M:%S"))
        if all(g.key != summary.key for g in self.games):
            self.games.append(replace(summary, id=len(self.games) + 1))

    def past_games(self) -> list[GameSummary]:
        return list(self.games)

    def statistics(self) -> Stats:
        return statistics(self.games)

    def past_game(self, game_id: int) -> Table | CribbageTable | None:
        found = [g for g in self.games if g.id == game_id]
        table: Table | CribbageTable | None = game_named(found[0].game).part(REBUILT)(found[0]) if found else None
        return table

    def past_table(self, game_id: int) -> Table | None:
        return of_kind(self.past_game(game_id), Table)

    def export_game(self, table: Table | CribbageTable) -> str:
        return "There is no data folder here to write the game's record in."

    def past_cribbage(self, game_id: int) -> CribbageTable | None:
        return of_kind(self.past_game(game_id), CribbageTable)

    def record_cribbage(
        self, state: CribbageState, person: int, level: str | None, marks: tuple[int, int] = (0, 0)
    ) -> None:
        if state.outcome is None:
            return
        game = summarize_cribbage(state, person, level, time.strftime("%Y-%m-%dT%H:%M:%S"), marks)
        if all(g.key != game.key for g in self.games):
            self.games.append(replace(game, id=len(self.games) + 1))

    def history_note(self) -> str:
        return ""

    def solved_puzzles(self) -> dict[str, int]:
        return dict(self.solved)

    def mark_solved(self, puzzle_id: str, points: int) -> None:
        self.solved[puzzle_id] = max(points, self.solved.get(puzzle_id, points))
