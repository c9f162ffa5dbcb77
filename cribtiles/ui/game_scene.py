"""The table scene: one game, the player against bots, played with the mouse or the keyboard.

Input becomes intents (pick up, drop, flip, play, pass, exchange); the draft proposes a play, the
rules engine judges it. The scene drives the game only through its `Session` and polls it for the
others' moves (bots thinking, players elsewhere); every animation runs on
the scene's own clock (`now`, advanced by `update(dt)`), so tests drive it frame by frame.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import pygame

from cribtiles.bot.coach import TilesOut, after_play_note, tiles_out
from cribtiles.rules.board import CENTRE, SIZE, Square
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState, PlayerView
from cribtiles.rules.moves import Exchange, Move, Pass, Play
from cribtiles.rules.options import Start
from cribtiles.rules.scoring import score_play
from cribtiles.rules.tiles import Tile
from cribtiles.table.history import TurnRecord
from cribtiles.table.joker import Declaration, Item
from cribtiles.table.privacy import Private, hands_over, next_person, reveal, uncovered_seat, visible
from cribtiles.table.seen import call_words
from cribtiles.table.session import Session
from cribtiles.table.settings import Preferences

from .coach_state import TableCoach
from .config import Keeper
from .declare import joker_rect
from .drag import Draft, Drop
from .geometry import Layout, Point, centre, contains
from .motion import PEG, glide_share
from .pegs import Pegs
from .preview import Preview, preview
from .snapshot import (
    Breakdown,
    Buttons,
    CoachView,
    DeclaringView,
    DraftView,
    Flight,
    FlipAnim,
    Frozen,
    PastTurn,
    PegView,
    TableSnapshot,
)
from .sound import Sounds
from .table import TableView


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


#: Seconds of this game's own animations at normal speed (the speed setting multiplies them); the
#: glide and the pegs are both games' (`motion`).
FLY = 0.55
FLY_STAGGER = 0.14
FLIP = 0.22
BOT_MIN_PAUSE = 0.7
ROW_REVEAL = 0.09  # each row of a score breakdown
TOAST = 3.0
NOTE = 6.0  # the coach's note after a play


def _sentence(text: str) -> str:
    """A message as a sentence: its first letter a capital, a full stop at its end."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def draw_words(state: GameState, name_of: Callable[[int], str]) -> str:
    """Who starts and why: each player's tile of the draw for the start (`name_of` names a seat, "You"
    for the only person at a table of bots)."""
    high = state.options.start == Start.HIGH
    parts = []
    for draws in state.start_draws:
        parts.append(", ".join(f"{'you' if name_of(p) == 'You' else state.names[p]} drew a {t.word}" for p, t in draws))
    who = "You start" if name_of(state.starter) == "You" else f"{state.names[state.starter]} starts"
    rule = "the highest" if high else "the lowest"
    again = "; tied, they drew again: " if len(parts) > 1 else ""
    return f"{parts[0][0].upper()}{parts[0][1:]}{again}{'; '.join(parts[1:])}. {who}: {rule} tile plays first."


def peg_marks(state: GameState) -> list[tuple[int, int]]:
    """Each player's pegs in `state`: (their score, their score before their last scoring)."""
    running = [0] * state.players
    previous = [0] * state.players
    for t in state.turns:
        if t.points:
            previous[t.player] = running[t.player]
            running[t.player] += t.points
    return [(state.scores[p], previous[p]) for p in range(state.players)]


def took_back_words(taken: Sequence[TurnRecord], whose: str, names: Sequence[str], also: str | None = None) -> str:
    """What an undo took back, in a sentence: "Took back your play f7=5D g7=TL and Hard's reply".
    `whose` is "your" or "Ann's"; `names` name the seats; `also` a bot whose reply was on its way."""
    mine = taken[0]
    move = mine.turn.move
    if isinstance(move, Play):
        what = f"{whose} play {move}"
    elif isinstance(move, Exchange):
        n = mine.turn.drawn
        what = f"{whose} exchange of {n} tile{'s' if n != 1 else ''}"
    else:
        what = f"{whose} pass"
    bots: list[str] = []
    for record in taken[1:]:
        if names[record.player] not in bots:
            bots.append(names[record.player])
    if also is not None and also not in bots:
        bots.append(also)
    if len(bots) == 1:
        what += f" and {bots[0]}'s reply"
    elif bots:
        what += f" and the replies of {', '.join(bots[:-1])} and {bots[-1]}"
    return f"Took back {what}."


@dataclass
class Toast:
    text: str
    until: float
    seat: int | None = None  # for that seat's eyes only (shown while its rack is uncovered), or everyone's


@dataclass
class GameScene:
    app: Host
    session: Session
    notice: str = ""
    viewer: int = field(init=False)  # the seat whose rack is shown (see `human`)
    curtain: int | None = None  # hot seat: the person the racks are hidden for until they are ready
    declaring: Declaration | None = None  # Joker: the person counts the play they are making
    past: int | None = None  # a turn clicked in the turn list: shown with the board right after it
    turn_scroll: int = 0  # turns of the list scrolled past, newest first
    pointed: set[Square] = field(default_factory=set)  # squares clicked towards the next item
    typed: str = ""  # a declared total typed instead
    # "confirm before play": the play asked about, with what is declared for it and pointed at
    confirming: tuple[Play, int | None, tuple[Item, ...]] | None = None
    now: float = 0.0
    draft: Draft = field(init=False)
    pos: dict[int, list[float]] = field(default_factory=dict)  # tile id -> drawn [x, y, size]
    grab: tuple[float, float] = (0.0, 0.0)  # cursor minus the held tile's top-left, at rack size
    lift: tuple[float, float] = (0.0, -1e9)  # the held tile's size when picked up, and when
    mouse: tuple[int, int] = (0, 0)
    live: Preview | None = None
    breakdown: Breakdown | None = None
    hover_rows: tuple[Square, ...] = ()
    flights: list[Flight] = field(default_factory=list)
    pending: Move | None = None  # the bot's move while its tiles fly
    thinking_since: float | None = None
    pegs: list[Pegs] = field(default_factory=list)
    flips: dict[int, FlipAnim] = field(default_factory=dict)
    exchanging: bool = False
    cursor: Square = CENTRE
    keyboard: bool = False  # show the board cursor and the selected rack tile
    help: bool = False  # the side panel shows how to play
    selected: int = 0  # index into the rack order for keyboard play
    toasts: list[Toast] = field(default_factory=list)
    ended: bool = False  # the end-of-game scene has been shown
    racks_counted: bool = False  # the end: the pegs stand at the final scores
    rng: random.Random = field(default_factory=random.Random)
    view: TableView = field(default_factory=TableView)  # drawing's own memory of the last frame
    _may_pass: tuple[GameState, bool] | None = None  # `state.may_pass()`, asked once per position
    coach: TableCoach = field(default_factory=TableCoach)  # the hint, the best plays, the advice
    _stuck: tuple[GameState, bool] | None = None  # the person to move has no play, asked once per position
    _tiles_out: tuple[GameState, int, tuple[TilesOut, ...]] | None = None
    notes: dict[int, Private[str]] = field(default_factory=dict)  # the coach's notes held for their seat
    _hand_cursor: bool | None = None
    _save_errors: int = 0
    peg_totals: bool = False  # a match: the peg board shows the match totals (a click on it switches)
    _told_calls: tuple[int, int] = (0, 0)  # the Joker calls told so far: (rounds finished, calls in the round)

    def __post_init__(self) -> None:
        self.viewer = self._person_to_show()
        if self.hot_seat and self.mine_to_move:
            self.curtain = self.viewer  # the first person's rack waits for them, too
        self.draft = Draft.deal(self.state.racks[self.human])
        self._set_pegs()
        self._snap_rack()
        self._explain_last()
        self._told_calls = (len(self.session.match.finished), len(self.state.calls))  # a resumed game's are old
        if self.notice:
            self.toast(self.notice, 6.0)

    def _set_pegs(self) -> None:
        """The pegs where the game stands (the back peg: each player's score before their last scoring)."""
        self.pegs = [Pegs() for _ in range(self.state.players)]
        for peg, (score, previous) in zip(self.pegs, peg_marks(self.state), strict=True):
            peg.set(score, previous)

    def _explain_last(self) -> None:
        """The breakdown of the last play of the round (a resumed game, a play taken back), or none."""
        plays = [r for r in self.session.history if r.score is not None]
        last = plays[-1] if plays else None
        self.breakdown = None
        if last is not None and last.score is not None:
            self.breakdown = Breakdown(last.player, last.score, number=last.number, seen=self.session.seen(last))

    # --- helpers ---

    def name_of(self, seat: int) -> str:
        """ "You" for the only person at a table of bots, else the seat's name."""
        return "You" if seat == self.you else self.state.names[seat]

    @property
    def you(self) -> int | None:
        """The seat called "You": the only person at a table of bots (None with several people, or none)."""
        people = self.session.mine
        return people[0] if len(people) == 1 else None

    def draw_words(self) -> str:
        """Who starts and why: each player's tile of the draw for the start."""
        return draw_words(self.state, self.name_of)

    @property
    def state(self) -> GameState:
        """The round in play, as the table holds it."""
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
        people = self.session.mine
        return people[0] if people else 0

    @property
    def layout(self) -> Layout:
        return self.app.layout

    @property
    def pace(self) -> float:
        return self.app.prefs.pace

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
        """Something is on its way (a bot's tiles flying) and input to the board waits."""
        return bool(self.flights) or self.pending is not None

    def toast(self, text: str, seconds: float = TOAST, seat: int | None = None) -> None:
        """A message for everyone, or for `seat`'s eyes only."""
        self.toasts.append(Toast(text, self.now + seconds, seat))

    def _show_notes(self) -> None:
        """A coach's note held for a seat is shown once that seat's rack is uncovered."""
        seat = self.uncovered
        if seat is None or seat not in self.notes:
            return
        note = reveal(self.notes.pop(seat), seat)
        if note is not None:
            self.toast(note, NOTE, seat)

    def _anim(self, seconds: float) -> float:
        return seconds * self.pace

    def tile_rect_for(self, tile_id: int) -> tuple[int, int, int, int] | None:
        """Where a tile of the player's draft should rest now (rack slot or square)."""
        sq = self.draft.square_of(tile_id)
        if sq is not None:
            return self.layout.tile_rect(sq)
        order = self.draft.order
        if tile_id not in order:
            return None
        i = order.index(tile_id)
        gap = self.rack_gap_at()
        if gap is not None and i >= gap:
            i += 1
        return self.layout.slot_rect(min(i, 4))

    def rack_gap_at(self) -> int | None:
        """While a tile is held over the rack, the slot that opens for it."""
        if self.draft.held is None:
            return None
        slot = self.layout.rack_slot_at(self.held_centre())
        if slot is None:
            return None
        return min(slot, len(self.draft.order))

    def held_centre(self) -> Point:
        size = self.layout.rack_tile
        return self.mouse[0] - self.grab[0] + size / 2, self.mouse[1] - self.grab[1] + size / 2

    def _snap_rack(self) -> None:
        for i in range(len(self.draft.tiles)):
            r = self.tile_rect_for(i)
            if r is not None:
                self.pos[i] = [float(r[0]), float(r[1]), float(r[2])]

    def relayout(self) -> None:
        self._snap_rack()

    def tile_at(self, point: Point) -> tuple[str, int] | None:
        """The player's tile under a point: ('rack', slot) or ('board', id)."""
        sq = self.layout.square_at(point)
        if sq is not None and sq in self.draft.placed:
            return "board", self.draft.placed[sq]
        for slot, tid in enumerate(self.draft.order):
            r = self.tile_rect_for(tid)
            if r is not None and contains(r, point):
                return "rack", slot
        return None

    # --- the live preview ---

    def refresh_preview(self) -> None:
        play = self.draft.proposal()
        self.live = preview(self.state.board, play) if play is not None else None

    def can_play(self) -> bool:
        return self.my_turn and self.live is not None and self.live.is_legal and self.draft.held is None

    def may_pass_now(self) -> bool:
        """`state.may_pass()`, asked once per position (it searches for a legal play)."""
        if self._may_pass is not None and self._may_pass[0] is self.state:
            return self._may_pass[1]
        answer = self.state.may_pass()
        self._may_pass = (self.state, answer)
        return answer

    def can_pass(self) -> bool:
        return self.my_turn and self.may_pass_now()

    def can_exchange(self) -> bool:
        return self.can_pass() and self.state.bag_size(self.human) > 0

    def exchange_ready(self) -> bool:
        n = len(self.draft.marked)
        return self.exchanging and 1 <= n <= min(5, self.state.bag_size(self.human))

    # --- input ---

    def shutdown(self) -> None:
        """The coach's worker ends with the table it evaluates for."""
        self.coach.worker.close()

    def handle(self, event: pygame.event.Event) -> None:
        if self.curtain is not None and self._at_curtain(event):
            return
        if self.confirming is not None and self._at_confirm(event):
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self._hover()
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            if event.button == 1:
                self.keyboard = False
                self._press(event.pos)
            elif event.button == 3:  # the wheel arrives as MOUSEWHEEL too: one notch, one flip
                self._flip_at(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            if contains(self.layout.info, self.mouse):  # the turn list scrolls
                self.turn_scroll = max(0, min(len(self.state.turns) - 1, self.turn_scroll - event.y))
            else:
                self._flip_at(self.mouse)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.mouse = event.pos
            self._release()
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
            self._show_notes()
            return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.MOUSEWHEEL)

    def _at_confirm(self, event: pygame.event.Event) -> bool:
        """While "Play ... for 12?" is asked: Enter, Y or the Play button plays; Escape, N or a click
        elsewhere goes back to the turn as it was. True when the event was the question's."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y):
                self.confirm_play()
            elif event.key in (pygame.K_ESCAPE, pygame.K_n):
                self.confirming = None
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == 1 and contains(self._play_rect(), event.pos):
                self.confirm_play()
            else:
                self.confirming = None
            return True
        return event.type in (pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)

    def confirm_play(self) -> None:
        """The play asked about is made."""
        asked, self.confirming = self.confirming, None
        if asked is not None and self.my_turn:
            self.commit(*asked)

    def _play_or_ask(self, play: Play, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> None:
        """Make the play, or first ask "Play f7=5D g7=TL for 12?" when the setting says so (under the
        Joker rule "Play f7=5D g7=TL and declare 10?": what will be declared, never the true score)."""
        if self.app.prefs.confirm_play:
            self.confirming = (play, declared, claimed)
        else:
            self.commit(play, declared, claimed)

    def _question(self) -> str | None:
        if self.confirming is None:
            return None
        play, declared, _ = self.confirming
        if self.state.options.joker:  # what the person declares is all the question may tell
            return f"Play {play} and declare {declared if declared is not None else 'its score'}?"
        points = self.live.score.total if self.live is not None and self.live.score is not None else None
        return f"Play {play} for {points}?" if points is not None else f"Play {play}?"

    def _play_rect(self) -> tuple[int, int, int, int]:
        from .panel import panel_buttons

        return panel_buttons(self.snapshot())[0][0]

    def _hover(self) -> None:
        from .panel import info_rows

        # a hand over what can be picked up or pressed, an arrow elsewhere
        over = self.draft.held is not None or self.tile_at(self.mouse) is not None
        over = over or self.layout.button_at(self.mouse) is not None or self._coach_at(self.mouse) is not None
        if over != self._hand_cursor:
            self._hand_cursor = over
            with contextlib.suppress(pygame.error):
                pygame.mouse.set_cursor(pygame.SYSTEM_CURSOR_HAND if over else pygame.SYSTEM_CURSOR_ARROW)

        rows = info_rows(self.snapshot())
        self.hover_rows = ()
        for row in rows:
            if row.squares and contains(row.rect, self.mouse):
                self.hover_rows = row.squares
                break

    def _press(self, point: Point) -> None:
        if self._coach_press(point):
            return
        if contains(self.layout.pegboard, point) and self.state.options.rounds > 1:
            self.peg_totals = not self.peg_totals  # the match's totals on the pegs, or this round's scores
            return
        turn = self._turn_row_at(point)
        if turn is not None:  # a turn of the list: see it (again: back to the game)
            self.past = None if self.past == turn else turn
            return
        if self.past is not None:
            self.past = None
            if self.layout.square_at(point) is not None:
                return
        if self.may_call() and contains(joker_rect(self.layout), point):
            self.call_joker()
            return
        button = self.layout.button_at(point)
        if button == "play" and self.undo_shown and not contains(self._play_rect(), point):
            from .panel import undo_button

            undo = undo_button(self.snapshot())
            if undo is not None and contains(undo[0], point):
                self.take_back()
            return
        if self.declaring is not None and button is None:
            self._point_at(self.layout.square_at(point))
            return
        if button is not None:
            self.press_button(button)
            return
        hit = self.tile_at(point)
        if hit is None:
            return
        kind, where = hit
        if self.exchanging:
            if kind == "rack":
                self.draft.toggle_mark(self.draft.order[where])
                self.app.sounds.click()
            return
        if kind == "rack":
            tid = self.draft.pick_from_rack(where)
        else:
            square = self.draft.square_of(where)
            tid = self.draft.pick_from_board(square) if square is not None else None
        if tid is None:
            return
        self._tile_moved()
        p = self.pos.get(tid, [float(point[0]), float(point[1]), float(self.layout.rack_tile)])
        # held tiles are drawn at rack size: keep the same spot of the tile under the cursor
        ratio = self.layout.rack_tile / max(1.0, p[2])
        self.grab = ((point[0] - p[0]) * ratio, (point[1] - p[1]) * ratio)
        self.lift = (p[2], self.now)
        self.refresh_preview()

    def _release(self) -> None:
        if self.draft.held is None:
            return
        centre_pt = self.held_centre()
        slot = self.layout.rack_slot_at(centre_pt)
        tid = self.draft.held
        if slot is not None:
            result = self.draft.drop_on_rack(min(slot, len(self.draft.order)))
        elif self.my_turn and not self.exchanging:
            result = self.draft.drop_on_square(self.state.board, self.layout.nearest_square(centre_pt))
        else:
            result = self.draft.cancel()
        if result is not Drop.RETURNED:
            self.app.sounds.click()
        elif self.layout.square_at(centre_pt) is not None and not self.my_turn:
            self.toast("Wait for your turn to lay tiles.")
        # the tile eases from where it was let go to where it rests
        lifted = 1.08  # as drawn while held (see table._draw_held)
        self.pos[tid] = [
            self.mouse[0] - self.grab[0] * lifted,
            self.mouse[1] - self.grab[1] * lifted,
            self.layout.rack_tile * lifted,
        ]
        self.refresh_preview()

    def _flip_at(self, point: Point) -> None:
        hit = self.tile_at(point)
        if hit is None:
            return
        kind, where = hit
        tid = self.draft.order[where] if kind == "rack" else where
        self.flip(tid)

    def flip(self, tid: int) -> None:
        before = self.draft.face(tid)
        if self.draft.flip(tid):
            self._tile_moved()
            self.flips[tid] = FlipAnim(before, self.now)
            self.refresh_preview()

    def _key(self, event: pygame.event.Event) -> None:
        k, mods = event.key, event.mod
        if self.past is not None and k == pygame.K_ESCAPE:
            self.past = None
            return
        if self.declaring is not None and self._declaring_key(event):
            return
        if self._coach_key(event):
            return
        if k == pygame.K_j and self.may_call():
            self.call_joker()
            return
        if k == pygame.K_u or (k == pygame.K_z and mods & pygame.KMOD_CTRL):
            self.take_back()
            return
        if k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            if mods & pygame.KMOD_CTRL and k in (pygame.K_LEFT, pygame.K_RIGHT):
                ids = self.draft.order
                if ids:
                    tid = ids[min(self.selected, len(ids) - 1)]
                    self.draft.move_in_rack(tid, -1 if k == pygame.K_LEFT else 1)
                    self.selected = self.draft.order.index(tid)
                self.keyboard = True
                return
            dr, dc = {pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1), pygame.K_UP: (-1, 0), pygame.K_DOWN: (1, 0)}[k]
            if self.keyboard:
                self.cursor = Square(
                    min(SIZE - 1, max(0, self.cursor.row + dr)), min(SIZE - 1, max(0, self.cursor.col + dc))
                )
            self.keyboard = True
        elif k == pygame.K_TAB:
            n = len(self.draft.order)
            if n:
                self.selected = (self.selected + (-1 if mods & pygame.KMOD_SHIFT else 1)) % n
            self.keyboard = True
        elif pygame.K_1 <= k <= pygame.K_5:
            i = k - pygame.K_1
            if self.exchanging:
                if i < len(self.draft.order):
                    self.draft.toggle_mark(self.draft.order[i])
            elif i < len(self.draft.order):
                self.selected = i
                self.keyboard = True
        elif k == pygame.K_SPACE:
            self.keyboard = True
            self._space()
        elif k == pygame.K_f:
            self._flip_key()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.press_button("play")
        elif k in (pygame.K_BACKSPACE, pygame.K_r):
            self.press_button("recall")
        elif k == pygame.K_s:
            self.press_button("shuffle")
        elif k == pygame.K_p:
            self.press_button("pass")
        elif k == pygame.K_x:
            self.press_button("exchange")
        elif k in (pygame.K_h, pygame.K_F1):
            self.help = not self.help
        elif k == pygame.K_n and (self.state.is_over or mods & pygame.KMOD_CTRL):
            self.app.new_game()
        elif k == pygame.K_ESCAPE:
            if self.draft.held is not None:
                self.draft.cancel()
                self.refresh_preview()
            elif self.exchanging:
                self.exchanging = False
                self.draft.marked.clear()
            self.keyboard = False

    def _space(self) -> None:
        """Space: lay the selected rack tile on the cursor square, or lift back the one there."""
        if self.cursor in self.draft.placed:
            self.draft.take_back(self.cursor)
            self._tile_moved()
            self.refresh_preview()
            return
        ids = self.draft.order
        if not ids or not self.my_turn or self.exchanging:
            return
        tid = ids[min(self.selected, len(ids) - 1)]
        if self.draft.place(tid, self.state.board, self.cursor):
            self._tile_moved()
            self.app.sounds.click()
            self.selected = min(self.selected, max(0, len(self.draft.order) - 1))
            self.refresh_preview()

    def _flip_key(self) -> None:
        hit = None if self.keyboard else self.tile_at(self.mouse)
        if hit is not None:
            self._flip_at(self.mouse)
        elif self.keyboard and self.cursor in self.draft.placed:
            self.flip(self.draft.placed[self.cursor])
        elif self.draft.order:
            self.flip(self.draft.order[min(self.selected, len(self.draft.order) - 1)])

    # --- the Joker rule ---

    def may_call(self) -> bool:
        """The person shown may call "Joker" on the last play (another player's, before anyone acts)."""
        return self.curtain is None and not self.busy and self.session.may_call(self.human)

    def call_joker(self) -> None:
        self.session.call_joker(self.human)
        self._tell_calls()
        self._see_again()
        self.app.sounds.click()
        self.session.save()

    def _tell_calls(self, wait: float = 0.0) -> None:
        """Tell every Joker call the table has recorded since the last told, whoever made it (a bot's as
        its play lands, a person's): who called, on whose play, how many points; and move the pegs of
        the points it moved. From the table's records, so that no call goes by unseen."""
        finished, told = self._told_calls
        if finished != len(self.session.match.finished):  # a new round: its calls are all new
            told = 0
        calls = self.state.calls
        told = min(told, len(calls))  # a turn taken back takes its calls with it
        names = tuple(self.name_of(p) for p in range(self.state.players))
        for before, call in calls[told:]:
            player = self.state.turns[before - 1].player if before else call.caller
            self.toast(call_words(call, player, names), 5.0)
            if call.points > 0:
                self.pegs[call.caller].score(call.points, wait=wait)
            else:
                self.pegs[call.caller].deduct(-call.points)
            if call.taken:
                self.pegs[player].deduct(call.taken)
        self._told_calls = (len(self.session.match.finished), len(calls))

    def _see_again(self) -> None:
        """The breakdown shown follows what the table lets be seen of it: once its play's call window
        closes, the true breakdown is read out afresh."""
        b = self.breakdown
        history = self.session.history
        if b is None or b.number is None or not 0 <= b.number < len(history):
            return
        seen = self.session.seen(history[b.number])
        if b.seen is None or seen is None:
            return
        if (seen.hidden, len(seen.calls)) != (b.seen.hidden, len(b.seen.calls)):
            reread = b.seen.hidden and not seen.hidden
            self.breakdown = replace(b, seen=seen, shown_at=self.now if reread else b.shown_at)

    def _point_at(self, square: Square | None) -> None:
        """A click while counting: the square joins (or leaves) the tiles pointed at; when they make a
        fifteen, a pair, a run or a bonus of the play, it is claimed."""
        if self.declaring is None or square is None:
            return
        if self.state.board[square] is None and square not in self.draft.placed:
            return
        self.pointed ^= {square}
        self.declaring, item = self.declaring.point_at(frozenset(self.pointed))
        if item is not None:
            self.pointed = set()
            self.typed = ""
            self.app.sounds.click()

    def _declaring_key(self, event: pygame.event.Event) -> bool:
        k = event.key
        if pygame.K_0 <= k <= pygame.K_9 or pygame.K_KP0 <= k <= pygame.K_KP9:
            digit = k - pygame.K_0 if k <= pygame.K_9 else k - pygame.K_KP0
            self.typed = (self.typed + str(digit))[-3:].lstrip("0") or "0"
            return True
        if k == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
            return True
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._declare()
            return True
        if k == pygame.K_ESCAPE:
            self.declaring, self.pointed, self.typed = None, set(), ""
            return True
        return False

    def _declare(self) -> None:
        d = self.declaring
        play = self.draft.proposal()
        if d is None or play is None:
            return
        declared = int(self.typed) if self.typed else d.points
        why = d.check(declared)
        if why:
            self.toast(why)
            return
        self._play_or_ask(play, declared, () if self.typed else d.found)

    def press_button(self, name: str) -> None:
        if name == "play":
            if self.exchanging:
                if self.exchange_ready():
                    move = self.draft.exchange()
                    assert move is not None
                    self.exchanging = False
                    self.commit(move)
            elif self.declaring is not None:
                self._declare()
            elif self.can_play():
                play = self.draft.proposal()
                assert play is not None
                if self.state.options.joker:  # the person counts it: never played for its true score unasked
                    score = self.live.score if self.live is not None else None
                    score = score if score is not None else score_play(self.state.board, play)
                    self.declaring, self.pointed, self.typed = Declaration(score), set(), ""
                    return
                self._play_or_ask(play)
            elif self.live is not None and not self.live.is_legal and self.my_turn:
                self.toast(self.live.reason)
        elif name == "pass":
            if self.exchanging:
                self.exchanging = False
                self.draft.marked.clear()
            elif self.can_pass():
                self.draft.recall()
                self.commit(Pass())
            elif self.my_turn:
                self.toast("You have a legal play, so you may not pass.")
        elif name == "exchange":
            if self.exchanging:
                self.exchanging = False
                self.draft.marked.clear()
            elif self.can_exchange():
                self.draft.recall()
                self.refresh_preview()
                self.exchanging = True
            elif self.my_turn and self.can_pass():
                self.toast("The bag is empty: there is nothing to exchange with.")
            elif self.my_turn:
                self.toast("You have a legal play, so you may not exchange.")
        elif name == "recall":
            if self.draft.placed or self.draft.held is not None:
                self._tile_moved()
                self.draft.recall()
                self.refresh_preview()
        elif name == "shuffle":
            self._tile_moved()
            self.draft.shuffle(self.rng)

    # --- the coach ---

    @property
    def coach_open(self) -> bool:
        """The coach shows something that Escape puts away: the hint, the advice, the best plays."""
        return self.coach.showing

    def _view(self) -> PlayerView:
        return self.session.view(self.human)

    def stuck(self) -> bool:
        """The person shown has no legal play (asked once per position)."""
        if self._stuck is None or self._stuck[0] is not self.state:
            self._stuck = (self.state, not self.state.legal_plays())
        return self._stuck[1]

    def _coach_refusal(self) -> str:
        """Why the coach may not help now ("" when it may)."""
        if not self.session.mine:
            return "The coach helps the people at the table; here only bots play."
        if not self.my_turn:
            return "The coach helps on your turn."
        return self.coach.refusal(self.session, self.app.prefs.hints, self.app.prefs.hint_limit)

    def _counted(self, before: int) -> None:
        """A hint was counted: the game keeps the mark at once (it is saved with the game)."""
        if self.session.hints != before:
            self._saved()
            limit = self.app.prefs.hint_limit
            if limit:
                self.toast(f"Hint {self.session.hints} of the {limit} this game allows.")

    def ask_hint(self) -> None:
        """The hint (I, ?, the Hint button): the Hard bot's play ghosted on the board and explained in
        the panel; with no play, or with the exchange open, which tiles to throw back. Asked again, it
        is put away."""
        if self.coach.hint is not None or self.coach.advice is not None:
            self.coach.dismiss()
            return
        why = self._coach_refusal()
        if why:
            self.toast(why)
            return
        before = self.session.hints
        if self.exchanging:
            if self.coach.ask_advice(self.session, self._view()) is None:
                self.toast("The coach has no exchange to advise here.")
        else:
            if self.draft.placed or self.draft.held is not None:  # the ghost needs a clear board
                self.draft.recall()
                self.refresh_preview()
            found = self.coach.ask_hint(self.session, self._view())
            if found is None:
                self.toast("You have no play and the bag is empty: you can only pass.")
        self._counted(before)

    def toggle_candidates(self) -> None:
        """The best plays (B, the Plays button): the top plays for the rack, the Expert evaluating them
        in the background; opening it counts as a hint. Again: closed."""
        if self.coach.candidates is not None:
            self.coach.close_candidates()
            return
        why = self._coach_refusal()
        if why:
            self.toast(why)
            return
        before = self.session.hints
        self.coach.dismiss()
        self.coach.open_candidates(self.session, self._view(), seed=len(self.state.turns))
        self._counted(before)

    def toggle_tiles_out(self) -> None:
        """The tiles still out (T, the Tiles button): shown or hidden, and the setting kept."""
        prefs = self.app.prefs
        prefs.tiles_out = not prefs.tiles_out
        self.app.keeper.save_preferences(prefs)

    def lay(self, play: Play) -> None:
        """Lay `play`'s tiles from the rack on their squares, as the player would, to be played or moved."""
        self.draft.recall()
        for p in play.placements:
            tid = next((i for i in self.draft.order if self.draft.tiles[i] == p.tile.rack_form), None)
            if tid is None or not self.draft.place(tid, self.state.board, p.square):
                continue
            if self.draft.face(tid) != p.tile:
                self.draft.flip(tid)
        self.refresh_preview()
        self.app.sounds.click()

    def mark(self, tiles: Sequence[Tile]) -> None:
        """Open the exchange (when it may be made) with `tiles` chosen to throw back."""
        if not self.exchanging:
            if not self.can_exchange():
                self.toast("You may not exchange now.")
                return
            self.draft.recall()
            self.refresh_preview()
            self.exchanging = True
        self.draft.marked.clear()
        for t in tiles:
            tid = next(
                (i for i in self.draft.order if self.draft.tiles[i] == t.rack_form and i not in self.draft.marked), None
            )
            if tid is not None:
                self.draft.toggle_mark(tid)
        self.app.sounds.click()

    def lay_hint(self) -> None:
        """The hint becomes a real placement on the board (or the exchange it advises, marked)."""
        s = self.coach.hint
        if s is None or not self.my_turn:
            return
        self.coach.dismiss()
        if isinstance(s.move, Play):
            self.lay(s.move)
        elif isinstance(s.move, Exchange):
            self.mark(s.move.tiles)

    def choose_candidate(self, index: int) -> None:
        """A candidate clicked: laid on the board as a preview (the panel stays open)."""
        found = self.coach.candidates
        if found is None or not 0 <= index < len(found) or not self.my_turn:
            return
        move = found[index].move
        if isinstance(move, Play):
            self.exchanging = False
            self.draft.marked.clear()
            self.lay(move)
        elif isinstance(move, Exchange):
            self.mark(move.tiles)
        self.coach.chosen = index

    def _tile_moved(self) -> None:
        """A tile moved by hand: the hint is put away, and no candidate is laid any more."""
        self.coach.hint = None
        self.coach.chosen = None

    def _coach_key(self, event: pygame.event.Event) -> bool:
        """The coach's keys: I or ? the hint, B the best plays, T the tiles still out; Enter lays the
        hint shown, Escape puts away what the coach shows. True when the key was the coach's."""
        k = event.key
        if k == pygame.K_i or getattr(event, "unicode", "") == "?":
            self.ask_hint()
        elif k == pygame.K_b:
            self.toggle_candidates()
        elif k == pygame.K_t:
            self.toggle_tiles_out()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.coach.hint is not None:
            self.lay_hint()
        elif k == pygame.K_ESCAPE and self.coach.showing and self.draft.held is None:
            if self.coach.hint is not None or self.coach.advice is not None:
                self.coach.dismiss()
            else:
                self.coach.close_candidates()
        else:
            return False
        return True

    def _coach_at(self, point: Point) -> tuple[str, int] | None:
        from .coach_panel import ghost_squares, hit
        from .panel import coach_rects

        snap = self.snapshot()
        found = hit(coach_rects(snap), point)
        if found is None and any(r.collidepoint(point) for r in ghost_squares(snap)):
            return "ghost", 0
        return found

    def _coach_press(self, point: Point) -> bool:
        """A click on the coach's buttons, the advice's button, a candidate or the hint's ghost."""
        found = self._coach_at(point)
        if found is None:
            return False
        kind, i = found
        if kind == "button":
            (self.ask_hint, self.toggle_candidates, self.toggle_tiles_out)[i]()
        elif kind == "mark" and self.coach.advice is not None and self.my_turn:
            self.mark(self.coach.advice.throw)
        elif kind == "candidate":
            self.choose_candidate(i)
        elif kind == "ghost":
            self.lay_hint()
        return True

    def _note(self, move: Move) -> str:
        """The coach's note on the person's play (the setting on): the best play, when it scored more."""
        if not self.app.prefs.coach_notes or not isinstance(move, Play):
            return ""
        if self.state.options.joker:  # "(you scored 12)" would tell the score while the play may be called
            return ""
        try:
            return after_play_note(self.state.board, self.state.racks[self.state.current], move)
        except IllegalMove:  # the table refuses it a moment later, in its own words
            return ""

    def _coach_view(self) -> CoachView | None:
        """What the coach shows this frame (None at a table of bots only)."""
        if not self.session.mine:
            return None
        prefs = self.app.prefs
        uncovered = self.uncovered
        out = None
        if prefs.tiles_out and uncovered is not None:  # unseen tiles: the uncovered rack's, no other
            out = reveal(Private(self.human, self._tiles_out_of(self.human)), uncovered)
        c = self.coach
        # the hint, the advice and the best plays are for the rack they were asked for, and for no other eyes
        asked = None if c.seat is None else Private(c.seat, c)
        mine = reveal(asked, uncovered)
        found = None if mine is None or mine.candidates is None else tuple(mine.candidates)
        return CoachView(
            may_ask=self._coach_refusal() == "",
            hints_on=prefs.hints,
            stuck=self.my_turn and self.stuck(),
            hint=None if mine is None else mine.hint,
            advice=None if mine is None else mine.advice,
            candidates=found,
            chosen=None if mine is None else mine.chosen,
            progress=None if mine is None else mine.progress(),
            expert_ran=mine is not None and mine.expert_ran,
            failure="" if mine is None else mine.failure,
            tiles_out=out,
            hints_used=self.session.hints,
            hint_limit=prefs.hint_limit,
        )

    def _tiles_out_of(self, seat: int) -> tuple[TilesOut, ...]:
        """The tiles still out as `seat` sees them (its own rack taken away), worked out once per position."""
        cached = self._tiles_out
        if cached is None or cached[0] is not self.state or cached[1] != seat:
            cached = self._tiles_out = (self.state, seat, tiles_out(self.session.view(seat)))
        return cached[2]

    # --- taking back ---

    @property
    def undo_shown(self) -> bool:
        """The Undo button shows when the setting allows it and a bot sits at the table."""
        return self.app.prefs.undo and any(s.is_bot for s in self.session.seats)

    def can_undo(self) -> bool:
        return self.undo_shown and self.curtain is None and self.session.can_undo(self.human)

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
        on_its_way = self.state.current if self.pending is not None else None
        self.coach.clear()
        self.notes.pop(self.human, None)  # a note on a play taken back
        self.thinking_since, self.pending, self.flights = None, None, []
        self.session.undo(self.human)  # a bot thinking about a reply that will never be made stops
        whose = "your" if self.name_of(self.human) == "You" else f"{self.state.names[self.human]}'s"
        also = None if on_its_way is None else self.state.names[on_its_way]
        self.toast(took_back_words(taken, whose, self.state.names, also))
        self.past, self.declaring, self.pointed, self.typed, self.confirming = None, None, set(), "", None
        self.exchanging, self.curtain, self.ended, self.racks_counted = False, None, False, False
        self.viewer = self._person_to_show(self.viewer)
        self.draft = Draft.deal(self.state.racks[self.human])
        self.selected = 0
        self.pos = {}
        self._snap_rack()
        self._set_pegs()
        self._explain_last()
        self.refresh_preview()
        self._saved()
        self.app.sounds.click()

    def _saved(self) -> None:
        """Save the table; a save that failed (a full disk, a folder gone read-only) is told."""
        self.session.save()
        errors = getattr(self.app.keeper, "errors", None)
        if errors and len(errors) != self._save_errors:
            self._save_errors = len(errors)
            # the keeper's latest trouble: the save's own, or another (the history could not take the game)
            unsaved = getattr(self.app.keeper, "unsaved", None)
            self.toast(f"The game could not be saved ({unsaved})." if unsaved else _sentence(errors[-1]), 6.0)
        self.app.caption(self.state)

    # --- turns ---

    def commit(self, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> None:
        """Make a move at the table: the player's, or the bot's once its tiles have landed."""
        mover = self.state.current
        keep = [self.draft.tiles[i] for i in self.draft.order] if mover == self.human else None
        theirs = mover not in self.session.mine  # a bot's (or a player's elsewhere), announced by poll
        note = "" if theirs else self._note(move)
        self.coach.clear()  # the position is gone
        record = self.session.land() if theirs else self.session.act(mover, move, declared, claimed)
        self.declaring = None
        self._tell(record)
        viewer, self.viewer = self.viewer, self._person_to_show(self.viewer)
        passing = self.hot_seat and self.session.seats[mover].is_person
        if passing and hands_over(self.session.seats, mover, self.session.to_move):
            # the racks are covered at once, even while bots move before the next person's turn
            following = next_person(self.session.seats, self.state.current)
            self.viewer = self.viewer if following is None else following
        if note:  # the mover's to read, at once or when their rack is next uncovered
            later = self.viewer != mover
            self.notes[mover] = Private(mover, f"Coach, on your last play: {note}." if later else f"Coach: {note}.")
        if self.viewer != viewer:  # the next person at the table takes their rack, once the others look away
            keep = None
            self.curtain = self.viewer if self.hot_seat else None
        if mover == viewer or self.viewer != viewer:  # a bot's move leaves the person's rack (and tile in hand)
            self.draft = Draft.deal(self.state.racks[self.human])
            self._arrange(keep)
            self.selected = 0
            self.exchanging = False
        self.refresh_preview()
        self._show_notes()
        self._saved()

    def _tell(self, record: TurnRecord) -> None:
        """Show what a turn did: a play's breakdown and its pegs, a pass or an exchange in words."""
        mover = record.player
        who = self.name_of(mover)
        self.past = None  # the game moved on: show it as it is
        if record.score is not None:
            seen = self.session.seen(record)
            self.breakdown = Breakdown(mover, record.score, self.now, record.number, seen)
            self.help = False  # the new breakdown is what the panel shows now
            from .breakdown import breakdown_rows

            # the pegs move by the points declared once the breakdown has been read out, line by line
            rows = 3 if seen is not None and seen.hidden else breakdown_rows(record.score)
            self.pegs[mover].score(record.declared, wait=self._anim(ROW_REVEAL) * rows)
            self._tell_calls(wait=self._anim(ROW_REVEAL) * (rows + 2))  # the bots' calls on it
            self.app.sounds.click()
        elif isinstance(record.turn.move, Exchange):
            n = record.turn.drawn
            self.toast(f"{who} exchanged {n} tile{'s' if n != 1 else ''}.")
        else:
            self.toast(f"{who} passed.")

    def _arrange(self, keep: list[Tile] | None) -> None:
        """Arrange the new rack: kept tiles where the player had them, new ones slide in from the right."""
        tiles = self.draft.tiles
        used: set[int] = set()
        order: list[int] = []
        for t in keep or []:
            for i, u in enumerate(tiles):
                if i not in used and u == t:
                    used.add(i)
                    order.append(i)
                    break
        order += [i for i in range(len(tiles)) if i not in used]
        self.draft.order = order
        self.pos = {}
        rx, _, rw, _ = self.layout.rack
        for i in range(len(tiles)):
            r = self.tile_rect_for(i)
            if r is None:
                continue
            if i in used:
                self.pos[i] = [float(r[0]), float(r[1]), float(r[2])]
            else:  # a new tile from the bag slides in from the rack's right end
                self.pos[i] = [float(rx + rw), float(r[1]), float(r[2])]

    def start_bot_move(self, move: Move) -> None:
        mover = self.state.current
        if isinstance(move, Play) and self.pace > 0:
            from .panel import opponent_tiles

            starts = [centre(r) for r in opponent_tiles(self.snapshot(), mover)][-len(move.placements) :]
            for k, p in enumerate(move.placements):
                start = starts[k % len(starts)] if starts else centre(self.layout.opponents)
                self.flights.append(
                    Flight(p.tile, start, p.square, self.now + k * self._anim(FLY_STAGGER), self._anim(FLY))
                )
            self.pending = move
        else:
            self.commit(move)

    # --- time ---

    def update(self, dt: float) -> None:
        self.now += dt
        self.coach.poll()
        self.toasts = [t for t in self.toasts if t.until > self.now]
        # tiles of the draft ease towards where they rest
        k = glide_share(dt, self.pace)
        for tid in range(len(self.draft.tiles)):
            if tid == self.draft.held:
                continue
            r = self.tile_rect_for(tid)
            if r is None:
                continue
            p = self.pos.setdefault(tid, [float(r[0]), float(r[1]), float(r[2])])
            for j in range(3):
                p[j] += (r[j] - p[j]) * k
                if abs(r[j] - p[j]) < 0.3:
                    p[j] = float(r[j])
        for tid, f in list(self.flips.items()):
            if self.now - f.t0 >= self._anim(FLIP):
                del self.flips[tid]
        for peg in self.pegs:
            peg.advance(dt, self._anim(PEG))
        if self.flights:
            if all(self.now >= f.t0 + f.duration for f in self.flights):
                self.flights = []
                move, self.pending = self.pending, None
                if move is not None:
                    self.commit(move)
            return
        self._drive_bots()
        self._tell_calls()
        self._see_again()
        if self.state.is_over and not self.ended and not any(p.moving for p in self.pegs):
            self.ended = True
            self.app.show_end(self)

    def _drive_bots(self) -> None:
        """The others' turn (a bot's here): the session thinks; its move is taken once the bot has
        seemed to think for a moment, and flies in (what went wrong on the way: the app tells)."""
        if not self.others_to_move:
            self.thinking_since = None
            return
        if self.thinking_since is None:
            self.thinking_since = self.now
            self.session.poll()
            return
        if self.now - self.thinking_since < self._anim(BOT_MIN_PAUSE):
            return
        move = self.session.poll()
        if move is None:
            if not self.session.thinking:  # the request was dropped (a cancelled move): ask again
                self.thinking_since = None
            return
        self.thinking_since = None
        self.start_bot_move(move)

    def count_racks(self) -> None:
        """The end of the round, once the racks are counted off: each front peg goes back by what was
        left on its rack, to the final score (its other peg marks the score before)."""
        outcome = self.state.outcome
        if outcome is None or self.racks_counted:
            return
        self.racks_counted = True
        for peg, left in zip(self.pegs, outcome.deductions, strict=True):
            peg.deduct(left)

    @property
    def thinking(self) -> bool:
        return self.thinking_since is not None

    def rows_shown(self) -> int | None:
        """How many rows of the breakdown are shown so far (None: all of them)."""
        b = self.breakdown
        if b is None or self.pace <= 0:
            return None
        return int((self.now - b.shown_at) / self._anim(ROW_REVEAL)) + 1

    def snapshot(self) -> TableSnapshot:
        """The table at this moment, for drawing: copies and frozen values only. Under the curtain it
        holds no rack and no message for one seat's eyes (`cribtiles.table.privacy`)."""
        d = self.draft if self.curtain is None else Draft.deal(())
        uncovered = self.uncovered
        return TableSnapshot(
            layout=self.layout,
            now=self.now,
            pace=self.pace,
            mouse=self.mouse,
            state=self.state,
            seats=self.session.seats,
            human=self.human,
            my_turn=self.my_turn,
            busy=self.busy,
            thinking=self.thinking,
            draft=DraftView(
                d.tiles, tuple(d.order), Frozen(dict(d.placed)), Frozen(dict(d.faces)), d.held, frozenset(d.marked)
            ),
            pos=Frozen({tid: (p[0], p[1], p[2]) for tid, p in self.pos.items() if tid < len(d.tiles)}),
            rest=Frozen({tid: r for tid in range(len(d.tiles)) if (r := self.tile_rect_for(tid)) is not None}),
            grab=self.grab,
            lift=self.lift,
            held_centre=self.held_centre(),
            live=self.live if self.curtain is None else None,
            breakdown=self.breakdown,
            rows_shown=self.rows_shown(),
            hover_rows=self.hover_rows,
            flights=tuple(self.flights),
            flips=Frozen(dict(self.flips)),
            pegs=tuple(PegView(p.back, p.shown_score, p.moving, p.wait > 0) for p in self.pegs),
            exchanging=self.exchanging,
            keyboard=self.keyboard,
            cursor=self.cursor,
            selected=self.selected,
            help=self.help,
            toasts=tuple(t.text for t in self.toasts if visible(t.seat, uncovered)),
            buttons=Buttons(
                self.can_play(), self.can_pass(), self.can_exchange(), self.exchange_ready(), self.may_pass_now()
            ),
            next_level=self.app.prefs.level,
            next_is_round=(self.state.is_over and not self.session.match.is_over),
            curtain=None if self.curtain is None else self.state.names[self.curtain],
            declaring=self._declaring_view(),
            may_call=self.may_call(),
            hide_scores=self.state.options.joker and self.mine_to_move,
            match=self.session.match,
            racks_counted=self.racks_counted,
            past=self._past_view(),
            turn_scroll=self.turn_scroll,
            undo_shown=self.undo_shown,
            can_undo=self.can_undo(),
            confirming=self._question(),
            coach=self._coach_view(),
            peg_totals=self.peg_totals,
            opening=self.draw_words() if len(self.state.turns) < self.state.players else "",
            you=self.you,
        )

    def _turn_row_at(self, point: Point) -> int | None:
        from .panel import info_rows

        if not contains(self.layout.info, point):
            return None
        for row in info_rows(self.snapshot()):
            if row.turn is not None and contains(row.rect, point):
                return row.turn
        return None

    def _past_view(self) -> PastTurn | None:
        history = self.session.history
        if self.past is None or not 0 <= self.past < len(history):
            return None
        record = history[self.past]
        move = record.turn.move
        squares = move.squares if isinstance(move, Play) else ()
        words = "passed" if isinstance(move, Pass) else f"exchanged {record.turn.drawn} tiles"
        return PastTurn(
            record.number, record.player, record.board_after, squares, record.score, words, self.session.seen(record)
        )

    def _declaring_view(self) -> DeclaringView | None:
        d = self.declaring
        if d is None:
            return None
        claimed = frozenset(sq for item in d.found for sq in item.squares)
        found = tuple((i.what, i.points) for i in d.found)
        return DeclaringView(found, d.points, self.typed, claimed, frozenset(self.pointed))

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw the table; the rectangles that changed, or None if all of it did."""
        return self.view.draw(surface, self.snapshot(), full)
