"""Classic cribbage at the table: your hand dealt, two cards to the crib, the play to 31, the show
counted step by step, pegs moving on the board; the bot thinks beside the frames and the scene polls it.

The game is behind a session (`cribtiles.table.cribbage.session.CribbageDriver`): this scene sees only
its public value and your own hand, turns clicks, drags and keys into moves for it, and builds a snapshot
for `cribbage_paint` to draw. It routes events to its controllers, each in a module of its own, as the
tile game's scene does: `table_keys` the keys, `table_cards` your cards and the drag, `table_calls` the
count and muggins, `table_coaching` the hint key, `table_buttons` the row of buttons, `table_pegs` the
pegs, `table_motion` the cards' places and glides, `table_turns` the other seats' turns, `table_words`
the prompt and the panel, `table_end` the end, resigning and undo; the chat is the shared
`cribtiles.ui.chat`, as at the tile game's table. They see the scene as `table_state.Stage`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

import pygame

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.moves import CribbageError, Discard, Move
from cribtiles.cribbage.muggins import Claim
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.view import CribbageView
from cribtiles.table.again import NextTable
from cribtiles.table.cribbage.public import CribbagePublic
from cribtiles.table.cribbage.session import CribbageDriver
from cribtiles.table.settings import Preferences

from ..again import again_question
from ..chat import Chat
from ..chat_paint import history_chips
from ..config import Keeper
from ..geometry import Rect, contains
from ..scene import Scene
from ..sound import Sounds
from .coach import CribCoach
from .layout import CribLayout
from .paint import CribSnapshot, CribView, InfoLine, chat_history
from .table_buttons import Buttons
from .table_calls import Calls
from .table_cards import Cards
from .table_coaching import Coaching
from .table_end import Ending, TakingBack
from .table_keys import Keys
from .table_motion import Motion
from .table_pegs import Pegging
from .table_state import Hold, Mode, Plan, hold_after
from .table_turns import Turns
from .table_words import Words

log = logging.getLogger("cribtiles.window")

#: Seconds a refusal stays in the prompt (a call announced stays as long).
ERROR_SECONDS = 5.0


class Host(Protocol):
    """What the scene needs of the window."""

    prefs: Preferences
    keeper: Keeper
    screen: pygame.Surface
    sounds: Sounds

    def close_top(self) -> None: ...

    def push(self, scene: Scene) -> None: ...

    def review_ended(self, session: CribbageDriver) -> str:
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


class CribbageScene:
    """The cribbage table: input routed to its controllers, the clock, and the snapshot drawn each frame."""

    #: Whether U (and the Undo button) may take back a move here (the tutorial's script: no).
    takes_back = True
    #: Why the hint key is refused here, in words ("": the coach helps; the tutorial's script says it all).
    coach_off = ""

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
        self.refresh()
        self.now = 0.0
        self.message = notice
        self.message_error = bool(notice)
        self.message_until = ERROR_SECONDS * 2 if notice else 0.0
        # the end of a play, or of a show, kept in sight until you go on (a game saved then resumes so)
        story = self.pub.story
        self.hold = hold_after(story[-1], self.pub) if story else Hold.NONE
        self.ended = False
        self._last_snap: CribSnapshot | None = None
        self._view = CribView()  # drawing's own memory of the last frame
        self._layout: CribLayout | None = None
        self.undos = session.undos  # the take-backs the felt shows: online, one more is made by agreement
        # a replay's words and keys in the prompt and the keys' line (None: a game being played)
        self.replaying: tuple[str, str] | None = None
        self.open_hands: dict[int, tuple[Card, ...]] = {}  # a replay's every hand face up (Tab): each seat's cards
        self.calls = Calls(self)  # the number you say aloud, muggins, going on in the show
        self.cards = Cards(self, self.calls)  # your cards: chosen, dragged, laid; the mouse and the cursor
        self.coaching = Coaching(self)  # the hint key's discard advice and pegging hint
        self.pegging = Pegging(self)  # a pair of pegs a side
        self.turns = Turns(self, self.calls, self.pegging)  # the other seats' moves, landed on the clock
        self.ending = Ending(self)  # resigning, playing again online, a table aborted or played again
        self.taking_back = TakingBack(self)  # undo, and online the requests to take back a move
        self.words = Words(self, self.cards, self.calls, self.taking_back)  # the prompt and the panel
        self.buttons = Buttons(self, self.cards, self.calls, self.taking_back)
        self.motion = Motion(self, self.cards, self.calls, self.coaching)  # every card's place and glide
        self.keys = Keys(self, self.cards, self.calls, self.coaching, self.ending, self.taking_back)
        if self.watching:
            self.hold = Hold.NONE
            self.replaying = self.words.watched()

    def refresh(self) -> None:
        """Ask the session again, once something was done (a resignation made: the game is over): the
        public value, your hand, your calls."""
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
    def may_lay_away(self) -> bool:
        """Your crib cards may be laid now: in the discard, before the others' as well as after (issue 44)."""
        return any(isinstance(m, Discard) for m in self.seen.legal)

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

    @property
    def coach(self) -> CribCoach:
        """What the coach shows (the coaching's)."""
        return self.coaching.coach

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
            self.cards.motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.cards.mouse = event.pos
            if self.watching:
                return
            if self.ended:
                self.ending.end_click(event.pos)
            elif not self.buttons.click(event.pos, self.can_undo):
                self.cards.press_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.cards.mouse = event.pos
            self.cards.release(event.pos)
        elif event.type == pygame.KEYDOWN:
            self.keys.key(event)

    # --- the steps a table aside makes its own (the tutorial's script) ---

    def act(self, move: Move) -> bool:
        """Your move, or the reason it cannot be made, in words; whether it was made."""
        why = self.session.why_not(self.person, move)
        if why:
            self.say(why)
            return False
        try:
            self.session.act(self.person, move)
            self.refresh()
        except CribbageError as e:  # why_not said yes: the model and the rules disagree, a bug
            log.error("a move passed why_not and failed: %s (%s)", move, e)
            self.say(str(e))
            return False
        self.message = ""
        self.cards.after_move()
        self.turns.moved()
        return True

    def go_on(self) -> None:
        """Enter or the button in the show: count your own hand, or let the next count (or deal) come."""
        self.calls.go_on()

    def button_plan(self) -> Plan:
        """The buttons for the moment: their kinds, labels of their own, those enabled."""
        return self.buttons.plan()

    def lines(self) -> tuple[InfoLine, ...]:
        """The side panel's lines."""
        return self.words.lines()

    def prompt(self) -> tuple[str, bool]:
        """The prompt's words, and whether they say something went wrong."""
        return self.words.prompt()

    def new_game(self) -> None:
        """The New cribbage game choice over the table (a game in play is only replaced on Start); a table
        watched: on to watch it played again."""
        if self.watching:
            self.ending.watch_again()
            return
        self.on_new_game(self)

    @property
    def reviewed(self) -> bool:
        """The end card offers the game's review: the coach's, where the table allows the coach (online,
        its creator's choice), as the tile game's end card; a game of two (three or four are not reviewed)."""
        return self.replaying is None and self.session.coach_allowed and self.pub.players == 2

    def review(self) -> None:
        """Every discard and card laid of the game just ended against the best found, over the table."""
        why = self.app.review_ended(self.session)
        if why:
            self.say(why)

    def resync(self, session: CribbageDriver | None = None, held: bool = False) -> None:
        """The game changed under the scene (taken back; a replay stepped to another move, `session`):
        everything asked again, nothing told of it, the pegs put where the scores are; `held`: the end
        of a play or a show just reached stays in sight, as a game resumed there shows it."""
        if session is not None:
            self.session = session
        self.undos = self.session.undos
        self.session.take_pending()
        self.refresh()
        story = self.pub.story
        self.hold = hold_after(story[-1], self.pub) if held and story else Hold.NONE
        self.cards.reset()
        self.calls.reset()
        self.ended = False
        self.pegging.reset()
        self.turns.reset()

    # --- time ---

    def update(self, dt: float) -> None:
        self.now += dt
        if self.message and self.now > self.message_until:
            self.message = ""
        self.ending.table_gone()
        if self.session.undos != self.undos:  # a move taken back at the table online, once everyone agreed
            self.resync()
        self.can_undo = self.takes_back and self.app.prefs.undo and self.session.can_undo(self.person)
        self._hear()
        if self.turns.drive():
            self.refresh()
            self.turns.moved()
        told = self.session.take_pending()  # yours (made in `handle`) and the bot's, told at once
        if told or self.session.changed():  # online, a resignation is no move
            self.refresh()
        self.coaching.stale()  # a hint is for the position it was asked in
        for happening in told:
            self.pegging.tell(happening)
        if self.watching:
            self.replaying = self.words.watched()
        self.pegging.settle_untold()
        self.pegging.advance(dt)
        if self.turns.game_ends():
            self.ended = True
            self.cards.press = None
            self.turns.record()
        lines = self.lines()
        self.motion.parts = self.motion.frame(dt, lines, self.words.hover(lines))
        self.motion.warm_up()

    def _hear(self) -> None:
        """The lines said at the table (a muted player's are not told), the connection's news and who
        went away, into the chat's strip; the names to mute where drawing puts them, while it is open."""
        said = tuple(line.words for line in self.chat.news())
        self.chat.hear(self.session.incidents() + said, self.now)
        if self.chat.typing:
            size = max(13, self.layout.text - 3)
            self.chat.chips = history_chips(chat_history(self.layout), self.chat.view(self.now).speakers, size)

    # --- the snapshot ---

    def window_caption(self) -> str:
        """What the window's title says while this game is shown (the task bar's score): the
        cribbage score, not the tile game's."""
        table = self.pub
        names = table.side_names()
        return "Cribbage — " + " · ".join(f"{n} {s}" for n, s in zip(names, table.scores, strict=True))

    def hand_rects(self) -> list[Rect]:
        """Where each card of your hand rests (a card chosen for the crib a little lifted)."""
        return self.cards.hand_rects()

    def snapshot(self) -> CribSnapshot:
        """The table at this moment, for drawing (worked out by `update`; drawing it changes nothing)."""
        lay = self.layout
        table = self.pub
        view = self.seen
        parts = self.motion.parts
        if parts is None:
            lines = self.lines()
            parts = self.motion.frame(0.0, lines, self.words.hover(lines))
        prompt, error = self.prompt()
        dealer = self.dealer
        seats = tuple(self.words.seat(player, dealer) for player in table.others)
        crib_owner = f"{self.words.whose(dealer)} crib"
        count = view.count if self.mode is Mode.PLAY else None
        count_words = ""
        if self.hold is Hold.PLAY_OVER and table.sequences:
            count, count_words = sum(c.value for _, c in table.sequences[-1]), "the last count"
        elif self.mode is Mode.PLAY and not view.pile and table.sequences:
            count_words = "a new count"
        calls, mouse = self.calls, self.cards.mouse
        return CribSnapshot(
            layout=lay,
            names=table.names,
            person=self.person,
            dealer=dealer,
            deal=view.deal_number,
            sprites=parts.sprites,
            held=self.motion.held(),
            seats=seats,
            deck=self.mode is not Mode.SHOW,
            crib_label=f"{crib_owner}: {view.crib_size}" if self.mode is not Mode.SHOW else crib_owner,
            count=count,
            count_words=count_words,
            prompt=prompt,
            prompt_error=error,
            buttons=tuple(self.buttons.views(self.can_undo)),
            number=("" if calls.declared is None else str(calls.declared))
            if calls.declaring() or calls.claiming()
            else None,
            pegs=self.pegging.spots(),
            lines=parts.lines,
            hover_line=parts.hover,
            keys=self.words.keys(self.can_undo, self.chat.allowed),
            end=table.summary if self.ended else None,
            end_again=again_question(
                self.session.pending_again,
                table.names,
                () if self.watching else (self.person,),
                self.session.played_again_at,
            )
            if self.ended and self.asks_again
            else None,
            end_hover=next((k for k, r in lay.end_buttons(self.reviewed).items() if contains(r, mouse)), None)
            if self.ended
            else None,
            end_review=self.ended and self.reviewed,
            chat=self.chat.view(self.now),
            coach=self.coaching.note(),
            sides=table.side_names(),
            game_hole=table.options.target,
            near=self.words.seat(self.person, dealer) if self.watching else None,
        )

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        snap = self.snapshot()
        if not full and snap == self._last_snap:
            return []  # nothing changed: nothing to send to the screen (nor to build)
        self._last_snap = snap
        return self._view.draw(surface, snap, full)
