"""The table scene: one game, played with the mouse or the keyboard, driven only through its `Session`.

The scene routes events to its controllers (the hand: drag and cursor; the coach; the Joker count;
the turn list; the animations), makes the turns the person asks for, polls the session for the
others' moves, and assembles the frozen snapshot that drawing reads. Every animation runs on the
scene's own clock (`now`, advanced by `update(dt)`), so tests drive it frame by frame.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

import pygame

from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.table.history import TurnRecord
from cribtiles.table.joker import Item
from cribtiles.table.privacy import hands_over, next_person, uncovered_seat
from cribtiles.table.session import Session
from cribtiles.table.settings import Preferences

from .coach_state import TableCoach
from .config import Keeper
from .declare import joker_rect
from .drag import Draft
from .game_acts import KEY_BUTTONS, Acts
from .game_anims import TOAST, Animations
from .game_coach import Coaching
from .game_hand import Hand
from .game_joker import JokerDesk
from .game_keys import Keys
from .game_turns import TurnList
from .game_words import draw_words, sentence, took_back_words
from .geometry import Layout, Point, centre, contains
from .preview import Preview, preview
from .snapshot import Buttons, TableSnapshot
from .sound import Sounds
from .table import TableView

BOT_MIN_PAUSE = 0.7  # seconds another seat seems to think, at the least, at normal speed


class Host(Protocol):
    """What the scene needs of the window that holds it (the window's App); the scene never imports
    the window, so the two are not one module in two files."""

    layout: Layout
    prefs: Preferences
    sounds: Sounds
    keeper: Keeper

    def new_game(self) -> None: ...

    def caption(self, state: GameState) -> None: ...

    def show_end(self, game: GameScene) -> None: ...


@dataclass
class GameScene:
    app: Host
    session: Session
    notice: str = ""
    viewer: int = field(init=False)  # the seat whose rack is shown (see `human`)
    curtain: int | None = None  # hot seat: the person the racks are hidden for until they are ready
    now: float = 0.0
    live: Preview | None = None
    thinking_since: float | None = None  # another seat's move has been asked for since
    help: bool = False  # the side panel shows how to play
    ended: bool = False  # the end-of-game scene has been shown
    peg_totals: bool = False  # a match: the peg board shows the match totals (a click on it switches)
    rng: random.Random = field(default_factory=random.Random)
    view: TableView = field(default_factory=TableView)  # drawing's own memory of the last frame
    hand: Hand = field(init=False)
    coaching: Coaching = field(init=False)
    joker: JokerDesk = field(init=False)
    keys: Keys = field(init=False)
    turn_list: TurnList = field(init=False)
    anims: Animations = field(init=False)
    acts: Acts = field(init=False)
    _save_errors: int = 0

    def __post_init__(self) -> None:
        self.viewer = self._person_to_show()
        if self.hot_seat and self.mine_to_move:
            self.curtain = self.viewer  # the first person's rack waits for them, too
        self.hand = Hand(self, self.session.view(self.human).rack)
        self.coaching = Coaching(self, self.hand)
        self.hand.moved = self.coaching.tile_moved
        self.joker = JokerDesk(self, self.hand, lambda declared, claimed: self.acts.declared(declared, claimed))
        self.acts = Acts(self, self.hand, self.joker, self.coaching)
        self.keys = Keys(self, self.hand)
        self.turn_list = TurnList(self)
        self.anims = Animations(self)
        self.anims.set_pegs()
        self.anims.explain_last()
        if self.notice:
            self.toast(self.notice, 6.0)

    # --- who and what is shown ---

    def name_of(self, seat: int) -> str:
        """ "You" for the only person at a table of bots, else the seat's name."""
        return "You" if seat == self.you else self.state.names[seat]

    @property
    def you(self) -> int | None:
        """The seat called "You": the only person at a table of bots (None with several people, or none)."""
        mine = self.session.mine
        return mine[0] if len(mine) == 1 else None

    def draw_words(self) -> str:
        """Who starts and why: each player's tile of the draw for the start."""
        return draw_words(self.state, self.name_of)

    @property
    def state(self) -> GameState:
        """The round in play, as the session holds it."""
        return self.session.state

    @property
    def human(self) -> int:
        """The seat whose rack the window shows: the person to move, or the last person who moved."""
        return self.viewer

    @property
    def uncovered(self) -> int | None:
        """The seat whose rack is uncovered now (None while the curtain is down): the only seat whose
        private information (`cribtiles.table.privacy`) may be drawn."""
        return uncovered_seat(self.human, self.curtain is not None)

    @property
    def hot_seat(self) -> bool:
        """Several people share the window (in Solitaire both sides are one person's: no curtain)."""
        return len(self.session.mine) > 1 and not self.state.options.solitaire

    def _person_to_show(self, keep: int | None = None) -> int:
        if self.mine_to_move:
            return self.state.current
        if keep is not None:
            return keep
        mine = self.session.mine
        return mine[0] if mine else 0

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
    def mine_to_move(self) -> bool:
        """One of this window's seats is to move."""
        return self.session.to_move is not None and self.session.to_move in self.session.mine

    @property
    def others_to_move(self) -> bool:
        """A seat this window does not play is to move (a bot here, or a player elsewhere)."""
        return self.session.to_move is not None and self.session.to_move not in self.session.mine

    @property
    def my_turn(self) -> bool:
        """A person at the table may act now (never at a table of bots only, which the window watches)."""
        shown_to_move = self.mine_to_move and self.state.current == self.human
        return shown_to_move and not self.busy and self.curtain is None

    @property
    def busy(self) -> bool:
        """Something is on its way (another seat's tiles flying) and input to the board waits."""
        return self.anims.busy

    @property
    def thinking(self) -> bool:
        return self.thinking_since is not None

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

    def nothing_to_cancel(self) -> bool:
        """Escape cancels what is under way first (a held tile, an exchange, a count, a past turn
        shown, the keyboard's cursor, what the coach shows); with nothing, the window takes it."""
        hand = self.hand
        busy = hand.draft.held is not None or hand.exchanging or self.keys.keyboard or self.coaching.showing
        asked = self.joker.declaring is not None or self.acts.confirming is not None
        return self.turn_list.past is None and not asked and not busy

    def relayout(self) -> None:
        self.hand.snap()

    # --- the play laid, and what may be done ---

    def refresh_preview(self) -> None:
        play = self.hand.draft.proposal()
        self.live = preview(self.state.board, play) if play is not None else None

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
        """The Undo button shows when the setting allows it and a bot sits at the table."""
        return self.app.prefs.undo and any(s.is_bot for s in self.session.seats)

    def can_undo(self) -> bool:
        return self.undo_shown and self.curtain is None and self.session.can_undo(self.human)

    # --- input ---

    def shutdown(self) -> None:
        """The coach's worker ends with the table it evaluates for."""
        self.coach.worker.close()

    def handle(self, event: pygame.event.Event) -> None:
        if self.curtain is not None and self._at_curtain(event):
            return
        if self.acts.confirming is not None and self.acts.at_question(event):
            return
        hand = self.hand
        if event.type == pygame.MOUSEMOTION:
            hand.mouse = event.pos
            over = self.layout.button_at(hand.mouse) is not None or self.coaching.at(hand.mouse) is not None
            hand.point_cursor(over)
            self.turn_list.hover(hand.mouse)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            hand.mouse = event.pos
            if event.button == 1:
                self.keys.keyboard = False
                self._press(event.pos)
            elif event.button == 3:  # the wheel arrives as MOUSEWHEEL too: one notch, one flip
                hand.flip_at(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            if contains(self.layout.info, hand.mouse):  # the turn list scrolls
                self.turn_list.scroll(event.y)
            else:
                hand.flip_at(hand.mouse)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            hand.mouse = event.pos
            hand.release()
        elif event.type == pygame.KEYDOWN:
            self._key(event)

    def _at_curtain(self, event: pygame.event.Event) -> bool:
        """While the racks are hidden between two people's turns: a click, Enter or Space lifts the
        curtain; other input waits. True when the event was the curtain's."""
        ready = (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1) or (
            event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
        )
        if ready:
            self.curtain = None
            self.refresh_preview()
            self.coaching.show_notes()
            return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.MOUSEWHEEL)

    def _press(self, point: Point) -> None:
        if self.coaching.press(point):
            return
        if contains(self.layout.pegboard, point) and self.state.options.rounds > 1:
            self.peg_totals = not self.peg_totals  # the match's totals on the pegs, or this round's scores
            return
        if self.turn_list.press(point):
            return
        if self.may_call() and contains(joker_rect(self.layout), point):
            self.call_joker()
            return
        button = self.layout.button_at(point)
        if button == "play" and self.undo_shown and not contains(self.acts.play_rect(), point):
            from .panel import undo_button

            undo = undo_button(self.snapshot())
            if undo is not None and contains(undo[0], point):
                self.take_back()
            return
        if self.joker.declaring is not None and button is None:
            self.joker.point_at(self.layout.square_at(point))
        elif button is not None:
            self.acts.press(button)
        else:
            self.hand.press(point)

    def _key(self, event: pygame.event.Event) -> None:
        k, mods = event.key, event.mod
        if self.turn_list.past is not None and k == pygame.K_ESCAPE:
            self.turn_list.past = None
        elif (self.joker.declaring is not None and self.joker.key(event)) or self.coaching.key(event):
            pass
        elif k == pygame.K_j and self.may_call():
            self.call_joker()
        elif k == pygame.K_u or (k == pygame.K_z and mods & pygame.KMOD_CTRL):
            self.take_back()
        elif self.keys.key(event):
            pass
        elif k in KEY_BUTTONS:
            self.acts.press(KEY_BUTTONS[k])
        elif k in (pygame.K_h, pygame.K_F1):
            self.help = not self.help
        elif k == pygame.K_n and (self.state.is_over or mods & pygame.KMOD_CTRL):
            self.app.new_game()
        elif k == pygame.K_ESCAPE:
            self.keys.escape()

    # --- the person's turn ---

    def take_back(self) -> None:
        """Undo (the button, U, Ctrl+Z): take back the person's last turn and the bots' replies after
        it; a bot thinking is stopped, the game saved, and a message says what was taken back."""
        if not self.app.prefs.undo:
            self.toast("Undo is off in the settings.")
            return
        if not any(s.is_bot for s in self.session.seats):
            self.toast("Plays are taken back only in a game against bots.")
            return
        try:
            taken = self.session.undo_turns(self.human)
        except IllegalMove as e:
            self.toast(f"{str(e)[:1].upper()}{str(e)[1:]}.")
            return
        on_its_way = self.state.current if self.anims.pending is not None else None
        self.coach.clear()
        self.coaching.notes.pop(self.human, None)  # a note on a play taken back
        self.thinking_since = None
        self.anims.stop()
        self.session.undo(self.human)  # a bot thinking about a reply that will never be made stops
        whose = "your" if self.name_of(self.human) == "You" else f"{self.state.names[self.human]}'s"
        also = None if on_its_way is None else self.state.names[on_its_way]
        self.toast(took_back_words(taken, whose, self.state.names, also))
        self.turn_list.past, self.acts.confirming, self.curtain, self.ended = None, None, None, False
        self.joker.cancel()
        self.anims.racks_counted = False
        self.viewer = self._person_to_show(self.viewer)
        self.hand.reset(self.session.view(self.human).rack)
        self.keys.selected = 0
        self.anims.set_pegs()
        self.anims.explain_last()
        self.refresh_preview()
        self.saved()
        self.app.sounds.click()

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
        mover = self.state.current
        hand = self.hand
        keep = [hand.draft.tiles[i] for i in hand.draft.order] if mover == self.human else None
        theirs = mover not in self.session.mine  # a bot's (or a player's elsewhere), announced by poll
        note = "" if theirs else self.coaching.note(move)
        self.coach.clear()  # the position is gone
        record = self.session.land() if theirs else self.session.act(mover, move, declared, claimed)
        self.joker.cancel()
        self._tell(record)
        viewer, self.viewer = self.viewer, self._person_to_show(self.viewer)
        passing = self.hot_seat and self.session.seats[mover].is_person
        if passing and hands_over(self.session.seats, mover, self.session.to_move):
            # the racks are covered at once, even while bots move before the next person's turn
            following = next_person(self.session.seats, self.state.current)
            self.viewer = self.viewer if following is None else following
        if note:  # the mover's to read, at once or when their rack is next uncovered
            self.coaching.hold(mover, note, later=self.viewer != mover)
        if self.viewer != viewer:  # the next person at the table takes their rack, once the others look away
            keep = None
            self.curtain = self.viewer if self.hot_seat else None
        if mover == viewer or self.viewer != viewer:  # a bot's move leaves the person's rack (and tile in hand)
            hand.deal(self.session.view(self.human).rack, keep)
            self.keys.selected = 0
        self.refresh_preview()
        self.coaching.show_notes()
        self.saved()

    def _tell(self, record: TurnRecord) -> None:
        """Show what a turn did: a play's breakdown and its pegs, a pass or an exchange in words."""
        who = self.name_of(record.player)
        self.turn_list.past = None  # the game moved on: show it as it is
        if record.score is not None:
            read = self.anims.score(record)
            self.help = False  # the new breakdown is what the panel shows now
            self.joker.tell_calls(self.anims.pegs, wait=read)  # the bots' calls on it
            self.app.sounds.click()
        elif isinstance(record.turn.move, Exchange):
            n = record.turn.drawn
            self.toast(f"{who} exchanged {n} tile{'s' if n != 1 else ''}.")
        else:
            self.toast(f"{who} passed.")

    def start_bot_move(self, move: Move) -> None:
        """Another seat's move: a play's tiles fly in from where its rack is drawn, then it is made."""
        if not (isinstance(move, Play) and self.pace > 0):
            self.commit(move)
            return
        from .panel import opponent_tiles

        drawn = opponent_tiles(self.snapshot(), self.state.current)
        starts = [centre(r) for r in drawn][-len(move.placements) :]
        self.anims.fly(move, starts, centre(self.layout.opponents))

    # --- time ---

    def update(self, dt: float) -> None:
        self.now += dt
        self.coach.poll()
        self.hand.glide(dt, self.pace)
        self.anims.advance(dt)
        if self.anims.flights:
            move = self.anims.landed()
            if move is not None:
                self.commit(move)
            return
        self._drive_others()
        self.joker.tell_calls(self.anims.pegs)
        self.anims.see_again()
        if self.state.is_over and not self.ended and self.anims.still():
            self.ended = True
            self.app.show_end(self)

    def _drive_others(self) -> None:
        """The others' turn (a bot's here): the session thinks; its move is taken once the bot has
        seemed to think for a moment, and flies in (what went wrong on the way: the app tells)."""
        if not self.others_to_move:
            self.thinking_since = None
            return
        if self.thinking_since is None:
            self.thinking_since = self.now
            self.session.poll()
            return
        if self.now - self.thinking_since < self.anim(BOT_MIN_PAUSE):
            return
        move = self.session.poll()
        if move is None:
            if not self.session.thinking:  # the request was dropped (a cancelled move): ask again
                self.thinking_since = None
            return
        self.thinking_since = None
        self.start_bot_move(move)

    def count_racks(self) -> None:
        """The end of the round: each front peg goes back by what was left on its rack."""
        self.anims.count_racks(self.state.outcome)

    def snapshot(self) -> TableSnapshot:
        """The table at this moment, for drawing: copies and frozen values only. Under the curtain it
        holds no rack and no message for one seat's eyes (`cribtiles.table.privacy`)."""
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
                acts.can_play(), acts.can_pass(), acts.can_exchange(), acts.exchange_ready(), acts.may_pass_now()
            ),
            next_level=self.app.prefs.level,
            next_is_round=self.state.is_over and not self.session.match.is_over,
            curtain=None if self.curtain is None else self.state.names[self.curtain],
            declaring=self.joker.view(),
            may_call=self.may_call(),
            hide_scores=self.state.options.joker and self.mine_to_move,
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
        )

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw the table; the rectangles that changed, or None if all of it did."""
        return self.view.draw(surface, self.snapshot(), full)
