"""The History screen (every finished game, newest first, each one replayed or exported) and the
Statistics screen (per mode and opponent: games, wins, averages, bests, streaks), from the history
database through the window's keeper. Games of classic cribbage are listed among them, marked as such
(replayed, reviewed and exported as the tile games are), and counted on the Statistics screen's second
page, by bot level.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import pygame

from cribtiles.games import GAMES, HISTORY_ROW, STATISTICS_PAGE, game_named
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.game_summary import GameSummary
from cribtiles.table.ledger import Stats
from cribtiles.table.tiles.table import Table

from .config import Keeper
from .geometry import Rect, contains
from .history_parts import Section, StatisticsPage
from .paint import CREAM, DIM, GOLD, RED, button, wrap, write
from .screens import Cells, cell_needs, chosen_in_sight, column_spans, draw_rows, fit, list_key, screen_card

#: Seconds within which a second click on the same game opens it.
DOUBLE_CLICK = 0.4


class HistoryHost(Protocol):
    keeper: Keeper

    def open_replay(self, table: Table | CribbageTable, quit_on_close: bool = False) -> None: ...

    def open_review(self, table: Table | CribbageTable) -> None: ...

    def export_game(self, table: Table | CribbageTable) -> str: ...


def newest_first(games: Sequence[GameSummary]) -> list[GameSummary]:
    """The games of both games, the newest first (by when they ended; the later stored first on a tie)."""
    return sorted(reversed(games), key=lambda g: g.finished_at, reverse=True)


def lines(surface: pygame.Surface, text: str, s: int, colour: tuple[int, int, int], area: tuple[int, int, int]) -> None:
    """`text` wrapped to the width of `area` (left, top, width), centred, at most four lines."""
    x, top, w = area
    for i, line in enumerate(wrap(text, s, w)[:4]):
        write(surface, line, s, colour, (x + w // 2, top + round(i * s * 1.4)), "midtop")


class HistoryScene:
    """The finished games, newest first: Up/Down (or the wheel, or a click) choose, Enter or a double
    click replays, V reviews (every turn against the best play found), E exports the game's record,
    Escape goes back."""

    def __init__(self, host: HistoryHost, on_close: Callable[[], None], now: Callable[[], float] | None = None) -> None:
        self.host = host
        self.on_close = on_close
        keeper = host.keeper
        self.games: list[GameSummary] = newest_first(keeper.past_games())
        self.trouble = keeper.history_note()  # the history could not be read, games were left out: said
        self.chosen = 0
        self.top = 0  # the first row shown
        self.visible = 10  # rows that fit, as last drawn
        self.rows: list[tuple[int, Rect]] = []
        self.buttons: dict[str, Rect] = {}
        self.mouse = (-1, -1)
        self.message = ""
        self._now = now or (lambda: pygame.time.get_ticks() / 1000)
        self._last_click: tuple[int, float] | None = None
        self._spans: tuple[tuple[int, int], list[tuple[int, int]]] | None = None  # (text size, width): the columns

    # --- what it does ---

    def choose(self, i: int) -> None:
        if self.games:
            self.chosen, self.top = chosen_in_sight(i, len(self.games), self.top, self.visible)

    @property
    def replayable(self) -> bool:
        """Whether there is a game chosen, which replay and export take (of either game)."""
        return bool(self.games)

    @property
    def reviewable(self) -> bool:
        """Whether there is a game chosen, which the review takes (of either game)."""
        return bool(self.games)

    def _table(self) -> Table | CribbageTable | None:
        if not self.games:
            return None
        game = self.games[self.chosen]
        keeper = self.host.keeper
        table = keeper.past_game(game.id)
        if table is None:
            self.message = "This game's record could not be read: it cannot be replayed."
        return table

    def replay(self) -> None:
        table = self._table()
        if table is not None:
            self.message = ""
            self.host.open_replay(table)

    def review(self) -> None:
        table = self._table()
        if table is not None:
            self.message = ""
            self.host.open_review(table)

    def export(self) -> None:
        table = self._table()
        if table is not None:
            self.message = self.host.export_game(table)

    # --- input ---

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEWHEEL:
            self.top = max(0, min(max(0, len(self.games) - self.visible), self.top - event.y * 3))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._click(event.pos)
        elif event.type == pygame.KEYDOWN:
            k = event.key
            if k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.on_close()
            elif (row := list_key(k, self.chosen, len(self.games), self.visible)) is not None:
                self.choose(row)
            elif k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_r):
                self.replay()
            elif k == pygame.K_v:
                self.review()
            elif k == pygame.K_e:
                self.export()

    def _click(self, pos: tuple[int, int]) -> None:
        for name, rect in self.buttons.items():
            if contains(rect, pos):
                {"replay": self.replay, "review": self.review, "export": self.export, "back": self.on_close}[name]()
                return
        for i, rect in self.rows:
            if contains(rect, pos):
                now = self._now()
                again = self._last_click is not None and self._last_click[0] == i
                quick = again and self._last_click is not None and now - self._last_click[1] <= DOUBLE_CLICK
                self.choose(i)
                self._last_click = (i, now)
                if quick:
                    self.replay()
                return

    def update(self, dt: float) -> None:
        pass

    # --- drawing ---

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        hint = "Up/Down or click choose · Enter or a double click replays · V reviews · E exports · Esc goes back"
        rect, s, top = screen_card(surface, "History", hint, 0.9, 0.9)
        x, y, w, h = rect
        pad = round(s * 1.2)
        bh = max(28, round(s * 1.7))
        foot_y = y + h - pad - bh
        self._buttons(surface, x, w, foot_y, bh, s)
        message = self.message or (self.trouble if self.games else "")
        if message:
            colour = RED if "could not" in message or message is self.trouble else CREAM
            write(surface, fit(message, s - 2, w - 2 * pad), s - 2, colour, (x + w // 2, foot_y - 6), "midbottom")
        if not self.games:
            self.rows = []
            if self.trouble:  # never "no games" for a history that could not be read
                lines(surface, self.trouble, s, RED, (x + pad, top + 2 * s, w - 2 * pad))
                return None
            words = "No finished games yet. Every game is kept here when it ends, to be replayed."
            write(surface, fit(words, s, w - 2 * pad), s, CREAM, (x + w // 2, top + 2 * s), "midtop")
            return None
        self._list(surface, (x + pad, top, w - 2 * pad, foot_y - round(s * 1.6) - top), s)
        return None

    def _buttons(self, surface: pygame.Surface, x: int, w: int, by: int, bh: int, s: int) -> None:
        bw = max(120, round(w * 0.16))
        gap = round(s * 0.8)
        names = (("replay", "Replay"), ("review", "Review"), ("export", "Export"), ("back", "Back"))
        left = x + (w - len(names) * bw - (len(names) - 1) * gap) // 2
        self.buttons = {}
        for k, (name, label) in enumerate(names):
            r = (left + k * (bw + gap), by, bw, bh)
            self.buttons[name] = r
            enabled = name == "back" or (self.reviewable if name == "review" else self.replayable)
            button(surface, r, label, enabled, contains(r, self.mouse), strong=name == "replay")

    def _list(self, surface: pygame.Surface, area: Rect, s: int) -> None:
        # laid out by what the cells hold (column_spans), not at fixed fractions of the width
        columns = tuple((0.0, head) for head in ("Ended", "Game", "Players and final scores", "", ""))

        def cells_of(i: int) -> Cells:  # each game's row as the game has it (its `HISTORY_ROW`)
            g = self.games[i]
            cells: Cells = game_named(g.game).part(HISTORY_ROW)(g)
            return cells

        count = len(self.games)
        key = (s, area[2])
        if self._spans is None or self._spans[0] != key:  # measured once per window size, not each frame
            needs = cell_needs([head for _, head in columns], [cells_of(i)[0] for i in range(count)], s)
            self._spans = key, column_spans(needs, area[2], grow=2, shrink=(1, 2))
        self.visible, self.top, self.rows = draw_rows(
            surface, area, s, columns, count, self.top, self.chosen, self.mouse, cells_of, spans=self._spans[1]
        )


# --- statistics ---

CLOSING_KEYS = (pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_RETURN, pygame.K_KP_ENTER)
TAB_KEYS = (pygame.K_TAB, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_c)


class StatisticsScene:
    """A page per game, each the game's own (its `STATISTICS_PAGE`): the tile game's (per mode and opponent,
    the clean games first, then the games with undos or hints apart) and classic cribbage's (per bot level).
    Tab, Left/Right or C turn the page."""

    def __init__(self, host: HistoryHost, on_close: Callable[[], None]) -> None:
        self.host = host
        self.on_close = on_close
        self.stats: Stats = host.keeper.statistics()
        self.pages: tuple[StatisticsPage, ...] = tuple(kind.part(STATISTICS_PAGE) for kind in GAMES.values())
        self.trouble = host.keeper.history_note()  # the history could not be read, games were left out: said
        # the page with something on it: the first game's unless only another has been played
        self.tab = next((i for i, page in enumerate(self.pages) if page.played(self.stats)), 0)
        self.mouse = (-1, -1)
        self.back: Rect = (0, 0, 0, 0)
        self.tabs: list[Rect] = []

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if contains(self.back, event.pos):
                self.on_close()
            for i, rect in enumerate(self.tabs):
                if contains(rect, event.pos):
                    self.tab = i
        elif event.type == pygame.KEYDOWN:
            if event.key in CLOSING_KEYS:
                self.on_close()
            elif event.key in TAB_KEYS:
                self.tab = (self.tab + 1) % len(self.pages)

    def update(self, dt: float) -> None:
        pass

    def page(self) -> tuple[list[Section], str, str]:
        """The sections of the page shown, what it says when it has none, and a note under it."""
        return self.pages[self.tab].page(self.stats)

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        rect, s, top = screen_card(surface, "Statistics", "Tab turns the page · Esc or Enter goes back", 0.94, 0.9)
        x, y, w, h = rect
        pad = round(s * 1.0)
        bh = max(28, round(s * 1.7))
        bw = max(120, round(w * 0.16))
        self.back = (x + (w - bw) // 2, y + h - pad - bh, bw, bh)
        button(surface, self.back, "Back", True, contains(self.back, self.mouse), strong=True)
        top = self._draw_tabs(surface, x + pad, top, s)
        sections, empty, note = self.page()
        small = max(12, s - 4)
        noted = [part for para in note.split("\n") for part in wrap(para, small - 2, w - 4 * pad)][:5]
        step = round((small - 2) * 1.3)
        bottom = self.back[1] - 6 - len(noted) * step - s // 2  # the tables stop above the notes
        if not sections and self.trouble:  # never "no games" for a history that could not be read
            lines(surface, self.trouble, s, RED, (x + pad, top + 2 * s, w - 2 * pad))
        elif not sections:
            write(surface, fit(empty, s, w - 2 * pad), s, CREAM, (x + w // 2, top + 2 * s), "midtop")
        else:
            self._draw_sections(surface, sections, (x + pad, top, w - 2 * pad, bottom), s, small)
        if self.trouble and sections:
            write(
                surface, fit(self.trouble, small, w - 2 * pad), small, RED, (x + w // 2, self.back[1] - 6), "midbottom"
            )
        elif noted:  # under the tables, above Back: as many lines as it takes
            for i, part in enumerate(noted):
                at = (x + w // 2, self.back[1] - 6 - (len(noted) - 1 - i) * step)
                write(surface, part, small - 2, DIM, at, "midbottom")
        return None

    def _draw_tabs(self, surface: pygame.Surface, x: int, top: int, s: int) -> int:
        """The two pages' names as buttons, the one shown lit; where the page's content starts."""
        th = max(24, round(s * 1.5))
        tw = max(140, round(s * 9))
        self.tabs = [(x + i * (tw + s // 2), top, tw, th) for i in range(len(self.pages))]
        for i, (tab, page) in enumerate(zip(self.tabs, self.pages, strict=True)):
            button(surface, tab, page.label, True, contains(tab, self.mouse), strong=i == self.tab)
        return top + th + round(s * 0.8)

    def _draw_sections(
        self, surface: pygame.Surface, sections: list[Section], area: tuple[int, int, int, int], s: int, small: int
    ) -> None:
        x, ty, w, bottom = area
        first = round(w * 0.2)
        # rows closer together, and then smaller, when the sections would not fit otherwise (a row per heading)
        fixed = len(sections) * (round(s * 1.5) + round(small * 1.1) + round(s * 0.6))
        wanted = sum(len(rows) + 1 for _, _, rows in sections)
        room = (bottom - ty - fixed) // max(1, wanted)
        small = max(11, min(small, round(room / 1.2)))
        row = max(round(small * 1.2), min(round(small * 1.6), room))
        for title, heads, rows in sections:
            col = (w - first) // len(heads)
            write(surface, title, s - 1, GOLD, (x, ty), "topleft")
            ty += round(s * 1.5)
            for k, head in enumerate(heads):
                cx = x + first + k * col + col // 2
                for n, part in enumerate(head.split("\n")):  # a long heading on two lines
                    at = (cx, ty + n * round(small * 1.1))
                    write(surface, fit(part, small - 2, col - 4), small - 2, DIM, at, "midtop")
            ty += row + round(small * 1.1)
            for label, cells, total in rows:
                if ty + row > bottom:
                    write(surface, "…", small, DIM, (x, ty), "topleft")
                    break
                colour = GOLD if total else CREAM
                write(surface, fit(label, small, first - 8), small, colour, (x, ty), "topleft")
                for k, value in enumerate(cells):
                    cx = x + first + k * col + col // 2
                    write(surface, fit(value, small, col - 4), small, colour, (cx, ty), "midtop")
                ty += row
            ty += round(s * 0.6)
