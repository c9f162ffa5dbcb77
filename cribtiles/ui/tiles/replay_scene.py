"""A recorded game stepped through on the board: from the racks as dealt, turn by turn, each turn's
breakdown as the game showed it and the scores of that moment on the peg board; every round of a match.

The scene draws with the table's own drawing (a `TableSnapshot` in its replay mode: nothing on it can
be played) and rebuilds each position from the record: the actions replayed from the seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import pygame

from cribtiles.rules.board import CENTRE
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.moves import Pass, Play
from cribtiles.rules.record import apply_text, record_of, replay
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.history import TurnRecord, history_of
from cribtiles.table.tiles.public import PublicState, public_match, public_of
from cribtiles.table.tiles.seen import seen_score
from cribtiles.table.tiles.table import Table

from ..geometry import Layout, Point, contains
from .drag import Draft
from .game_anims import TOAST, Toast, peg_marks
from .game_words import draw_words
from .snapshot import Buttons, DraftView, Frozen, PastTurn, PegView, ReplayView, TableSnapshot
from .table import TableView

#: Turns a PageUp or PageDown steps over.
PAGE = 5
#: The longest turn number that can be typed to jump to.
TYPED_DIGITS = 4


class ReplayHost(Protocol):
    """What the scene needs of the window (its App): where things sit, and the preferences."""

    layout: Layout
    prefs: Preferences


def positions(final: GameState) -> list[GameState]:
    """Every position of a round, one per turn boundary: [k] is the game just before turn k (with the
    Joker calls made on the turns before it), the last one the game as recorded. Rebuilt from the
    record: its actions replayed one by one from the seed."""
    state = replay(record_of(final), 0)
    out = []
    for action in final.log:
        if not action.startswith("joker "):
            out.append(state)
        state = apply_text(state, action)
    resigned = None if final.outcome is None else final.outcome.resigned
    out.append(state if resigned is None else state.resign(resigned))  # given up after its last action
    return out


@dataclass
class ReplayScene:
    host: ReplayHost
    table: Table
    on_close: Callable[[], None]
    on_export: Callable[[Table], str] | None = None
    round: int = 0  # the round shown (0-based)
    at: int = 0  # turns made so far in it (0: the racks as dealt)
    viewer: int = field(init=False)  # the seat whose rack is shown (Tab: the next one)
    typed: str = ""  # a turn number typed to jump to (Enter)
    mouse: tuple[int, int] = (0, 0)
    now: float = 0.0
    toasts: list[Toast] = field(default_factory=list)
    view: TableView = field(default_factory=TableView)
    _positions: dict[int, list[GameState]] = field(default_factory=dict)
    _histories: dict[int, tuple[TurnRecord, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        people = self.table.people
        self.viewer = people[0] if people else 0

    # --- the record ---

    @property
    def rounds(self) -> tuple[GameState, ...]:
        """Every round of the table's match as recorded (a single game is one round)."""
        return (*self.table.match.finished, self.table.match.game)

    def _round_positions(self, r: int) -> list[GameState]:
        if r not in self._positions:
            self._positions[r] = positions(self.rounds[r])
        return self._positions[r]

    def _history(self, r: int) -> tuple[TurnRecord, ...]:
        if r not in self._histories:
            self._histories[r] = history_of(self.rounds[r])
        return self._histories[r]

    @property
    def turns(self) -> int:
        """The number of turns of the round shown."""
        return len(self.rounds[self.round].turns)

    @property
    def state(self) -> GameState:
        """The game at the position shown."""
        return self._round_positions(self.round)[self.at]

    @property
    def at_end(self) -> bool:
        return self.at == self.turns

    # --- moving through it ---

    def go(self, round_index: int, at: int) -> None:
        """Show turn `at` of round `round_index` (both kept within the record)."""
        self.round = max(0, min(len(self.rounds) - 1, round_index))
        self.at = max(0, min(self.turns, at))
        self.typed = ""

    def step(self, n: int) -> None:
        """`n` turns forward (back when negative), across the rounds of a match."""
        r, at = self.round, self.at + n
        while at > len(self.rounds[r].turns) and r < len(self.rounds) - 1:
            at -= len(self.rounds[r].turns) + 1
            r += 1
        while at < 0 and r > 0:
            r -= 1
            at += len(self.rounds[r].turns) + 1
        self.go(r, at)

    def export(self) -> None:
        if self.on_export is None:
            self.toast("This game cannot be exported from here.")
            return
        try:
            self.toast(self.on_export(self.table), 6.0)
        except (OSError, ValueError) as e:
            self.toast(f"The record could not be written: {e}", 6.0)

    def toast(self, text: str, seconds: float = TOAST) -> None:
        self.toasts.append(Toast(text, self.now + seconds))

    # --- input ---

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._press(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            self.step(-event.y)  # the wheel up: back in the game
        elif event.type == pygame.KEYDOWN:
            self._key(event.key)

    def _key(self, k: int) -> None:
        steps = {
            pygame.K_RIGHT: 1,
            pygame.K_SPACE: 1,
            pygame.K_LEFT: -1,
            pygame.K_PAGEDOWN: PAGE,
            pygame.K_PAGEUP: -PAGE,
        }
        if k in steps:
            self.step(steps[k])
        elif k == pygame.K_HOME:
            self.go(self.round, 0)
        elif k == pygame.K_END:
            self.go(self.round, self.turns)
        elif k == pygame.K_RIGHTBRACKET:
            self.go(self.round + 1, 0)
        elif k == pygame.K_LEFTBRACKET:
            self.go(self.round - 1, 0)
        elif k == pygame.K_TAB:
            self.viewer = (self.viewer + 1) % len(self.table.seats)
        elif k == pygame.K_e:
            self.export()
        elif pygame.K_0 <= k <= pygame.K_9 or pygame.K_KP0 <= k <= pygame.K_KP9:
            digit = k - pygame.K_0 if k <= pygame.K_9 else k - pygame.K_KP0
            self.typed = (self.typed + str(digit)).lstrip("0")[:TYPED_DIGITS]
        elif k == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.typed:
            self.go(self.round, int(self.typed))
        elif k == pygame.K_ESCAPE:
            if self.typed:
                self.typed = ""
            else:
                self.on_close()

    def _press(self, point: Point) -> None:
        from .panel import info_rows, rack_buttons, replay_buttons

        snap = self.snapshot()
        actions: dict[str, Callable[[], None]] = {
            "back": lambda: self.step(-1),
            "next": lambda: self.step(1),
            "export": self.export,
            "close": self.on_close,
            "start": lambda: self.go(self.round, 0),
            "end": lambda: self.go(self.round, self.turns),
        }
        for name, rect, _, enabled in (*replay_buttons(snap), *rack_buttons(snap)):
            if contains(rect, point):
                if enabled:
                    actions[name]()
                return
        for row in info_rows(snap):
            if row.turn is not None and contains(row.rect, point):
                self.go(self.round, row.turn + 1)  # the board right after that turn
                return

    # --- time and drawing ---

    def update(self, dt: float) -> None:
        self.now += dt
        self.toasts = [t for t in self.toasts if t.until > self.now]

    @property
    def you(self) -> int | None:
        """The seat called "You" (the only person at a table of bots), whichever rack Tab shows."""
        people = self.table.people
        return people[0] if len(people) == 1 else None

    def name_of(self, seat: int) -> str:
        return "You" if seat == self.you else self.state.names[seat]

    def _past(self) -> PastTurn | None:
        """The turn just made, shown as the game's turn list shows one: the board after it, its breakdown."""
        if self.at == 0:
            return None
        record = self._history(self.round)[self.at - 1]
        move = record.turn.move
        squares = move.squares if isinstance(move, Play) else ()
        words = "passed" if isinstance(move, Pass) else f"exchanged {record.turn.drawn} tiles"
        # a recorded turn is settled: its call window closed, its true score shows beside the declaration
        seen = seen_score(record, self.state.options.joker, open_window=False)
        return PastTurn(record.number, record.player, record.board_after, squares, record.score, words, seen)

    def _pegs(self, state: PublicState) -> tuple[PegView, ...]:
        """The pegs at this position; at the end of a round, on the final scores (the back peg on the
        score before the racks were counted off), as the game leaves them."""
        if self.at_end and state.outcome is not None:
            return tuple(
                PegView(score, final, False, False)
                for score, final in zip(state.scores, state.outcome.final_scores, strict=True)
            )
        return tuple(PegView(previous, score, False, False) for score, previous in peg_marks(state))

    def snapshot(self) -> TableSnapshot:
        """The position shown, for the table's drawing (nothing on it can be played)."""
        whole = self.state  # a finished game: nothing of it is hidden any more
        lay = self.host.layout
        rack = Draft.deal(whole.racks[self.viewer])
        everyone = range(whole.players)
        state = public_of(whole, everyone)
        rest = {i: lay.slot_rect(i) for i in range(len(rack.tiles))}
        match = self.table.match
        return TableSnapshot(
            layout=lay,
            now=self.now,
            pace=self.host.prefs.pace,
            mouse=self.mouse,
            state=state,
            seats=self.table.seats,
            human=self.viewer,
            my_turn=False,
            busy=False,
            thinking=False,
            draft=DraftView(rack.tiles, tuple(rack.order), Frozen({}), Frozen(dict(rack.faces)), None, frozenset()),
            pos=Frozen({i: (float(r[0]), float(r[1]), float(r[2])) for i, r in rest.items()}),
            rest=Frozen(rest),
            grab=(0.0, 0.0),
            lift=(0.0, -1e9),
            held_centre=(0.0, 0.0),
            live=None,
            breakdown=None,
            rows_shown=None,
            hover_rows=(),
            flights=(),
            flips=Frozen({}),
            pegs=self._pegs(state),
            exchanging=False,
            keyboard=False,
            cursor=CENTRE,
            selected=0,
            help=False,
            toasts=tuple(t.text for t in self.toasts),
            buttons=Buttons(False, False, False, False, False),
            next_level=self.host.prefs.level,
            next_is_round=False,
            past=self._past(),
            match=public_match(
                Match(match.options, match.seed, match.names, self.rounds[: self.round], whole), everyone
            ),
            racks_counted=self.at_end and state.outcome is not None,
            replay=ReplayView(
                self.round + 1,
                len(self.rounds),
                self.at,
                self.rounds[self.round].turns,
                draw_words(state, self.name_of),
                self.on_export is not None,
                self.typed,
                self.rounds[self.round].calls,
            ),
            you=self.you,
        )

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw the position; the rectangles that changed, or None if all of it did."""
        return self.view.draw(surface, self.snapshot(), full)
