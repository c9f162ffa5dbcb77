"""Classic cribbage at the table: your hand dealt, two cards to the crib, the play to 31, the show
counted step by step, pegs moving on the board; the bot thinks beside the frames and the scene polls it.

The game is behind a session (`cribtiles.table.cribbage.session.CribbageDriver`): this scene sees only
its public value and your own hand, turns clicks, drags and keys into moves for it, tells what each move
scored, and builds a snapshot for `cribbage_paint` to draw.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

import pygame

from cribtiles.cribbage.cards import DECK, Card
from cribtiles.cribbage.moves import Count, CribbageError, Discard, Go, Move, Muggins, PlayCard
from cribtiles.cribbage.muggins import MOST_PEGGED, MOST_SHOWN, Claim, ClaimKind
from cribtiles.cribbage.options import Phase, Variant
from cribtiles.cribbage.peg import MAX_COUNT
from cribtiles.cribbage.view import CribbageView
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.again import NextTable
from cribtiles.table.cribbage.public import Act, CribbagePublic, PublicCounted, PublicMove
from cribtiles.table.cribbage.session import CribbageDriver
from cribtiles.table.settings import Preferences

from ..again import again_question, resign_question
from ..chat import CHAT_KEYS, Chat
from ..chat_paint import history_chips
from ..config import Keeper
from ..geometry import Point, Rect, contains
from ..motion import PEG, glide_share
from ..paint import CREAM, DIM, GOLD
from ..pegs import Pegs
from ..scene import Scene
from ..sound import Sounds
from ..tiles.game_words import away_words, sentence, stand_in_words
from . import cards
from .coach import CribCoach
from .layout import HAND_MOST, ButtonKind, CribLayout
from .paint import (
    ButtonView,
    CribSnapshot,
    CribView,
    InfoLine,
    PegSpot,
    SeatView,
    Sprite,
    chat_history,
    line_rects,
)
from .table_end import Ending, TakingBack, capital

log = logging.getLogger("cribtiles.window")

#: Seconds, at normal pace: the bot's pause before its card (so each card can be seen), before its answer
#: to a score you said aloud, the wait before the end card, how long a
#: refusal stays (a call announced stays as long).
BOT_PAUSE = {Phase.DISCARD: 0.5, Phase.PLAY: 0.8, Phase.SHOW: 0.2}
ANSWER_PAUSE = 0.3
END_PAUSE = 1.2
ERROR_SECONDS = 5.0
#: Pixels the mouse moves, button down, before a press on a card becomes a drag.
DRAG_START = 6
PERSON_COLOUR = CREAM


class Host(Protocol):
    """What the scene needs of the window."""

    prefs: Preferences
    keeper: Keeper
    screen: pygame.Surface
    sounds: Sounds

    def close_top(self) -> None: ...

    def push(self, scene: Scene) -> None: ...

    def review_cribbage(self, session: CribbageDriver) -> str:
        """Open the review of `session`'s finished game; why it cannot be opened yet, in words ("")."""
        ...

    def open_next_table(self, table: NextTable) -> None:
        """Everyone agreed to play the table online again: on to the new one."""
        ...

    def leave_table(self, session: CribbageDriver, words: str) -> None:
        """Let a table online go (aborted, or left once over) and go to the title, saying `words`."""
        ...

    def watch_table(self, server: str, code: str) -> None:
        """Watch the table `code` at `server` (one watched here was played again)."""
        ...


class Place(Enum):
    """Where a card lies on the felt (a card may be drawn in two places: your hand and the show)."""

    HAND = "hand"
    PILE = "pile"
    OLD = "old"  # the count just ended, shown dimmed until the next card
    SHOW = "show"
    BOT = "bot"
    STARTER = "starter"
    CRIB = "crib"


class Hold(Enum):
    """A moment kept on the felt until you go on: the last count of the play, or the whole show (the
    engine has moved on already: to the show, or to the next deal)."""

    NONE = "none"
    PLAY_OVER = "play over"
    SHOW_OVER = "show over"


class Mode(Enum):
    """What the felt shows: the discard, the play, or the show (a show is kept until you go on)."""

    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"


# --- the bot's thinking, off the frame ---


# --- cards gliding to where they rest ---


Key = tuple[Place, Card | None, int]  # a place, the card (None: a back), the back's index


@dataclass
class Glides:
    """Each card's position on the felt this frame, easing towards where it rests."""

    pos: dict[Key, list[float]]
    moving: bool = False  # a card is on its way

    def step(
        self,
        targets: dict[Key, tuple[float, float, int]],
        start: Callable[[Key, tuple[float, float, int]], tuple[float, float, int]],
        k: float,
    ) -> dict[Key, tuple[float, float, int]]:
        """Move every card a fraction `k` of the way to its target (1: at once); a card new to a place
        starts where it was last seen elsewhere, or at `start`."""
        moved: dict[Key, tuple[float, float, int]] = {}
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


@dataclass
class Press:
    """A press on a card of your hand: a click, or a drag once the mouse has moved far enough."""

    card: Card
    start: Point
    grab: Point  # where on the card it was taken
    pos: Point
    dragging: bool = False


@dataclass(frozen=True)
class FrameParts:
    """What `update` worked out for the frame: the panel's lines, the one pointed at, each card's mark
    and where it is on its glide."""

    lines: tuple[InfoLine, ...]
    hover: int | None
    sprites: tuple[Sprite, ...]


def _hold_after(h: PublicMove, state: CribbagePublic) -> Hold:
    """What a move just made leaves held in sight at this table: the show, when the crib was counted
    and the next deal dealt; the play, when its last card was laid; else nothing."""
    if h.phase is Phase.SHOW and state.deal_number != h.deal:
        return Hold.SHOW_OVER
    if h.phase is Phase.PLAY and state.phase is Phase.SHOW and state.show_step == 0:
        return Hold.PLAY_OVER
    return Hold.NONE


class CribbageScene:
    """The cribbage table: input, timing, and the snapshot drawn each frame."""

    #: Whether U (and the Undo button) may take back a move here (the tutorial's script: no).
    takes_back = True

    def __init__(
        self,
        app: Host,
        session: CribbageDriver,
        notice: str = "",
        on_new_game: Callable[[CribbageScene], None] | None = None,
        asks_again: bool = False,
    ) -> None:
        """`on_new_game`: what N (and the end card's New game) opens, given this scene. `asks_again`: a
        table online, whose next game is asked of the others there (Play again, Y and N; L leaves it)."""
        self.app = app
        self.asks_again = asks_again
        self.resigning = False  # Ctrl+R asked whether you give the game up: Y or Enter does
        self.on_new_game = on_new_game or (lambda scene: None)
        # its moves and the bot's go through the session (the bot thinks behind it, beside the frames);
        # all the scene knows of the game is what the session says all may see, and your own hand
        self.session = session
        # a table online watched, not sat at: the felt from the first seat's side, every move told as it
        # comes, nothing to play (issue 44)
        self.watching = session.spectator
        # online: lines to the table, and what it tells (C); the window's mutes (a test's host keeps none)
        self.chat = Chat(session, getattr(app, "chat_mutes", None))
        self._refresh()
        self.now = 0.0
        self.chosen: list[Card] = []
        self.cursor: int | None = None
        self.press: Press | None = None
        self.mouse: Point = (-1, -1)
        self.message = notice
        self.message_error = bool(notice)
        self.message_until = ERROR_SECONDS * 2 if notice else 0.0
        self.asked_at = 0.0
        self.went_on = -1  # the ply at which you said to go on in the show
        # the end of a play, or of a show, kept in sight until you go on (a game saved then resumes so)
        story = self.pub.story
        self.hold = _hold_after(story[-1], self.pub) if story else Hold.NONE
        self.declared: int | None = None  # the count (or a card's score) you say aloud: None until typed
        self.pegs = [Pegs() for _ in self.pub.scores]  # a side each: partners peg together
        for p, peg in enumerate(self.pegs):
            peg.set(self.pub.scores[p], self.pub.previous[p])
        # a score said aloud whose points are not told yet (the scores are as before it): its answer pegs them
        self.owed = self.pub.claim is not None
        self.glides = Glides({})
        self.last_move_at = 0.0
        self.ended = False
        self.recorded = False
        self._last_snap: CribSnapshot | None = None
        self._view = CribView()  # drawing's own memory of the last frame
        self._layout: CribLayout | None = None
        self._parts: FrameParts | None = None
        self._warm: list[tuple[Card, int]] = []  # card faces to draw ahead of need, one a frame
        self._warm_for: tuple[int, int] = (0, 0)
        self.coach = CribCoach()  # the hint key's discard advice and pegging hint
        self.ending = Ending(self)  # resigning, playing again online, a table aborted or played again
        self.taking_back = TakingBack(self)  # undo, and online the requests to take back a move
        self.undos = session.undos  # the take-backs the felt shows: online, one more is made by agreement
        # a replay's words and keys in the prompt and the keys' line (None: a game being played)
        self.replaying: tuple[str, str] | None = None
        # a replay of a finished game with every hand shown (Tab): the other seat's cards face up
        self.open_hands: dict[int, tuple[Card, ...]] = {}  # a replay's every hand face up (Tab): each seat's cards
        if self.watching:
            self.hold = Hold.NONE
            self._watch_words()

    def refresh(self) -> None:
        """Ask the session again (a resignation made: the game is over)."""
        self._refresh()

    def _refresh(self) -> None:
        """Ask the session again, once something was done: the public value, your hand, your calls."""
        session = self.session
        self.pub: CribbagePublic = session.public()
        person = self.person
        self.seen: CribbageView = session.view(person)
        self.open_call: Claim | None = session.call_open(person)
        self.after_answer: tuple[Move, ...] = session.legal_after_answer(person)
        # U takes back your last decision (where the settings allow it): said in the keys' line when it may
        self.can_undo = self.takes_back and self.app.prefs.undo and session.can_undo(person)

    # --- the questions ---

    @property
    def my_turn(self) -> bool:
        return self.pub.to_move == self.person

    @property
    def bots_turn(self) -> bool:
        """Another seat is to act (a bot's at one window; online, the other seat's)."""
        return self.pub.to_move is not None and self.pub.to_move != self.person

    @property
    def actor(self) -> int:
        """The other player the words are about now: the one to act, or whose score you answer; else the
        player on your left (the bot, with two)."""
        pub = self.pub
        if pub.claim is not None and pub.claim.counter != self.person:
            return pub.claim.counter
        if pub.to_move is not None and pub.to_move != self.person:
            return pub.to_move
        return pub.bot

    @property
    def to_crib(self) -> int:
        """The cards you lay in the crib: two with two players, one with three or four."""
        return self.pub.options.variant.to_crib

    @property
    def _crib_cards(self) -> str:
        return "two cards" if self.to_crib == 2 else "a card"

    def whose(self, player: int) -> str:
        """Whose, in the prompt's words: "your"; the one bot's of two players "its"; else the player's by
        name ("West's", "Ann's": a person online, or one of several, or any seat of a table watched)."""
        if player == self.person and not self.watching:
            return "your"
        if self.watching:
            return f"{self.pub.called(player)}'s"
        return "its" if self.pub.players == 2 and self.pub.bots[player] else f"{self.pub.called(player)}'s"

    @property
    def may_lay_away(self) -> bool:
        """Your crib cards may be laid now: in the discard, before the others' as well as after (issue 44)."""
        return any(isinstance(m, Discard) for m in self.seen.legal)

    def _still_choosing(self) -> str:
        """Whom the discard waits for, once your crib cards are laid: "Ann is choosing their crib cards...",
        "West and East are choosing their crib cards..."."""
        pub = self.pub
        waiting = [p for p, laid in enumerate(self.seen.discarded_by) if not laid and p != self.person]
        cards = "crib cards" if self.to_crib == 2 else "crib card"
        if len(waiting) == 1:
            return f"{capital(pub.called(waiting[0]))} is choosing {pub.its(waiting[0])} {cards}..."
        names = [pub.called(p) for p in waiting]
        if not names:
            return "The starter is cut..."
        return capital(f"{', '.join(names[:-1])} and {names[-1]} are choosing their crib cards...")

    @property
    def layout(self) -> CribLayout:
        size = self.app.screen.get_size()
        players = self.pub.players
        lay = self._layout
        if lay is None or (lay.width, lay.height, lay.players) != (*size, players):
            self._layout = CribLayout.of(*size, players)
        assert self._layout is not None
        return self._layout

    @property
    def pace(self) -> float:
        return self.app.prefs.pace

    @property
    def person(self) -> int:
        """The seat the felt is seen from: the person's (a spectator's: the first seat's)."""
        person = self.pub.person
        if person is None:
            assert self.watching  # the window shows only games with a person at the table, or watched
            return 0
        return person

    @property
    def holding(self) -> bool:
        return self.hold is not Hold.NONE

    @property
    def mode(self) -> Mode:
        state = self.pub
        if self.hold is Hold.PLAY_OVER:
            return Mode.PLAY
        if self.hold is Hold.SHOW_OVER or state.phase is Phase.SHOW:
            return Mode.SHOW
        if state.phase is Phase.OVER and self.pub.counted and state.show_step > 0:
            return Mode.SHOW
        return Mode.DISCARD if state.starter is None else Mode.PLAY

    @property
    def hand(self) -> tuple[Card, ...]:
        """Your cards in the hand's row: six to choose from, four in the play, the four kept in the show."""
        view = self.seen
        if self.mode is Mode.SHOW:
            mine = [c for c in self.pub.counted if c.owner == self.person and not c.crib]
            return mine[-1].cards if self.hold is Hold.SHOW_OVER and mine else view.kept
        return view.hand

    @property
    def dealer(self) -> int:
        """The dealer of the deal on the felt: a show held in sight is the last deal's, whose dealer owned the crib."""
        cribs = [c.owner for c in self.pub.counted if c.crib]
        return cribs[-1] if self.hold is Hold.SHOW_OVER and cribs else self.pub.dealer

    def _anim(self, seconds: float) -> float:
        return seconds * self.pace

    def say(self, text: str, error: bool = True) -> None:
        self.message, self.message_error = text, error
        self.message_until = self.now + ERROR_SECONDS

    def tell(self, text: str) -> None:
        """A word from the window (a turn that came at another table online), said as the scene says its own."""
        self.say(text, error=False)

    # --- input ---

    def shutdown(self) -> None:
        """A bot's answer still on its way is dropped (its thread ends with its answer)."""
        self.session.close()

    @property
    def typing(self) -> bool:
        """A line is being typed to the table: every key is the field's."""
        return self.chat.typing

    def handle(self, event: pygame.event.Event) -> None:
        if self.chat.handle(event):  # the field's keys while it is open, and C opening it online
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.press is not None:
                self.press.pos = event.pos
                if not self.press.dragging and _far(self.press.start, event.pos):
                    self.press.dragging = True
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._press(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.mouse = event.pos
            self._release(event.pos)
        elif event.type == pygame.KEYDOWN:
            self._key(event)

    def _key(self, event: pygame.event.Event) -> None:
        k = event.key
        if self.watching:  # nothing to play: Escape goes back; once played again, Enter watches the new table
            if k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.app.close_top()
            elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.ended:
                self._watch_again()
            return
        if self.ended and self.asks_again and self.ending.again_key(k):
            return
        if self.resigning:
            self.ending.resign_key(k)
            return
        if k == pygame.K_r and event.mod & pygame.KMOD_CTRL and not self.ended and self.replaying is None:
            self.ending.ask_resign()
            return
        if k in (pygame.K_y, pygame.K_n) and not self.ended and self.taking_back.asked() is not None:
            self.taking_back.answer(k == pygame.K_y)
            return
        if self.ended:
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_n):
                self.new_game()
            elif k == pygame.K_v and self.reviewed:
                self.review()
            elif k == pygame.K_ESCAPE:
                self.app.close_top()
            return
        if k == pygame.K_i or getattr(event, "unicode", "") == "?":
            self._hint()
        elif k == pygame.K_ESCAPE:
            if self.press is not None:
                self.press = None
            elif self.coach.note is not None:
                self.coach.dismiss()
            elif self.chosen or self.cursor is not None:
                self.chosen, self.cursor = [], None
            else:
                self.app.close_top()
        elif k in (pygame.K_LEFT, pygame.K_RIGHT):
            n = len(self.hand)
            if n:
                step = -1 if k == pygame.K_LEFT else 1
                self.cursor = (step if step < 0 else 0) % n if self.cursor is None else (self.cursor + step) % n
        elif k == pygame.K_SPACE:
            if self.cursor is not None and self.cursor < len(self.hand):
                self._take(self.hand[self.cursor])
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._enter()
        elif k == pygame.K_g:
            self._go()
        elif k == pygame.K_m and self._muggins_offered():
            self._call()
        elif k == pygame.K_n:
            self.new_game()
        elif k == pygame.K_u or (k == pygame.K_z and event.mod & pygame.KMOD_CTRL):
            self.taking_back.undo()
        elif self._declaring() or self._claiming():
            self._declare_key(event)

    def _most(self) -> int:
        return MOST_PEGGED if self._claiming() else MOST_SHOWN

    def _declare_key(self, event: pygame.event.Event) -> None:
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
            self._step(1)
        elif k in (pygame.K_DOWN, pygame.K_MINUS, pygame.K_KP_MINUS):
            self._step(-1)

    def _step(self, step: int) -> None:
        """- and +: from nothing typed, + says 1 and - says 0."""
        if self.declared is None:
            self.declared = max(0, step)
        else:
            self.declared = max(0, min(self._most(), self.declared + step))

    def _press(self, point: Point) -> None:
        if self.watching:
            return
        if self.ended:
            for kind, rect in self.layout.end_buttons(self.reviewed).items():
                if contains(rect, point):
                    {ButtonKind.NEW_GAME: self.new_game, ButtonKind.REVIEW: self.review}.get(kind, self.app.close_top)()
            return
        for b in self._buttons():
            if contains(b.rect, point):
                if b.enabled or b.kind in (ButtonKind.DISCARD, ButtonKind.GO):
                    self._button(b.kind)  # a greyed Discard or Go says why it cannot be done yet
                return
        rects = self.hand_rects()
        i = self.layout.hand_at(point, rects)
        if i is not None and self.mode is not Mode.SHOW:
            card = self.hand[i]
            r = rects[i]
            self.press = Press(card, point, (point[0] - r[0], point[1] - r[1]), point)
            self.cursor = None

    def _release(self, point: Point) -> None:
        press, self.press = self.press, None
        if press is None:
            return
        if not press.dragging:
            self._take(press.card)
            return
        lay = self.layout
        if self.mode is Mode.DISCARD:
            if lay.in_crib_zone(point) and press.card not in self.chosen:
                self._choose(press.card)
            elif not lay.in_crib_zone(point) and press.card in self.chosen:
                self.chosen.remove(press.card)
        elif self.mode is Mode.PLAY and lay.in_play_zone(point):
            self._play(press.card)

    def _take(self, card: Card) -> None:
        """A card clicked (or Space): chosen for the crib or put back; played in the play."""
        if self.mode is Mode.DISCARD:
            if card in self.chosen:
                self.chosen.remove(card)
            else:
                self._choose(card)
        elif self.mode is Mode.PLAY:
            self._play(card)

    def _choose(self, card: Card) -> None:
        if self.seen.discards:
            self.say("Your crib cards are laid already." if self.to_crib == 2 else "Your crib card is laid already.")
        elif len(self.chosen) >= self.to_crib:
            many = "Two cards go" if self.to_crib == 2 else "One card goes"
            self.say(f"{many} to the crib: click a chosen card to put it back first.")
        else:
            self.chosen.append(card)
            self.message = ""

    def _play(self, card: Card) -> None:
        if not self.my_turn:
            self.say(f"Wait: {self.pub.called(self.actor)} is to play.")
            return
        claim = self._muggins_offered()
        if claim is not None and not self._lays_on():
            bot = capital(self.pub.called(claim.counter))
            self.say(f"{bot} lays again before you: Enter lets its {claim.cards[-1]} stand, M calls muggins.")
            return
        if self._claiming():  # a card laid with nothing typed says it scores nothing
            self._person(PlayCard(card, self.declared or 0))
        else:
            self._person(PlayCard(card))

    def _go(self) -> None:
        if self.mode is Mode.PLAY and self.my_turn:
            self._person(Go())

    def _enter(self) -> None:
        mode = self.mode
        if self.holding:
            self._go_on()
        elif mode is Mode.DISCARD:
            self._discard()
        elif mode is Mode.PLAY:
            if self._muggins_offered() and not self._lays_on():  # the other lays again first: Enter answers
                self._person(Muggins(False))
            elif self.cursor is not None and self.cursor < len(self.hand):
                self._play(self.hand[self.cursor])
            elif self._muggins_offered():
                self._person(Muggins(False))
            elif Go() in self.seen.legal:
                self._person(Go())
            else:
                self.say("Choose a card with Left and Right, then Space or Enter plays it.", error=False)
        else:
            self._go_on()

    def _discard(self) -> None:
        if len(self.chosen) != self.to_crib:
            wanted = "a card" if self.to_crib == 1 else "two cards" if not self.chosen else "a second card"
            self.say(f"Choose {wanted} for the crib first (click them, or drag them to the crib).")
            return
        if self._person(Discard(tuple(self.chosen))):  # before the others' too: everyone lays away at once
            self.chosen = []
            self.cursor = None

    def _go_on(self) -> None:
        """Enter or the button in the show: count your own hand, or let the next count (or deal) come."""
        if self.holding:
            self.hold = Hold.NONE
            return
        if self.my_turn:
            if self._muggins_offered():
                self._person(Muggins(False))
            elif self._declaring():
                if self.declared is None:
                    self.say("Type your count first: the points the cards make (0 if none), then Enter.")
                else:
                    self._person(Count(self.declared))
            else:
                self._person(Count())
        elif self.bots_turn:
            self.went_on = self.pub.ply

    def _button(self, kind: ButtonKind) -> None:
        if kind is ButtonKind.DISCARD:
            self._discard()
        elif kind is ButtonKind.GO:
            self._go()
        elif kind in (ButtonKind.COUNT, ButtonKind.GO_ON, ButtonKind.LET_GO):
            self._go_on()
        elif kind is ButtonKind.MUGGINS:
            self._call()
        elif kind is ButtonKind.LESS:
            self._step(-1)
        elif kind is ButtonKind.MORE:
            self._step(1)
        elif kind is ButtonKind.UNDO:
            self.taking_back.undo()
        elif kind in (ButtonKind.ALLOW, ButtonKind.REFUSE, ButtonKind.WITHDRAW):
            self.taking_back.answer(kind is ButtonKind.ALLOW)

    # --- the coach ---

    def _here(self) -> tuple[int, int]:
        """The position a hint is for: the deal and the moves made; in the discard, the deal and whether
        your crib cards are laid (the bot's discard beside yours does not change your advice)."""
        if self.seen.phase is Phase.DISCARD:
            return self.seen.deal_number, -1 - len(self.seen.discards)
        return self.seen.deal_number, self.pub.ply

    def _hint(self) -> None:
        """The hint key (I or ?, as at the tile game's table): the best discards in the discard, the card
        Hard would lay in the play; asked again, put away. Counted once per position, saved with the game."""
        if self.coach.note is not None:
            self.coach.dismiss()
            return
        discarding = self.mode is Mode.DISCARD and not self.seen.discards  # while the bot chooses too
        if self.holding or not (discarding or (self.mode is Mode.PLAY and self.my_turn)):
            self.say("The coach helps with your discard, and in the play on your turn.")
            return
        prefs = self.app.prefs
        why = self.coach.refusal(self.session, self._here(), prefs.hints, prefs.hint_limit)
        if why:
            self.say(why)
            return
        before = self.session.hints
        try:
            why = self.coach.ask(self.session, self.seen, self._here())
        except IllegalMove as e:  # a table elsewhere would not count it (or could not be reached)
            self.coach.dismiss()
            why = sentence(str(e))
        if why:
            self.say(why)
        hints = self.session.hints
        if hints != before:
            self.session.save()  # the mark is kept with the game at once
            if prefs.hint_limit:
                self.say(f"Hint {hints} of the {prefs.hint_limit} this game allows.", error=False)

    def _call(self) -> None:
        """Muggins! on the bot's score said aloud (M or the button): the call is announced when told."""
        self._person(Muggins(True))

    def _person(self, move: Move) -> bool:
        """Your move, or the reason it cannot be made, in words."""
        why = self.session.why_not(self.person, move)
        if why:
            self.say(why)
            return False
        try:
            self.session.act(self.person, move)
            self._refresh()
        except CribbageError as e:  # why_not said yes: the model and the rules disagree, a bug
            log.error("a move passed why_not and failed: %s (%s)", move, e)
            self.say(str(e))
            return False
        self.message = ""
        self.cursor = None if self.cursor is None else min(self.cursor, max(0, len(self.hand) - 1))
        self._moved()
        return True

    def resync(self, session: CribbageDriver | None = None, held: bool = False) -> None:
        """The game changed under the scene (taken back; a replay stepped to another move, `session`):
        everything asked again, nothing told of it, the pegs put where the scores are; `held`: the end
        of a play or a show just reached stays in sight, as a game resumed there shows it."""
        if session is not None:
            self.session = session
        self.undos = self.session.undos
        self.session.take_pending()
        self._refresh()
        story = self.pub.story
        self.hold = _hold_after(story[-1], self.pub) if held and story else Hold.NONE
        self.chosen, self.cursor, self.press, self.declared = [], None, None, None
        self.went_on = -1
        self.ended = False
        self.pegs = [Pegs() for _ in self.pub.scores]
        for p, peg in enumerate(self.pegs):
            peg.set(self.pub.scores[p], self.pub.previous[p])
        self.owed = self.pub.claim is not None
        self.last_move_at = self.asked_at = self.now

    def _moved(self) -> None:
        self.session.save()
        self.last_move_at = self.now
        self.declared = None
        self.app.sounds.click()

    def _declaring(self) -> bool:
        """Your count to say in the show (muggins, or counting by hand: a wrong count is corrected)."""
        view = self.seen
        return (
            self.pub.options.counted_by_hand
            and self.my_turn
            and view.phase is Phase.SHOW
            and view.claim is None
            and not self.holding
        )

    def _claiming(self) -> bool:
        """A card of yours to lay in the play, its score said aloud (muggins in the play)."""
        state = self.pub
        if not (self.pub.options.play_muggins and self.my_turn and state.phase is Phase.PLAY):
            return False
        mine = state.claim is None or state.claim.counter != self.person
        return mine and not self.holding and any(isinstance(m, PlayCard) for m in self._legal_after_answer())

    def _legal_after_answer(self) -> tuple[Move, ...]:
        """Your moves once a bot's score waiting for your answer stands (your moves now, when none waits)."""
        return self.after_answer

    def _lays_on(self) -> bool:
        """You lay a card (or say go) next once the score waiting for your answer stands: doing so lets it
        stand. Else the other lays again first, and only Enter (or Let it stand) answers."""
        return any(isinstance(m, (PlayCard, Go)) for m in self._legal_after_answer())

    def _count_starts_again(self) -> bool:
        """Once the score waiting for your answer stands, a new count begins (the other has no card to lay
        on the one shown): a card of yours that would pass 31 on the count shown may be laid."""
        count = self.seen.count
        return any(isinstance(m, PlayCard) and count + m.card.value > MAX_COUNT for m in self._legal_after_answer())

    def _muggins_offered(self) -> Claim | None:
        """The bot's score said aloud that you may call now."""
        return None if self.holding else self.open_call

    def new_game(self) -> None:
        """The New cribbage game choice over the table (a game in play is only replaced on Start); a table
        watched: on to watch it played again."""
        if self.watching:
            self._watch_again()
            return
        self.on_new_game(self)

    def _watch_again(self) -> None:
        """A table watched was played again: watch the new one."""
        again, where = self.session.played_again_at, self.session.where
        if again is not None and where is not None:
            self.app.watch_table(where[0], again)

    @property
    def reviewed(self) -> bool:
        """The end card offers the game's review: the coach's, where the table allows the coach (online,
        its creator's choice), as the tile game's end card; a game of two (three or four are not reviewed)."""
        return self.replaying is None and self.session.coach_allowed and self.pub.players == 2

    def review(self) -> None:
        """Every discard and card laid of the game just ended against the best found, over the table."""
        why = self.app.review_cribbage(self.session)
        if why:
            self.say(why)

    # --- time ---

    def update(self, dt: float) -> None:
        self.now += dt
        if self.message and self.now > self.message_until:
            self.message = ""
        self.ending.table_gone()
        if self.session.undos != self.undos:  # a move taken back at the table online, once everyone agreed
            self.resync()
        self.can_undo = self.takes_back and self.app.prefs.undo and self.session.can_undo(self.person)
        said = tuple(line.words for line in self.chat.news())  # a muted player's lines are not told
        self.chat.hear(self.session.incidents() + said, self.now)  # and the connection, who went away
        if self.chat.typing:
            size = max(13, self.layout.text - 3)
            self.chat.chips = history_chips(chat_history(self.layout), self.chat.view(self.now).speakers, size)
        self._drive_bot()
        told = self.session.take_pending()  # yours (made in `handle`) and the bot's, told at once
        if told or self.session.changed():  # online, a resignation is no move
            self._refresh()
        self.coach.stale(self._here())  # a hint is for the position it was asked in
        for happening in told:
            self._tell(happening)
        if self.watching:
            self._watch_words()
        if self.owed and self.pub.claim is None:
            self._settle_untold()
        for peg in self.pegs:
            peg.advance(dt, self._anim(PEG))
        if (
            self.pub.is_over
            and (self.replaying is None or self.watching)  # a replay's last move says the result in its own words
            and not self.ended
            and not any(p.moving for p in self.pegs)
            and self.now - self.last_move_at >= self._anim(END_PAUSE)
        ):
            self.ended = True
            self.press = None
            self._record()
        self._parts = self._frame_parts(dt)
        self._warm_up()

    def _warm_up(self) -> None:
        """Draw one card face ahead of need each frame (about 4 ms each: a deal's six at once made a
        frame of 25 ms), at the sizes cards rest at in the hand and in the play."""
        lay = self.layout
        if self._warm_for != (lay.width, lay.height):
            self._warm_for = (lay.width, lay.height)
            self._warm = [(c, w) for w in (lay.play_w, lay.card_w) for c in DECK]
        if self._warm and not self.glides.moving:  # never while cards glide: that frame is busy
            card, width = self._warm.pop()
            cards.face(card, width)

    def _tell(self, h: PublicMove) -> None:
        """A move made: its points pegged, a call announced, a finished show held in sight. A score said
        aloud is told without its points until it is answered: the answer pegs them."""
        if h.act is Act.CALL:
            self.say(h.words, error=False)
        events = h.events
        if h.act in (Act.CALL, Act.LET_STAND):
            events = (*(self.pub.answered(h) if self.owed else ()), *events)
            self.owed = False
        self.owed = self.owed or any(e.points is None for e in h.events)
        gained = [0] * len(self.pegs)
        for event in events:
            gained[self.pub.side_of(event.player)] += event.points or 0  # partners peg together
        for p in range(len(self.pegs)):
            points = min(gained[p], self.pub.scores[p] - self.pegs[p].front)
            if points > 0:
                self.pegs[p].score(points)
        held = _hold_after(h, self.pub)
        if held is not Hold.NONE and not self.watching:  # a spectator has no Enter to go on with
            self.hold = held

    def _watch_words(self) -> None:
        """A spectator's prompt and keys (as a replay's are the replay's): who is watched, and the last
        move made, or how the game ended."""
        pub = self.pub
        said = pub.story[-1].words if pub.story else ""
        if pub.is_over and pub.summary is not None:
            said = f"The end: {pub.summary.words}"
        where = "Watching " + " and ".join(pub.names)
        self.replaying = (f"{where}: {said}" if said else where, WATCH_KEYS)

    def _settle_untold(self) -> None:
        """A score said aloud was answered by a move not told here (online, an answer that came with the
        next deal's first move: the story keeps that deal's moves only): its points are pegged as the
        scores now say."""
        self.owed = False
        for p, peg in enumerate(self.pegs):
            if self.pub.scores[p] > peg.front:
                peg.score(self.pub.scores[p] - peg.front)

    def _drive_bot(self) -> None:
        table = self.pub
        if not self.bots_turn or self.holding or self.ended:
            return
        phase = table.phase
        answering = table.claim is not None  # the bot answers a score you said aloud
        if phase is Phase.SHOW and self.went_on != table.ply and not answering:
            return  # each count of the show waits for you to go on
        asked = self.session.thinking
        ready = self.session.ready()  # asks the bot once, then whether its answer is ready
        if not asked:
            self.asked_at = self.now
            return
        pause = ANSWER_PAUSE if answering else BOT_PAUSE[phase]
        if not ready or self.now - self.asked_at < self._anim(pause):
            return
        if any(p.moving for p in self.pegs) and phase is Phase.PLAY and not answering:
            return  # the last points are pegged before the next card
        self.session.land()
        self._refresh()
        self._moved()

    def _record(self) -> None:
        """The finished game into the history, once (the history knows a game recorded again, too)."""
        if not self.recorded:
            self.recorded = True
            self.session.finish()

    # --- the snapshot ---

    def window_caption(self) -> str:
        """What the window's title says while this game is shown (the task bar's score): the
        cribbage score, not the tile game's."""
        table = self.pub
        names = table.side_names()
        return "Cribbage — " + " · ".join(f"{n} {s}" for n, s in zip(names, table.scores, strict=True))

    def hand_rects(self) -> list[Rect]:
        lay = self.layout
        hand = self.hand
        slots = lay.hand_slots(len(hand))
        return [lay.lifted(r) if c in self.chosen else r for c, r in zip(hand, slots, strict=True)]

    def _buttons(self) -> list[ButtonView]:
        kinds, labels, enabled = self._button_plan()
        if kinds and self.can_undo and self.taking_back.asked() is None:  # Undo last in the row, as beside Play
            kinds, enabled = (*kinds, ButtonKind.UNDO), enabled | {ButtonKind.UNDO}
        rects = self.layout.buttons(kinds)
        return [
            ButtonView(
                k,
                rects[k],
                labels.get(k, k.value),
                k in enabled,
                contains(rects[k], self.mouse),
                k in enabled and k is not ButtonKind.UNDO,
            )
            for k in kinds
        ]

    def _button_plan(self) -> tuple[tuple[ButtonKind, ...], dict[ButtonKind, str], set[ButtonKind]]:
        table = self.pub
        mode = self.mode
        if self.ended or table.is_over or self.replaying is not None:
            return (), {}, set()
        asked = self.taking_back.asked()
        if asked is not None:  # the request's answers in the buttons' places (a card laid plays on instead)
            answers = (ButtonKind.WITHDRAW,) if asked.asker == self.person else (ButtonKind.ALLOW, ButtonKind.REFUSE)
            return answers, {}, set(answers)
        if self.holding:
            label = "The show" if self.hold is Hold.PLAY_OVER else "Next deal"
            return (ButtonKind.GO_ON,), {ButtonKind.GO_ON: label}, {ButtonKind.GO_ON}
        if mode is Mode.DISCARD:
            ready = len(self.chosen) == self.to_crib and self.may_lay_away
            return (ButtonKind.DISCARD,), {}, {ButtonKind.DISCARD} if ready else set()
        offered = self._muggins_offered() is not None
        if mode is Mode.PLAY:
            can = Go() in self._legal_after_answer()
            kinds: tuple[ButtonKind, ...] = (ButtonKind.GO,)
            if self._claiming():
                kinds = (ButtonKind.LESS, ButtonKind.MORE, ButtonKind.GO)
            if offered:
                kinds = (ButtonKind.MUGGINS, *kinds)
                if not self._lays_on():
                    kinds = (*kinds[:-1], ButtonKind.LET_GO)  # the bot lays next: let its card stand, or call
                    return kinds, {}, set(kinds)
            enabled = {k for k in kinds if k is not ButtonKind.GO or can}
            return kinds, {}, enabled
        if offered:
            return (ButtonKind.MUGGINS, ButtonKind.LET_GO), {}, {ButtonKind.MUGGINS, ButtonKind.LET_GO}
        if self._declaring():
            kinds = (ButtonKind.LESS, ButtonKind.MORE, ButtonKind.COUNT)
            return kinds, {}, set(kinds)
        if self.my_turn:
            return (ButtonKind.COUNT,), {}, {ButtonKind.COUNT}
        waiting = self.went_on != table.ply
        return (ButtonKind.GO_ON,), {}, {ButtonKind.GO_ON} if waiting else set()

    def _prompt(self) -> tuple[str, bool]:
        if self.replaying is not None:
            return self.replaying[0], False
        if self.resigning:
            question = resign_question(self.pub.names, self.person, False)
            return f"{question} Y or Enter resigns, N or Escape goes back.", True
        question = self.taking_back.question()
        if question:
            return question, False
        if self.message:
            return self.message, self.message_error
        table = self.pub
        view = self.seen
        actor = self.actor
        bot, its = capital(table.called(actor)), table.its(actor)
        crib = self.whose(view.dealer)
        if table.is_over:
            return "", False
        mode = self.mode
        if mode is Mode.DISCARD:
            if view.discards:
                return self._still_choosing(), False
            if len(self.chosen) == self.to_crib:
                laid = " and ".join(str(c) for c in self.chosen)
                return f"Lay {laid} in {crib} crib: Enter or Discard.", False
            how = "click them or drag them" if self.to_crib == 2 else "click it or drag it"
            return f"Choose {self._crib_cards} for {crib} crib: {how} to the crib.", False
        if self.hold is Hold.PLAY_OVER:
            return "The play is over: Enter or The show counts the hands.", False
        if mode is Mode.PLAY:
            claim = self._muggins_offered()
            if claim is not None:
                said = f"{bot} said {claim.declared} for {its} {claim.cards[-1]}: M calls muggins"
                if self._count_starts_again():
                    return f"{said}; then the count starts again at 0: laying your card lets it stand.", False
                if self._lays_on():
                    return f"{said}; playing on lets it stand.", False
                return f"{said}, Enter lets it stand.", False
            if self.my_turn:
                if Go() in view.legal:
                    return f"No card of yours fits the count of {view.count}: say Go (G or the button).", False
                if self._claiming():
                    return "Your turn: type what your card scores (nothing typed: 0), then lay it.", False
                return "Your turn: click a card or drag it to the play.", False
            return f"{bot} is to play...", False
        return self._show_prompt()

    def _show_prompt(self) -> tuple[str, bool]:
        table = self.pub
        view = self.seen
        if self.holding:
            return "The show is over: Enter or Next deal deals again.", False
        claim = self._muggins_offered()
        crib_step = view.show_step == table.players  # the crib is counted last, after every hand
        if claim is not None:
            other, its = capital(table.called(claim.counter)), table.its(claim.counter)
            said = f"{other} says {its} {claim.what} makes {claim.declared}"
            return f"{said}: M calls muggins, Enter lets it stand.", False
        if self.my_turn:
            what = "your crib" if crib_step else "your hand"
            if self._declaring():
                return f"Count {what}: type the points (or - and +), then Enter.", False
            return f"Count {what}: Enter or Count.", False
        actor = self.actor
        its = table.its(actor)
        what = f"{its} crib" if crib_step else f"{its} hand"
        if self.went_on != table.ply:
            return f"Enter or Go on: {table.called(actor)} counts {what}.", False
        return f"{capital(table.called(actor))} counts {what}...", False

    def _lines(self) -> tuple[InfoLine, ...]:
        table = self.pub
        view = self.seen
        if self.mode is Mode.SHOW:
            return self._show_lines()
        whose = "your" if view.dealer == self.person else f"{table.called(view.dealer)}'s"
        lines = [InfoLine(f"Deal {view.deal_number}: {whose} crib", "", GOLD, 2)]
        for h in reversed([h for h in table.story if h.deal == view.deal_number]):
            scored = sum(e.points or 0 for e in h.events)
            if h.act is not Act.LET_STAND:  # a card let stand needs no line; what pegged on after it does
                colour = CREAM if scored else DIM
                lines.append(InfoLine(h.words, "", colour, -1 if not scored else 0))
                if h.stand_in is not None:  # the table's stand-in moved for them (online): not their own move
                    who = "You" if h.player == self.person else table.names[h.player]
                    lines.append(InfoLine(stand_in_words(h.stand_in, who, "made that move") + ".", "", DIM, -2))
            for e in (e for e in h.events if e.points != 0):  # a score said aloud that pegged nothing: no line
                points = "" if e.points is None else f"+{e.points}"  # said aloud, not yet answered: points to come
                lines.append(InfoLine(e.words, points, _player_colour(table.side_of(e.player)), -1, e.cards, 1))
        if table.options.variant is Variant.THREE and view.phase is Phase.DISCARD:  # why the crib holds a card
            lines.append(InfoLine("The crib has a card from the pack; each lays one more.", "", DIM, -2))
        if view.deal_number == 1 and table.options.variant is Variant.FIVE_CARD:  # pegged before the first card
            pone = (view.dealer + 1) % table.players
            who = "You" if pone == self.person else capital(table.called(pone))
            lines.append(InfoLine(f"{who}, not dealing: three for last", "+3", _player_colour(pone), -1, (), 1))
        if view.deal_number == 1:  # who deals and why, the first deal through, under what came after it
            cuts = table.cut_words[: len(view.cut_for_deal)]  # a line a round; three for last has its own, above
            lines += [InfoLine(text, "", DIM, -2) for text in cuts]
        return tuple(lines)

    def _show_lines(self) -> tuple[InfoLine, ...]:
        table = self.pub
        lines = [InfoLine("The show", "", GOLD, 2)]
        for i, counted in reversed(list(enumerate(table.counted))):
            lines += _counted_lines(table, counted, i)
        if not table.counted:
            lines.append(InfoLine("Each hand is counted with the starter:", "", DIM, -2))
            if table.players == 2:
                lines.append(InfoLine("the non-dealer's first, then the dealer's, then the crib.", "", DIM, -2))
            else:
                lines.append(InfoLine("round from the dealer's left, the dealer's last, then the crib.", "", DIM, -2))
        return tuple(lines)

    def _hover_line(self, lines: tuple[InfoLine, ...]) -> int | None:
        for i, rect in enumerate(line_rects(self.layout, lines)):
            if contains(rect, self.mouse) and lines[i].cards:
                return i
        return None

    def _targets(
        self, lit: frozenset[Card], show_row: tuple[Card, ...]
    ) -> tuple[dict[Key, tuple[float, float, int]], dict[Key, Sprite]]:
        """Where every card rests this frame, and how it is marked (position filled in after the glide)."""
        lay = self.layout
        table = self.pub
        view = self.seen
        mode = self.mode
        targets: dict[Key, tuple[float, float, int]] = {}
        marks: dict[Key, Sprite] = {}

        def put(key: Key, rect: Rect, mark: int | None = None, **flags: bool) -> None:
            targets[key] = (rect[0], rect[1], rect[2])
            marks[key] = Sprite(key[1], rect[0], rect[1], rect[2], mark=mark, **flags)

        held = self.press.card if self.press is not None and self.press.dragging else None
        fits = {m.card for m in self._legal_after_answer() if isinstance(m, PlayCard)}  # a bot's score may wait
        note = self.coach.note
        hint_cards = frozenset(note.cards) if note is not None and mode is not Mode.SHOW else frozenset()
        for i, (card, rect) in enumerate(zip(self.hand, self.hand_rects(), strict=True)):
            if card == held:
                continue
            dim = mode is Mode.PLAY and self.my_turn and card not in fits
            hinted = card in hint_cards
            put((Place.HAND, card, 0), rect, dim=dim, chosen=card in self.chosen, focus=i == self.cursor, hinted=hinted)
        for seat, player in enumerate(table.others):  # each other player's row: one with two players
            seat_cards = self._seat_cards(player)
            slots = lay.seat_slots(seat, len(seat_cards))
            for i, (back, rect) in enumerate(zip(seat_cards, slots, strict=True)):
                put((Place.BOT, back, seat * HAND_MOST + i), rect)
        if self.watching:  # the near seat's cards as the others': backs, face up once counted
            near = self._seat_cards(self.person)
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
            dim = bool(old) and card not in lit and self.hold is Hold.NONE  # an ended count, until the next card
            put((Place.OLD if old else Place.PILE, card, 0), rect, laid_by.get(card), dim=dim, lit=card in lit)
        return targets, marks

    def _seat_cards(self, player: int) -> tuple[Card | None, ...]:
        """Another player's cards in their row: backs, but their hand face up once counted in the show (and
        in a replay showing every hand, face up all along)."""
        pub = self.pub
        if player in self.open_hands and self.mode is not Mode.SHOW:
            return self.open_hands[player]
        if self.mode is Mode.SHOW:
            counted = [c for c in pub.counted if c.owner == player and not c.crib]
            return counted[-1].cards if counted else (None,) * pub.options.variant.kept
        return (None,) * pub.hand_sizes[player]

    def _show_row(self, lines: tuple[InfoLine, ...], hover: int | None) -> tuple[Card, ...]:
        """The cards in the show's row, the starter last: the counted hand pointed at in the panel, else
        the one you are to count (laid face up to be counted: the crib too), else the last counted."""
        table = self.pub
        state = table
        if self.mode is not Mode.SHOW:
            return ()
        pointed = lines[hover].hand if hover is not None else None
        if pointed is not None:
            counted = table.counted[pointed]
            return (*counted.cards, counted.score.starter)
        if self.my_turn and state.claim is None and not self.holding and state.starter is not None:
            return (*self.seen.to_count, state.starter)
        if table.counted:
            counted = table.counted[-1]
            return (*counted.cards, counted.score.starter)
        return () if state.starter is None else (state.starter,)

    def _start_of(self, key: Key, target: tuple[float, float, int]) -> tuple[float, float, int]:
        """Where a card new to the felt comes from, when it was nowhere in sight before: a card the bot
        lays from the bot's row, the crib's from the crib, a dealt one from the deck."""
        lay = self.layout
        place = key[0]
        if place in (Place.PILE, Place.OLD):  # from the row of whoever laid it
            pub = self.pub
            laid = [p for seq in pub.sequences for p, c in seq if c == key[1]]
            if self.watching and laid and laid[0] == self.person:  # from the near seat's row
                r = lay.near_slots(pub.hand_sizes[self.person] + 1)[-1]
                return r[0], r[1], lay.back_w
            player = laid[0] if laid and laid[0] != self.person else pub.bot
            seat = pub.others.index(player)
            r = lay.seat_slots(seat, pub.hand_sizes[player] + 1)[-1]
            return r[0], r[1], lay.back_w
        if place is Place.SHOW:
            return lay.crib[0], lay.crib[1], lay.play_w
        if place is Place.BOT and key[1] is not None:
            return target  # the bot's hand turned face up where it lies
        return lay.deck[0], lay.deck[1], target[2]  # dealt at its own size: no second face drawn for the way

    def _frame_parts(self, dt: float) -> FrameParts:
        """The panel's lines, the line pointed at, and every card eased `dt` seconds along its glide."""
        lines = self._lines()
        hover = self._hover_line(lines)
        lit = frozenset(lines[hover].cards) if hover is not None else frozenset()
        targets, marks = self._targets(lit, self._show_row(lines, hover))
        k = glide_share(dt, self.pace)
        at = self.glides.step(targets, self._start_of, k)
        sprites = tuple(
            Sprite(m.card, at[key][0], at[key][1], at[key][2], m.dim, m.lit, m.chosen, m.focus, m.hinted, m.mark)
            for key, m in marks.items()
        )
        return FrameParts(lines, hover, sprites)

    def snapshot(self) -> CribSnapshot:
        """The table at this moment, for drawing (worked out by `update`; drawing it changes nothing)."""
        lay = self.layout
        table = self.pub
        view = self.seen
        parts = self._parts if self._parts is not None else self._frame_parts(0.0)
        held = None
        if self.press is not None and self.press.dragging:
            p = self.press
            held = Sprite(p.card, p.pos[0] - p.grab[0], p.pos[1] - p.grab[1], lay.card_w)
        prompt, error = self._prompt()
        dealer = self.dealer
        seats = tuple(self._seat_view(player, dealer) for player in table.others)
        crib_owner = f"{self.whose(dealer)} crib"
        count = view.count if self.mode is Mode.PLAY else None
        count_words = ""
        if self.hold is Hold.PLAY_OVER and table.sequences:
            count, count_words = sum(c.value for _, c in table.sequences[-1]), "the last count"
        elif self.mode is Mode.PLAY and not view.pile and table.sequences:
            count_words = "a new count"
        return CribSnapshot(
            layout=lay,
            names=table.names,
            person=self.person,
            dealer=dealer,
            deal=view.deal_number,
            sprites=parts.sprites,
            held=held,
            seats=seats,
            deck=self.mode is not Mode.SHOW,
            crib_label=f"{crib_owner}: {view.crib_size}" if self.mode is not Mode.SHOW else crib_owner,
            count=count,
            count_words=count_words,
            prompt=prompt,
            prompt_error=error,
            buttons=tuple(self._buttons()),
            number=("" if self.declared is None else str(self.declared))
            if self._declaring() or self._claiming()
            else None,
            pegs=tuple(self._peg_spot(side) for side in range(len(self.pegs))),
            lines=parts.lines,
            hover_line=parts.hover,
            keys=self.replaying[1]
            if self.replaying is not None
            else KEYS
            + (UNDO_KEYS if self.can_undo else "")
            + (MUGGINS_KEYS if table.options.muggins or table.options.play_muggins else "")
            + (COUNT_KEYS if table.options.manual_count and not table.options.muggins else "")
            + (f" · {CHAT_KEYS}" if self.chat.allowed else ""),
            end=table.summary if self.ended else None,
            end_again=again_question(
                self.session.pending_again,
                table.names,
                () if self.watching else (self.person,),
                self.session.played_again_at,
            )
            if self.ended and self.asks_again
            else None,
            end_hover=next((k for k, r in lay.end_buttons(self.reviewed).items() if contains(r, self.mouse)), None)
            if self.ended
            else None,
            end_review=self.ended and self.reviewed,
            chat=self.chat.view(self.now),
            coach=self.coach.note if self.mode is not Mode.SHOW and not self.ended else None,
            sides=table.side_names(),
            game_hole=table.options.target,
            near=self._seat_view(self.person, dealer) if self.watching else None,
        )

    def _seat_view(self, player: int, dealer: int) -> SeatView:
        """Another player's seat: their name, whether they deal (and are your partner), their cards left."""
        pub = self.pub
        away = away_words(self.session.away(player))  # a person online who left the table
        partner = not self.watching and pub.partner(self.person) == player  # a spectator has no partner
        about = ([away] if away else []) + (["partner"] if partner else [])
        about += ["the dealer"] if dealer == player else []
        if self.mode is not Mode.SHOW:
            left = pub.hand_sizes[player]
            about.append(f"{left} card{'s' if left != 1 else ''}")
        acting = pub.to_move == player  # in the discard everyone chooses at once: those still choosing
        if pub.phase is Phase.DISCARD:
            acting = not self.seen.discarded_by[player]
        acting = acting and not pub.is_over and pub.players > 2
        return SeatView(player, pub.names[player], " · ".join(about), pub.side_of(player), acting)

    def _peg_spot(self, p: int) -> PegSpot:
        pegs = self.pegs[p]
        number = round(pegs.shown_score) if pegs.moving else self.pub.scores[p]
        return PegSpot(pegs.back, pegs.shown_score, number)

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        snap = self.snapshot()
        if not full and snap == self._last_snap:
            return []  # nothing changed: nothing to send to the screen (nor to build)
        self._last_snap = snap
        return self._view.draw(surface, snap, full)


KEYS = (
    "Left/Right choose · Space picks or plays · Enter confirms · G go · I hint · N new game · Ctrl+R resign"
    " · Esc the title"
)
UNDO_KEYS = " · U undo"
#: The keys' line of a table watched.
#: The near seat's cards' place among the seats' rows (after the three others' at most), at a table watched.
NEAR = 3
WATCH_KEYS = f"You are watching: nothing to play · {CHAT_KEYS} · Esc goes back"
MUGGINS_KEYS = " · digits say your count · M calls muggins"
COUNT_KEYS = " · digits say your count"


def _far(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) >= DRAG_START


def _player_colour(player: int) -> tuple[int, int, int]:
    from .. import art

    return art.shade(art.PLAYER_COLOURS[player % 4], 1.35)


def _counted_lines(table: CribbagePublic, counted: PublicCounted, index: int) -> list[InfoLine]:
    """A counted hand in the panel: whose, its total (and what was said), then each combination; while
    the count said aloud waits for an answer, only what was said (the cards are there to be counted)."""
    whose = "Your" if counted.owner == table.person else capital(f"{table.called(counted.owner)}'s")
    what = "crib" if counted.crib else "hand"
    total = counted.score.total
    cards = (*counted.cards, counted.score.starter)
    claim = table.claim
    if claim is not None and claim.kind is ClaimKind.SHOW and index == len(table.counted) - 1:
        answerer = (claim.counter + 1) % table.players  # the next player round answers (an opponent)
        waiting = "your answer" if answerer == table.person else "the answer"
        return [
            InfoLine(f"{whose} {what}", str(counted.declared), CREAM, 0, cards, 0, index),
            InfoLine(f"said {counted.declared}: waiting for {waiting}", "", GOLD, -1, (), 1, index),
        ]
    lines = [InfoLine(f"{whose} {what}", str(total), CREAM, 0, cards, 0, index)]
    colour = _player_colour(table.side_of(counted.owner))
    for item in counted.score.items:
        from cribtiles.cribbage.show import item_words

        lines.append(InfoLine(item_words(item), f"+{item.points}", colour, -1, item.cards, 1, index))
    if not counted.score.items:
        lines.append(InfoLine("nothing: nineteen, as players say", "0", DIM, -1, (), 1, index))
    if counted.declared != total and not table.options.muggins:  # counted by hand: corrected, nothing lost
        said = f"said {counted.declared}: corrected to {total}, no points lost"
        lines.append(InfoLine(said, "", GOLD, -1, (), 1, index))
    elif counted.declared != total or counted.called:
        off = total - counted.declared
        how = f"{off} missed" if off > 0 else f"{-off} said over" if off < 0 else "right"
        answerer = (counted.owner + 1) % table.players
        caller = "you" if answerer == table.person else table.called(answerer)
        answer = {True: f", muggins called by {caller}", False: ", let stand", None: ""}[counted.called]
        lines.append(InfoLine(f"said {counted.declared}: {how}{answer}", "", GOLD, -1, (), 1, index))
    return lines
