"""The table's input routed to its controllers: the chat's field first, the curtain's, a question's, then
the mouse (the coach, the pegs, the turn list, Joker, Undo, a request answered, the buttons, the hand)
and the keys (resign, a past turn shown, Joker, Undo, a request answered, the cursor, the buttons, help,
the next game). It owns nothing of its own: it only routes.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from ..chat import Chat
from ..geometry import Layout, Point, contains
from .declare import joker_rect
from .game_acts import KEY_BUTTONS
from .game_host import Window
from .game_parts import Parts
from .game_resign import Resigning
from .game_seats import waits
from .game_undo import answer_undo, take_back, undo_question, undo_shown


class Deals(Window, Protocol):
    """The window as the table's keys ask it: the next game (N)."""

    def new_game(self) -> None: ...


class Routed(Parts, Protocol):
    """The scene as its input sees it: every controller, and the flags the pointer and the keys turn."""

    chat: Chat
    resigning: Resigning
    resigns: bool
    peg_totals: bool

    @property
    def app(self) -> Deals: ...

    @property
    def layout(self) -> Layout: ...

    def may_call(self) -> bool: ...

    def call_joker(self) -> None: ...


class Input:
    """Routes each event of the table to the controller whose it is."""

    def __init__(self, scene: Routed) -> None:
        self.scene = scene

    def handle(self, event: pygame.event.Event) -> None:
        scene = self.scene
        if scene.chat.handle(event):  # the field's keys while it is open, and C opening it online
            return
        if scene.curtain is not None and scene.shown.lift(event):
            scene.refresh_preview()
            scene.coaching.show_notes()
            return
        if scene.curtain is not None and waits(event):
            return
        if scene.acts.confirming is not None and scene.acts.at_question(event):
            return
        hand = scene.hand
        if event.type == pygame.MOUSEMOTION:
            hand.mouse = event.pos
            over = scene.layout.button_at(hand.mouse) is not None or scene.coaching.at(hand.mouse) is not None
            hand.point_cursor(over)
            scene.turn_list.hover(hand.mouse)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            hand.mouse = event.pos
            if event.button == 1:
                scene.keys.keyboard = False
                self.press(event.pos)
            elif event.button == 3:  # the wheel arrives as MOUSEWHEEL too: one notch, one flip
                hand.flip_at(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            if contains(scene.layout.info, hand.mouse):  # the turn list scrolls
                scene.turn_list.scroll(event.y)
            else:
                hand.flip_at(hand.mouse)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            hand.mouse = event.pos
            hand.release()
        elif event.type == pygame.KEYDOWN:
            self.key(event)

    def press(self, point: Point) -> None:
        scene = self.scene
        if scene.coaching.press(point):
            return
        if contains(scene.layout.pegboard, point) and scene.state.options.rounds > 1:
            scene.peg_totals = not scene.peg_totals  # the match's totals on the pegs, or this round's scores
            return
        if scene.turn_list.press(point):
            return
        if scene.may_call() and contains(joker_rect(scene.layout), point):
            scene.call_joker()
            return
        button = scene.layout.button_at(point)
        if button == "play" and undo_shown(scene) and not contains(scene.acts.play_rect(), point):
            from .panel import undo_button

            undo = undo_button(scene.snapshot())
            if undo is not None and contains(undo[0], point):
                take_back(scene)
            return
        if button is not None and self.answers(button):
            return
        if scene.joker.declaring is not None and button is None:
            scene.joker.point_at(scene.layout.square_at(point))
        elif button is not None:
            scene.acts.press(button)
        else:
            scene.hand.press(point)

    def key(self, event: pygame.event.Event) -> None:
        scene = self.scene
        k, mods = event.key, event.mod
        if scene.resigning.asking and k == pygame.K_ESCAPE:
            scene.resigning.answer(False)
        elif k == pygame.K_r and mods & pygame.KMOD_CTRL and scene.resigns:  # resign (R alone recalls)
            scene.resigning.open()
        elif scene.turn_list.past is not None and k == pygame.K_ESCAPE:
            scene.turn_list.past = None
        elif (scene.joker.declaring is not None and scene.joker.key(event)) or scene.coaching.key(event):
            pass
        elif k == pygame.K_j and scene.may_call():
            scene.call_joker()
        elif k == pygame.K_u or (k == pygame.K_z and mods & pygame.KMOD_CTRL):
            take_back(scene)
        elif self.answers(answer_key(k, mods)) or scene.keys.key(event):
            pass
        elif k in KEY_BUTTONS:
            scene.acts.press(KEY_BUTTONS[k])
        elif k in (pygame.K_h, pygame.K_F1):
            scene.help = not scene.help
        elif k == pygame.K_n and (scene.state.is_over or mods & pygame.KMOD_CTRL):
            scene.app.new_game()
        elif k == pygame.K_ESCAPE:
            scene.keys.escape()

    def answers(self, what: str | bool) -> bool:
        """A request to take back a move waits (or the question before resigning) and `what` answers it:
        the Play button's place (Allow), the Pass button's (Refuse, or the asker's Withdraw), or Y/N
        (True/False). True when answered."""
        scene = self.scene
        if scene.resigning.question() is not None and what in ("play", "pass", True, False):
            scene.resigning.answer(what in ("play", True))
            return True
        asked = undo_question(scene)
        if asked is None or scene.hand.exchanging or scene.joker.declaring is not None:
            return False
        if what not in ("play", "pass", True, False):
            return False
        yes = what in ("play", True)
        if (asked.yes if yes else asked.no) is None:
            return False
        return answer_undo(scene, yes)


def answer_key(k: int, mods: int) -> str | bool:
    """What a key would answer a request with: Y and N, or the Play and Pass buttons' keys."""
    if k in (pygame.K_y, pygame.K_n) and not mods & pygame.KMOD_CTRL:
        return k == pygame.K_y
    return KEY_BUTTONS.get(k, "")
