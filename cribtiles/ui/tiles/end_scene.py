"""The end card over the table: the racks counted off, the final scores, the winner; then the next
game (or round), the review, or the New game screen. At a table online the next game is asked of the
others there (Play again, answered with Y and N), and L leaves the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

import pygame

from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.session import Session
from cribtiles.table.tiles.table import Table

from .. import paint
from ..again import press_again
from ..geometry import contains
from ..sound import Sounds
from . import endcard
from .game_scene import GameScene


class Router(Protocol):
    """What the end card asks of the window: its settings and sounds, and where to go next."""

    prefs: Preferences
    sounds: Sounds

    def new_game(self) -> None: ...

    def open_review(self, table: Table) -> None: ...

    def open_new_game(self) -> None: ...

    def close_top(self) -> None: ...

    def leave_table(self, session: Session, words: str) -> None: ...

    def watch_table(self, server: str, code: str) -> None: ...


#: Seconds the result stands on the end card before Enter (or a click on its button) goes on to the
#: next game: an Enter meant for the last play, or pressed twice, never skips a result nobody has read.
RESULT_GUARD = 1.0


class EndScene:
    """The end of the game over the table: rack deductions, final scores, the winner, New game."""

    def __init__(self, app: Router, game: GameScene) -> None:
        self.app = app
        self.game = game
        self.mouse = (0, 0)
        self.shown_at = game.now
        self.clicks = 0
        self.rushed = False  # Enter during the count: the racks are counted at once
        self.result_at: float | None = None  # the scene's time when the result appeared

    @property
    def session(self) -> Session:
        """The session of the table under the card (online play reads which table is on screen by it)."""
        return self.game.session

    @property
    def elapsed(self) -> float:
        """Seconds since the card appeared, at normal pace (the speed setting shortens the count)."""
        pace = self.app.prefs.pace
        return math.inf if pace <= 0 or self.rushed else (self.game.now - self.shown_at) / pace

    @property
    def ready(self) -> bool:
        """The result has been in view for `RESULT_GUARD` seconds of the scene's clock: Enter goes on."""
        return self.result_at is not None and self.game.now - self.result_at >= RESULT_GUARD

    def _go_on(self, then: Callable[[], None]) -> None:
        """Enter, N or the card's button: once the result has been seen, `then`; before, the count is
        finished at once and the result shown (the next Enter, a moment later, goes on)."""
        if self.ready:
            then()
        elif self.result_at is None:
            self.rushed = True
            self._see_result()

    def _see_result(self) -> None:
        if self.result_at is None and endcard.all_counted(self.game.snapshot(), self.elapsed):
            self.result_at = self.game.now
            self.game.count_racks()  # the pegs go back to the final scores

    def review_rect(self) -> tuple[int, int, int, int]:
        """The Review button, right of the card's New game button (its key, V, right of it)."""
        card, button = endcard.end_rects(self.game.snapshot())
        gap = button[3] // 3
        x = button[0] + button[2] + gap
        return (x, button[1], min(round(card[2] * 0.2), card[0] + card[2] - 3 * gap - x), button[3])

    @property
    def reviewed(self) -> bool:
        """The review is the coach's: offered where the table allows the coach (online, its creator's
        choice)."""
        return self.game.session.coach_allowed

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    @property
    def asks_again(self) -> bool:
        """A table online, its game over: the next one is asked of the others there."""
        session = self.game.session
        return not session.plays_again and not self.game.snapshot().next_is_round and bool(session.mine)

    def _again(self, yes: bool) -> None:
        """Play again (`yes`: the button, Enter, Y), or N: asked, withdrawn or answered, and said."""
        session = self.game.session
        words = press_again(session, self.game.state.names, session.mine[0], yes)
        if words:
            self.game.toast(words, 6.0)
            self.app.sounds.click()

    def _next(self) -> None:
        """The card's button, Enter, N: the next game (or round); online, asked of the others; watching a
        table, on to watch it played again (nothing else is a spectator's to start)."""
        session = self.game.session
        if session.spectator:
            again, where = session.played_again_at, session.where
            if again is not None and where is not None:
                self.app.watch_table(where[0], again)
        elif self.asks_again:
            self._go_on(lambda: self._again(True))
        else:
            self._go_on(self.app.new_game)

    def handle(self, event: pygame.event.Event) -> None:
        _, button = endcard.end_rects(self.game.snapshot())
        clicked = event.type == pygame.MOUSEBUTTONDOWN and event.button == 1
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.KEYDOWN and self.asks_again and self._online_key(event.key):
            return
        elif clicked and contains(button, event.pos):
            self._next()
        elif clicked and self.reviewed and contains(self.review_rect(), event.pos):
            self.app.open_review(self.game.session.record())
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_n):
                self._next()  # the same table again (or the next round)
            elif event.key == pygame.K_v and self.reviewed:  # every turn against the best play found
                self.app.open_review(self.game.session.record())
            elif event.key == pygame.K_g:  # other players or rules: the New game screen
                self.app.open_new_game()
            elif event.key == pygame.K_ESCAPE:  # look at the final board; N starts a new game
                self.game.count_racks()
                self.app.close_top()

    def _online_key(self, key: int) -> bool:
        """Y and N answer a request to play again (N asks, with none); L leaves the table for good."""
        session = self.game.session
        if key == pygame.K_l:
            self.app.leave_table(session, "You left the table: it is off Your online games.")
            return True
        if key == pygame.K_y or (key == pygame.K_n and session.pending_again is not None):
            self._go_on(lambda: self._again(key == pygame.K_y))
            return True
        return False

    def update(self, dt: float) -> None:
        self.game.update(dt)
        snap = self.game.snapshot()
        n = endcard.counted(snap, self.elapsed)
        if n > self.clicks and self.elapsed != math.inf:  # a knock for each tile counted off
            self.app.sounds.click()
        self.clicks = n
        self._see_result()

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        self.game.draw(surface, full=True)  # the veil darkens everything: redraw it all
        snap = self.game.snapshot()
        _, button = endcard.end_rects(snap)
        endcard.draw_end(surface, snap, contains(button, self.mouse), self.elapsed)
        if self.reviewed:
            review = self.review_rect()
            paint.button(surface, review, "Review", True, contains(review, self.mouse))
            at = (review[0] + review[2] + review[3] // 6, review[1] + review[3] // 2)
            paint.write(surface, "V", max(12, review[3] // 3), paint.DIM, at, "midleft")
        return None
