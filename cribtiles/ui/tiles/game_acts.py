"""The person's acts at the table: the panel's buttons and their keys (play, pass, exchange, recall,
shuffle), what may be pressed now, and the question asked before a play when the setting says so.
"""

from __future__ import annotations

import random
from typing import Protocol

import pygame

from cribtiles.rules.moves import Move, Pass, Play
from cribtiles.table.tiles.joker import Item
from cribtiles.table.tiles.public import PublicState

from ..geometry import Rect, contains
from .game_coach import Coaching
from .game_hand import Hand
from .game_host import Stage
from .game_joker import JokerDesk
from .preview import Preview

#: Keys that press the panel's buttons.
KEY_BUTTONS = {
    pygame.K_RETURN: "play",
    pygame.K_KP_ENTER: "play",
    pygame.K_BACKSPACE: "recall",
    pygame.K_r: "recall",
    pygame.K_s: "shuffle",
    pygame.K_p: "pass",
    pygame.K_x: "exchange",
}


class Table(Stage, Protocol):
    """The scene as the acts see it: the play laid judged (`live`), and the turn made (`commit`)."""

    @property
    def live(self) -> Preview | None: ...

    @property
    def rng(self) -> random.Random:
        """The shuffle's generator."""
        ...

    def commit(self, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> None: ...


class Acts:
    """What the person may press, and presses; `confirming` is the play asked about ("Play f7=5D for
    12?"), with what is declared for it and pointed at."""

    def __init__(self, table: Table, hand: Hand, joker: JokerDesk, coaching: Coaching) -> None:
        self.table = table
        self.hand = hand
        self.joker = joker
        self.coaching = coaching
        self.confirming: tuple[Play, int | None, tuple[Item, ...]] | None = None
        self._may_pass: tuple[PublicState, bool] | None = None  # `may_pass()`, asked once per position

    # --- what may be pressed ---

    def can_play(self) -> bool:
        live = self.table.live
        return self.table.my_turn and live is not None and live.is_legal and self.hand.draft.held is None

    def may_pass_now(self) -> bool:
        """The seat to move (one of this window's) may pass, asked once per position (it searches for a
        legal play)."""
        state = self.table.state
        if self._may_pass is not None and self._may_pass[0] is state:
            return self._may_pass[1]
        session = self.table.session  # the rack to move is one of this window's seats, or nobody may pass here
        answer = not state.is_over and state.current in session.mine and session.view(state.current).may_pass()
        self._may_pass = (state, answer)
        return answer

    def can_pass(self) -> bool:
        return self.table.my_turn and self.may_pass_now()

    def can_exchange(self) -> bool:
        return self.can_pass() and self.table.state.bag_size(self.table.human) > 0

    def exchange_ready(self) -> bool:
        n = len(self.hand.draft.marked)
        return self.hand.exchanging and 1 <= n <= min(5, self.table.state.bag_size(self.table.human))

    # --- the buttons ---

    def press(self, name: str) -> None:
        hand, table = self.hand, self.table
        if name == "play":
            self._play()
        elif name in ("pass", "exchange") and hand.exchanging:
            hand.close_exchange()
        elif name == "pass":
            if self.can_pass():
                hand.draft.recall()
                table.commit(Pass())
            elif table.my_turn:
                table.toast("You have a legal play, so you may not pass.")
        elif name == "exchange":
            if self.can_exchange():
                hand.open_exchange()
            elif table.my_turn and self.can_pass():
                table.toast("The bag is empty: there is nothing to exchange with.")
            elif table.my_turn:
                table.toast("You have a legal play, so you may not exchange.")
        elif name == "recall":
            hand.recall()
        elif name == "shuffle":
            self.coaching.tile_moved()
            hand.draft.shuffle(self.table.rng)

    def _play(self) -> None:
        """Play (Enter): the exchange marked, the count declared, or the play laid (counted first under
        the Joker rule: never played for its true score unasked); refused in words when it is illegal."""
        hand, table, live = self.hand, self.table, self.table.live
        if hand.exchanging:
            if self.exchange_ready():
                move = hand.draft.exchange()
                assert move is not None
                hand.exchanging = False
                table.commit(move)
        elif self.joker.declaring is not None:
            self.joker.declare()
        elif self.can_play():
            play = hand.draft.proposal()
            assert play is not None
            if table.state.options.joker:
                score = live.score if live is not None else None
                self.joker.count(score if score is not None else table.state.scorer.score(table.state.board, play))
                return
            self.play_or_ask(play)
        elif live is not None and not live.is_legal and table.my_turn:
            table.toast(live.reason)

    def declared(self, declared: int, claimed: tuple[Item, ...]) -> None:
        """The count is declared: the play laid is made (or asked about) for it."""
        play = self.hand.draft.proposal()
        if play is not None:
            self.play_or_ask(play, declared, claimed)

    def play_or_ask(self, play: Play, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> None:
        """Make the play, or first ask "Play f7=5D g7=TL for 12?" when the setting says so (under the
        Joker rule "Play f7=5D g7=TL and declare 10?": what will be declared, never the true score)."""
        if self.table.app.prefs.confirm_play:
            self.confirming = (play, declared, claimed)
        else:
            self.table.commit(play, declared, claimed)

    # --- the question before a play ---

    def confirm_play(self) -> None:
        """The play asked about is made."""
        asked, self.confirming = self.confirming, None
        if asked is not None and self.table.my_turn:
            self.table.commit(*asked)

    def at_question(self, event: pygame.event.Event) -> bool:
        """While "Play ... for 12?" is asked: Enter, Y or the Play button plays; Escape, N or a click
        elsewhere goes back to the turn as it was. True when the event was the question's."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y):
                self.confirm_play()
            elif event.key in (pygame.K_ESCAPE, pygame.K_n):
                self.confirming = None
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == 1 and contains(self.play_rect(), event.pos):
                self.confirm_play()
            else:
                self.confirming = None
            return True
        return event.type in (pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)

    def play_rect(self) -> Rect:
        from .panel import panel_buttons

        return panel_buttons(self.table.snapshot())[0][0]

    def question(self) -> str | None:
        if self.confirming is None:
            return None
        play, declared, _ = self.confirming
        if self.table.state.options.joker:  # what the person declares is all the question may tell
            return f"Play {play} and declare {declared if declared is not None else 'its score'}?"
        live = self.table.live
        points = live.score.total if live is not None and live.score is not None else None
        return f"Play {play} for {points}?" if points is not None else f"Play {play}?"
