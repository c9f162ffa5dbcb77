"""The table scene: one game, played with the mouse or the keyboard, driven only through its `Session`.

The scene's input (`game_input`) routes events to its controllers, each in a module of its own
(`game_hand` the drag, `game_keys` the cursor, `game_acts` the buttons, `game_coach`, `game_joker`,
`game_turns` the turn list, `game_anims`, `game_seats` the rack shown and the curtain, `game_others`
the others' turns; `game_turn` and `game_undo` work across them); the scene assembles the frozen
snapshot that drawing reads. Every animation runs on the scene's own clock (`now`, advanced by
`update(dt)`), so tests drive it frame by frame.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

import pygame

from cribtiles.online.presence import clock_words
from cribtiles.rules.moves import Move
from cribtiles.table.again import NextTable
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.joker import Item
from cribtiles.table.tiles.public import PublicState
from cribtiles.table.tiles.session import Session

from ..again import AgainQuestion, again_question
from ..chat import Chat
from ..chat_paint import history_chips
from ..coach_state import TableCoach
from ..config import Keeper
from ..geometry import Layout
from ..sound import Sounds
from .drag import Draft
from .game_acts import Acts
from .game_anims import TOAST, Animations
from .game_coach import Coaching
from .game_hand import Hand
from .game_input import Input
from .game_joker import JokerDesk
from .game_keys import Keys
from .game_others import Others
from .game_resign import Resigning
from .game_seats import SeatShown
from .game_turn import commit, fly_in
from .game_turns import TurnList
from .game_undo import can_undo, undo_question, undo_shown, went_back
from .game_words import draw_words, sentence
from .preview import Preview, preview
from .snapshot import Buttons, TableSnapshot
from .table import TableView, chat_history, chat_text_size

#: Seconds a line said at the table stays among the messages (the chat's panel, C, keeps every line).
CHAT_TOAST = 8.0


class Host(Protocol):
    """What the scene needs of the window that holds it (the window's App); the scene never imports
    the window, so the two are not one module in two files."""

    layout: Layout
    prefs: Preferences
    sounds: Sounds
    keeper: Keeper

    def new_game(self) -> None: ...

    def caption(self, state: PublicState) -> None: ...

    def show_end(self, game: GameScene) -> None: ...

    def open_next_table(self, table: NextTable) -> None:
        """Everyone agreed to play the table online again: on to the new one."""
        ...

    def leave_table(self, session: Session, words: str) -> None:
        """Let a table online go (aborted, or left once over) and go to the title, saying `words`."""
        ...


@dataclass
class GameScene:
    app: Host
    session: Session
    notice: str = ""
    now: float = 0.0
    live: Preview | None = None
    help: bool = False  # the side panel shows how to play
    ended: bool = False  # the end-of-game scene has been shown
    peg_totals: bool = False  # a match: the peg board shows the match totals (a click on it switches)
    resigns: bool = True  # Ctrl+R gives the game up (not at a table aside: the tutorial, a puzzle)
    rng: random.Random = field(default_factory=random.Random)
    view: TableView = field(default_factory=TableView)  # drawing's own memory of the last frame
    shown: SeatShown = field(init=False)
    others: Others = field(init=False)
    hand: Hand = field(init=False)
    coaching: Coaching = field(init=False)
    joker: JokerDesk = field(init=False)
    keys: Keys = field(init=False)
    turn_list: TurnList = field(init=False)
    anims: Animations = field(init=False)
    acts: Acts = field(init=False)
    chat: Chat = field(init=False)
    resigning: Resigning = field(init=False)
    input: Input = field(init=False)
    _save_errors: int = 0
    _turns: tuple[int, int] = (0, 0)  # the round and the turns made in it, as last seen by `update`

    def __post_init__(self) -> None:
        self.shown = SeatShown(self.session)
        self.others = Others(self)
        self.hand = Hand(self, self.session.view(self.human).rack)
        self.coaching = Coaching(self, self.hand)
        self.hand.moved = self.coaching.tile_moved
        self.joker = JokerDesk(self, self.hand, lambda declared, claimed: self.acts.declared(declared, claimed))
        self.acts = Acts(self, self.hand, self.joker, self.coaching)
        self.keys = Keys(self, self.hand)
        self.turn_list = TurnList(self)
        # the window's mutes (a host without them, a test's: kept for the scene's life only)
        self.chat = Chat(self.session, getattr(self.app, "chat_mutes", None))
        self.resigning = Resigning(self)
        self.input = Input(self)
        self.anims = Animations(self)
        self.anims.set_pegs()
        self.anims.explain_last()
        self._turns = (len(self.session.match.finished), len(self.state.turns))
        if self.notice:
            self.toast(self.notice, 6.0)

    # --- who and what is shown ---

    def name_of(self, seat: int) -> str:
        """ "You" for the only person at a table of bots, else the seat's name."""
        return self.shown.name_of(seat)

    @property
    def you(self) -> int | None:
        return self.shown.you

    def draw_words(self) -> str:
        """Who starts and why: each player's tile of the draw for the start."""
        return draw_words(self.state, self.name_of)

    @property
    def state(self) -> PublicState:
        """The round in play, as the session holds it."""
        return self.session.state

    @property
    def human(self) -> int:
        """The seat whose rack the window shows: the person to move, or the last person who moved."""
        return self.shown.viewer

    @property
    def curtain(self) -> int | None:
        """Hot seat: the person the racks are hidden for until they are ready."""
        return self.shown.curtain

    @property
    def uncovered(self) -> int | None:
        return self.shown.uncovered

    @property
    def layout(self) -> Layout:
        return self.app.layout

    @property
    def pace(self) -> float:
        return self.app.prefs.pace

    def anim(self, seconds: float) -> float:
        return seconds * self.pace

    @property
    def level(self) -> str:
        """The level of the (first) bot at the table ("" with none)."""
        return next((s.level for s in self.session.seats if s.level is not None), "")

    @property
    def my_turn(self) -> bool:
        """A person at the table may act now (never at a table of bots only, which the window watches)."""
        shown_to_move = self.shown.mine_to_move and self.state.current == self.human
        return shown_to_move and not self.busy and self.curtain is None

    @property
    def busy(self) -> bool:
        """Something is on its way (another seat's tiles flying) and input to the board waits."""
        return self.anims.busy

    @property
    def thinking(self) -> bool:
        return self.others.thinking

    @property
    def draft(self) -> Draft:
        """The person's tiles this turn (the hand's)."""
        return self.hand.draft

    @property
    def coach(self) -> TableCoach:
        """What the coach shows (the coaching's)."""
        return self.coaching.coach

    def toast(self, text: str, seconds: float = TOAST, seat: int | None = None) -> None:
        """A message for everyone, or for `seat`'s eyes only."""
        self.anims.toast(text, seconds, seat)

    def tell(self, text: str) -> None:
        """A word from the window (a turn that came at another table online): a message for a while."""
        self.toast(text, CHAT_TOAST)

    def nothing_to_cancel(self) -> bool:
        """Escape cancels what is under way first (a held tile, an exchange, a count, a past turn
        shown, the keyboard's cursor, what the coach shows); with nothing, the window takes it."""
        hand = self.hand
        busy = hand.draft.held is not None or hand.exchanging or self.keys.keyboard or self.coaching.showing
        asked = self.joker.declaring is not None or self.acts.confirming is not None or self.resigning.asking
        return self.turn_list.past is None and not asked and not busy

    def relayout(self) -> None:
        self.hand.snap()

    # --- the play laid, and what may be done ---

    def refresh_preview(self) -> None:
        play = self.hand.draft.proposal()
        self.live = preview(self.state.board, play, self.state.scorer) if play is not None else None

    def can_exchange(self) -> bool:
        return self.acts.can_exchange()

    def may_call(self) -> bool:
        """The person shown may call "Joker" on the last play (another player's, before anyone acts)."""
        return self.joker.may_call(self.curtain is None and not self.busy)

    def call_joker(self) -> None:
        self.joker.call(self.anims.pegs)
        self.anims.see_again()

    @property
    def undo_shown(self) -> bool:
        return undo_shown(self)

    def can_undo(self) -> bool:
        return can_undo(self)

    # --- input ---

    def shutdown(self) -> None:
        """The coach's worker ends with the table it evaluates for."""
        self.coach.worker.close()

    @property
    def typing(self) -> bool:
        """A line is being typed to the table: every key is the field's (the window's shortcuts too)."""
        return self.chat.typing

    def handle(self, event: pygame.event.Event) -> None:
        self.input.handle(event)

    # --- the person's turn ---

    def saved(self) -> None:
        """Save the game; a save that failed (a full disk, a folder gone read-only) is told."""
        self.session.save()
        errors = getattr(self.app.keeper, "errors", None)
        if errors and len(errors) != self._save_errors:
            self._save_errors = len(errors)
            # the keeper's latest trouble: the save's own, or another (the history could not take the game)
            unsaved = getattr(self.app.keeper, "unsaved", None)
            self.toast(f"The game could not be saved ({unsaved})." if unsaved else sentence(errors[-1]), 6.0)
        self.app.caption(self.state)

    # --- turns ---

    def commit(self, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> None:
        """Make a move at the table: the person's, or another seat's once its tiles have landed."""
        commit(self, move, declared, claimed)

    # --- time ---

    def update(self, dt: float) -> None:
        self.now += dt
        self._hear()
        self.coach.poll()
        self.hand.glide(dt, self.pace)
        self.anims.advance(dt)
        if self.anims.flights:
            move = self.anims.landed()
            if move is not None:
                self.commit(move)
            return
        move = self.others.drive()
        if move is not None:
            fly_in(self, move)  # another seat's move: its tiles fly in, then it is made
        turns = (len(self.session.match.finished), len(self.state.turns))
        if turns[0] != self._turns[0] or turns[1] < self._turns[1]:  # taken back, or a round on elsewhere
            went_back(self)
        self._turns = turns
        self.joker.tell_calls(self.anims.pegs)
        self.anims.see_again()
        if self.state.is_over and not self.ended and self.anims.still():
            self.ended = True
            self.app.show_end(self)
        self._table_gone()

    def _table_gone(self) -> None:
        """A table online aborted (back to the title, told why), or played again (on to the new one)."""
        session = self.session
        if session.aborted:
            self.app.leave_table(session, "The table was aborted before its first move: it ends with no result.")
            return
        moving = session.next_table
        if moving is not None:
            self.app.open_next_table(moving)

    def _hear(self) -> None:
        """The lines said at the table since the last frame, told as messages (a muted player's not); the
        names to mute in the chat's panel where drawing puts them, while it is open."""
        for line in self.chat.news():
            self.toast(line.words, CHAT_TOAST)
        if self.chat.typing:
            speakers = self.chat.view(self.now).speakers
            self.chat.chips = history_chips(chat_history(self.layout), speakers, chat_text_size(self.layout))

    def count_racks(self) -> None:
        """The end of the round: each front peg goes back by what was left on its rack."""
        self.anims.count_racks(self.state.outcome)

    def snapshot(self) -> TableSnapshot:
        """The table at this moment, for drawing: copies and frozen values only. Under the curtain it
        holds no rack and no message for one seat's eyes (`cribtiles.table.tiles.privacy`)."""
        covered = self.curtain is not None
        hand, anims, turns, acts = self.hand, self.anims, self.turn_list, self.acts
        return TableSnapshot(
            layout=self.layout,
            now=self.now,
            pace=self.pace,
            mouse=hand.mouse,
            state=self.state,
            seats=self.session.seats,
            human=self.human,
            my_turn=self.my_turn,
            busy=self.busy,
            thinking=self.thinking,
            draft=hand.draft_view(covered),
            pos=hand.drawn_at(covered),
            rest=hand.rests(covered),
            grab=hand.grab,
            lift=hand.lift,
            held_centre=hand.held_centre(),
            live=None if covered else self.live,
            breakdown=anims.breakdown,
            rows_shown=anims.rows_shown(self.pace),
            hover_rows=turns.hover_rows,
            flights=tuple(anims.flights),
            flips=hand.flips_view(),
            pegs=anims.peg_views(),
            exchanging=hand.exchanging,
            keyboard=self.keys.keyboard,
            cursor=self.keys.cursor,
            selected=self.keys.selected,
            help=self.help,
            toasts=anims.shown_toasts(self.uncovered),
            buttons=Buttons(
                acts.can_play(),
                acts.can_pass(),
                acts.can_exchange(),
                acts.exchange_ready(),
                acts.may_pass_now(),
                self.coaching.stuck(),
            ),
            next_level=self.app.prefs.level,
            next_is_round=self.state.is_over and not self.session.match.is_over,
            curtain=None if self.curtain is None else self.state.names[self.curtain],
            declaring=None if acts.confirming is not None else self.joker.view(),  # the question comes first
            may_call=self.may_call(),
            hide_scores=self.state.options.joker and self.shown.mine_to_move,
            match=self.session.match,
            racks_counted=anims.racks_counted,
            past=turns.view(),
            turn_scroll=turns.turn_scroll,
            undo_shown=self.undo_shown,
            can_undo=self.can_undo(),
            confirming=acts.question(),
            coach=self.coaching.view(),
            peg_totals=self.peg_totals,
            opening=self.draw_words() if len(self.state.turns) < self.state.players else "",
            you=self.you,
            about=tuple(" · ".join(self.session.about(p)) for p in range(self.state.players)),
            clock="" if self.state.is_over else clock_words(self.session.time_left()),
            plays_again=self.session.plays_again,
            watching=self.session.spectator,
            again=self._again(),
            undo_asked=self.resigning.question() or undo_question(self),
            chat=self.chat.view(self.now) if self.chat.allowed else None,
        )

    def _again(self) -> AgainQuestion | None:
        """Once a table online is over: playing it again, as this window is asked it."""
        session = self.session
        if session.plays_again or not (self.state.is_over and session.match.is_over):
            return None
        return again_question(session.pending_again, self.state.names, session.mine, session.played_again_at)

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw the table; the rectangles that changed, or None if all of it did."""
        return self.view.draw(surface, self.snapshot(), full)


class Seats(Protocol):
    """What opening a seat online asks of the window."""

    def take_seat(self, session: Session, notice: str = "") -> None: ...


def seat_online(app: Seats, session: Session) -> None:
    """A seat at a table online, in the window (the registry's `SEATED` part of the tile game): played in
    place of the game in play, as a new game here is."""
    app.take_seat(session)


def table_of(window: object) -> GameScene:
    """The tile table `window` shows as its own game (its `game`), as the self-test and the autopilot drive
    it; TypeError, in words, when the window's own game is another."""
    game = getattr(window, "game", None)
    if not isinstance(game, GameScene):
        raise TypeError(f"the window's own game is not the tile game's table but {type(game).__name__}")
    return game
