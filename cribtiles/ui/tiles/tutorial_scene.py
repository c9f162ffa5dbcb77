"""The first-game tutorial in the window: the table scene on the tutorial's fixed game, under a wooden
card that says what to do next (step 2 of 5), shows how ("Show me" lights the tiles and squares) and
moves on as each step is done; at the end "You're ready", and Enter closes. Escape closes at any time.

The table scene is given a host of the tutorial's own (`AsideHost`, which the puzzles use too): the
window's layout, preferences and sounds, Medium's scripted replies for a bot worker, and saves that go
nowhere, so the player's own game and its save are never touched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

import pygame

from cribtiles.bot.worker import BotWorker
from cribtiles.rules.board import Square
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move, Play
from cribtiles.table.again import NextTable
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.public import PublicState
from cribtiles.table.tiles.session import LocalSession, Session
from cribtiles.table.tiles.table import Table
from cribtiles.table.tiles.tutorial import (
    READY_TEXT,
    Kind,
    Progress,
    advance,
    bot_move,
    may_play,
    ready,
    tutorial_table,
)

from ..config import Keeper
from ..geometry import Layout, Rect, contains
from ..paint import CREAM, DIM, GOLD, RED, button, wrap, write
from ..screens import card
from .game_scene import GameScene, Host

ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
HINT_KEY = pygame.K_h  # "Show me" (the table's own H, how to play, is this card's job here)
GREEN = (150, 215, 120)
LEADING = 1.3  # a row of the card, as a multiple of its text size


class ScriptedWorker:
    """A bot that answers at once from a script (the table scene's pause paces it), in place of the
    window's bot worker: Medium's replies in the tutorial, the same every time. `choose` gives the move
    for what the bot sees (None: no move, for a table where the bot never moves)."""

    def __init__(self, choose: Callable[[PlayerView], Move | None] = bot_move) -> None:
        self._choose = choose
        self._move: Move | None = None
        self.incidents: list[str] = []
        self.busy = False

    def start(self, level: str, view: PlayerView, seed: int) -> None:
        self._move = self._choose(view)

    def result(self) -> Move | None:
        move, self._move = self._move, None
        return move

    def cancel(self) -> None:
        self._move = None

    def warm_up(self) -> None:
        pass

    def close(self) -> None:
        pass


class KeepsNoGame:
    """The keeper of a table aside (the tutorial, a puzzle): its turns are never saved and its game
    never enters the history (the player's save and record stay as they were); preferences changed
    meanwhile are the window's and go to its keeper, and so does everything else (the history, the
    statistics, the puzzles solved)."""

    def __init__(self, outer: Keeper) -> None:
        self.outer = outer
        self.skipped = 0  # saves asked for and not made
        self.errors: list[str] = []  # none: nothing is written (the window's own are not the tutorial's)

    def save(self, table: object) -> bool:
        self.skipped += 1
        return True

    def record(self, game: object) -> None:
        pass

    def save_preferences(self, prefs: Preferences) -> None:
        self.outer.save_preferences(prefs)

    def __getattr__(self, name: str) -> object:
        return getattr(self.outer, name)


#: The settings turned off at the tutorial's table: no question before each play and no taking plays
#: back, which the steps do not tell of.
TUTORIAL_OFF = ("confirm_play", "undo", "hints")  # the tutorial itself shows the way


def tutorial_prefs(prefs: Preferences, off: tuple[str, ...] = TUTORIAL_OFF) -> Preferences:
    """The window's preferences for a table aside: the same speed and sound, the switches `off` off."""
    fields = {f.name for f in dataclasses.fields(prefs)}
    changes = {name: False for name in off if name in fields}
    return dataclasses.replace(prefs, **changes)  # type: ignore[arg-type]


class AsideHost:
    """What the table scene of a table aside (the tutorial, a puzzle) sees of the window (GameScene's
    Host): the window's layout, preferences and sounds, a scripted bot, and no saves, no end card, no
    new game of the player's (`restart` starts the table aside again); the settings named in `off` are
    off at its table."""

    def __init__(
        self,
        outer: Host,
        restart: Callable[[], None],
        worker: ScriptedWorker | None = None,
        off: tuple[str, ...] = TUTORIAL_OFF,
    ) -> None:
        self.outer = outer
        self.restart = restart
        self.off = off
        self.layout = outer.layout
        self.prefs = tutorial_prefs(outer.prefs, off)
        # the table scene asks only start, result and busy of its worker
        self.worker = cast(BotWorker, worker or ScriptedWorker())
        self.sounds = outer.sounds
        self.skips = KeepsNoGame(outer.keeper)
        self.keeper = cast(Keeper, self.skips)  # a Keeper in every way but the writing

    def seat(self, table: Table) -> GameScene:
        """The table scene on `table` aside: its bot is the scripted one, its keeper keeps nothing."""
        return GameScene(self, LocalSession(table, self.worker, self.keeper), resigns=False)

    def sync(self) -> bool:
        """Follow the window (resized, a preference changed); True when the layout changed."""
        self.prefs = tutorial_prefs(self.outer.prefs, self.off)
        self.sounds = self.outer.sounds
        if self.layout is self.outer.layout:
            return False
        self.layout = self.outer.layout
        return True

    def save_game(self) -> None:
        self.skips.save(None)

    def new_game(self) -> None:
        """A new game asked for aside starts the table aside again (never the player's game)."""
        self.restart()

    def caption(self, state: PublicState) -> None:
        """The window's title keeps the score of the player's own game."""

    def show_end(self, game: GameScene) -> None:
        """A table aside has no end card: it ends with its own card."""

    def open_next_table(self, table: NextTable) -> None:
        """A table aside is never online: never played again from elsewhere."""

    def leave_table(self, session: Session, words: str) -> None:
        """A table aside is never online: never aborted from elsewhere."""


TutorialHost = AsideHost  # the tutorial's host, by the name it had


def light_squares(
    surface: pygame.Surface, lay: Layout, squares: Iterable[Square], now: float, colour: tuple[int, int, int] = GOLD
) -> None:
    """Frame `squares` of the board in a light that pulses with the clock `now` (seconds)."""
    glow = 0.5 + 0.5 * abs(((now * 1.6) % 2.0) - 1.0)
    shade = tuple(round(colour[i] * (0.6 + 0.4 * glow)) for i in range(3))
    width = max(2, lay.cell // 14)
    for sq in squares:
        sx, sy, sw, sh = lay.square_rect(sq)
        pygame.draw.rect(surface, shade, (sx - 2, sy - 2, sw + 4, sh + 4), width, border_radius=6)


@dataclass(frozen=True)
class Card:
    """The instruction card as laid out for one frame: where it and its buttons sit, and its rows of
    words (text, size, colour)."""

    rect: Rect
    pad: int
    rows: tuple[tuple[str, int, tuple[int, int, int]], ...]
    show_me: Rect | None
    next: Rect | None
    next_label: str


class TutorialScene:
    """The tutorial over the window's table: `handle`, `update` and `draw` go to a GameScene on the
    tutorial's table, with the card drawn over the board's empty top rows."""

    def __init__(self, host: Host, on_close: Callable[[], None]) -> None:
        self.outer = host
        self.on_close = on_close
        self.host = AsideHost(host, self.restart)
        self.table = tutorial_table()
        self.game = self.host.seat(self.table)
        self.progress = Progress()
        self.hint = False  # "Show me" is on
        self.nudge = ""  # why a play was not taken (not this step's)
        self.acknowledged = False  # the player said they have read (Enter, Next, a row pointed at)
        self.closed = False

    # --- the steps ---

    @property
    def proposal(self) -> Play | None:
        """What lies on the board unplayed."""
        return self.game.draft.proposal()

    def restart(self) -> None:
        self.game.shutdown()
        self.table = tutorial_table()
        self.game = self.host.seat(self.table)
        self.progress = Progress()
        self.hint, self.nudge, self.acknowledged = False, "", False

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.on_close()

    def _record_done(self) -> None:
        """The tutorial was played to its end: the settings keep it (the title stops offering it)."""
        prefs = self.outer.prefs
        if not prefs.tutorial_done:
            prefs.tutorial_done = True
            self.outer.keeper.save_preferences(prefs)

    def waiting_for_word(self) -> bool:
        """The step waits only for the player to say they have read it (Enter or Next)."""
        step = self.progress.step
        if step is None:
            return True
        return step.kind is not Kind.PLAY and ready(self.progress, self.table, self.proposal)

    # --- input ---

    def shutdown(self) -> None:
        self.game.shutdown()

    def handle(self, event: pygame.event.Event) -> None:
        if self.host.sync():
            self.game.relayout()
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.close()
                return
            if event.key == HINT_KEY:
                self.hint = not self.hint
                return
            if event.key in ENTER_KEYS and self._enter():
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            c = self.card()
            if c.show_me is not None and contains(c.show_me, event.pos):
                self.hint = not self.hint
                return
            if c.next is not None and contains(c.next, event.pos):
                self._enter()
                return
            if contains(self.outer.layout.buttons["play"], event.pos) and self._play_refused():
                return
            if contains(c.rect, event.pos):
                return  # the card is not the board under it
        held = self.game.draft.held is not None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and held and contains(self.card().rect, event.pos):
            self.game.draft.cancel()  # a tile let go on the card goes back where it came from
            self.game.refresh_preview()
            return
        self.game.handle(event)
        step = self.progress.step
        if (
            event.type == pygame.MOUSEMOTION
            and step is not None
            and step.kind is Kind.READ
            and self.game.turn_list.hover_rows
        ):
            self.acknowledged = self.waiting_for_word()  # a row of the bot's breakdown pointed at: read

    def _enter(self) -> bool:
        """Enter (or the card's button): close at the end, go on from a step read; a play only when it
        is the step's. True when the tutorial took it (the table does not see it)."""
        if self.progress.finished:
            self.close()
            return True
        if self.waiting_for_word():
            self.acknowledged = True
            return True
        return self._play_refused()

    def _play_refused(self) -> bool:
        """A legal play that is not the step's is held back, with the reason and the hint shown (an
        illegal one goes to the table, which says why the rules refuse it)."""
        live = self.game.live
        if self.progress.finished or live is None or not live.is_legal or not self.game.my_turn:
            return False
        if may_play(self.progress, self.proposal):
            return False
        step = self.progress.step
        if step is not None and step.kind is Kind.REFUSAL:
            self.nudge = "That one is legal: for this step, lay the tile the card names where it says."
        else:
            self.nudge = "Not this play: this step asks for the one the card names."
        self.hint = True
        return True

    # --- time ---

    def update(self, dt: float) -> None:
        if self.host.sync():
            self.game.relayout()
        self.game.update(dt)
        before = self.progress
        read = self.acknowledged and not self.game.busy
        after = advance(before, self.table, self.proposal, acknowledged=read)
        self.acknowledged = False
        if after.finished and not before.finished:
            self._record_done()
        if after.index != before.index:
            self.hint, self.nudge = False, ""
            self.outer.sounds.click()
        elif self.nudge and self.proposal is None:
            self.nudge = ""
        self.progress = after

    # --- drawing ---

    def card(self) -> Card:
        """The card for the moment: over the board's top rows (the tutorial's game keeps below them)."""
        lay = self.outer.layout
        s = max(14, min(26, round(lay.height * 0.024)))
        gx, gy, gw, _ = lay.grid
        pad = max(10, s)
        x, w = gx + lay.cell // 3, gw - 2 * (lay.cell // 3)
        inner = w - 2 * pad
        rows: list[tuple[str, int, tuple[int, int, int]]] = []
        step = self.progress.step
        title = "You're ready" if step is None else f"{self.progress.label()}: {step.title}"
        rows.append((title, round(s * 1.25), GOLD))
        previous = self.progress.previous
        if previous is not None and previous.done:
            rows += [(line, s - 1, GREEN) for line in wrap(f"Done. {previous.done}", s - 1, inner)]
        body = READY_TEXT if step is None else step.text
        rows += [(line, s, CREAM) for line in wrap(body, s, inner)]
        status, colour = self._status()
        if status:
            rows += [(line, s - 1, colour) for line in wrap(status, s - 1, inner)]
        bh = max(28, round(s * 1.8))
        h = pad * 2 + sum(round(size * LEADING) for _, size, _ in rows) + pad // 2 + bh
        y = gy + lay.cell // 4
        rect = (x, y, w, h)
        by = y + h - pad - bh
        bw = max(120, round(s * 8))
        show_me = None if step is None else (x + pad, by, bw, bh)
        word = self.waiting_for_word()
        label = "Close (Enter)" if step is None else "Next (Enter)"
        nxt = (x + w - pad - bw, by, bw, bh) if word else None
        return Card(rect, pad, tuple(rows), show_me, nxt, label)

    def _status(self) -> tuple[str, tuple[int, int, int]]:
        """The card's last words: what the step waits for now."""
        step = self.progress.step
        game = self.game
        if step is None:
            return "", CREAM
        if self.nudge:
            return self.nudge, RED
        if step.kind is Kind.REFUSAL and self.progress.seen:
            return (
                f"Refused: “{step.reason}”. The line is outlined in red and the side panel says why; Play "
                "stays dark. Leave the tile where it is and press Enter.",
                GOLD,
            )
        if not game.my_turn and not self.table.person_to_move:
            return "Medium is replying…", DIM
        if step.kind is Kind.READ:
            return "Point at a row of the breakdown to light its tiles, then press Enter.", GOLD
        if ready(self.progress, self.table, self.proposal):
            return "Now press Enter (or click Play) to play it.", GOLD
        if self.hint:
            return step.hint.words, GOLD
        return "Stuck? Show me (H) lights the tiles and the squares.", DIM

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        self.game.draw(surface, full=True)  # the card and the lights lie over it: redraw it all
        if self.hint:
            self._draw_hint(surface)
        self._draw_card(surface)
        return None

    def _draw_card(self, surface: pygame.Surface) -> None:
        c = self.card()
        x, y, _, _ = c.rect
        card(surface, c.rect, seed=87)
        top = y + c.pad
        for text, size, colour in c.rows:
            write(surface, text, size, colour, (x + c.pad, top))
            top += round(size * LEADING)
        mouse = pygame.mouse.get_pos() if pygame.display.get_init() else (-1, -1)
        if c.show_me is not None:
            button(surface, c.show_me, "Show me (H)", True, contains(c.show_me, mouse) or self.hint)
        if c.next is not None:
            button(surface, c.next, c.next_label, True, contains(c.next, mouse), strong=True)
        size = max(12, c.rows[-1][1] - 3)
        if c.show_me is not None:  # beside Show me
            bx, by, bw, bh = c.show_me
            write(surface, "Esc leaves the tutorial", size, DIM, (bx + bw + c.pad, by + bh // 2), "midleft")
        elif c.next is not None:  # at the end: where Show me was
            _, by, _, bh = c.next
            write(surface, "Esc also closes it", size, DIM, (x + c.pad, by + bh // 2), "midleft")

    def _draw_hint(self, surface: pygame.Surface) -> None:
        """The step's tiles on the rack and its squares on the board, in a gold frame that pulses."""
        step = self.progress.step
        if step is None:
            return
        lay = self.outer.layout
        game = self.game
        glow = 0.5 + 0.5 * abs(((game.now * 1.6) % 2.0) - 1.0)
        colour = tuple(round(GOLD[i] * (0.6 + 0.4 * glow)) for i in range(3))
        width = max(2, lay.cell // 14)
        wanted = list(step.hint.tiles)
        for tid in game.draft.order:  # the rack tiles of the step, each once
            tile = game.draft.tiles[tid]
            if tile in wanted:
                wanted.remove(tile)
                p = game.hand.pos.get(tid)
                if p is not None:
                    r = (round(p[0]) - 3, round(p[1]) - 3, round(p[2]) + 6, round(p[2]) + 6)
                    pygame.draw.rect(surface, colour, r, width + 1, border_radius=max(4, lay.cell // 6))
        light_squares(surface, lay, step.hint.squares, game.now)
        if step.kind is Kind.READ:
            ix, iy, iw, ih = lay.info
            pygame.draw.rect(surface, colour, (ix - 4, iy - 4, iw + 8, ih + 8), width, border_radius=10)
