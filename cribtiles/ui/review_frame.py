"""The review of a finished game in the window, for both games: the analysis run in the background (a
progress bar while the window stays responsive), then every decision of every player against the best
found, the biggest misses first, beside a chart of the scores decision by decision and each player's
totals; one decision opened at a time. Each game's scene (`tiles.review_scene`, `cribbage.review_scene`)
says what its decisions are and draws them; this module holds what they share: the worker polled, the
list and its keys, the chart and its export, the layouts.

Keys: Up/Down (wheel, click) choose, Enter or a click opens a decision, Left/Right step through the
decisions opened, O orders the list by misses or as played, E saves the chart as a PNG in the data
folder's exports, Escape goes back (and stops an analysis under way).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Generic, Protocol, TypeVar

import pygame

from . import art
from .geometry import Rect, contains
from .paint import CREAM, DIM, GOLD, RED, button, rounded_panel, write
from .review_chart import Series, chart_surface, plot_of, save_chart, turn_at
from .screens import backdrop, card, card_rect, fit, heading, ring, text_size

log = logging.getLogger("cribtiles.review")

#: The card's share of the window (width, height): one card for every view of the review.
CARD = (0.96, 0.94)
BEST = (150, 220, 130)  # the best decision's frames and words (the history's colour for a win)

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Worker(Protocol[R_co]):
    """What the scene needs of a review runner (`cribtiles.table.review_worker.ReviewRunner`)."""

    def progress(self) -> tuple[int, int]: ...

    def result(self) -> R_co | None: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class ReviewHost(Protocol):
    def exports_folder(self) -> Path | None:
        """The folder where files made for the player go (None: there is none here)."""
        ...


class Mode(Enum):
    RUNNING = "running"  # the analysis is under way: the progress bar
    LIST = "list"  # every decision, and the chart
    TURN = "turn"  # one decision opened
    FAILED = "failed"  # the analysis could not be made: why, in words


class Order(Enum):
    MISSES = "biggest misses first"
    TURNS = "in the order played"


def chart_file(folder: Path, now: float | None = None) -> Path:
    """A new file name for a review's chart in `folder`: crib-tiles-review-20261130-151300.png (-2 ... when taken)."""
    stem = f"crib-tiles-review-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now))}"
    path = folder / f"{stem}.png"
    n = 2
    while path.exists() or path.is_symlink():  # a link's name is taken, even a broken link's
        path = folder / f"{stem}-{n}.png"
        n += 1
    return path


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


class ReviewFrame(Generic[R]):
    """What the review of a game is in the window, for either game: the analysis polled (a progress bar),
    then the list of decisions (the biggest misses first, or in the order played) beside the chart of
    the scores and each player's totals, one decision opened at a time; `on_close()` when the player is
    done. Each game's scene says what its decisions are (`count`, `misses_first`, `series`,
    `chart_title`) and draws them (`draw_row`, `draw_summary`, `draw_turn`); `host.exports_folder()` is
    where E saves the chart."""

    #: What a decision is called in the list and the progress ("turn", "decision").
    unit = "turn"
    #: The list's column headings (five, at `ListLayout.columns`) and where each is anchored.
    heads: tuple[str, ...] = ("Turn", "Player", "Scored / best", "Pts lost", "Eval. lost")
    anchors: tuple[str, ...] = ("topleft", "topleft", "topright", "topright", "topright")
    #: What the analysis does, over the progress bar.
    running_words = "Each turn is played again by the Expert's analysis to find the best play."
    hint_list = (
        "Up/Down choose · Enter or a click opens a turn · O orders · Tab one player · E saves the chart · Esc back"
    )
    hint_turn = "Left/Right: the turn before or after in the list · Esc: back to the list"

    def __init__(self, host: ReviewHost, on_close: Callable[[], None], worker: Worker[R]) -> None:
        self.host = host
        self.on_close = on_close
        self.worker: Worker[R] | None = worker
        # a scene put away without being closed (a new game started over it, the window closed) still
        # stops its analysis: the window calls `shutdown`
        self.mode = Mode.RUNNING
        self.done, self.total = 0, 0
        self.review: R | None = None
        self.order = Order.MISSES
        self.player: int | None = None  # whose decisions are listed (Tab); None: every player's
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

    # --- what each game says of its review ---

    def count(self, review: R) -> int:
        """How many decisions the review weighed."""
        raise NotImplementedError

    def misses_first(self, review: R) -> list[int]:
        """The indices of the decisions, the biggest misses first, each once."""
        raise NotImplementedError

    def player_of(self, review: R, index: int) -> int:
        """Whose decision `index` was."""
        raise NotImplementedError

    def names_of(self, review: R) -> tuple[str, ...]:
        """The players' names, by seat."""
        raise NotImplementedError

    def series(self, review: R) -> Series:
        """The chart's scores, decision by decision."""
        raise NotImplementedError

    def chart_title(self, review: R) -> str:
        """A saved chart's title."""
        raise NotImplementedError

    def draw_row(self, surface: pygame.Surface, index: int, rect: Rect, columns: tuple[int, ...], s: int) -> None:
        """Decision `index` of the review as a row of the list."""
        raise NotImplementedError

    def draw_summary(self, surface: pygame.Surface, box: Rect, s: int) -> None:
        """Each player's totals under the chart."""
        raise NotImplementedError

    def draw_turn(self, surface: pygame.Surface) -> None:
        """The decision chosen, opened on the whole card."""
        raise NotImplementedError

    @property
    def index(self) -> int | None:
        """The index of the decision chosen in the list (and shown when one is opened)."""
        if self.review is None or not self.shown:
            return None
        return self.shown[self.chosen]

    # --- the analysis done ---

    def show(self, review: R) -> None:
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
        n = self.count(self.review)
        self.shown = self.misses_first(self.review) if self.order is Order.MISSES else list(range(n))
        if self.player is not None:
            review, player = self.review, self.player
            self.shown = [i for i in self.shown if self.player_of(review, i) == player]
        self.chosen = self.shown.index(keep) if keep is not None and keep in self.shown else 0
        self.top = 0
        self.choose(self.chosen)

    def toggle_order(self) -> None:
        self.order = Order.TURNS if self.order is Order.MISSES else Order.MISSES
        self._reorder()

    def next_player(self) -> None:
        """Tab: one player's decisions only, each player in turn, then everyone's again."""
        if self.review is None:
            return
        seats = len(self.names_of(self.review))
        self.player = 0 if self.player is None else self.player + 1
        if self.player >= seats:
            self.player = None
        self._reorder()

    def choose(self, i: int) -> None:
        if not self.shown:
            return
        self.chosen = max(0, min(len(self.shown) - 1, i))
        if self.chosen < self.top:
            self.top = self.chosen
        elif self.chosen >= self.top + self.visible:
            self.top = self.chosen - self.visible + 1

    def open(self, i: int | None = None) -> None:
        if i is not None:
            self.choose(i)
        if self.index is not None:
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
            save_chart(self.series(self.review), str(path), self.chart_title(self.review))
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
        elif k == pygame.K_TAB:
            self.next_player()
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
        if contains(lay.chart, pos) and self.review is not None and self.count(self.review):
            plot = plot_of(self.series(self.review), _size(lay.chart), _chart_text(lay.text))
            # the chart may end on the final scores, a point past the last decision: that opens the last one
            k = min(turn_at(plot, pos[0] - lay.chart[0]), self.count(self.review)) - 1
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
        drawn: tuple[object, ...] = (self.size, self.mode, self.done, self.total, self.chosen, self.top)
        drawn += (self.order, self.player, self.message, hover)
        if not full and drawn == self._drawn:
            return []
        self._drawn = drawn
        if self.mode in (Mode.RUNNING, Mode.FAILED):
            self._draw_running(surface)
        elif self.mode is Mode.LIST:
            self._draw_list(surface)
        else:
            self.draw_turn(surface)
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
        words = self.running_words
        write(surface, fit(words, s - 2, w - 3 * s), s - 2, CREAM, (x + w // 2, middle - round(s * 2.2)), "midtop")
        bw = min(w - 4 * s, 40 * s)
        bar = (x + (w - bw) // 2, middle, bw, round(s * 1.2))
        rounded_panel(surface, bar, (20, 12, 8, 220), bar[3] // 2)
        fraction = self.done / self.total if self.total > 0 else 0.0
        filled = round((bar[2] - 4) * max(0.0, min(1.0, fraction)))
        if filled > 0:
            pygame.draw.rect(surface, GOLD, (bar[0] + 2, bar[1] + 2, filled, bar[3] - 4), border_radius=bar[3] // 2)
        said = f"{self.unit.capitalize()} {self.done} of {self.total}" if self.total else "Starting the analysis…"
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
        heading(surface, "Game review", lay.card, s, self.hint_list)
        small = s - 3
        for cx, head, anchor in zip(lay.columns, self.heads, self.anchors, strict=True):
            write(surface, head, small - 1, DIM, (cx, lay.heads), anchor)
        self.visible = max(1, lay.rows[3] // lay.row)
        self.top = max(0, min(self.top, max(0, len(self.shown) - self.visible)))
        hover = self._row_at(self.mouse)
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
            self.draw_row(surface, self.shown[i], r, lay.columns, s)
        if not self.shown:
            none = f"No {self.unit}s to review" + ("." if self.player is None else " for this player: Tab for another.")
            write(surface, none, s, CREAM, (lay.rows[0] + 8, lay.rows[1] + s), "topleft")
        else:
            last = min(len(self.shown), self.top + self.visible)
            whose = "" if self.player is None else f" · {self.names_of(review)[self.player]} only"
            said = f"{self.order.value}{whose} · {self.top + 1}-{last} of {len(self.shown)}"
            at = (lay.rows[0] + 8, lay.rows[1] + lay.rows[3] + round(s * 0.2))
            write(surface, fit(said, small - 3, lay.rows[2]), small - 3, DIM, at, "topleft")
        chosen = self.shown[self.chosen] + 1 if self.shown else None
        chart = chart_surface(self.series(review), _size(lay.chart), _chart_text(s), chosen)
        surface.blit(chart, lay.chart[:2])
        pygame.draw.rect(surface, art.shade(art.FRAME_WOOD, 0.7), lay.chart, 1)
        self.draw_summary(surface, lay.summary, s)
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
        other = "As played" if self.order is Order.MISSES else "By misses"
        labels = {"open": f"Open {self.unit}", "order": other, "export": "Save chart", "back": "Back"}
        for name, rect in lay.buttons.items():
            enabled = name == "back" or bool(self.shown)
            button(surface, rect, labels[name], enabled, contains(rect, self.mouse), strong=name == "open")


def _let_go(worker: Worker[object]) -> None:
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
    from .paint import wrap

    return wrap(text, size, width)
