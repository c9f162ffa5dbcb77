"""Your cards at the cribbage table: picked with a click (or Left/Right and Space), dragged to the crib
or to the play, chosen for the crib and laid away (Enter or Discard), laid in the play, go said. The
mouse and the keyboard's cursor are here; the number said aloud with a card is `table_calls`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.moves import Discard, Go, Muggins, PlayCard

from ..geometry import Point, Rect
from .table_calls import Calls
from .table_end import capital
from .table_state import Mode, Stage

#: Pixels the mouse moves, button down, before a press on a card becomes a drag.
DRAG_START = 6


@dataclass
class Press:
    """A press on a card of your hand: a click, or a drag once the mouse has moved far enough."""

    card: Card
    start: Point
    grab: Point  # where on the card it was taken
    pos: Point
    dragging: bool = False


class Cards:
    """The cards you chose for the crib, the card under the keyboard's cursor, a press (or drag) under
    way, and where the mouse is."""

    def __init__(self, stage: Stage, calls: Calls) -> None:
        self.stage = stage
        self.calls = calls
        self.chosen: list[Card] = []
        self.cursor: int | None = None
        self.press: Press | None = None
        self.mouse: Point = (-1, -1)

    def reset(self) -> None:
        """Nothing chosen, pointed at or held (the game changed under the table)."""
        self.chosen, self.cursor, self.press = [], None, None

    def hand_rects(self) -> list[Rect]:
        """Where each card of your hand rests: a card chosen for the crib a little lifted."""
        lay = self.stage.layout
        hand = self.stage.hand
        slots = lay.hand_slots(len(hand))
        return [lay.lifted(r) if c in self.chosen else r for c, r in zip(hand, slots, strict=True)]

    @property
    def held(self) -> Card | None:
        """The card being dragged (None: none, or a press not yet a drag)."""
        return self.press.card if self.press is not None and self.press.dragging else None

    # --- the mouse ---

    def motion(self, pos: Point) -> None:
        self.mouse = pos
        if self.press is not None:
            self.press.pos = pos
            if not self.press.dragging and _far(self.press.start, pos):
                self.press.dragging = True

    def press_at(self, point: Point) -> None:
        """The button down on a card of your hand (not in the show): a click, or a drag if it moves."""
        rects = self.hand_rects()
        i = self.stage.layout.hand_at(point, rects)
        if i is not None and self.stage.mode is not Mode.SHOW:
            card = self.stage.hand[i]
            r = rects[i]
            self.press = Press(card, point, (point[0] - r[0], point[1] - r[1]), point)
            self.cursor = None

    def release(self, point: Point) -> None:
        """The button up: a click takes the card; a drag lays it where it is dropped."""
        press, self.press = self.press, None
        if press is None:
            return
        if not press.dragging:
            self.take(press.card)
            return
        lay = self.stage.layout
        mode = self.stage.mode
        if mode is Mode.DISCARD:
            if lay.in_crib_zone(point) and press.card not in self.chosen:
                self.choose(press.card)
            elif not lay.in_crib_zone(point) and press.card in self.chosen:
                self.chosen.remove(press.card)
        elif mode is Mode.PLAY and lay.in_play_zone(point):
            self.play(press.card)

    # --- the keyboard ---

    def arrow(self, step: int) -> None:
        """Left (-1) or Right (1): the cursor to the next card round the hand."""
        n = len(self.stage.hand)
        if n:
            self.cursor = (step if step < 0 else 0) % n if self.cursor is None else (self.cursor + step) % n

    def space(self) -> None:
        """Space: the card under the cursor taken."""
        hand = self.stage.hand
        if self.cursor is not None and self.cursor < len(hand):
            self.take(hand[self.cursor])

    def enter(self) -> None:
        """Enter: go on from what is held, lay your crib cards, lay the card under the cursor, answer the
        other's score said aloud, or say go; in the show, count."""
        stage, calls = self.stage, self.calls
        mode = stage.mode
        if stage.holding:
            stage.go_on()
        elif mode is Mode.DISCARD:
            self.discard()
        elif mode is Mode.PLAY:
            hand = stage.hand
            if calls.offered() and not calls.lays_on():  # the other lays again first: Enter answers
                stage.act(Muggins(False))
            elif self.cursor is not None and self.cursor < len(hand):
                self.play(hand[self.cursor])
            elif calls.offered():
                stage.act(Muggins(False))
            elif Go() in stage.seen.legal:
                stage.act(Go())
            else:
                stage.say("Choose a card with Left and Right, then Space or Enter plays it.", error=False)
        else:
            stage.go_on()

    def after_move(self) -> None:
        """A move made: the cursor kept on the hand left."""
        self.cursor = None if self.cursor is None else min(self.cursor, max(0, len(self.stage.hand) - 1))

    # --- the acts ---

    def take(self, card: Card) -> None:
        """A card clicked (or Space): chosen for the crib or put back; played in the play."""
        mode = self.stage.mode
        if mode is Mode.DISCARD:
            if card in self.chosen:
                self.chosen.remove(card)
            else:
                self.choose(card)
        elif mode is Mode.PLAY:
            self.play(card)

    def choose(self, card: Card) -> None:
        stage = self.stage
        to_crib = stage.to_crib
        if stage.seen.discards:
            stage.say("Your crib cards are laid already." if to_crib == 2 else "Your crib card is laid already.")
        elif len(self.chosen) >= to_crib:
            many = "Two cards go" if to_crib == 2 else "One card goes"
            stage.say(f"{many} to the crib: click a chosen card to put it back first.")
        else:
            self.chosen.append(card)
            stage.message = ""

    def play(self, card: Card) -> None:
        stage, calls = self.stage, self.calls
        if not stage.my_turn:
            stage.say(f"Wait: {stage.pub.called(stage.actor)} is to play.")
            return
        claim = calls.offered()
        if claim is not None and not calls.lays_on():
            bot = capital(stage.pub.called(claim.counter))
            stage.say(f"{bot} lays again before you: Enter lets its {claim.cards[-1]} stand, M calls muggins.")
            return
        if calls.claiming():  # a card laid with nothing typed says it scores nothing
            stage.act(PlayCard(card, calls.declared or 0))
        else:
            stage.act(PlayCard(card))

    def go(self) -> None:
        if self.stage.mode is Mode.PLAY and self.stage.my_turn:
            self.stage.act(Go())

    def discard(self) -> None:
        to_crib = self.stage.to_crib
        if len(self.chosen) != to_crib:
            wanted = "a card" if to_crib == 1 else "two cards" if not self.chosen else "a second card"
            self.stage.say(f"Choose {wanted} for the crib first (click them, or drag them to the crib).")
            return
        if self.stage.act(Discard(tuple(self.chosen))):  # before the others' too: everyone lays away at once
            self.chosen = []
            self.cursor = None


def _far(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) >= DRAG_START
