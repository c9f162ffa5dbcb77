"""The other seats' turns at the cribbage table, on the scene's clock: the bot (or, online, the other
seat) is asked once and its move landed after a pause long enough to see each card; each count of the
show waits for you to go on; the game ends (and is recorded) once the last pegs have moved."""

from __future__ import annotations

from cribtiles.cribbage.options import Phase

from .table_calls import Calls
from .table_pegs import Pegging
from .table_state import Stage

#: Seconds, at normal pace: the bot's pause before its card (so each card can be seen), before its answer
#: to a score you said aloud, the wait before the end card.
BOT_PAUSE = {Phase.DISCARD: 0.5, Phase.PLAY: 0.8, Phase.SHOW: 0.2}
ANSWER_PAUSE = 0.3
END_PAUSE = 1.2


class Turns:
    """When the other seat was asked (`asked_at`), when the last move was made (`last_move_at`), and
    whether the finished game was recorded."""

    def __init__(self, stage: Stage, calls: Calls, pegging: Pegging) -> None:
        self.stage = stage
        self.calls = calls
        self.pegging = pegging
        self.asked_at = 0.0
        self.last_move_at = 0.0
        self.recorded = False

    def reset(self) -> None:
        """The game changed under the table: its clock starts again now."""
        self.last_move_at = self.asked_at = self.stage.now

    def _anim(self, seconds: float) -> float:
        return seconds * self.stage.app.prefs.pace

    def drive(self) -> bool:
        """Another seat's move, landed once it is ready and its pause is over; whether one landed (the
        scene then asks the session again)."""
        stage = self.stage
        table = stage.pub
        if not stage.bots_turn or stage.holding or stage.ended:
            return False
        phase = table.phase
        answering = table.claim is not None  # the bot answers a score you said aloud
        if phase is Phase.SHOW and self.calls.went_on != table.ply and not answering:
            return False  # each count of the show waits for you to go on
        session = stage.session
        asked = session.thinking
        ready = session.poll() is not None  # asks the bot once, then whether its answer is ready
        if not asked:
            self.asked_at = stage.now
            return False
        pause = ANSWER_PAUSE if answering else BOT_PAUSE[phase]
        if not ready or stage.now - self.asked_at < self._anim(pause):
            return False
        if self.pegging.moving and phase is Phase.PLAY and not answering:
            return False  # the last points are pegged before the next card
        session.land()
        return True

    def moved(self) -> None:
        """A move made (yours or another's): the game saved, the clock's mark set, a click heard."""
        stage = self.stage
        stage.session.save()
        self.last_move_at = stage.now
        self.calls.declared = None
        stage.app.sounds.click()

    def game_ends(self) -> bool:
        """The game is over and its end card is due: the last pegs moved, a pause after the last move (a
        replay's last move says the result in its own words, and has no end card)."""
        stage = self.stage
        return (
            stage.pub.is_over
            and (stage.replaying is None or stage.watching)
            and not stage.ended
            and not self.pegging.moving
            and stage.now - self.last_move_at >= self._anim(END_PAUSE)
        )

    def record(self) -> None:
        """The finished game into the history, once (the history knows a game recorded again, too)."""
        if not self.recorded:
            self.recorded = True
            self.stage.session.finish()
