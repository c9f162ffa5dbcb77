"""The coach at the cribbage table as the scene drives it: the hint key (I or ?) asks `CribCoach` for the
position on the felt, says why not in words, counts and saves a hint once per position, and puts what
it shows away once the game moves on."""

from __future__ import annotations

from cribtiles.cribbage.options import Phase
from cribtiles.rules.errors import IllegalMove

from ..tiles.game_words import sentence
from .coach import CoachNote, CribCoach
from .table_state import Mode, Stage


class Coaching:
    """What the coach shows at this table (`coach`), asked by the hint key."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.coach = CribCoach()  # the hint key's discard advice and pegging hint

    def here(self) -> tuple[int, int]:
        """The position a hint is for: the deal and the moves made; in the discard, the deal and whether
        your crib cards are laid (the bot's discard beside yours does not change your advice)."""
        seen = self.stage.seen
        if seen.phase is Phase.DISCARD:
            return seen.deal_number, -1 - len(seen.discards)
        return seen.deal_number, self.stage.pub.ply

    def stale(self) -> None:
        """A hint is for the position it was asked in: put away once the game moved on."""
        self.coach.stale(self.here())

    def note(self) -> CoachNote | None:
        """What the felt shows of the coach: nothing in the show, nor once the game ended."""
        stage = self.stage
        return self.coach.note if stage.mode is not Mode.SHOW and not stage.ended else None

    def hint(self) -> None:
        """The hint key (I or ?, as at the tile game's table): the best discards in the discard, the card
        Hard would lay in the play; asked again, put away. Counted once per position, saved with the game."""
        stage = self.stage
        if stage.coach_off:  # a table aside that says what to do itself
            stage.say(stage.coach_off)
            return
        if self.coach.note is not None:
            self.coach.dismiss()
            return
        discarding = stage.mode is Mode.DISCARD and not stage.seen.discards  # while the bot chooses too
        if stage.holding or not (discarding or (stage.mode is Mode.PLAY and stage.my_turn)):
            stage.say("The coach helps with your discard, and in the play on your turn.")
            return
        prefs = stage.app.prefs
        session = stage.session
        why = self.coach.refusal(session, self.here(), prefs.hints, prefs.hint_limit)
        if why:
            stage.say(why)
            return
        before = session.hints
        try:
            why = self.coach.ask(session, stage.seen, self.here())
        except IllegalMove as e:  # a table elsewhere would not count it (or could not be reached)
            self.coach.dismiss()
            why = sentence(str(e))
        if why:
            stage.say(why)
        hints = session.hints
        if hints != before:
            session.save()  # the mark is kept with the game at once
            if prefs.hint_limit:
                stage.say(f"Hint {hints} of the {prefs.hint_limit} this game allows.", error=False)
