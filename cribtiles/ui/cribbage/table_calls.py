"""The count and muggins at the cribbage table: the number you say aloud (typed digits, - and +: your
count in the show, or a card's score in the play), counting your hand, going on in the show, and the
calls: M calls muggins on another's score said aloud, Enter (or laying on) lets it stand.
"""

from __future__ import annotations

import pygame

from cribtiles.cribbage.moves import Count, Go, Muggins, PlayCard
from cribtiles.cribbage.muggins import MOST_PEGGED, MOST_SHOWN, Claim
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.peg import MAX_COUNT

from .table_state import Hold, Stage


class Calls:
    """What you say aloud (`declared`: None until typed) and the show's pace (`went_on`: the ply at
    which you said to go on)."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.declared: int | None = None  # the count (or a card's score) you say aloud: None until typed
        self.went_on = -1  # the ply at which you said to go on in the show

    def reset(self) -> None:
        """The game changed under the table: nothing typed, nothing gone on from."""
        self.declared = None
        self.went_on = -1

    # --- the questions ---

    def declaring(self) -> bool:
        """Your count to say in the show (muggins, or counting by hand: a wrong count is corrected)."""
        stage = self.stage
        view = stage.seen
        return (
            stage.pub.options.counted_by_hand
            and stage.my_turn
            and view.phase is Phase.SHOW
            and view.claim is None
            and not stage.holding
        )

    def claiming(self) -> bool:
        """A card of yours to lay in the play, its score said aloud (muggins in the play)."""
        stage = self.stage
        state = stage.pub
        if not (state.options.play_muggins and stage.my_turn and state.phase is Phase.PLAY):
            return False
        mine = state.claim is None or state.claim.counter != stage.person
        return mine and not stage.holding and any(isinstance(m, PlayCard) for m in stage.after_answer)

    def lays_on(self) -> bool:
        """You lay a card (or say go) next once the score waiting for your answer stands: doing so lets it
        stand. Else the other lays again first, and only Enter (or Let it stand) answers."""
        return any(isinstance(m, (PlayCard, Go)) for m in self.stage.after_answer)

    def count_starts_again(self) -> bool:
        """Once the score waiting for your answer stands, a new count begins (the other has no card to lay
        on the one shown): a card of yours that would pass 31 on the count shown may be laid."""
        count = self.stage.seen.count
        return any(isinstance(m, PlayCard) and count + m.card.value > MAX_COUNT for m in self.stage.after_answer)

    def offered(self) -> Claim | None:
        """The other's score said aloud that you may call now."""
        return None if self.stage.holding else self.stage.open_call

    def _most(self) -> int:
        return MOST_PEGGED if self.claiming() else MOST_SHOWN

    # --- what you say ---

    def key(self, event: pygame.event.Event) -> None:
        """A digit typed, Backspace, or - and + (the arrows too), while a number is to be said."""
        k = event.key
        digit = event.unicode if event.unicode.isdigit() else ""
        if not digit and pygame.K_0 <= k <= pygame.K_9:
            digit = chr(k)
        if digit:
            value = (self.declared or 0) * 10 + int(digit)
            self.declared = value if value <= self._most() else int(digit)
        elif k == pygame.K_BACKSPACE:
            self.declared = None if self.declared is None or self.declared < 10 else self.declared // 10
        elif k in (pygame.K_UP, pygame.K_PLUS, pygame.K_KP_PLUS, pygame.K_EQUALS):
            self.step(1)
        elif k in (pygame.K_DOWN, pygame.K_MINUS, pygame.K_KP_MINUS):
            self.step(-1)

    def step(self, step: int) -> None:
        """- and +: from nothing typed, + says 1 and - says 0."""
        if self.declared is None:
            self.declared = max(0, step)
        else:
            self.declared = max(0, min(self._most(), self.declared + step))

    def call(self) -> None:
        """Muggins! on the other's score said aloud (M or the button): the call is announced when told."""
        self.stage.act(Muggins(True))

    def go_on(self) -> None:
        """Enter or the button in the show: count your own hand, or let the next count (or deal) come."""
        stage = self.stage
        if stage.holding:
            stage.hold = Hold.NONE
            return
        if stage.my_turn:
            if self.offered():
                stage.act(Muggins(False))
            elif self.declaring():
                if self.declared is None:
                    stage.say("Type your count first: the points the cards make (0 if none), then Enter.")
                else:
                    stage.act(Count(self.declared))
            else:
                stage.act(Count())
        elif stage.bots_turn:
            self.went_on = stage.pub.ply
