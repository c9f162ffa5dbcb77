"""Your online games: every table this player sits at, with the game, the other players, whose turn it is
(the tables that wait for this player marked) and the time left before a move is made for the player
to move, as the lobby's standings heard them (asked again every few seconds, whichever screen is shown);
choosing one goes back to its seat. A table at a server this computer hosted, stopped now, offers to
host it again (issues 31, 44)."""

from __future__ import annotations

import time
from typing import Any

import pygame

from cribtiles.games import GAMES
from cribtiles.online.presence import clock_words, span_words
from cribtiles.online.standing import game_title, opponents, warn_at

from .. import art
from ..geometry import contains
from ..paint import CREAM, DIM, GOLD, RED, button
from ..screens import Cells, chosen_in_sight, draw_rows, foot, list_key, ring, screen_card
from .form import GREEN
from .host_tools import HOST_BOT_LEVEL, Giveable, giveable
from .lobby import Lobby, Outcome
from .screens import Window, code_words
from .services import WATCHING, HeldSeat
from .standings import Heard

COLUMNS = ((0.0, "Table"), (0.15, "Game"), (0.36, "Playing with"), (0.6, "Turn"), (0.8, "Time left"))
#: The mark before a table that waits for this player's move.
YOURS = "» "
STOPPED = "your server is off"
#: Said at the foot while a table of this computer's stopped server is chosen.
STOPPED_WORDS = "{code} is at your server, on this computer, which is stopped: Host again (H) starts it."


def ago(seconds: float) -> str:
    """A time since, in words: "just now", "5 min ago", "3 h ago", "2 days ago".

    >>> [ago(s) for s in (20, 300, 3 * 3600 + 60, 86_400 * 2 + 5)]
    ['just now', '5 min ago', '3 h ago', '2 days ago']
    """
    span = span_words(seconds)
    return f"{span} ago" if span else "just now"


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
    """The list, Resume (Enter), Host again (H, for a table of this computer's stopped server), Forget
    (Delete), Back (Escape)."""

    lists_tables = True  # a turn that comes is told here without saying where to find it

    def __init__(self, window: Window, lobby: Lobby, clock: Any = time.monotonic) -> None:
        self.window, self.lobby, self.clock = window, lobby, clock
        # the seats held, the newest first, then the tables watched in this window
        self.held = lobby.services.book.seats()[::-1] + lobby.watched[::-1]
        self.chosen, self.top, self.visible = 0, 0, 8
        self.rows: list[tuple[int, Any]] = []
        self.buttons: list[tuple[str, Any, tuple[int, int, int, int]]] = []
        self.mouse = (-1, -1)
        self.status, self.tone = lobby.services.book.note, "bad"
        self._opening = False
        self._hosting = False
        lobby.standings.ask_now()  # what the list shows is asked afresh as it opens

    @property
    def heard(self) -> dict[tuple[str, str], Heard]:
        return self.lobby.standings.heard

    def shutdown(self) -> None:
        """Nothing of its own runs (the lobby's standings go on asking)."""

    def tell(self, text: str) -> None:
        """A word from the window (a turn that came at a table): said at the foot."""
        self.status, self.tone = text, "good"

    def ask_all(self) -> None:
        self.lobby.standings.ask_now()

    def update(self, dt: float) -> None:
        self.lobby.update()
        if self._hosting and self._host_up():
            self._hosting = False
            self.status, self.tone = "Your server is running again: its tables come back.", "good"
            self.ask_all()

    # --- this computer's server ---

    def _stopped_here(self, held: HeldSeat) -> bool:
        """`held`'s table is at a server this computer hosts, which is not running now."""
        host = self.lobby.services.host
        return host is not None and host.is_ours(held.server) and not host.running

    def _host_up(self) -> bool:
        host = self.lobby.services.host
        return host is not None and host.running and host.url is not None

    def host_again(self) -> None:
        """H: start this computer's server again (shared as it was), so that its tables come back."""
        host = self.lobby.services.host
        if host is None or not self.held or not self._stopped_here(self.held[self.chosen]) or self._hosting:
            return
        shared = host.shared
        self._hosting = True
        self.status, self.tone = "Starting your server again…", "busy"
        self.lobby.jobs.run(lambda: host.start(shared), self._host_started)

    def _host_started(self, outcome: Outcome[None]) -> None:
        host = self.lobby.services.host
        problem = outcome.problem or (host.problem if host is not None else "")
        if problem:
            self._hosting = False
            self.status, self.tone = problem[0].upper() + problem[1:], "bad"

    # --- choosing ---

    def resume(self) -> None:
        if not self.held or self._opening:
            return
        held = self.held[self.chosen]
        if self._stopped_here(held):
            self.status, self.tone = f"{code_words(held.code)} is at your server, which is stopped: H hosts it.", "bad"
            return
        self._opening = True
        if held.seat == WATCHING:
            self.status, self.tone = f"Going to watch {code_words(held.code)}…", "busy"
            self.lobby.watch(held.server, held.code, self._not_opened)
            return
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
        if held.seat == WATCHING:
            self.lobby.watched = [w for w in self.lobby.watched if w.key != held.key]
        else:
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
            elif k == pygame.K_h:
                self.host_again()
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
        self.lobby.standings.ask_one(held)  # its seats as they are now

    # --- drawing ---

    def cells(self, i: int) -> Cells:
        """The row of the `i`th table: its code (marked when it waits for this player), the game, the
        others at it, whose turn, and the time left (or when the last move was made)."""
        held = self.held[i]
        heard = self.heard.get(held.key)
        kind = GAMES.get(held.game)
        game = kind.title if kind is not None else held.game
        if heard is None or heard.table is None:
            said = heard.problem if heard is not None else "asking…"
            if self._stopped_here(held):
                said = STOPPED
            return (code_words(held.code), game, "", said, ""), (GOLD, DIM, CREAM, RED if heard else DIM, DIM)
        table = heard.table
        turn, colour = turn_words(held, table)
        mine = self.lobby.standings.is_yours(held) and turn == "yours"
        code = (YOURS if mine else "") + code_words(held.code)
        if self._stopped_here(held):
            turn, colour = STOPPED, RED
        elif heard.problem:
            turn, colour = "cannot be reached now", RED
        if held.seat == WATCHING:
            turn = f"watching · {turn}"
        left, left_colour = self._left(held, heard)
        others = ", ".join(opponents(held.seat, table))
        return (code, game_title(table), others, turn, left), (GOLD, DIM, CREAM, colour, left_colour)

    def _left(self, held: HeldSeat, heard: Heard) -> tuple[str, tuple[int, int, int]]:
        """The time left before a move is made for the player to move (red once it is short), or when the
        last move was made at a table without a limit."""
        assert heard.table is not None
        left = self.lobby.standings.left(held)
        if left is not None:
            warn = warn_at(heard.table)
            return clock_words(left), RED if warn is not None and left <= warn else CREAM
        if heard.table.get("phase") != "playing":
            return "", DIM
        since = float(heard.table.get("since_last_move", 0)) + self.clock() - heard.at
        return f"moved {ago(since)}", DIM

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        chosen = self.held[self.chosen] if self.held else None
        stopped = chosen is not None and self._stopped_here(chosen)
        hint = "Up/Down choose · " + ("H hosts again" if stopped else "Enter goes back to the table")
        hint += " · Delete leaves (or forgets) it · R asks again · Esc back"
        rect, s, top = screen_card(surface, "Your online games", hint, 0.86, 0.86)
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
        said, tone = self.status, {"bad": RED, "busy": DIM, "good": GREEN}.get(self.tone, CREAM)
        if stopped and chosen is not None and not self._hosting and not self.status:
            said, tone = STOPPED_WORDS.format(code=code_words(chosen.code)), CREAM
        if said:
            foot(surface, rect, s, said, tone)
        return None

    def _buttons(self, surface: pygame.Surface, cx: int, by: int, bh: int, s: int) -> None:
        chosen = self.held[self.chosen] if self.held else None
        again = chosen is not None and self._stopped_here(chosen)
        shown = [("Host again", self.host_again, not self._hosting)] if again else []
        go = "Watch" if chosen is not None and chosen.seat == WATCHING else "Resume"
        drop = "Leave" if chosen is not None and self.finished(chosen) and chosen.seat != WATCHING else "Forget"
        shown += [(go, self.resume, bool(self.held) and not again), (drop, self.forget, bool(self.held))]
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
