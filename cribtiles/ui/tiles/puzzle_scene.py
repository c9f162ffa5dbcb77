"""Puzzles in the window, "find the best play": a list of the shipped puzzles (the solved ones marked
with the points found), and a puzzle on the table: your rack on its board, a card that says the bar to
beat (what the obvious play scores), Enter to answer, the answer scored against the best and lit on the
board, the puzzle remembered once solved; Retry, Show the answer, Next. Escape goes back to the list,
and from the list out.

The table is a GameScene on the puzzle's position with a host aside (`AsideHost`, as the tutorial's):
the play is never made, nothing is saved, and the player's own game is never touched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from cribtiles.rules.moves import Play
from cribtiles.table.tiles.puzzles import Puzzle, Verdict, check_answer, puzzle_table, shipped_puzzles

from .. import art
from ..geometry import Rect, contains
from ..paint import CREAM, DIM, GOLD, RED, button, wrap, write
from ..screens import Cells, card, chosen_in_sight, draw_rows, fit, list_key, screen_card
from .game_scene import GameScene, Host
from .tutorial_scene import TUTORIAL_OFF, AsideHost, ScriptedWorker, light_squares

ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
GREEN = (150, 215, 120)
LEADING = 1.3
#: Keys of the table that do nothing in a puzzle (there is no pass, exchange, undo or Joker there).
SWALLOWED = (pygame.K_p, pygame.K_x, pygame.K_u, pygame.K_j, pygame.K_z)
#: The coach's keys (hint, best plays): they would give the answer away.
COACH_KEYS = (pygame.K_i, pygame.K_b)
#: Settings off at a puzzle's table: the tutorial's, and the coach's hints.
PUZZLE_OFF = (*TUTORIAL_OFF, "hints")
#: The keys of a puzzle, written over the table's own at the foot of the side panel.
PUZZLE_KEYS = "Enter answer · R retry · A answer · N next · F flip · S shuffle · Backspace recall · Esc list"


@dataclass(frozen=True)
class PuzzleCard:
    """The puzzle's card as laid out for one frame: where it and its buttons sit, its rows of words."""

    rect: Rect
    pad: int
    rows: tuple[tuple[str, int, tuple[int, int, int]], ...]
    buttons: tuple[tuple[str, str, Rect], ...]  # (name, label, rect)


def no_move(view: object) -> None:
    """The puzzle's opponent never moves: the play is never made."""
    return None


class PuzzleScene:
    """The list of puzzles, and the puzzle chosen on the table (`game`, None while the list shows)."""

    def __init__(self, host: Host, on_close: Callable[[], None], puzzles: Sequence[Puzzle] | None = None) -> None:
        self.outer = host
        self.on_close = on_close
        self.puzzles = tuple(shipped_puzzles() if puzzles is None else puzzles)
        self.solved: dict[str, int] = dict(host.keeper.solved_puzzles())
        self.host = AsideHost(host, self.retry, ScriptedWorker(no_move), PUZZLE_OFF)
        self.chosen = next((i for i, p in enumerate(self.puzzles) if p.id not in self.solved), 0)
        self.top = 0  # the first row of the list shown
        self.visible = 10
        self.rows: list[tuple[int, Rect]] = []
        self.list_buttons: dict[str, Rect] = {}
        self.mouse = (-1, -1)
        self.game: GameScene | None = None
        self.verdict: Verdict | None = None
        self.shown = False  # the answer is shown (a solve after it is not remembered)
        self.message = ""  # why an answer was not taken (nothing laid, a tile held)
        self.closed = False

    # --- what it does ---

    @property
    def puzzle(self) -> Puzzle | None:
        return self.puzzles[self.chosen] if self.puzzles else None

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.on_close()

    def choose(self, i: int) -> None:
        if self.puzzles:
            self.chosen, self.top = chosen_in_sight(i, len(self.puzzles), self.top, self.visible)

    def open(self, i: int | None = None) -> None:
        """The puzzle `i` (or the one chosen) on the table, as it was before any answer."""
        if i is not None:
            self.choose(i)
        puzzle = self.puzzle
        if puzzle is None:
            return
        self.host.sync()
        self._leave_game()
        self.game = self.host.seat(puzzle_table(puzzle))
        self.game.anims.toasts.clear()  # who drew which tile for the start: not this table's story
        self.verdict, self.shown, self.message = None, False, ""

    def back_to_list(self) -> None:
        self._leave_game()
        self.verdict, self.shown, self.message = None, False, ""

    def retry(self) -> None:
        """The same puzzle again, the rack as dealt."""
        if self.game is not None:
            self.open()

    def next(self) -> None:
        """The next puzzle not yet solved after this one (or simply the next)."""
        n = len(self.puzzles)
        if not n:
            return
        after = [(self.chosen + k) % n for k in range(1, n + 1)]
        self.open(next((i for i in after if self.puzzles[i].id not in self.solved), after[0]))

    @property
    def proposal(self) -> Play | None:
        return None if self.game is None else self.game.draft.proposal()

    def answer(self) -> None:
        """Score what lies on the board against the best play; a solve is remembered."""
        puzzle, game = self.puzzle, self.game
        if puzzle is None or game is None:
            return
        play = self.proposal
        if play is None or game.draft.held is not None:
            self.message = "Lay tiles from your rack on the board, then press Enter."
            return
        self.message = ""
        verdict = check_answer(puzzle, play)
        self.verdict = verdict
        if verdict.found and not self.shown and verdict.points is not None:
            self.solved[puzzle.id] = max(verdict.points, self.solved.get(puzzle.id, 0))
            self.outer.keeper.mark_solved(puzzle.id, verdict.points)
        self.outer.sounds.click()

    def show_answer(self) -> None:
        """Lay the best play on the board (the side panel scores it), lit in gold."""
        puzzle, game = self.puzzle, self.game
        if puzzle is None or game is None:
            return
        game.draft.recall()
        draft = game.draft
        for p in puzzle.best_play.placements:
            tid = next(i for i in draft.order if draft.tiles[i] == p.tile.rack_form)
            draft.place(tid, game.state.board, p.square)
            draft.faces[tid] = p.tile
        game.refresh_preview()
        self.shown = True
        if self.verdict is None:
            self.verdict = check_answer(puzzle, puzzle.best_play)

    # --- input ---

    def shutdown(self) -> None:
        self._leave_game()

    def _leave_game(self) -> None:
        """The puzzle's table is put away: its coach's worker ends with it."""
        if self.game is not None:
            self.game.shutdown()
            self.game = None

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if self.game is None:
            self._handle_list(event)
        else:
            self._handle_puzzle(event, self.game)

    def _handle_list(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL:
            self.top = max(0, min(max(0, len(self.puzzles) - self.visible), self.top - event.y * 3))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for name, rect in self.list_buttons.items():
                if contains(rect, event.pos):
                    self.open() if name == "open" else self.close()
                    return
            for i, rect in self.rows:
                if contains(rect, event.pos):
                    self.open(i)
                    return
        elif event.type == pygame.KEYDOWN:
            k = event.key
            if k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.close()
            elif (row := list_key(k, self.chosen, len(self.puzzles), self.visible)) is not None:
                self.choose(row)
            elif k in (*ENTER_KEYS, pygame.K_SPACE):
                self.open()

    def _handle_puzzle(self, event: pygame.event.Event, game: GameScene) -> None:
        if self.host.sync():
            game.relayout()
        if event.type == pygame.KEYDOWN:
            k = event.key
            if k == pygame.K_ESCAPE and game.draft.held is None and not game.keys.keyboard:
                self.back_to_list()
                return
            if k in ENTER_KEYS:
                self.answer()
                return
            if k == pygame.K_r:
                self.retry()
                return
            if k == pygame.K_a:
                self.show_answer()
                return
            if k == pygame.K_n and not event.mod & pygame.KMOD_CTRL:
                self.next()
                return
            if k in COACH_KEYS or getattr(event, "unicode", "") == "?":
                game.toast("No hints in a puzzle: Answer (A) shows the best play.")
                return
            if k in SWALLOWED:
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            c = self.card()
            for name, _, rect in c.buttons:
                if contains(rect, event.pos):
                    self._press(name)
                    return
            if contains(self.outer.layout.buttons["play"], event.pos):
                self.answer()
                return
            if contains(c.rect, event.pos):
                return  # the card is not the panel under it
        game.handle(event)
        if self.verdict is not None and self.verdict.play != str(self.proposal) and not self.shown:
            self.verdict = None  # the tiles moved: the verdict was on another play

    def _press(self, name: str) -> None:
        {"retry": self.retry, "answer": self.show_answer, "next": self.next, "list": self.back_to_list}[name]()

    # --- time ---

    def update(self, dt: float) -> None:
        if self.game is not None:
            if self.host.sync():
                self.game.relayout()
            self.game.update(dt)
            if self.message and self.proposal is not None:
                self.message = ""

    # --- drawing ---

    def card(self) -> PuzzleCard:
        """The puzzle's card, over the top of the side panel (the opponent's rack, the pegs and the
        status, which a puzzle does not use), above the breakdown of what lies on the board."""
        lay = self.outer.layout
        ox, oy, ow, _ = lay.opponents
        _, sy, _, sh = lay.status
        x, y, w = ox, oy, ow
        h = sy + sh - oy
        s = max(13, min(24, round(lay.height * 0.024)))
        pad = max(8, round(s * 0.8))
        inner = w - 2 * pad
        puzzle = self.puzzle
        rows: list[tuple[str, int, tuple[int, int, int]]] = []
        if puzzle is not None:
            rows.append((f"Puzzle {self.chosen + 1} of {len(self.puzzles)} · {puzzle.level}", s, DIM))
            rows.append((f"Find the best play: beat {puzzle.obvious_score}", round(s * 1.35), GOLD))
            intro = (
                f"The obvious play scores {puzzle.obvious_score}. The best scores far more, "
                "and no other play scores as much."
            )
            rows += [(line, s - 3, CREAM) for line in wrap(intro, s - 3, inner)]
            words, colour = self._status(puzzle)
            rows += [(line, s - 1, colour) for line in wrap(words, s - 1, inner)]
        bh = max(26, round(s * 1.7))
        gap = max(6, pad // 2)
        names = (("retry", "Retry (R)"), ("answer", "Answer (A)"), ("next", "Next (N)"), ("list", "List (Esc)"))
        bw = (inner - gap * (len(names) - 1)) // len(names)
        by = y + h - pad - bh
        buttons = tuple((name, label, (x + pad + k * (bw + gap), by, bw, bh)) for k, (name, label) in enumerate(names))
        return PuzzleCard((x, y, w, h), pad, tuple(rows), buttons)

    def _status(self, puzzle: Puzzle) -> tuple[str, tuple[int, int, int]]:
        v = self.verdict
        if self.message:
            return self.message, RED
        if self.shown:
            return f"The best play: {puzzle.best} for {puzzle.best_score} (lit on the board).", GOLD
        if v is not None:
            if v.found:
                return f"{v.words} Solved!", GREEN
            return v.words, GOLD if v.points is not None else RED
        solved = self.solved.get(puzzle.id)
        if solved is not None:
            return f"Solved before, for {solved}. Lay tiles and press Enter to answer again.", DIM
        return "Lay tiles on the board and press Enter (or Play) to answer.", DIM

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        if self.game is None:
            self._draw_list(surface)
            return None
        self.game.draw(surface, full=True)  # the card lies over it: redraw it all
        puzzle = self.puzzle
        if self.shown and puzzle is not None:
            light_squares(surface, self.outer.layout, puzzle.best_play.squares, self.game.now)
        self._draw_card(surface)
        return None

    def _draw_card(self, surface: pygame.Surface) -> None:
        c = self.card()
        x, y, _, _ = c.rect
        card(surface, c.rect, seed=89)
        top = y + c.pad
        for text, size, colour in c.rows:
            write(surface, text, size, colour, (x + c.pad, top))
            top += round(size * LEADING)
        for _, label, rect in c.buttons:
            button(surface, rect, label, True, contains(rect, self.mouse))
        self._draw_keys(surface)

    def _draw_keys(self, surface: pygame.Surface) -> None:
        """The puzzle's keys over the table's own line at the foot of the side panel (the table's
        speak of passing and exchanging, and its A and R mean other things)."""
        x, y, w, h = self.outer.layout.info
        size = max(12, round(self.outer.layout.height * 0.017))
        strip = (x + 3, y + h - 4 - round(size * 1.5), w - 6, round(size * 1.5))
        colour = surface.get_at((x + 6, strip[1] - 2))
        pygame.draw.rect(surface, colour, strip)
        room = w - 32
        shorter = (
            PUZZLE_KEYS.replace(" · S shuffle", ""),
            PUZZLE_KEYS.replace(" · S shuffle", "").replace(" · F flip", ""),
        )
        text = next(
            (t for t in (PUZZLE_KEYS, *shorter) if art.font(size).size(t)[0] <= room), fit(shorter[-1], size, room)
        )
        write(surface, text, size, (150, 140, 120), (x + w / 2, y + h - 6), "midbottom")

    # --- the list ---

    def _draw_list(self, surface: pygame.Surface) -> None:
        hint = "Up/Down or click choose · Enter opens the puzzle · Esc goes back"
        rect, s, top = screen_card(surface, "Puzzles: find the best play", hint, 0.78, 0.9)
        x, y, w, h = rect
        pad = round(s * 1.2)
        bh = max(28, round(s * 1.7))
        foot_y = y + h - pad - bh
        bw = max(120, round(w * 0.18))
        gap = round(s * 0.8)
        self.list_buttons = {}
        for k, (name, label) in enumerate((("open", "Open"), ("back", "Back"))):
            r = (x + (w - 2 * bw - gap) // 2 + k * (bw + gap), foot_y, bw, bh)
            self.list_buttons[name] = r
            button(surface, r, label, name == "back" or bool(self.puzzles), contains(r, self.mouse), name == "open")
        if not self.puzzles:
            self.rows = []
            words = "The puzzles could not be read: the file that holds them is missing or damaged."
            write(surface, fit(words, s, w - 2 * pad), s, RED, (x + w // 2, top + 2 * s), "midtop")
            return
        done = sum(1 for p in self.puzzles if p.id in self.solved)
        summary = f"{done} of {len(self.puzzles)} solved · positions from Hard's own games"
        write(surface, fit(summary, s - 2, w - 2 * pad), s - 2, CREAM, (x + w // 2, foot_y - 6), "midbottom")
        self._list(surface, (x + pad, top, w - 2 * pad, foot_y - round(s * 1.8) - top), s)

    def _list(self, surface: pygame.Surface, area: Rect, s: int) -> None:
        columns = ((0.0, ""), (0.1, "Level"), (0.3, "The bar to beat"), (0.62, "Solved"))

        def cells_of(i: int) -> Cells:
            p = self.puzzles[i]
            points = self.solved.get(p.id)
            solved = "" if points is None else f"solved · found {points}"
            cells = (f"{i + 1}", p.level, f"the obvious play scores {p.obvious_score}", solved)
            return cells, (DIM, CREAM, CREAM, GREEN)

        count = len(self.puzzles)
        self.visible, self.top, self.rows = draw_rows(
            surface, area, s, columns, count, self.top, self.chosen, self.mouse, cells_of, row_height=1.5
        )
