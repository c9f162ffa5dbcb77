"""The History screen (every finished game, newest first, each one replayed or exported) and the
Statistics screen (per mode and opponent: games, wins, averages, bests, streaks), from the history
database through the window's keeper.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import pygame

from cribtiles.table.ledger import PEOPLE, GameSummary, Result, StatLine, Stats
from cribtiles.table.model import Table

from .config import Keeper
from .geometry import Rect, contains
from .paint import CREAM, DIM, GOLD, RED, button, write
from .screens import Cells, chosen_in_sight, draw_rows, fit, list_key, screen_card

#: Seconds within which a second click on the same game opens it.
DOUBLE_CLICK = 0.4
WON = (150, 220, 130)


class HistoryHost(Protocol):
    keeper: Keeper

    def open_replay(self, table: Table, quit_on_close: bool = False) -> None: ...

    def open_review(self, table: Table) -> None: ...

    def export_game(self, table: Table) -> str: ...


def when(summary: GameSummary) -> str:
    """The date and time a game ended, as the list shows it: 2026-11-30 14:05."""
    return summary.finished_at.replace("T", " ")[:16]


def what(summary: GameSummary) -> str:
    """The kind of game: Standard or Solitaire, a match of N rounds, against whom."""
    kind = "Solitaire" if summary.mode == "solitaire" else "Standard"
    if summary.is_match:
        kind += f", match of {summary.rounds}"
    against = "people" if summary.opponent == PEOPLE else summary.opponent.replace("+", " + ")
    return f"{kind} · {against}"


def players(summary: GameSummary) -> str:
    """Each player with their final score, winners marked: You 112 · Hard 98."""
    parts = []
    for i, ((name, _), score) in enumerate(zip(summary.seats, summary.scores, strict=True)):
        star = "» " if i in summary.winners else ""  # the font has no star
        parts.append(f"{star}{name} {score}")
    return " · ".join(parts)


RESULT_WORDS = {
    Result.WIN: "won",
    Result.LOSS: "lost",
    Result.TIE: "tied",
    Result.PEOPLE_ONLY: "",
    Result.WATCHED: "watched",
}


def marks(summary: GameSummary) -> str:
    out = []
    if summary.undos:
        out.append(f"{summary.undos} undo{'s' if summary.undos != 1 else ''}")
    if summary.hints:
        out.append(f"{summary.hints} hint{'s' if summary.hints != 1 else ''}")
    return ", ".join(out)


class HistoryScene:
    """The finished games, newest first: Up/Down (or the wheel, or a click) choose, Enter or a double
    click replays, V reviews (every turn against the best play found), E exports the game's record,
    Escape goes back."""

    def __init__(self, host: HistoryHost, on_close: Callable[[], None], now: Callable[[], float] | None = None) -> None:
        self.host = host
        self.on_close = on_close
        self.games: list[GameSummary] = list(reversed(host.keeper.past_games()))
        self.chosen = 0
        self.top = 0  # the first row shown
        self.visible = 10  # rows that fit, as last drawn
        self.rows: list[tuple[int, Rect]] = []
        self.buttons: dict[str, Rect] = {}
        self.mouse = (-1, -1)
        self.message = ""
        self._now = now or (lambda: pygame.time.get_ticks() / 1000)
        self._last_click: tuple[int, float] | None = None

    # --- what it does ---

    def choose(self, i: int) -> None:
        if self.games:
            self.chosen, self.top = chosen_in_sight(i, len(self.games), self.top, self.visible)

    def _table(self) -> Table | None:
        if not self.games:
            return None
        table = self.host.keeper.past_table(self.games[self.chosen].id)
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
        if self.message:
            colour = RED if "could not" in self.message else CREAM
            write(surface, fit(self.message, s - 2, w - 2 * pad), s - 2, colour, (x + w // 2, foot_y - 6), "midbottom")
        if not self.games:
            self.rows = []
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
            enabled = name == "back" or bool(self.games)
            button(surface, r, label, enabled, contains(r, self.mouse), strong=name == "replay")

    def _list(self, surface: pygame.Surface, area: Rect, s: int) -> None:
        columns = ((0.0, "Ended"), (0.17, "Game"), (0.42, "Players and final scores"), (0.83, ""), (0.9, ""))

        def cells_of(i: int) -> Cells:
            g = self.games[i]
            result = g.result
            won = WON if result is Result.WIN else CREAM
            return (when(g), what(g), players(g), RESULT_WORDS[result], marks(g)), (DIM, CREAM, CREAM, won, GOLD)

        count = len(self.games)
        self.visible, self.top, self.rows = draw_rows(
            surface, area, s, columns, count, self.top, self.chosen, self.mouse, cells_of
        )


# --- statistics ---

COLUMNS: tuple[tuple[str, Callable[[StatLine], str]], ...] = (
    ("Games", lambda ln: str(ln.games)),
    ("Won", lambda ln: str(ln.wins)),
    ("Lost", lambda ln: str(ln.losses)),
    ("Tied", lambda ln: str(ln.ties)),
    ("Win %", lambda ln: "" if ln.win_rate is None else f"{100 * ln.win_rate:.0f}%"),
    ("Average", lambda ln: f"{ln.average_score:.1f}"),
    ("Best", lambda ln: str(ln.best_score)),
    ("Best play", lambda ln: str(ln.best_play)),
    ("Best line", lambda ln: str(ln.highest_line)),
    ("Streak", lambda ln: str(ln.longest_streak)),
    ("Solitaire\nmargin", lambda ln: "" if ln.best_margin is None else f"+{ln.best_margin}"),
    ("Matches\nwon", lambda ln: f"{ln.matches_won} of {ln.matches}" if ln.matches else ""),
)


CLOSING_KEYS = (pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_RETURN, pygame.K_KP_ENTER)


def group_words(line: StatLine) -> str:
    if line.opponent == "all":
        return "All games"
    kind = "Solitaire" if line.mode == "solitaire" else "Standard"
    against = "people only" if line.opponent == PEOPLE else "v " + line.opponent.replace("+", " + ")
    return f"{kind} {against}"


class StatisticsScene:
    """Per mode and opponent, the clean games first, then the games with undos or hints apart."""

    def __init__(self, host: HistoryHost, on_close: Callable[[], None]) -> None:
        self.host = host
        self.on_close = on_close
        self.stats: Stats = host.keeper.statistics()
        self.mouse = (-1, -1)
        self.back: Rect = (0, 0, 0, 0)

    def handle(self, event: pygame.event.Event) -> None:
        clicked = event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and contains(self.back, event.pos)
        keyed = event.type == pygame.KEYDOWN and event.key in CLOSING_KEYS
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif clicked or keyed:
            self.on_close()

    def update(self, dt: float) -> None:
        pass

    def sections(self) -> list[tuple[str, Sequence[StatLine], StatLine | None]]:
        st = self.stats
        out: list[tuple[str, Sequence[StatLine], StatLine | None]] = []
        if st.lines:
            out.append(("Your games", st.lines, st.total))
        if st.marked:
            out.append(("Games with undos or hints, counted apart", st.marked, st.marked_total))
        return out

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        rect, s, top = screen_card(surface, "Statistics", "Esc or Enter goes back", 0.94, 0.9)
        x, y, w, h = rect
        pad = round(s * 1.0)
        bh = max(28, round(s * 1.7))
        bw = max(120, round(w * 0.16))
        self.back = (x + (w - bw) // 2, y + h - pad - bh, bw, bh)
        button(surface, self.back, "Back", True, contains(self.back, self.mouse), strong=True)
        sections = self.sections()
        if not sections:
            words = "No games to count yet: the statistics grow with every game you finish against a bot."
            write(surface, fit(words, s, w - 2 * pad), s, CREAM, (x + w // 2, top + 2 * s), "midtop")
            return None
        small = max(12, s - 4)
        first = round(w * 0.22)
        col = (w - 2 * pad - first) // len(COLUMNS)
        ty = top
        row = round(small * 1.6)
        for title, lines, total in sections:
            write(surface, title, s - 1, GOLD, (x + pad, ty), "topleft")
            ty += round(s * 1.5)
            for k, (head, _) in enumerate(COLUMNS):
                cx = x + pad + first + k * col + col // 2
                for n, part in enumerate(head.split("\n")):  # a long heading on two lines
                    at = (cx, ty + n * round(small * 1.1))
                    write(surface, fit(part, small - 2, col - 4), small - 2, DIM, at, "midtop")
            ty += row + round(small * 1.1)
            shown = [*lines, total] if total is not None and len(lines) > 1 else list(lines)
            for line in shown:
                if ty + row > self.back[1] - s:
                    write(surface, "…", small, DIM, (x + pad, ty), "topleft")
                    break
                colour = GOLD if line is total else CREAM
                write(surface, fit(group_words(line), small, first - 8), small, colour, (x + pad, ty), "topleft")
                for k, (_, value) in enumerate(COLUMNS):
                    cx = x + pad + first + k * col + col // 2
                    write(surface, fit(value(line), small, col - 4), small, colour, (cx, ty), "midtop")
                ty += row
            ty += round(s * 0.8)
        if self.stats.watched:
            note = f"{self.stats.watched} game(s) of bots only were watched, not played: they are in the history only."
            write(surface, fit(note, small, w - 2 * pad), small, DIM, (x + w // 2, self.back[1] - 6), "midbottom")
        return None
