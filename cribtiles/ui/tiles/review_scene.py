"""The review of a finished game in the window: run in the background (a progress bar while the window
stays responsive), then every turn of every player against the best play found, the biggest misses
first, beside a chart of the scores turn by turn; a turn opened shows the board at that moment with the
play made and the best play side by side, each with its score and breakdown.

The analysis is `cribtiles.table.tiles.review`'s, run by its `ReviewWorker` in a process of its own; this
module only polls it and draws. Keys: Up/Down (wheel, click) choose, Enter or a click opens a turn,
Left/Right step through the turns opened, O orders the list by misses or by turns, E saves the chart
as a PNG in the data folder's exports, Escape goes back (and stops an analysis under way).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from cribtiles.rules.board import SIZE, Board, Square
from cribtiles.rules.moves import Exchange, Move, Pass, Play, format_move, format_rack
from cribtiles.rules.scoring import PlayScore, score_play
from cribtiles.table.misses import misses_first as misses_first_of
from cribtiles.table.tiles.table import Table

from .. import art
from ..geometry import Layout, Rect, contains
from ..paint import CREAM, DIM, GOLD, RED, blit_tile, board_grid, button, rounded_panel, scaled, write
from ..screens import backdrop, card, card_rect, fit, heading, ring, text_size
from .breakdown import InfoRow, place, score_rows
from .review_chart import Series, chart_surface, plot_of, save_chart, turn_at

if TYPE_CHECKING:
    from cribtiles.table.tiles.review import Review, TurnReview

log = logging.getLogger("cribtiles.review")

#: The card's share of the window (width, height): one card for every view of the review.
CARD = (0.96, 0.94)

BEST = (150, 220, 130)  # the best play's frames and words (the history's colour for a win)
FIELD = (34, 22, 14, 170)  # the recessed field the boards sit in, as on the rules pages
#: The fewest rows and columns of the board a turn shows (more when its tiles spread wider).
LEAST_REGION = 7
#: Evaluation lost from which a miss is shown in red (points: about a fifteen and a pair).
BIG_MISS = 5.0
#: Turns a PageUp or PageDown moves over in the list.
PAGE = 8


class Worker(Protocol):
    """What the scene needs of a review runner (`cribtiles.table.tiles.review_worker.ReviewWorker`)."""

    def progress(self) -> tuple[int, int]: ...

    def result(self) -> Review | None: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class ReviewHost(Protocol):
    def exports_folder(self) -> Path | None:
        """The folder where files made for the player go (None: there is none here)."""
        ...


class Mode(Enum):
    RUNNING = "running"  # the analysis is under way: the progress bar
    LIST = "list"  # every turn, and the chart
    TURN = "turn"  # one turn: the play made and the best play side by side
    FAILED = "failed"  # the analysis could not be made: why, in words


class Order(Enum):
    MISSES = "biggest misses first"
    TURNS = "in the order played"


def start_worker(table: Table) -> Worker:
    """The review runner of the table layer, started on `table`."""
    from cribtiles.table.tiles.review_worker import ReviewWorker

    worker = ReviewWorker()
    worker.start(table)
    return worker


# --- what the review says, in values the drawing reads ---


def series_of(review: Review) -> Series:
    """The chart's scores: each player's score after each turn, and where each new round began."""
    starts = tuple(k for k in range(1, len(review.turns)) if review.turns[k].round != review.turns[k - 1].round)
    finals = tuple(sum(f[p] for f in review.finals) for p in range(len(review.names)))
    return Series.of(tuple(review.names), review.scores, starts, finals)


def move_words(move: Move) -> str:
    """A move as the notation writes it ('pass' for a pass)."""
    return "pass" if isinstance(move, Pass) else format_move(move)


def misses_first(review: Review) -> list[int]:
    """The indices of the review's turns, the biggest misses first (as `Review.biggest_misses` orders
    them), each turn once."""
    return misses_first_of(review.turns, review.biggest_misses(len(review.turns)))


def region(squares: Sequence[Square], least: int = LEAST_REGION) -> tuple[int, int, int, int]:
    """The rows r0..r1 and columns c0..c1 of the board worth showing for `squares`: a free square round
    them, at least `least` each way, kept on the board (the whole board when there are none).

    >>> region([Square(6, 5), Square(6, 7)])
    (3, 9, 3, 9)
    >>> region([Square(0, 12)])
    (0, 6, 6, 12)
    """
    if not squares:
        return 0, SIZE - 1, 0, SIZE - 1
    r0, r1 = min(s.row for s in squares) - 1, max(s.row for s in squares) + 1
    c0, c1 = min(s.col for s in squares) - 1, max(s.col for s in squares) + 1
    return (*_span(r0, r1, least), *_span(c0, c1, least))


def turn_region(turn: TurnReview) -> tuple[int, int, int, int]:
    """The part of the board a turn is shown on: both plays and every line either of them scores, whole."""
    squares: list[Square] = []
    for move in (turn.played, turn.best):
        if isinstance(move, Play):
            squares.extend(move.squares)
            score = _score_of(turn.board_before, move)
            if score is not None:
                squares.extend(sq for sl in score.lines for sq in sl.line.squares)
    return region(squares)


def _score_of(board: Board, play: Play) -> PlayScore | None:
    try:
        return score_play(board, play)
    except ValueError:  # not a legal play there (a damaged review): shown without a breakdown
        return None


def evaluation_words(turn: TurnReview) -> str:
    """What the turn's evaluation figures are, in words, shown over them."""
    if str(turn.method) == "endgame":
        return "Evaluation: the points a play wins on the other player from here to the end of the game."
    if str(turn.method) == "simulated":
        return "Evaluation: the points a play wins on the others over the next turns, its kept tiles counted."
    return "Evaluation: Hard's, the points now with what the tiles kept are worth and what the play opens."


def cost_words(name: str, turn: TurnReview) -> str:
    """What a turn cost, in a sentence; a best play that scores less now says why it is the best."""
    if turn.is_best:
        return f"{name} made the best play found ({turn.played_score} points)."
    said = f"{name} scored {turn.played_score}; the best play found scores {turn.best_score}"
    if turn.points_lost > 0:
        if turn.value_lost <= 0:
            return f"{said}: {turn.points_lost} points lost now; later turns cannot tell the two apart."
        return f"{said}: {turn.points_lost} points and {turn.value_lost:.1f} of evaluation lost."
    fewer = "as much" if turn.points_lost == 0 else f"{-turn.points_lost} fewer"
    return f"{said}, {fewer} now but {turn.value_lost:.1f} more in evaluation (the tiles kept, what follows)."


def lost_reason(turn: TurnReview) -> str:
    """Why a best play that scores less now is the best, after it in the list: ': 3 fewer now, more
    later' ("" when it scores as much or more)."""
    return f": {-turn.points_lost} fewer now, more later" if turn.points_lost < 0 else ""


def method_words(turn: TurnReview) -> str:
    """How the turn's moves were weighed."""
    method = str(turn.method)
    if method == "simulated":
        rounds = "round" if turn.samples == 1 else "rounds"
        return f"weighed over {turn.samples} {rounds} of the Expert's continuations"
    if method == "endgame":
        return "the endgame searched to the end" if turn.exact else "the endgame searched as far as time allowed"
    if method == "static":
        return "weighed by the Hard bot's evaluation (no time for continuations)"
    return "the only move worth weighing"


def _span(a: int, b: int, least: int) -> tuple[int, int]:
    """a..b kept on the board and widened, a square each side in turn, to at least `least` squares."""
    a, b = max(0, a), min(SIZE - 1, b)
    while b - a + 1 < least:
        if a > 0:
            a -= 1
        if b - a + 1 < least and b < SIZE - 1:
            b += 1
    return a, b


def chart_file(folder: Path, now: float | None = None) -> Path:
    """A new file name for a review's chart in `folder`: crib-tiles-review-20261130-151300.png (-2 ... when taken)."""
    stem = f"crib-tiles-review-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now))}"
    path = folder / f"{stem}.png"
    n = 2
    while path.exists() or path.is_symlink():  # a link's name is taken, even a broken link's
        path = folder / f"{stem}-{n}.png"
        n += 1
    return path


def chart_title(review: Review) -> str:
    """A saved chart's title: the final scores (a match's totals)."""
    series = series_of(review)
    finals = " · ".join(f"{n} {series.legend_score(p)}" for p, n in enumerate(series.names))
    what = "the match's totals" if len(review.finals) > 1 else "final scores"
    return f"Crib Tiles — scores turn by turn ({what}: {finals})"


# --- where things sit ---


@dataclass(frozen=True)
class ListLayout:
    card: Rect
    text: int
    top: int  # where the content starts under the heading
    heads: int  # the y of the list's column headings
    rows: Rect  # the list's rows
    row: int  # a row's height
    columns: tuple[int, ...]  # x of each column of a row's first line
    chart: Rect
    summary: Rect
    buttons: dict[str, Rect]


HINT_LIST = "Up/Down choose · Enter or a click opens a turn · O orders · E saves the chart · Esc goes back"
HINT_TURN = "Left/Right: the turn before or after in the list · Esc: back to the list"


def _foot_buttons(rect: Rect, s: int, names: Sequence[str]) -> dict[str, Rect]:
    x, y, w, h = rect
    pad = round(s * 1.0)
    bh = max(28, round(s * 1.6))
    bw = max(110, min(round(w * 0.2), (w - 2 * pad) // len(names) - pad))
    gap = round(s * 0.8)
    left = x + (w - len(names) * bw - (len(names) - 1) * gap) // 2
    return {n: (left + k * (bw + gap), y + h - pad - bh, bw, bh) for k, n in enumerate(names)}


@lru_cache(maxsize=8)
def list_layout(size: tuple[int, int]) -> ListLayout:
    rect = card_rect(size, *CARD)
    s = text_size(size)
    x, y, w, _h = rect
    top = y + round(s * 0.9) + round(s * 2.4) + round((s - 3) * 1.5)
    buttons = _foot_buttons(rect, s, ("open", "order", "export", "back"))
    foot = min(r[1] for r in buttons.values()) - round(s * 0.6)
    pad = round(s * 1.0)
    left_w = round((w - 3 * pad) * 0.52)
    lx = x + pad
    row = round((s - 3) * 1.3 + max(14, s - 7) * 1.25) + 5
    heads = top
    rows = (lx, top + round(s * 1.2), left_w, foot - top - round(s * 1.2) - round(s * 1.1))
    columns = tuple(lx + round(left_w * f) for f in (0.0, 0.25, 0.62, 0.8, 1.0))
    columns = (columns[0] + 8, *columns[1:-1], columns[-1] - 8)
    rx = lx + left_w + pad
    rw = x + w - pad - rx
    chart_h = round((foot - top) * 0.64)
    chart = (rx, top, rw, chart_h)
    summary = (rx, top + chart_h + round(s * 0.6), rw, foot - top - chart_h - round(s * 0.6))
    return ListLayout(rect, s, top, heads, rows, row, columns, chart, summary, buttons)


@dataclass(frozen=True)
class TurnLayout:
    card: Rect
    text: int
    top: int
    headline: int  # the y of the line that says what the turn cost
    panels: tuple[Rect, Rect]  # the play made, the best play
    buttons: dict[str, Rect]


@lru_cache(maxsize=8)
def turn_layout(size: tuple[int, int]) -> TurnLayout:
    rect = card_rect(size, *CARD)
    s = text_size(size)
    x, y, w, _h = rect
    top = y + round(s * 0.9) + round(s * 2.4) + round((s - 3) * 1.5)
    buttons = _foot_buttons(rect, s, ("previous", "list", "next"))
    foot = min(r[1] for r in buttons.values()) - round(s * 0.6)
    pad = round(s * 1.0)
    ptop = top + round(s * 3.5)
    pw = (w - 3 * pad) // 2
    ph = foot - ptop
    panels = ((x + pad, ptop, pw, ph), (x + 2 * pad + pw, ptop, pw, ph))
    return TurnLayout(rect, s, top, top, panels, buttons)


# --- the scene ---


class ReviewScene:
    """The review of `table`'s game; `on_close()` when the player is done. `worker` runs the analysis
    (None: the table layer's `ReviewWorker`, started here); `host.exports_folder()` is where E saves
    the chart."""

    def __init__(
        self,
        host: ReviewHost,
        table: Table,
        on_close: Callable[[], None],
        worker: Worker | None = None,
    ) -> None:
        self.host = host
        self.table = table
        self.on_close = on_close
        self.worker: Worker | None = worker if worker is not None else start_worker(table)
        # a scene put away without being closed (a new game started over it, the window closed) still
        # stops its analysis: the window calls `shutdown`
        self.mode = Mode.RUNNING
        self.done, self.total = 0, 0
        self.review: Review | None = None
        self.order = Order.MISSES
        self.shown: list[int] = []  # indices of review.turns, in the list's order
        self.chosen = 0  # a position in `shown`
        self.top = 0  # the first row shown
        self.visible = 1  # rows that fit, as last drawn
        self.message = ""
        self.mouse: tuple[int, int] = (-1, -1)
        self.size = (0, 0)
        self._drawn: tuple[object, ...] | None = None

    # --- the analysis ---

    def update(self, dt: float) -> None:
        if self.mode is not Mode.RUNNING or self.worker is None:
            return
        try:
            self.done, self.total = self.worker.progress()
            review = self.worker.result()
            said = getattr(self.worker, "incidents", None)
            if said:
                self.message = " ".join(said)
        except Exception as e:  # the runner failed: said in words, the window goes on
            self._failed(f"The review could not be made: {e}")
            return
        if review is not None:
            self._stop_worker()
            self.show(review)

    def show(self, review: Review) -> None:
        """The analysis is done: the list of turns, the biggest misses first."""
        self.review = review
        self.mode = Mode.LIST
        self._reorder()

    def _failed(self, why: str) -> None:
        self._stop_worker()
        self.mode = Mode.FAILED
        self.message = why

    def _stop_worker(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:  # at most once
            _let_go(worker)

    def close(self) -> None:
        """Back to where the review was opened from: an analysis under way is stopped."""
        self._stop_worker()
        self.on_close()

    # --- the list ---

    def _reorder(self) -> None:
        if self.review is None:
            return
        keep = self.shown[self.chosen] if self.shown else None
        n = len(self.review.turns)
        self.shown = misses_first(self.review) if self.order is Order.MISSES else list(range(n))
        self.chosen = self.shown.index(keep) if keep is not None and keep in self.shown else 0
        self.top = 0
        self.choose(self.chosen)

    def toggle_order(self) -> None:
        self.order = Order.TURNS if self.order is Order.MISSES else Order.MISSES
        self._reorder()

    def choose(self, i: int) -> None:
        if not self.shown:
            return
        self.chosen = max(0, min(len(self.shown) - 1, i))
        if self.chosen < self.top:
            self.top = self.chosen
        elif self.chosen >= self.top + self.visible:
            self.top = self.chosen - self.visible + 1

    @property
    def turn(self) -> TurnReview | None:
        """The turn chosen in the list (and shown when one is opened)."""
        if self.review is None or not self.shown:
            return None
        return self.review.turns[self.shown[self.chosen]]

    def open(self, i: int | None = None) -> None:
        if i is not None:
            self.choose(i)
        if self.turn is not None:
            self.mode = Mode.TURN

    def export(self) -> None:
        """The chart saved as a PNG in the exports folder; where it went, or why not, in `message`."""
        if self.review is None:
            return
        folder = self.host.exports_folder()
        if folder is None:
            self.message = "There is no data folder here to save the chart in."
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if folder.is_symlink():  # it may lead out of the data folder: nothing is written through it
                self.message = f"The chart was not saved: {folder} is a symbolic link, not a folder of its own."
                return
            path = chart_file(folder)
            save_chart(series_of(self.review), str(path), chart_title(self.review))
        except (OSError, pygame.error) as e:
            self.message = f"The chart could not be saved in {folder}: {getattr(e, 'strerror', None) or e}"
            return
        self.message = f"The chart was saved to {path}"

    # --- input ---

    def shutdown(self) -> None:
        """An analysis still under way is stopped."""
        self._stop_worker()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._click(event.pos)
        elif event.type == pygame.MOUSEWHEEL and self.mode is Mode.LIST:
            most = max(0, len(self.shown) - self.visible)
            self.top = max(0, min(most, self.top - event.y * 3))
        elif event.type == pygame.KEYDOWN:
            self._key(event.key)

    def _key(self, k: int) -> None:
        if self.mode is Mode.TURN:
            if k in (pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.mode = Mode.LIST
            elif k in (pygame.K_LEFT, pygame.K_UP, pygame.K_RIGHT, pygame.K_DOWN):
                self.choose(self.chosen + (-1 if k in (pygame.K_LEFT, pygame.K_UP) else 1))
            elif k == pygame.K_e:
                self.export()
            return
        if k == pygame.K_ESCAPE or (k == pygame.K_BACKSPACE and self.mode is not Mode.RUNNING):
            self.close()
        elif self.mode is not Mode.LIST:
            return
        elif k in (pygame.K_UP, pygame.K_DOWN):
            self.choose(self.chosen + (-1 if k == pygame.K_UP else 1))
        elif k in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.choose(self.chosen + (-1 if k == pygame.K_PAGEUP else 1) * max(1, self.visible - 1))
        elif k in (pygame.K_HOME, pygame.K_END):
            self.choose(0 if k == pygame.K_HOME else len(self.shown) - 1)
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.open()
        elif k == pygame.K_o:
            self.toggle_order()
        elif k == pygame.K_e:
            self.export()

    def _click(self, pos: tuple[int, int]) -> None:
        size = self.size
        if self.mode in (Mode.RUNNING, Mode.FAILED):
            if contains(_running_button(size), pos):
                self.close()
            return
        if self.mode is Mode.TURN:
            actions = {
                "previous": lambda: self.choose(self.chosen - 1),
                "list": lambda: setattr(self, "mode", Mode.LIST),
                "next": lambda: self.choose(self.chosen + 1),
            }
            for name, rect in turn_layout(size).buttons.items():
                if contains(rect, pos):
                    actions[name]()
            return
        lay = list_layout(size)
        actions = {"open": self.open, "order": self.toggle_order, "export": self.export, "back": self.close}
        for name, rect in lay.buttons.items():
            if contains(rect, pos):
                actions[name]()
                return
        row = self._row_at(pos)
        if row is not None:
            self.open(row)
            return
        if contains(lay.chart, pos) and self.review is not None and self.review.turns:
            plot = plot_of(series_of(self.review), _size(lay.chart), _chart_text(lay.text))
            k = turn_at(plot, pos[0] - lay.chart[0]) - 1
            self.open(self.shown.index(k))

    def _row_at(self, pos: tuple[int, int]) -> int | None:
        lay = list_layout(self.size)
        if not contains(lay.rows, pos):
            return None
        i = self.top + (pos[1] - lay.rows[1]) // lay.row
        return i if i < min(len(self.shown), self.top + self.visible) else None

    # --- drawing ---

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """The whole card when anything on it changed (None), else nothing ([])."""
        self.size = surface.get_size()
        hover = self._hover()
        drawn = (self.size, self.mode, self.done, self.total, self.chosen, self.top, self.order, self.message, hover)
        if not full and drawn == self._drawn:
            return []
        self._drawn = drawn
        if self.mode in (Mode.RUNNING, Mode.FAILED):
            self._draw_running(surface)
        elif self.mode is Mode.LIST:
            self._draw_list(surface)
        else:
            self._draw_turn(surface)
        return None

    def _hover(self) -> object:
        """What the mouse points at that the drawing shows (a button, a row)."""
        size = self.size
        if self.mode in (Mode.RUNNING, Mode.FAILED):
            return contains(_running_button(size), self.mouse)
        buttons = turn_layout(size).buttons if self.mode is Mode.TURN else list_layout(size).buttons
        named = next((n for n, r in buttons.items() if contains(r, self.mouse)), None)
        return named if named is not None or self.mode is Mode.TURN else self._row_at(self.mouse)

    def _draw_running(self, surface: pygame.Surface) -> None:
        """The progress of the analysis (or why it failed) on the card the review will fill, so that
        the wood is drawn once."""
        size = surface.get_size()
        rect = card_rect(size, *CARD)
        backdrop(surface)
        card(surface, rect)
        s = text_size(size)
        x, y, w, h = rect
        middle = y + h // 2 - 2 * s
        if self.mode is Mode.FAILED:
            heading(surface, "Game review", rect, s, "Esc goes back")
            for k, line in enumerate(_wrapped(self.message, s - 2, w - 4 * s)):
                write(surface, line, s - 2, RED, (x + w // 2, middle + k * round(s * 1.3)), "midtop")
            back = _running_button(size)
            button(surface, back, "Back", True, contains(back, self.mouse), strong=True)
            return
        heading(surface, "Game review", rect, s, "The analysis runs beside the game · Esc stops it")
        words = "Each turn is played again by the Expert's analysis to find the best play."
        write(surface, fit(words, s - 2, w - 3 * s), s - 2, CREAM, (x + w // 2, middle - round(s * 2.2)), "midtop")
        bw = min(w - 4 * s, 40 * s)
        bar = (x + (w - bw) // 2, middle, bw, round(s * 1.2))
        rounded_panel(surface, bar, (20, 12, 8, 220), bar[3] // 2)
        fraction = self.done / self.total if self.total > 0 else 0.0
        filled = round((bar[2] - 4) * max(0.0, min(1.0, fraction)))
        if filled > 0:
            pygame.draw.rect(surface, GOLD, (bar[0] + 2, bar[1] + 2, filled, bar[3] - 4), border_radius=bar[3] // 2)
        said = f"Turn {self.done} of {self.total}" if self.total else "Starting the analysis…"
        write(surface, said, s - 2, DIM, (x + w // 2, bar[1] + bar[3] + round(s * 0.5)), "midtop")
        if self.message:  # what the runner had to say (no process of its own here: slower frames)
            note = fit(self.message, s - 5, w - 3 * s)
            write(surface, note, s - 5, DIM, (x + w // 2, bar[1] + bar[3] + round(s * 2.0)), "midtop")
        cancel = _running_button(size)
        button(surface, cancel, "Cancel", True, contains(cancel, self.mouse))

    def _draw_list(self, surface: pygame.Surface) -> None:
        review = self.review
        assert review is not None
        lay = list_layout(surface.get_size())
        s = lay.text
        backdrop(surface)
        card(surface, lay.card)
        heading(surface, "Game review", lay.card, s, HINT_LIST)
        small = s - 3
        heads = ("Turn", "Player", "Scored / best", "Pts lost", "Eval. lost")
        anchors = ("topleft", "topleft", "topright", "topright", "topright")
        for cx, head, anchor in zip(lay.columns, heads, anchors, strict=True):
            write(surface, head, small - 1, DIM, (cx, lay.heads), anchor)
        self.visible = max(1, lay.rows[3] // lay.row)
        self.top = max(0, min(self.top, max(0, len(self.shown) - self.visible)))
        hover = self._row_at(self.mouse)
        several = len({t.round for t in review.turns}) > 1
        for k in range(self.visible):
            i = self.top + k
            if i >= len(self.shown):
                break
            r = (lay.rows[0], lay.rows[1] + k * lay.row, lay.rows[2], lay.row - 4)
            if i == self.chosen:
                rounded_panel(surface, r, (255, 214, 102, 60), 6)
                ring(surface, r)
            elif i == hover:
                rounded_panel(surface, r, (255, 255, 255, 25), 6)
            turn = review.turns[self.shown[i]]
            _draw_row(surface, turn, review.names[turn.player], r, lay.columns, s, several)
        if not self.shown:
            write(surface, "No turns to review.", s, CREAM, (lay.rows[0] + 8, lay.rows[1] + s), "topleft")
        else:
            last = min(len(self.shown), self.top + self.visible)
            said = f"{self.order.value} · {self.top + 1}-{last} of {len(self.shown)}"
            at = (lay.rows[0] + 8, lay.rows[1] + lay.rows[3] + round(s * 0.2))
            write(surface, fit(said, small - 3, lay.rows[2]), small - 3, DIM, at, "topleft")
        chosen = self.shown[self.chosen] + 1 if self.shown else None
        chart = chart_surface(series_of(review), _size(lay.chart), _chart_text(s), chosen)
        surface.blit(chart, lay.chart[:2])
        pygame.draw.rect(surface, art.shade(art.FRAME_WOOD, 0.7), lay.chart, 1)
        _draw_summary(surface, review, lay.summary, s)
        if self.message:
            colour = RED if "could not" in self.message or "no data" in self.message else CREAM
            sy = min(r[1] for r in lay.buttons.values()) - 4
            write(
                surface,
                fit(self.message, s - 5, lay.card[2] - 2 * s),
                s - 5,
                colour,
                (lay.card[0] + lay.card[2] // 2, sy),
                "midbottom",
            )
        other = "By turn" if self.order is Order.MISSES else "By misses"
        labels = {"open": "Open turn", "order": other, "export": "Save chart", "back": "Back"}
        for name, rect in lay.buttons.items():
            enabled = name == "back" or bool(self.shown)
            button(surface, rect, labels[name], enabled, contains(rect, self.mouse), strong=name == "open")

    def _draw_turn(self, surface: pygame.Surface) -> None:
        turn = self.turn
        assert turn is not None and self.review is not None
        lay = turn_layout(surface.get_size())
        s = lay.text
        backdrop(surface)
        card(surface, lay.card)
        name = self.review.names[turn.player]
        rounds = len({t.round for t in self.review.turns}) > 1
        where = f"Round {turn.round + 1}, turn {turn.number + 1}" if rounds else f"Turn {turn.number + 1}"
        heading(surface, f"{where} · {name}", lay.card, s, HINT_TURN)
        x, _, w, _ = lay.card
        said, colour = cost_words(name, turn), BEST if turn.is_best else CREAM
        write(surface, fit(said, s - 2, w - 2 * s), s - 2, colour, (x + w // 2, lay.headline), "midtop")
        rack = f"Rack before the turn: {format_rack(turn.rack)} · {method_words(turn)}"
        write(surface, fit(rack, s - 5, w - 2 * s), s - 5, DIM, (x + w // 2, lay.headline + round(s * 1.35)), "midtop")
        at = (x + w // 2, lay.headline + round(s * 2.35))
        write(surface, fit(evaluation_words(turn), s - 6, w - 2 * s), s - 6, DIM, at, "midtop")
        cell_from = Layout.of(*surface.get_size()).tile_rect(Square(0, 0))[2]
        area = turn_region(turn)
        sides = (
            ("Played", turn.played, turn.played_score, turn.played_value, GOLD, GOLD),
            ("Best found", turn.best, turn.best_score, turn.best_value, BEST, BEST),
        )
        for rect, (title, move, points, value, colour, frame) in zip(lay.panels, sides, strict=True):
            _draw_side(surface, rect, s, turn.board_before, area, cell_from, title, move, points, value, colour, frame)
        labels = {"previous": "Previous", "list": "Back to list", "next": "Next"}
        for bname, rect in lay.buttons.items():
            enabled = bname == "list" or (self.chosen > 0 if bname == "previous" else self.chosen < len(self.shown) - 1)
            button(surface, rect, labels[bname], enabled, contains(rect, self.mouse), strong=bname == "list")


def _let_go(worker: Worker) -> None:
    """Stop the analysis and end its process (whatever went wrong with it: the window goes on)."""
    try:
        worker.cancel()
        worker.close()
    except Exception as e:
        log.warning("the review's worker could not be stopped: %s", e)


def _size(rect: Rect) -> tuple[int, int]:
    return rect[2], rect[3]


def _chart_text(s: int) -> int:
    """The size of the chart's words beside the list's."""
    return max(14, s - 5)


def _running_button(size: tuple[int, int]) -> Rect:
    x, y, w, h = card_rect(size, *CARD)
    s = text_size(size)
    bw, bh = max(120, round(w * 0.22)), max(28, round(s * 1.6))
    return (x + (w - bw) // 2, y + h - round(s * 1.0) - bh, bw, bh)


def _wrapped(text: str, size: int, width: int) -> list[str]:
    from ..paint import wrap

    return wrap(text, size, width)


def _draw_row(
    surface: pygame.Surface,
    turn: TurnReview,
    name: str,
    r: Rect,
    columns: tuple[int, ...],
    s: int,
    several_rounds: bool,
) -> None:
    """One turn of the list: when, who, what it scored against the best, what it cost; under it the
    two plays in notation."""
    x, y, w, _h = r
    big, small = s - 3, max(14, s - 7)
    y1 = y + 3
    y2 = y1 + round(big * 1.2)
    when = f"R{turn.round + 1} · turn {turn.number + 1}" if several_rounds else f"turn {turn.number + 1}"
    write(surface, when, big, DIM, (columns[0], y1), "topleft")
    colour = art.PLAYER_COLOURS[turn.player % len(art.PLAYER_COLOURS)]
    pygame.draw.circle(surface, colour, (columns[1] + 6, y1 + big // 3), 6)
    scored = f"{turn.played_score} / {turn.best_score}"
    room = columns[2] - columns[1] - 24 - art.font(big).size(scored)[0]
    write(surface, fit(name, big, room), big, CREAM, (columns[1] + 18, y1), "topleft")
    write(surface, scored, big, CREAM, (columns[2], y1), "topright")
    if turn.is_best:
        write(surface, "the best play", big, BEST, (columns[4], y1), "topright")
    else:
        colour = RED if turn.value_lost >= BIG_MISS else GOLD
        points = colour if turn.points_lost > 0 else DIM  # the best may score less now and gain it later
        write(surface, str(turn.points_lost), big, points, (columns[3], y1), "topright")
        write(surface, f"{turn.value_lost:.1f}", big, colour, (columns[4], y1), "topright")
    half = (w - 24) // 2
    played = fit(move_words(turn.played), small, half - 8)
    write(surface, played, small, DIM, (columns[0], y2), "topleft")
    if not turn.is_best:
        reason = lost_reason(turn)  # kept whole: the play's notation gives way to it
        best = fit("best " + move_words(turn.best), small, half - 8 - art.font(small).size(reason)[0]) + reason
        write(surface, best, small, BEST, (x + 16 + half, y2), "topleft")


def _draw_summary(surface: pygame.Surface, review: Review, box: Rect, s: int) -> None:
    """Each player over the game: the best play found on how many turns, the points and evaluation
    lost; two lines a player where there is room, else one."""
    x, y, w, h = box
    size = max(14, s - 5)
    lh = round(size * 1.3)
    totals = review.totals()
    roomy = lh + len(totals) * (2 * lh + 4) <= h
    write(surface, "Over the game", size, DIM, (x, y), "topleft")
    y += lh
    for row in totals:
        if y + lh > box[1] + h:
            break
        colour = art.PLAYER_COLOURS[row.player % len(art.PLAYER_COLOURS)]
        pygame.draw.circle(surface, colour, (x + 6, y + size // 3), 6)
        name = fit(review.names[row.player], size, w // 3 if not roomy else w - 20)
        shown = write(surface, name, size, CREAM, (x + 18, y), "topleft")
        said = (
            f"the best play on {row.best_found} of {row.turns} turns · {row.points_lost} points"
            f" and {row.value_lost:.1f} of evaluation lost"
        )
        small = max(14, size - 2)
        if roomy:
            write(surface, fit(said, small, w - 18), small, DIM, (x + 18, y + lh), "topleft")
            y += 2 * lh + 4
        else:
            left = shown[0] + shown[2] + size // 2
            write(surface, fit(said, small, x + w - left), small, DIM, (left, y + (size - small) // 2), "topleft")
            y += lh


def _draw_side(
    surface: pygame.Surface,
    rect: Rect,
    s: int,
    before: Board,
    area: tuple[int, int, int, int],
    cell_from: int,
    title: str,
    move: Move,
    points: int,
    value: float,
    colour: tuple[int, int, int],
    frame: tuple[int, int, int],
) -> None:
    """One side of a turn: its title and score, the board with the move on it, its breakdown."""
    x, y, w, h = rect
    rounded_panel(surface, rect, FIELD, 8)
    pad = max(6, s // 2)
    write(surface, title, s, colour, (x + pad, y + pad), "topleft")
    write(surface, f"{points}", s, colour, (x + w - pad, y + pad), "topright")
    words = fit(move_words(move), s - 4, w - 2 * pad)
    write(surface, words, s - 4, CREAM, (x + pad, y + pad + round(s * 1.3)), "topleft")
    write(surface, f"evaluation {value:.1f}", s - 6, DIM, (x + w - pad, y + pad + round(s * 1.3)), "topright")
    top = y + pad + round(s * 2.7)
    body = (x + pad, top, w - 2 * pad, y + h - pad - top)
    r0, r1, c0, c1 = area
    rows, cols = r1 - r0 + 1, c1 - c0 + 1
    beside = int(min(body[2] * 0.6 / (cols + 0.7), body[3] / (rows + 0.7)))  # the breakdown right of it
    above = int(min(body[2] / (cols + 0.7), body[3] * 0.62 / (rows + 0.7)))  # the breakdown under it
    cell = max(beside, above)
    bw, bh = round(cell * (cols + 0.7)), round(cell * (rows + 0.7))
    placed = move.placements if isinstance(move, Play) else ()
    if beside >= above:
        draw_board_part(surface, (body[0], body[1], bw, bh), cell, before, area, placed, frame, cell_from)
        bx = body[0] + bw + pad
        box = (bx, body[1], body[0] + body[2] - bx, body[3])
    else:
        left = body[0] + (body[2] - bw) // 2
        draw_board_part(surface, (left, body[1], bw, bh), cell, before, area, placed, frame, cell_from)
        by = body[1] + bh + pad
        box = (body[0], by, body[2], body[1] + body[3] - by)
    score = _score_of(before, move) if isinstance(move, Play) else None
    if score is not None:
        _draw_rows(surface, place(score_rows(score, "Breakdown"), box, max(13, s - 6), max(4, s // 3))[0])
    elif isinstance(move, Play):
        write(surface, "This play does not score here.", s - 5, RED, box[:2], "topleft")
    elif isinstance(move, Exchange):
        write(surface, fit(f"Exchanged {len(move.tiles)} tiles: no points.", s - 5, box[2]), s - 5, DIM, box[:2])
    else:
        write(surface, "A pass: no points.", s - 5, DIM, box[:2], "topleft")


def _draw_rows(surface: pygame.Surface, rows: list[InfoRow]) -> None:
    for row in rows:
        rx, ry, rw, rh = row.rect
        write(surface, row.left, row.size, row.colour, (rx + row.indent * row.size, ry + rh / 2), "midleft")
        if row.right:
            write(surface, row.right, row.size, row.colour, (rx + rw, ry + rh / 2), "midright")


def draw_board_part(
    surface: pygame.Surface,
    rect: Rect,
    c: int,
    before: Board,
    area: tuple[int, int, int, int],
    placed: Sequence[tuple[Square, object]],
    frame: tuple[int, int, int],
    face_size: int,
) -> None:
    """The rows and columns `area` of the board, `c` pixels a square, with their names, the tiles on
    `before` and the `placed` ones framed in `frame`. Tile faces are the table's (drawn at `face_size`,
    already made for the game) scaled, so opening a turn never waits for wood to be drawn."""
    r0, r1, c0, c1 = area
    gx, gy = board_grid(surface, (rect[0], rect[1]), c, area, label=0.7, names=0.42)
    side = max(4, c - 2)
    for square, tile in [*before.tiles(), *placed]:
        if not (r0 <= square.row <= r1 and c0 <= square.col <= c1):
            continue
        face = art.tile_face(tile, face_size)  # type: ignore[arg-type]
        sx, sy = gx + (square.col - c0) * c, gy + (square.row - r0) * c
        blit_tile(surface, scaled(face, side, side), sx + 1, sy + 1, side)
    width = max(2, c // 12)
    for square, _ in placed:
        sx, sy = gx + (square.col - c0) * c, gy + (square.row - r0) * c
        pygame.draw.rect(surface, frame, (sx - 1, sy - 1, c + 2, c + 2), width, border_radius=max(3, c // 8))
