"""The cribbage table's row of buttons: which are shown for the moment (Discard; Go; Muggins and Let it
stand; - and + beside Count; Go on; Undo last; a request's Allow and Refuse, or Withdraw), which may be
pressed, and what a press does. A greyed Discard or Go, pressed, says why it cannot be done yet."""

from __future__ import annotations

from cribtiles.cribbage.moves import Go

from ..geometry import Point, contains
from .layout import ButtonKind
from .paint import ButtonView
from .table_calls import Calls
from .table_cards import Cards
from .table_end import TakingBack
from .table_state import Hold, Mode, Plan, Stage


class Buttons:
    """The row of buttons under the felt."""

    def __init__(self, stage: Stage, cards: Cards, calls: Calls, taking_back: TakingBack) -> None:
        self.stage = stage
        self.cards = cards
        self.calls = calls
        self.taking_back = taking_back

    def views(self, can_undo: bool) -> list[ButtonView]:
        """The buttons as drawn (the scene's plan, with Undo last when `can_undo`), the one under the mouse lit."""
        kinds, labels, enabled = self.stage.button_plan()
        if kinds and can_undo and self.taking_back.asked() is None:  # Undo last in the row, as beside Play
            kinds, enabled = (*kinds, ButtonKind.UNDO), enabled | {ButtonKind.UNDO}
        rects = self.stage.layout.buttons(kinds)
        mouse = self.cards.mouse
        return [
            ButtonView(
                k,
                rects[k],
                labels.get(k, k.value),
                k in enabled,
                contains(rects[k], mouse),
                k in enabled and k is not ButtonKind.UNDO,
            )
            for k in kinds
        ]

    def plan(self) -> Plan:
        """The buttons for the moment at the table: their kinds, labels of their own, those enabled."""
        stage, calls = self.stage, self.calls
        table = stage.pub
        mode = stage.mode
        if stage.ended or table.is_over or stage.replaying is not None:
            return (), {}, set()
        asked = self.taking_back.asked()
        if asked is not None:  # the request's answers in the buttons' places (a card laid plays on instead)
            answers = (ButtonKind.WITHDRAW,) if asked.asker == stage.person else (ButtonKind.ALLOW, ButtonKind.REFUSE)
            return answers, {}, set(answers)
        if stage.holding:
            label = "The show" if stage.hold is Hold.PLAY_OVER else "Next deal"
            return (ButtonKind.GO_ON,), {ButtonKind.GO_ON: label}, {ButtonKind.GO_ON}
        if mode is Mode.DISCARD:
            ready = len(self.cards.chosen) == stage.to_crib and stage.may_lay_away
            return (ButtonKind.DISCARD,), {}, {ButtonKind.DISCARD} if ready else set()
        offered = calls.offered() is not None
        if mode is Mode.PLAY:
            can = Go() in stage.after_answer
            kinds: tuple[ButtonKind, ...] = (ButtonKind.GO,)
            if calls.claiming():
                kinds = (ButtonKind.LESS, ButtonKind.MORE, ButtonKind.GO)
            if offered:
                kinds = (ButtonKind.MUGGINS, *kinds)
                if not calls.lays_on():
                    kinds = (*kinds[:-1], ButtonKind.LET_GO)  # the bot lays next: let its card stand, or call
                    return kinds, {}, set(kinds)
            enabled = {k for k in kinds if k is not ButtonKind.GO or can}
            return kinds, {}, enabled
        if offered:
            return (ButtonKind.MUGGINS, ButtonKind.LET_GO), {}, {ButtonKind.MUGGINS, ButtonKind.LET_GO}
        if calls.declaring():
            kinds = (ButtonKind.LESS, ButtonKind.MORE, ButtonKind.COUNT)
            return kinds, {}, set(kinds)
        if stage.my_turn:
            return (ButtonKind.COUNT,), {}, {ButtonKind.COUNT}
        waiting = calls.went_on != table.ply
        return (ButtonKind.GO_ON,), {}, {ButtonKind.GO_ON} if waiting else set()

    def click(self, point: Point, can_undo: bool) -> bool:
        """A click on the row: the button under it pressed (a greyed Discard or Go says why not); whether
        the click was the row's."""
        for b in self.views(can_undo):
            if contains(b.rect, point):
                if b.enabled or b.kind in (ButtonKind.DISCARD, ButtonKind.GO):
                    self.press(b.kind)  # a greyed Discard or Go says why it cannot be done yet
                return True
        return False

    def press(self, kind: ButtonKind) -> None:
        cards, calls = self.cards, self.calls
        if kind is ButtonKind.DISCARD:
            cards.discard()
        elif kind is ButtonKind.GO:
            cards.go()
        elif kind in (ButtonKind.COUNT, ButtonKind.GO_ON, ButtonKind.LET_GO):
            self.stage.go_on()
        elif kind is ButtonKind.MUGGINS:
            calls.call()
        elif kind is ButtonKind.LESS:
            calls.step(-1)
        elif kind is ButtonKind.MORE:
            calls.step(1)
        elif kind is ButtonKind.UNDO:
            self.taking_back.undo()
        elif kind in (ButtonKind.ALLOW, ButtonKind.REFUSE, ButtonKind.WITHDRAW):
            self.taking_back.answer(kind is ButtonKind.ALLOW)
