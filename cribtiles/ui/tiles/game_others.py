"""The others' turns as the window sees them: a seat it does not play is to move (a bot thinking
here, a player elsewhere); the session is polled, and the move taken once it has seemed to think. On
this window's own turns the session is polled too: a table elsewhere may move for its seat (its turn
timer ran out, or a move whose answer was lost on the way), and that move is shown like another's.
"""

from __future__ import annotations

from cribtiles.rules.moves import Move

from .game_host import Stage

BOT_MIN_PAUSE = 0.7  # seconds another seat seems to think, at the least, at normal speed


class Others:
    """When the others' move was first asked for (None: nobody else is thinking)."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.thinking_since: float | None = None
        self.announced: Move | None = None  # the move `poll` announced, until it is landed

    def take(self, move: Move) -> bool:
        """`move` is being made: True when it is the one the session announced (to be landed, not acted)."""
        announced, self.announced = self.announced, None
        return announced is move

    @property
    def thinking(self) -> bool:
        return self.thinking_since is not None

    @property
    def to_move(self) -> bool:
        """A seat this window does not play is to move (a bot here, or a player elsewhere)."""
        session = self.stage.session
        return session.to_move is not None and session.to_move not in session.mine

    def drive(self) -> Move | None:
        """A frame of the others' turn: the move to show on its way, once it is ready and the pause
        is over (what went wrong on the way is the session's incidents: the app tells them)."""
        stage = self.stage
        if not self.to_move:
            self.thinking_since = None
            if stage.session.to_move is None:
                return None
            self.announced = stage.session.poll()  # the table moved for this window's seat, or nothing
            return self.announced
        if self.thinking_since is None:
            self.thinking_since = stage.now
            stage.session.poll()
            return None
        if stage.now - self.thinking_since < stage.anim(BOT_MIN_PAUSE):
            return None
        move = stage.session.poll()
        if move is None:
            if not stage.session.thinking:  # the request was dropped (a cancelled move): ask again
                self.thinking_since = None
            return None
        self.thinking_since = None
        self.announced = move
        return move
