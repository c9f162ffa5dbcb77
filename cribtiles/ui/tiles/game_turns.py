"""The turn list of the side panel: scrolled with the wheel, its rows lighting their squares under the
mouse, and a turn clicked shown again with the board as it stood right after it.
"""

from __future__ import annotations

from cribtiles.rules.board import Square
from cribtiles.rules.moves import Pass, Play

from ..geometry import Point, contains
from .game_host import Stage
from .snapshot import PastTurn


class TurnList:
    """The list's scroll, the squares of the row under the mouse, and the turn shown again (`past`)."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.past: int | None = None  # a turn clicked in the turn list: shown with the board right after it
        self.turn_scroll = 0  # turns of the list scrolled past, newest first
        self.hover_rows: tuple[Square, ...] = ()

    def scroll(self, notches: int) -> None:
        self.turn_scroll = max(0, min(len(self.stage.state.turns) - 1, self.turn_scroll - notches))

    def row_at(self, point: Point) -> int | None:
        """The turn of the row under `point`, if any."""
        from .panel import info_rows

        if not contains(self.stage.app.layout.info, point):
            return None
        for row in info_rows(self.stage.snapshot()):
            if row.turn is not None and contains(row.rect, point):
                return row.turn
        return None

    def hover(self, mouse: Point) -> None:
        """The squares of the row under the mouse light up."""
        from .panel import info_rows

        self.hover_rows = ()
        for row in info_rows(self.stage.snapshot()):
            if row.squares and contains(row.rect, mouse):
                self.hover_rows = row.squares
                break

    def press(self, point: Point) -> bool:
        """A click on a turn shows it (again: back to the game); a click elsewhere while one is shown
        puts it away, and one on the board does nothing more. True when the click was the list's."""
        turn = self.row_at(point)
        if turn is not None:
            self.past = None if self.past == turn else turn
            return True
        if self.past is not None:
            self.past = None
            return self.stage.app.layout.square_at(point) is not None
        return False

    def view(self) -> PastTurn | None:
        history = self.stage.session.history
        if self.past is None or not 0 <= self.past < len(history):
            return None
        record = history[self.past]
        move = record.turn.move
        squares = move.squares if isinstance(move, Play) else ()
        words = "passed" if isinstance(move, Pass) else f"exchanged {record.turn.drawn} tiles"
        seen = self.stage.session.seen(record)
        return PastTurn(record.number, record.player, record.board_after, squares, record.score, words, seen)
