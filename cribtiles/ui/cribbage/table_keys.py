"""The cribbage table under the keyboard: what each key does at the moment, routed to the controller
whose it is: a table watched's and the end card's keys, the question before resigning, a request to
take back a move answered, and in play your cards (Left/Right, Space, Enter), G go, M muggins, I the
hint, U undo, N a new game, and the digits of the number said aloud."""

from __future__ import annotations

import pygame

from .table_calls import Calls
from .table_cards import Cards
from .table_coaching import Coaching
from .table_end import Ending, TakingBack
from .table_state import Stage


class Keys:
    """The keys' routes; the keyboard's cursor is the cards' (`Cards.cursor`)."""

    def __init__(
        self, stage: Stage, cards: Cards, calls: Calls, coaching: Coaching, ending: Ending, taking_back: TakingBack
    ) -> None:
        self.stage = stage
        self.cards = cards
        self.calls = calls
        self.coaching = coaching
        self.ending = ending
        self.taking_back = taking_back

    def key(self, event: pygame.event.Event) -> None:
        """A key pressed (the chat's field took its own first)."""
        k, stage = event.key, self.stage
        if stage.watching:  # nothing to play: Escape goes back; once played again, Enter watches the new table
            self.ending.watch_key(k)
            return
        if stage.ended and stage.asks_again and self.ending.again_key(k):
            return
        if stage.resigning:
            self.ending.resign_key(k)
            return
        if k == pygame.K_r and event.mod & pygame.KMOD_CTRL and not stage.ended and stage.replaying is None:
            self.ending.ask_resign()
        elif k in (pygame.K_y, pygame.K_n) and not stage.ended and self.taking_back.asked() is not None:
            self.taking_back.answer(k == pygame.K_y)
        elif stage.ended:
            self.ending.end_key(k)
        else:
            self._play(event)

    def _play(self, event: pygame.event.Event) -> None:
        """A key while the game is played: your cards, the hint, go, muggins, undo, the number said aloud."""
        k, stage, cards, calls = event.key, self.stage, self.cards, self.calls
        if k == pygame.K_i or getattr(event, "unicode", "") == "?":
            self.coaching.hint()
        elif k == pygame.K_ESCAPE:
            if cards.press is not None:
                cards.press = None
            elif self.coaching.coach.note is not None:
                self.coaching.coach.dismiss()
            elif cards.chosen or cards.cursor is not None:
                cards.chosen, cards.cursor = [], None
            else:
                stage.app.close_top()
        elif k in (pygame.K_LEFT, pygame.K_RIGHT):
            cards.arrow(-1 if k == pygame.K_LEFT else 1)
        elif k == pygame.K_SPACE:
            cards.space()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            cards.enter()
        elif k == pygame.K_g:
            cards.go()
        elif k == pygame.K_m and calls.offered():
            calls.call()
        elif k == pygame.K_n:
            stage.new_game()
        elif k == pygame.K_u or (k == pygame.K_z and event.mod & pygame.KMOD_CTRL):
            self.taking_back.undo()
        elif calls.declaring() or calls.claiming():
            calls.key(event)
