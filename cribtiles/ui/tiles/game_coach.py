"""The coach at the table: the hint (ghosted and explained), the exchange advice, the best plays with
the Expert's evaluation, the tiles still out, and its notes after a play, each for one rack's eyes.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from cribtiles.bot.coach import TilesOut, after_play_note, tiles_out
from cribtiles.bot.opens import opens_note
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import PlayerView
from cribtiles.rules.movegen import has_legal_play
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.rules.tiles import Tile
from cribtiles.table.tiles.privacy import Private, reveal
from cribtiles.table.tiles.public import PublicState

from ..coach_state import TableCoach
from ..geometry import Point
from .game_hand import Hand
from .game_host import Stage
from .game_words import sentence
from .snapshot import CoachView

NOTE = 6.0  # seconds the coach's note after a play stays, at least
READING = 18.0  # characters a second: a longer note stays as long as it takes to read


class Coaching:
    """The coach's part of the table: what it shows (`coach`), its notes held for their seat, and the
    keys and clicks that ask it. `can_exchange` says whether the exchange may be opened now."""

    def __init__(self, stage: Stage, hand: Hand, coach: TableCoach | None = None) -> None:
        self.stage = stage
        self.hand = hand
        self.coach = coach if coach is not None else TableCoach()
        self.notes: dict[int, Private[str]] = {}  # the coach's notes held for their seat
        self._stuck: tuple[PublicState, bool] | None = None  # the person to move has no play, once per position
        self._tiles_out: tuple[PublicState, int, tuple[TilesOut, ...]] | None = None

    @property
    def showing(self) -> bool:
        """The coach shows something that Escape puts away: the hint, the advice, the best plays."""
        return self.coach.showing

    def _view(self) -> PlayerView:
        return self.stage.session.view(self.stage.human)

    def stuck(self) -> bool:
        """The person shown has no legal play (asked once per position)."""
        state = self.stage.state
        if self._stuck is None or self._stuck[0] is not state:
            mine = not state.is_over and state.current in self.stage.session.mine
            self._stuck = (state, mine and not has_legal_play(state.board, self.stage.session.view(state.current).rack))
        return self._stuck[1]

    def refusal(self) -> str:
        """Why the coach may not help now ("" when it may)."""
        stage = self.stage
        if not stage.session.mine:
            return "The coach helps the people at the table; here only bots play."
        if not stage.session.coach_allowed:
            return "The coach is not at this table: its creator did not allow hints."
        if not stage.my_turn:
            return "The coach helps on your turn."
        prefs = stage.app.prefs
        return self.coach.refusal(stage.session, prefs.hints, prefs.hint_limit)

    def _counted(self, before: int) -> None:
        """A hint was counted: the game keeps the mark at once (it is saved with the game)."""
        hints = self.stage.session.hints
        if hints != before:
            self.stage.saved()
            limit = self.stage.app.prefs.hint_limit
            if limit:
                self.stage.toast(f"Hint {hints} of the {limit} this game allows.")

    def ask_hint(self) -> None:
        """The hint (I, ?, the Hint button): the Hard bot's play ghosted on the board and explained in
        the panel; with no play, or with the exchange open, which tiles to throw back. Asked again, it
        is put away."""
        if self.coach.hint is not None or self.coach.advice is not None:
            self.coach.dismiss()
            return
        why = self.refusal()
        if why:
            self.stage.toast(why)
            return
        session = self.stage.session
        before = session.hints
        try:
            if self.hand.exchanging:
                if self.coach.ask_advice(session, self._view()) is None:
                    self.stage.toast("The coach has no exchange to advise here.")
            else:
                if self.hand.draft.placed or self.hand.draft.held is not None:  # the ghost needs a clear board
                    self.hand.draft.recall()
                    self.stage.refresh_preview()
                if self.coach.ask_hint(session, self._view()) is None:
                    self.stage.toast("You have no play and the bag is empty: you can only pass.")
        except IllegalMove as e:  # a table elsewhere would not count it (or could not be reached)
            self.coach.dismiss()
            self.stage.toast(sentence(str(e)))
        self._counted(before)

    def toggle_candidates(self) -> None:
        """The best plays (B, the Plays button): the top plays for the rack, the Expert evaluating them
        in the background; opening it counts as a hint. Again: closed."""
        if self.coach.candidates is not None:
            self.coach.close_candidates()
            return
        why = self.refusal()
        if why:
            self.stage.toast(why)
            return
        session = self.stage.session
        before = session.hints
        self.coach.dismiss()
        try:
            self.coach.open_candidates(session, self._view(), seed=len(self.stage.state.turns))
        except IllegalMove as e:  # a table elsewhere would not count it (or could not be reached)
            self.coach.close_candidates()
            self.stage.toast(sentence(str(e)))
        self._counted(before)

    def toggle_tiles_out(self) -> None:
        """The tiles still out (T, the Tiles button): shown or hidden, and the setting kept; nothing under
        the hot seat's curtain, where no rack is uncovered to count them from."""
        if self.stage.uncovered is None:
            return
        prefs = self.stage.app.prefs
        prefs.tiles_out = not prefs.tiles_out
        self.stage.app.keeper.save_preferences(prefs)

    def lay(self, play: Play) -> None:
        """Lay `play`'s tiles from the rack on their squares, as the player would."""
        self.hand.lay([(p.tile, p.square) for p in play.placements])

    def mark(self, tiles: Sequence[Tile]) -> None:
        """Open the exchange (when it may be made) with `tiles` chosen to throw back."""
        if not self.hand.exchanging:
            if not self.stage.can_exchange():
                self.stage.toast("You may not exchange now.")
                return
            self.hand.open_exchange()
        self.hand.mark(tiles)

    def lay_hint(self) -> None:
        """The hint becomes a real placement on the board (or the exchange it advises, marked)."""
        s = self.coach.hint
        if s is None or not self.stage.my_turn:
            return
        self.coach.dismiss()
        if isinstance(s.move, Play):
            self.lay(s.move)
        elif isinstance(s.move, Exchange):
            self.mark(s.move.tiles)

    def choose_candidate(self, index: int) -> None:
        """A candidate clicked: laid on the board as a preview (the panel stays open)."""
        found = self.coach.candidates
        if found is None or not 0 <= index < len(found) or not self.stage.my_turn:
            return
        move = found[index].move
        if isinstance(move, Play):
            self.hand.close_exchange()
            self.lay(move)
        elif isinstance(move, Exchange):
            self.mark(move.tiles)
        self.coach.chosen = index

    def taken_back(self, seat: int) -> None:
        """`seat`'s turn was taken back: what the coach showed, and its note on that play, go."""
        self.coach.clear()
        self.notes.pop(seat, None)

    def tile_moved(self) -> None:
        """A tile moved by hand: the hint is put away, and no candidate is laid any more."""
        self.coach.hint = None
        self.coach.chosen = None

    # --- input ---

    def key(self, event: pygame.event.Event) -> bool:
        """The coach's keys: I or ? the hint, B the best plays, T the tiles still out; Enter lays the
        hint shown, Escape puts away what the coach shows. True when the key was the coach's."""
        k = event.key
        if k == pygame.K_i or getattr(event, "unicode", "") == "?":
            self.ask_hint()
        elif k == pygame.K_b:
            self.toggle_candidates()
        elif k == pygame.K_t:
            self.toggle_tiles_out()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.coach.hint is not None:
            self.lay_hint()
        elif k == pygame.K_ESCAPE and self.coach.showing and self.hand.draft.held is None:
            if self.coach.hint is not None or self.coach.advice is not None:
                self.coach.dismiss()
            else:
                self.coach.close_candidates()
        else:
            return False
        return True

    def at(self, point: Point) -> tuple[str, int] | None:
        """The coach's button, candidate or ghost under `point`."""
        from ..coach_panel import ghost_squares, hit
        from .panel import coach_rects

        snap = self.stage.snapshot()
        found = hit(coach_rects(snap), point)
        if found is None and any(r.collidepoint(point) for r in ghost_squares(snap)):
            return "ghost", 0
        return found

    def press(self, point: Point) -> bool:
        """A click on the coach's buttons, the advice's button, a candidate or the hint's ghost."""
        found = self.at(point)
        if found is None:
            return False
        kind, i = found
        if kind == "button":
            (self.ask_hint, self.toggle_candidates, self.toggle_tiles_out)[i]()
        elif kind == "mark" and self.coach.advice is not None and self.stage.my_turn:
            self.mark(self.coach.advice.throw)
        elif kind == "candidate":
            self.choose_candidate(i)
        elif kind == "ghost":
            self.lay_hint()
        return True

    # --- its notes after a play ---

    def note(self, move: Move) -> str:
        """The coach's note on the person's play (the setting on): the best play, when it scored more,
        and what the play opens or closes for the reply (`opens.opens_note`), when worth saying; from
        the mover's own view."""
        state = self.stage.state
        if not self.stage.app.prefs.coach_notes or not isinstance(move, Play):
            return ""
        if not self.stage.session.coach_allowed:  # the best play is the coach's help, kept from this table
            return ""
        if state.options.joker:  # "(you scored 12)" would tell the score while the play may be called
            return ""
        view = self.stage.session.view(state.current)
        try:
            said = [after_play_note(state.board, view.rack, move, view.scorer)]
        except IllegalMove:  # the table refuses it a moment later, in its own words
            return ""
        said.append((opens_note(view, move) or "").removesuffix("."))
        return ". ".join(s for s in said if s)

    def hold(self, mover: int, note: str, later: bool) -> None:
        """`note` is the mover's to read, at once or (`later`) when their rack is next uncovered."""
        self.notes[mover] = Private(mover, f"Coach, on your last play: {note}." if later else f"Coach: {note}.")

    def show_notes(self) -> None:
        """A coach's note held for a seat is shown once that seat's rack is uncovered."""
        seat = self.stage.uncovered
        if seat is None or seat not in self.notes:
            return
        note = reveal(self.notes.pop(seat), seat)
        if note is not None:
            self.stage.toast(note, max(NOTE, len(note) / READING), seat)

    # --- the snapshot's part ---

    def view(self) -> CoachView | None:
        """What the coach shows this frame (None at a table of bots only)."""
        stage = self.stage
        if not stage.session.mine:
            return None
        prefs = stage.app.prefs
        uncovered = stage.uncovered
        out = None
        if prefs.tiles_out and uncovered is not None:  # unseen tiles: the uncovered rack's, no other
            out = reveal(Private(stage.human, self._tiles_out_of(stage.human)), uncovered)
        c = self.coach
        # the hint, the advice and the best plays are for the rack they were asked for, and for no other eyes
        asked = None if c.seat is None else Private(c.seat, c)
        mine = reveal(asked, uncovered)
        found = None if mine is None or mine.candidates is None else tuple(mine.candidates)
        return CoachView(
            may_ask=self.refusal() == "",
            hints_on=prefs.hints and self.stage.session.coach_allowed,  # a table online may not allow it
            stuck=stage.my_turn and self.stuck(),
            hint=None if mine is None else mine.hint,
            advice=None if mine is None else mine.advice,
            candidates=found,
            chosen=None if mine is None else mine.chosen,
            progress=None if mine is None else mine.progress(),
            expert_ran=mine is not None and mine.expert_ran,
            failure="" if mine is None else mine.failure,
            tiles_out=out,
            hints_used=stage.session.hints,
            hint_limit=prefs.hint_limit,
        )

    def _tiles_out_of(self, seat: int) -> tuple[TilesOut, ...]:
        """The tiles still out as `seat` sees them (its own rack taken away), worked out once per position."""
        state = self.stage.state
        cached = self._tiles_out
        if cached is None or cached[0] is not state or cached[1] != seat:
            cached = self._tiles_out = (state, seat, tiles_out(self.stage.session.view(seat)))
        return cached[2]
