"""Resigning at the table (Ctrl+R): the question first ("Resign this game? Ben wins at once…", answered
with the Play and Pass buttons' places, Y or N, Esc), then the game given up through the session; the end
card follows as for any end (issue 44)."""

from __future__ import annotations

from cribtiles.rules.errors import IllegalMove

from ..again import resign_question
from .game_host import Stage
from .game_words import sentence
from .snapshot import UndoQuestion


class Resigning:
    """Whether the person shown is being asked to confirm their resignation."""

    def __init__(self, scene: Stage) -> None:
        self.scene = scene
        self.asking = False

    def _seat(self) -> int | None:
        """The person who would resign: the one whose rack is shown, when this window plays it."""
        human = self.scene.human
        return human if human in self.scene.session.mine else None

    def open(self) -> None:
        scene = self.scene
        if scene.state.is_over or self._seat() is None:
            scene.toast("There is no game under way for you to resign.")
            return
        self.asking = True

    def question(self) -> UndoQuestion | None:
        seat = self._seat()
        if not self.asking or seat is None or self.scene.state.is_over:
            return None
        match = self.scene.state.options.rounds > 1
        text = resign_question(self.scene.state.names, seat, match)
        return UndoQuestion(text, "Y or Resign gives it up; N, Esc or Keep playing goes back", "Resign", "Keep playing")

    def answer(self, yes: bool) -> None:
        """Yes gives the game up; no goes back to it."""
        self.asking = False
        seat = self._seat()
        if not yes or seat is None:
            return
        try:
            self.scene.session.resign(seat)
        except IllegalMove as e:
            self.scene.toast(sentence(str(e)), 6.0)
            return
        self.scene.toast("You resigned.")
        self.scene.saved()
