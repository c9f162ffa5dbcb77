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

from cribtiles.table.cribbage.ledger import CribbageLine, CribbageStats
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.game_summary import PEOPLE, VARIANT_WORDS, Game, GameSummary, Result
from cribtiles.table.ledger import StatLine, Stats
from cribtiles.table.stat_columns import (
    BY_THE_BOOK,
    COUNTS_NOTE,
    CRIBBAGE_COLUMNS,
    CRIBBAGE_COUNT_COLUMNS,
    TILE_COLUMNS,
    Column,
    group_words,
    level_words,
    shown_lines,
)
from cribtiles.table.tiles.table import Table

from .config import Keeper
from .geometry import Rect, contains
from .paint import CREAM, DIM, GOLD, RED, button, wrap, write
from .screens import Cells, cell_needs, chosen_in_sight, column_spans, draw_rows, fit, list_key, screen_card

#: Seconds within which a second click on the same game opens it.
DOUBLE_CLICK = 0.4
WON = (150, 220, 130)


class HistoryHost(Protocol):
    keeper: Keeper

    def open_replay(self, table: Table, quit_on_close: bool = False) -> None: ...

    def open_cribbage_replay(self, table: CribbageTable, quit_on_close: bool = False) -> None: ...

    def open_review(self, table: Table) -> None: ...

    def open_cribbage_review(self, table: CribbageTable) -> None: ...

    def export_game(self, table: Table | CribbageTable) -> str: ...


def when(summary: GameSummary) -> str:
    """The date and time a game ended, as the list shows it: 2026-11-30 14:05."""
    return summary.finished_at.replace("T", " ")[:16]


def what(summary: GameSummary) -> str:
    """The kind of tile game: Standard or Solitaire, a match of N rounds, against whom."""
    kind = "Solitaire" if summary.tiles.mode == "solitaire" else "Standard"
    if summary.rounds_words:
        kind += f", {summary.rounds_words}"
    against = "people" if summary.opponent == PEOPLE else summary.opponent.replace("+", " + ")
    return f"{kind} · {against}"


def players(summary: GameSummary) -> str:
    """Each player with their final score, winners marked: You 112 · Hard 98 (a game kept unfinished
    has no winner to mark, only scores as it was left)."""
    parts = []
    for i, ((name, _), score) in enumerate(zip(summary.seats, summary.scores, strict=True)):
        star = "» " if i in summary.winners and not summary.unfinished else ""  # the font has no star
        parts.append(f"{star}{name} {score}")
    return " · ".join(parts)


RESULT_WORDS = {
    Result.WIN: "won",
    Result.LOSS: "lost",
    Result.TIE: "tied",
    Result.PEOPLE_ONLY: "",
    Result.WATCHED: "watched",
    Result.UNFINISHED: "unfinished",
}


def cribbage_what(game: GameSummary) -> str:
    """'Cribbage · medium', with the variant, muggins or another target when played so ('Cribbage · three
    players · easy+hard · to 61')."""
    d = game.cribbage
    rules = [word for word, on in (("muggins", d.muggins), (f"to {d.target}", d.target != 121)) if on]
    levels = "+".join(dict.fromkeys(game.opponent.split("+")))  # three bots of one level: that level once
    return " · ".join(["Cribbage", *([d.variant_words] if d.variant_words else []), levels, *rules])


def cribbage_players(game: GameSummary) -> str:
    """'» You 121 · Medium bot 84', in seat order, the winner marked."""
    return " · ".join(
        f"{'» ' if i in game.winners else ''}{name} {score}"
        for i, ((name, _), score) in enumerate(zip(game.seats, game.scores, strict=True))
    )


def cribbage_marks(game: GameSummary) -> str:
    """'skunk' or 'double skunk' when the loser fell short of 91 or 61; the undos and hints, as a tile
    game's: 'skunk, 2 undos'."""
    d = game.cribbage
    out = [d.margin.value] if d.skunk and game.resigned is None else []  # a game given up counts no skunk
    out += resigned(game)
    out += [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((d.undos, "undo"), (d.hints, "hint")) if n]
    return ", ".join(out)


def newest_first(games: Sequence[GameSummary]) -> list[GameSummary]:
    """The games of both games, the newest first (by when they ended; the later stored first on a tie)."""
    return sorted(reversed(games), key=lambda g: g.finished_at, reverse=True)


def resigned(summary: GameSummary) -> list[str]:
    """Who gave the game up, if anyone: ['Ben resigned'] ('you' for the one person at a table of bots)."""
    seat = summary.resigned
    if seat is None:
        return []
    alone = summary.people == (seat,) and bool(summary.bots)
    return ["you resigned" if alone else f"{summary.seats[seat][0]} resigned"]


def marks(summary: GameSummary) -> str:
    """Who resigned, and a tile game's undos and hints: 'Ben resigned, 2 undos, 1 hint'."""
    d, out = summary.tiles, resigned(summary)
    if d.undos:
        out.append(f"{d.undos} undo{'s' if d.undos != 1 else ''}")
    if d.hints:
        out.append(f"{d.hints} hint{'s' if d.hints != 1 else ''}")
    return ", ".join(out)


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
        if isinstance(table, CribbageTable):
            self.message = ""
            self.host.open_cribbage_replay(table)
        elif table is not None:
            self.message = ""
            self.host.open_replay(table)

    def review(self) -> None:
        table = self._table()
        if isinstance(table, CribbageTable):
            self.message = ""
            self.host.open_cribbage_review(table)
        elif table is not None:
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

        def cells_of(i: int) -> Cells:
            g = self.games[i]
            if g.game is Game.CRIBBAGE:
                person_won = g.result is Result.WIN
                won = "won" if person_won else "" if g.result is Result.PEOPLE_ONLY else "lost"  # two people online
                colours = (DIM, CREAM, CREAM, WON if person_won else CREAM, GOLD)
                return (when(g), cribbage_what(g), cribbage_players(g), won, cribbage_marks(g)), colours
            result = g.result
            shade = WON if result is Result.WIN else CREAM
            return (when(g), what(g), players(g), RESULT_WORDS[result], marks(g)), (DIM, CREAM, CREAM, shade, GOLD)

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
#: The Statistics screen's two pages: the tile game's and classic cribbage's.
TABS = (("tiles", "Kings Cribbage"), ("cribbage", "Classic cribbage"))


#: One row of a statistics table as drawn: its label, its cells, and whether it is a total (gold).
Row = tuple[str, tuple[str, ...], bool]
#: One section of a page: its title, its column headings (two lines at most, split by a newline), its rows.
Section = tuple[str, tuple[str, ...], list[Row]]


def _rows(lines: Sequence[StatLine], total: StatLine | None) -> list[Row]:
    shown = shown_lines(lines, total)
    return [(group_words(ln), tuple(c.cell(ln) for c in TILE_COLUMNS), ln is total) for ln in shown]


def cribbage_rows(
    stats: CribbageStats, columns: Sequence[Column[CribbageLine]] = CRIBBAGE_COLUMNS, marked: bool = False
) -> list[Row]:
    """The rows of the games without undos or hints (`marked`: of those with them), in `columns`."""
    lines, total = (stats.marked, stats.marked_total) if marked else (stats.lines, stats.total)
    shown = shown_lines(lines, total)
    return [(level_words(ln), tuple(c.cell(ln) for c in columns), ln is total) for ln in shown]


class StatisticsScene:
    """Two pages: the tile game's (per mode and opponent, the clean games first, then the games with undos
    or hints apart) and classic cribbage's (per bot level). Tab, Left/Right or C turn the page."""

    def __init__(self, host: HistoryHost, on_close: Callable[[], None]) -> None:
        self.host = host
        self.on_close = on_close
        self.stats: Stats = host.keeper.statistics()
        self.cribbage: CribbageStats = self.stats.cribbage
        self.trouble = host.keeper.history_note()  # the history could not be read, games were left out: said
        # the page with something on it: the tile game's unless only cribbage has been played
        self.tab = 1 if self.cribbage.games and not (self.stats.lines or self.stats.marked) else 0
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
                self.tab = 1 - self.tab

    def update(self, dt: float) -> None:
        pass

    def sections(self) -> list[tuple[str, Sequence[StatLine], StatLine | None]]:
        """The tile game's sections: the clean games, then those with undos or hints."""
        st = self.stats
        out: list[tuple[str, Sequence[StatLine], StatLine | None]] = []
        if st.lines:
            out.append(("Your games", st.lines, st.total))
        if st.marked:
            out.append(("Games with undos or hints, counted apart", st.marked, st.marked_total))
        return out

    def page(self) -> tuple[list[Section], str, str]:
        """The sections of the page shown, what it says when it has none, and a note under it."""
        heads = tuple(c.heading for c in TILE_COLUMNS)
        if TABS[self.tab][0] == "tiles":
            sections = [(title, heads, _rows(lines, total)) for title, lines, total in self.sections()]
            empty = "No games to count yet: the statistics grow with every game you finish against a bot."
            watched = self.stats.watched
            note = (
                f"{watched} game(s) of bots only were watched, not played: they are in the history only."
                if watched
                else ""
            )
            return sections, empty, note
        cribbage_heads = tuple(c.heading for c in CRIBBAGE_COLUMNS)
        rows = cribbage_rows(self.cribbage)
        sections = [("Your games of classic cribbage", cribbage_heads, rows)] if rows else []
        if rows:
            count_heads = tuple(c.heading for c in CRIBBAGE_COUNT_COLUMNS)
            count_rows = cribbage_rows(self.cribbage, CRIBBAGE_COUNT_COLUMNS)
            sections.append(("Hands, pegging and counting", count_heads, count_rows))
        marked_rows = cribbage_rows(self.cribbage, marked=True)
        if marked_rows:
            sections.append(("Games with undos or hints, counted apart", cribbage_heads, marked_rows))
        variant_rows: list[Row] = [
            (VARIANT_WORDS.get(ln.level, ln.level).capitalize(), tuple(c.cell(ln) for c in CRIBBAGE_COLUMNS), False)
            for ln in self.cribbage.variants
        ]
        if variant_rows:  # each apart from the six-card game's figures: its hands and pegging are not the same
            sections.append(("The other variants, each on its own", cribbage_heads, variant_rows))
        empty = "No games of classic cribbage yet: they are counted here, by bot level, when they end."
        total = self.cribbage.total
        notes = []
        if total is not None and total.best_hand is not None:
            notes.append(f"Your best hand: {total.best_hand}, {total.best_hand_cards}.")
        if total is not None:
            notes = [" ".join([*notes, BY_THE_BOOK]), COUNTS_NOTE]
        note = "\n".join(notes)  # each its own line or lines
        return sections, empty, note

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
        self.tabs = [(x + i * (tw + s // 2), top, tw, th) for i in range(len(TABS))]
        for i, (tab, (_, label)) in enumerate(zip(self.tabs, TABS, strict=True)):
            button(surface, tab, label, True, contains(tab, self.mouse), strong=i == self.tab)
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
