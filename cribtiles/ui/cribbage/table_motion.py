"""The cards on the cribbage felt and their way there: where each rests this frame (your hand, the others'
rows, the crib, the starter, the play, the show's row), how it is marked, and each card easing towards
its place: dealt from the deck, laid from the row of whoever laid it, the crib's turned up from the crib.
Card faces are drawn ahead of need here too, one a frame."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cribtiles.cribbage.cards import DECK, Card
from cribtiles.cribbage.moves import PlayCard

from ..geometry import Rect
from ..motion import glide_share
from .cards import face
from .layout import HAND_MOST
from .paint import InfoLine, Sprite
from .table_calls import Calls
from .table_cards import Cards
from .table_coaching import Coaching
from .table_state import Hold, Key, Mode, Place, Stage

#: The near seat's cards' place among the seats' rows (after the three others' at most), at a table watched.
NEAR = 3

Spot = tuple[float, float, int]  # a card's x, y and width


@dataclass
class Glides:
    """Each card's position on the felt this frame, easing towards where it rests."""

    pos: dict[Key, list[float]]
    moving: bool = False  # a card is on its way

    def step(self, targets: dict[Key, Spot], start: Callable[[Key, Spot], Spot], k: float) -> dict[Key, Spot]:
        """Move every card a fraction `k` of the way to its target (1: at once); a card new to a place
        starts where it was last seen elsewhere, or at `start`."""
        moved: dict[Key, Spot] = {}
        self.moving = False
        seen: dict[Card, list[float]] = {key[1]: p for key, p in self.pos.items() if key[1] is not None}
        for key, (tx, ty, tw) in targets.items():
            p = self.pos.get(key)
            if p is None:
                card = key[1]
                p = (
                    list(seen[card])
                    if card is not None and card in seen
                    else [float(v) for v in start(key, (tx, ty, tw))]
                )
            for j, target in enumerate((tx, ty, tw)):
                p[j] += (target - p[j]) * k
                if abs(target - p[j]) < 0.5:
                    p[j] = float(target)
            moved[key] = (p[0], p[1], round(p[2]))
            self.pos[key] = p
            self.moving = self.moving or (p[0], p[1], p[2]) != (tx, ty, tw)
        for key in [key for key in self.pos if key not in targets]:
            del self.pos[key]
        return moved


@dataclass(frozen=True)
class FrameParts:
    """What `update` worked out for the frame: the panel's lines, the one pointed at, each card's mark
    and where it is on its glide."""

    lines: tuple[InfoLine, ...]
    hover: int | None
    sprites: tuple[Sprite, ...]


class Motion:
    """Every card's place and glide, and the frame's parts worked out by `frame` (None: none yet)."""

    def __init__(self, stage: Stage, cards: Cards, calls: Calls, coaching: Coaching) -> None:
        self.stage = stage
        self.cards = cards
        self.calls = calls
        self.coaching = coaching
        self.glides = Glides({})
        self.parts: FrameParts | None = None
        self._warm: list[tuple[Card, int]] = []  # card faces to draw ahead of need, one a frame
        self._warm_for: tuple[int, int] = (0, 0)

    def frame(self, dt: float, lines: tuple[InfoLine, ...], hover: int | None) -> FrameParts:
        """The panel's `lines` (`hover` pointed at), and every card eased `dt` seconds along its glide."""
        lit = frozenset(lines[hover].cards) if hover is not None else frozenset()
        targets, marks = self._targets(lit, self._show_row(lines, hover))
        k = glide_share(dt, self.stage.app.prefs.pace)
        at = self.glides.step(targets, self._start_of, k)
        sprites = tuple(
            Sprite(m.card, at[key][0], at[key][1], at[key][2], m.dim, m.lit, m.chosen, m.focus, m.hinted, m.mark)
            for key, m in marks.items()
        )
        return FrameParts(lines, hover, sprites)

    def warm_up(self) -> None:
        """Draw one card face ahead of need each frame (about 4 ms each: a deal's six at once made a
        frame of 25 ms), at the sizes cards rest at in the hand and in the play."""
        lay = self.stage.layout
        if self._warm_for != (lay.width, lay.height):
            self._warm_for = (lay.width, lay.height)
            self._warm = [(c, w) for w in (lay.play_w, lay.card_w) for c in DECK]
        if self._warm and not self.glides.moving:  # never while cards glide: that frame is busy
            card, width = self._warm.pop()
            face(card, width)

    def held(self) -> Sprite | None:
        """The card being dragged, under the mouse where it was taken."""
        p = self.cards.press
        if p is None or not p.dragging:
            return None
        return Sprite(p.card, p.pos[0] - p.grab[0], p.pos[1] - p.grab[1], self.stage.layout.card_w)

    def seat_cards(self, player: int) -> tuple[Card | None, ...]:
        """Another player's cards in their row: backs, but their hand face up once counted in the show (and
        in a replay showing every hand, face up all along)."""
        stage = self.stage
        pub = stage.pub
        if player in stage.open_hands and stage.mode is not Mode.SHOW:
            return stage.open_hands[player]
        if stage.mode is Mode.SHOW:
            counted = [c for c in pub.counted if c.owner == player and not c.crib]
            return counted[-1].cards if counted else (None,) * pub.options.variant.kept
        return (None,) * pub.hand_sizes[player]

    def _targets(self, lit: frozenset[Card], show_row: tuple[Card, ...]) -> tuple[dict[Key, Spot], dict[Key, Sprite]]:
        """Where every card rests this frame, and how it is marked (position filled in after the glide)."""
        stage = self.stage
        lay = stage.layout
        table = stage.pub
        view = stage.seen
        mode = stage.mode
        targets: dict[Key, Spot] = {}
        marks: dict[Key, Sprite] = {}

        def put(key: Key, rect: Rect, mark: int | None = None, **flags: bool) -> None:
            targets[key] = (rect[0], rect[1], rect[2])
            marks[key] = Sprite(key[1], rect[0], rect[1], rect[2], mark=mark, **flags)

        held = self.cards.held
        fits = {m.card for m in stage.after_answer if isinstance(m, PlayCard)}  # a bot's score may wait
        note = self.coaching.coach.note
        hint_cards = frozenset(note.cards) if note is not None and mode is not Mode.SHOW else frozenset()
        chosen, cursor = self.cards.chosen, self.cards.cursor
        for i, (card, rect) in enumerate(zip(stage.hand, self.cards.hand_rects(), strict=True)):
            if card == held:
                continue
            dim = mode is Mode.PLAY and stage.my_turn and card not in fits
            hinted = card in hint_cards
            put((Place.HAND, card, 0), rect, dim=dim, chosen=card in chosen, focus=i == cursor, hinted=hinted)
        for seat, player in enumerate(table.others):  # each other player's row: one with two players
            seat_cards = self.seat_cards(player)
            slots = lay.seat_slots(seat, len(seat_cards))
            for i, (back, rect) in enumerate(zip(seat_cards, slots, strict=True)):
                put((Place.BOT, back, seat * HAND_MOST + i), rect)
        if stage.watching:  # the near seat's cards as the others': backs, face up once counted
            near = self.seat_cards(stage.person)
            for i, (back, rect) in enumerate(zip(near, lay.near_slots(len(near)), strict=True)):
                put((Place.BOT, back, NEAR * HAND_MOST + i), rect)
        if mode is Mode.SHOW:
            crib_counted = any(c.crib for c in table.counted)
            for i, rect in enumerate(lay.crib_stack(0 if crib_counted else 4)):
                put((Place.CRIB, None, i), rect)
            slots = lay.show_slots()
            for i, card in enumerate(show_row):
                rect = slots[-1] if i == len(show_row) - 1 else slots[i]  # the starter a little apart
                put((Place.STARTER if i == len(show_row) - 1 else Place.SHOW, card, 0), rect, lit=card in lit)
            return targets, marks
        for i, rect in enumerate(lay.crib_stack(view.crib_size)):
            put((Place.CRIB, None, i), rect)
        if view.starter is not None:
            put((Place.STARTER, view.starter, 0), lay.starter, lit=view.starter in lit)
        pile = view.pile
        old = not pile and table.sequences and mode is Mode.PLAY
        cards_shown = tuple(c for _, c in table.sequences[-1]) if old else pile
        laid_by = {c: table.side_of(p) for seq in table.sequences for p, c in seq} if table.players > 2 else {}
        for card, rect in zip(cards_shown, lay.pile_slots(len(cards_shown)), strict=True):
            dim = bool(old) and card not in lit and stage.hold is Hold.NONE  # an ended count, until the next card
            put((Place.OLD if old else Place.PILE, card, 0), rect, laid_by.get(card), dim=dim, lit=card in lit)
        return targets, marks

    def _show_row(self, lines: tuple[InfoLine, ...], hover: int | None) -> tuple[Card, ...]:
        """The cards in the show's row, the starter last: the counted hand pointed at in the panel, else
        the one you are to count (laid face up to be counted: the crib too), else the last counted."""
        stage = self.stage
        table = stage.pub
        state = table
        if stage.mode is not Mode.SHOW:
            return ()
        pointed = lines[hover].hand if hover is not None else None
        if pointed is not None:
            counted = table.counted[pointed]
            return (*counted.cards, counted.score.starter)
        if stage.my_turn and state.claim is None and not stage.holding and state.starter is not None:
            return (*stage.seen.to_count, state.starter)
        if table.counted:
            counted = table.counted[-1]
            return (*counted.cards, counted.score.starter)
        return () if state.starter is None else (state.starter,)

    def _start_of(self, key: Key, target: Spot) -> Spot:
        """Where a card new to the felt comes from, when it was nowhere in sight before: a card the bot
        lays from the bot's row, the crib's from the crib, a dealt one from the deck."""
        stage = self.stage
        lay = stage.layout
        place = key[0]
        if place in (Place.PILE, Place.OLD):  # from the row of whoever laid it
            pub = stage.pub
            laid = [p for seq in pub.sequences for p, c in seq if c == key[1]]
            if stage.watching and laid and laid[0] == stage.person:  # from the near seat's row
                r = lay.near_slots(pub.hand_sizes[stage.person] + 1)[-1]
                return r[0], r[1], lay.back_w
            player = laid[0] if laid and laid[0] != stage.person else pub.bot
            seat = pub.others.index(player)
            r = lay.seat_slots(seat, pub.hand_sizes[player] + 1)[-1]
            return r[0], r[1], lay.back_w
        if place is Place.SHOW:
            return lay.crib[0], lay.crib[1], lay.play_w
        if place is Place.BOT and key[1] is not None:
            return target  # the bot's hand turned face up where it lies
        return lay.deck[0], lay.deck[1], target[2]  # dealt at its own size: no second face drawn for the way
