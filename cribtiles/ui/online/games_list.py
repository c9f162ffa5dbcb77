"""Your online games: every table this player sits at, with whose turn it is and the time since the last
move, asked of each table's server in the background (again every half minute while the list is open);
choosing one goes back to its seat (issue 31)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pygame

from .. import art
from ..geometry import contains
from ..paint import CREAM, DIM, GOLD, RED, button
from ..screens import Cells, chosen_in_sight, draw_rows, foot, list_key, ring, screen_card
from .form import GREEN
from .host_tools import HOST_BOT_LEVEL, Giveable, giveable
from .lobby import Lobby, Outcome
from .screens import Window, code_words
from .services import HeldSeat

#: Seconds between two questions to a table's server while the list is open.
REFRESH = 30.0
COLUMNS = ((0.0, "Table"), (0.14, "Server"), (0.38, "You"), (0.52, "Turn"), (0.78, "Last move"))


@dataclass(frozen=True)
class Heard:
    """What a table's server last said of it (`table`, when it was asked), or why it could not be asked."""

    table: dict[str, Any] | None
    at: float
    problem: str = ""


def ago(seconds: float) -> str:
    """A time since, in words: "just now", "5 min ago", "3 h ago", "2 days ago".

    >>> [ago(s) for s in (20, 300, 3 * 3600 + 60, 86_400 * 2 + 5)]
    ['just now', '5 min ago', '3 h ago', '2 days ago']
    """
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86_400:
        return f"{int(seconds // 3600)} h ago"
    days = int(seconds // 86_400)
    return f"{days} day{'s' if days > 1 else ''} ago"


def turn_words(held: HeldSeat, table: dict[str, Any]) -> tuple[str, tuple[int, int, int]]:
    """Whose turn it is at `table`, for the player at `held`'s seat (and whether that player is away), and
    its colour.

    >>> ben = {"name": "Ben", "kind": "person", "present": False}
    >>> turn_words(HeldSeat("ws://h:1", "KXQMWD", 0, "Ann"), {"phase": "playing", "to_move": 1, "seats": [{}, ben]})[0]
    "Ben's (away)"
    """
    seats = table.get("seats") or []
    names = [str(s.get("name") or "?") for s in seats if isinstance(s, dict)]
    phase = table.get("phase")
    if phase == "waiting":
        open_seats = sum(1 for s in seats if isinstance(s, dict) and s.get("kind") == "open")
        return f"waiting for {open_seats} player{'s' if open_seats != 1 else ''}", DIM
    if phase == "over":
        if table.get("aborted"):
            return "aborted before its first move", DIM
        winners = [names[w] for w in table.get("winners") or [] if isinstance(w, int) and 0 <= w < len(names)]
        resigned = table.get("resigned")
        gave_up = f"{names[resigned]} resigned, " if isinstance(resigned, int) and 0 <= resigned < len(names) else ""
        return ("over: " + gave_up + " and ".join(winners) + " won" if winners else "over"), DIM
    to_move = table.get("to_move")
    if to_move == held.seat:
        return "yours", GOLD
    if isinstance(to_move, int) and 0 <= to_move < len(names):
        seat = seats[to_move] if isinstance(seats[to_move], dict) else {}
        gone = seat.get("kind") == "person" and not seat.get("present")
        return f"{names[to_move]}'s" + (" (away)" if gone else ""), CREAM
    return "between turns", CREAM


class GamesScene:
    """The list, Resume (Enter), Forget (Delete), Back (Escape)."""

    def __init__(self, window: Window, lobby: Lobby, clock: Any = time.monotonic) -> None:
        self.window, self.lobby, self.clock = window, lobby, clock
        self.held = lobby.services.book.seats()[::-1]  # the newest first
        self.heard: dict[tuple[str, str], Heard] = {}
        self.asking: set[tuple[str, str]] = set()
        self.chosen, self.top, self.visible = 0, 0, 8
        self.rows: list[tuple[int, Any]] = []
        self.buttons: list[tuple[str, Any, tuple[int, int, int, int]]] = []
        self.mouse = (-1, -1)
        self.status, self.tone = lobby.services.book.note, "bad"
        self._next_ask = 0.0
        self._opening = False

    def shutdown(self) -> None:
        """Nothing of its own runs (the lobby's jobs outlive the list)."""

    # --- asking the servers ---

    def ask_all(self) -> None:
        for held in self.held:
            if held.key not in self.asking:
                self.asking.add(held.key)
                self._ask(held)

    def _ask(self, held: HeldSeat) -> None:
        self.lobby.jobs.run(lambda: self.lobby.status(held), lambda outcome: self._heard(held, outcome))

    def _heard(self, held: HeldSeat, outcome: Outcome[dict[str, Any]]) -> None:
        self.asking.discard(held.key)
        if outcome.value is not None:
            self.heard[held.key] = Heard(outcome.value, self.clock())
        else:
            old = self.heard.get(held.key)
            self.heard[held.key] = Heard(old.table if old else None, old.at if old else self.clock(), outcome.problem)

    def update(self, dt: float) -> None:
        self.lobby.update()
        now = self.clock()
        if now >= self._next_ask:
            self._next_ask = now + REFRESH
            self.ask_all()

    # --- choosing ---

    def resume(self) -> None:
        if not self.held or self._opening:
            return
        held = self.held[self.chosen]
        self._opening = True
        self.status, self.tone = f"Going back to your seat at {code_words(held.code)}…", "busy"
        self.lobby.open(held, self._not_opened)

    def _not_opened(self, problem: str) -> None:
        self._opening = False
        self.status, self.tone = problem, "bad"

    def finished(self, held: HeldSeat) -> bool:
        """The server last said `held`'s table is over (its game played, resigned, or aborted)."""
        heard = self.heard.get(held.key)
        return heard is not None and heard.table is not None and heard.table.get("phase") == "over"

    def forget(self) -> None:
        """Delete: a finished table is left (off the list, its states no more), another only forgotten here
        (the table itself goes on, and its code and seat may be typed again)."""
        if not self.held:
            return
        held = self.held.pop(self.chosen)
        over = self.finished(held)
        self.lobby.leave(held)
        self.chosen = max(0, min(self.chosen, len(self.held) - 1))
        if over:
            self.status, self.tone = f"You left {code_words(held.code)}: its game is over, and it is off your list.", ""
        else:
            self.status, self.tone = f"{code_words(held.code)} is off your list (the table itself goes on).", ""

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._click(event.pos)
        elif event.type == pygame.KEYDOWN:
            k = event.key
            if k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.window.close_top()
            elif k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.resume()
            elif k == pygame.K_DELETE:
                self.forget()
            elif k == pygame.K_r:
                self.ask_all()
            else:
                row = list_key(k, self.chosen, len(self.held), self.visible)
                if row is not None and self.held:
                    self.chosen, self.top = chosen_in_sight(row, len(self.held), self.top, self.visible)

    def _click(self, pos: tuple[int, int]) -> None:
        for _, act, rect in self.buttons:
            if contains(rect, pos):
                act()
                return
        for i, rect in self.rows:
            if contains(rect, pos):
                if i == self.chosen:
                    self.resume()
                self.chosen = i
                return

    # --- the host's tool (issue 44): a seat given to a bot ---

    def offer(self) -> Giveable | None:
        """The seat of the chosen table that its host (this player, holding its host token) may give to a
        bot now, by what its server last said (None: none, or not the host)."""
        if not self.held:
            return None
        held = self.held[self.chosen]
        heard = self.heard.get(held.key)
        return giveable(heard.table, held) if heard is not None and heard.table is not None else None

    def _host_buttons(self) -> list[tuple[str, Any, bool]]:
        offer = self.offer()
        return [] if offer is None else [(offer.words, self.give_seat, True)]

    def give_seat(self) -> None:
        offer = self.offer()
        if offer is None or self.tone == "busy":
            return
        held = self.held[self.chosen]
        self.status, self.tone = f"{offer.words}…", "busy"

        def work() -> None:
            self.lobby.seat_bot(held, offer.seat, HOST_BOT_LEVEL)

        self.lobby.jobs.run(work, lambda outcome: self._seat_given(held, outcome))

    def _seat_given(self, held: HeldSeat, outcome: Outcome[None]) -> None:
        if outcome.problem:
            self.status, self.tone = outcome.problem, "bad"
        else:
            self.status, self.tone = f"The server's bot has the seat at {code_words(held.code)}.", "good"
        self.asking.add(held.key)
        self._ask(held)  # its seats as they are now

    # --- drawing ---

    def cells(self, i: int) -> Cells:
        held = self.held[i]
        heard = self.heard.get(held.key)
        server = held.server.removeprefix("ws://")
        if heard is None or heard.table is None:
            said = heard.problem if heard is not None else "asking…"
            return (code_words(held.code), server, held.name, said, ""), (GOLD, DIM, CREAM, RED if heard else DIM, DIM)
        turn, colour = turn_words(held, heard.table)
        if heard.problem:
            turn, colour = "cannot be reached now", RED
        since = float(heard.table.get("since_last_move", 0)) + self.clock() - heard.at
        return (code_words(held.code), server, held.name, turn, ago(since)), (GOLD, DIM, CREAM, colour, DIM)

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        hint = "Up/Down choose · Enter goes back to the table · Delete leaves (or forgets) it · R asks again · Esc back"
        rect, s, top = screen_card(surface, "Your online games", hint, 0.8, 0.86)
        x, y, w, h = rect
        pad = round(s * 1.2)
        bh = max(28, round(s * 1.7))
        bottom = y + h - round(s * 2.6) - bh - round(s * 0.6)
        area = (x + pad, top, w - 2 * pad, bottom - top)
        if self.held:
            self.visible, self.top, self.rows = draw_rows(
                surface, area, s, COLUMNS, len(self.held), self.top, self.chosen, self.mouse, self.cells
            )
        else:
            self.rows = []
            words = "No online games yet: choose Online on the title screen to create a table or join one."
            foot(surface, (x, top, w, round(s * 3)), s, words, DIM)
        self._buttons(surface, x + w // 2, bottom + round(s * 0.6), bh, s)
        if self.status:
            tone = {"bad": RED, "busy": DIM, "good": GREEN}.get(self.tone, CREAM)
            foot(surface, rect, s, self.status, tone)
        return None

    def _buttons(self, surface: pygame.Surface, cx: int, by: int, bh: int, s: int) -> None:
        chosen = self.held[self.chosen] if self.held else None
        drop = "Leave" if chosen is not None and self.finished(chosen) else "Forget"
        shown = [("Resume", self.resume, bool(self.held)), (drop, self.forget, bool(self.held))]
        shown += self._host_buttons()
        shown.append(("Back", self.window.close_top, True))
        gap = round(s * 0.8)
        widths = [max(140, s * 7, art.font(max(16, round(bh * 0.52))).size(label)[0] + 2 * s) for label, _, _ in shown]
        left = cx - (sum(widths) + (len(shown) - 1) * gap) // 2
        self.buttons = []
        for i, (label, act, enabled) in enumerate(shown):
            bw = widths[i]
            r = (left + sum(widths[:i]) + i * gap, by, bw, bh)
            button(surface, r, label, enabled, contains(r, self.mouse), strong=i == 0 and enabled)
            if i == 0 and enabled:
                ring(surface, r)
            if enabled:
                self.buttons.append((label, act, r))
