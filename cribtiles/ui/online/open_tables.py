"""The tables anyone may join on the server the Online screen names (issue 44): asked for in a background
job every few seconds (`open_tables`), drawn as a row each under the screen's form; one click on a row
joins that table, as Join with a code would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from cribtiles.games import GAMES, rules_in_words
from cribtiles.online.client import check_url

from ..geometry import Rect, contains
from ..paint import DIM, GOLD, button, write
from ..screens import fit
from .lobby import Lobby, Outcome

#: Seconds between two questions to the server while the screen is open (it allows 30 a minute).
OPEN_EVERY = 5.0
#: Seconds before asking a server that could not be asked again: a wrong address is not tried every frame.
AFTER_FAILING = 20.0
#: Seconds the address must stay as typed before its server is asked (not at every letter).
SETTLE = 1.0
#: Rows shown at most (the newest tables).
SHOWN = 3


def row_words(table: dict[str, Any]) -> str:
    """A table of the list in words, as its row says it.

    >>> seats = [{"name": "Ann", "kind": "person"}, {"kind": "open"}, {"kind": "bot", "level": "hard"}]
    >>> row_words({"code": "KXQMWD", "game": "tiles", "seats": seats, "open": 1, "settings": {"rules": "joker=on"}})
    'Join KXQ MWD · Kings Cribbage · Ann, Hard bot · 1 seat open · Joker rule'
    """
    code = str(table.get("code", ""))[:12]
    game = GAMES[table["game"]].title if table.get("game") in GAMES else str(table.get("game"))[:20]
    seats, settings, free = table.get("seats"), table.get("settings"), table.get("open")
    names = (
        [_seat_name(s) for s in seats if isinstance(s, dict) and s.get("kind") != "open"]
        if isinstance(seats, list)
        else []
    )
    text = str(settings.get("rules") or "")[:400] if isinstance(settings, dict) else ""
    variant, rules = rules_in_words(table.get("game"), text)
    free = free if isinstance(free, int) else 0
    parts = [f"Join {code[:3]} {code[3:]}", game, *variant, ", ".join(names) or "nobody yet"]
    parts.append(f"{free} seat{'s' if free != 1 else ''} open")
    return " · ".join([*parts, *rules])


def _seat_name(seat: dict[str, Any]) -> str:
    if seat.get("name"):
        return str(seat["name"])[:40]
    return f"{str(seat.get('level') or '?').capitalize()[:20]} bot"


class OpenTables:
    """The open tables of the server at the address typed; `join` takes a table's code."""

    def __init__(self, lobby: Lobby, join: Callable[[str], None]) -> None:
        self.lobby, self.join = lobby, join
        self.tables: list[dict[str, Any]] = []
        self.url = ""  # the server the list is of ("": no address typed that could be one)
        self.said = ""  # why there is no list, in words
        self.rows: list[tuple[str, Rect]] = []  # each row's code and where it was drawn
        self._wait = 0.0
        self._asking = False

    def update(self, dt: float, address: str) -> None:
        """Ask the server at `address` (as typed) for its open tables when it is time."""
        try:
            url = check_url(address) if address.strip() else ""
        except ValueError:
            url = ""
        if url != self.url:
            self.url, self.tables, self.said = url, [], ""
            self._wait = SETTLE
        self._wait -= dt
        if not self.url or self._asking or self._wait > 0:
            return
        self._asking = True
        asked = self.url
        self.lobby.jobs.run(lambda: self.lobby.open_tables(asked), lambda outcome: self._heard(asked, outcome))

    def _heard(self, url: str, outcome: Outcome[list[dict[str, Any]]]) -> None:
        self._asking = False
        if url != self.url:  # the address changed meanwhile: the new one is asked soon
            return
        if outcome.value is None:
            self.tables, self.said, self._wait = [], outcome.problem, AFTER_FAILING
        else:
            self.tables, self.said, self._wait = outcome.value, "", OPEN_EVERY

    def click(self, pos: tuple[int, int]) -> bool:
        """Join the table whose row is at `pos`; whether there was one."""
        code = next((code for code, rect in self.rows if contains(rect, pos)), None)
        if code is None:
            return False
        self.join(code)
        return True

    # --- drawing ---

    def height(self, s: int) -> int:
        """The room the list takes under the form: its line of words, and a row a table (one at least)."""
        rows = max(1, min(SHOWN, len(self.tables)))
        return round(s * 1.6) + rows * (max(22, round(s * 1.5)) + max(4, round(s * 0.3)))

    def draw(self, surface: pygame.Surface, rect: Rect, s: int, mouse: tuple[int, int]) -> None:
        x, y, w, _ = rect
        pad = round(s * 1.4)
        shown = self.tables[:SHOWN]
        if shown:
            head = f"Open tables at this server: anyone may join (a click takes the seat) · {len(self.tables)} in all"
        elif not self.url:
            head = "Open tables: type a server's address, or host a game, to see the tables anyone may join"
        elif self.said:
            head = f"Open tables: {self.said[0].lower()}{self.said[1:]}"
        else:
            head = (
                "Open tables: none at this server has a seat open now" if not self._asking else "Open tables: asking…"
            )
        write(surface, fit(head, s - 2, w - 2 * pad), s - 2, GOLD if shown else DIM, (x + pad, y), "topleft")
        row_h, gap = max(22, round(s * 1.5)), max(4, round(s * 0.3))
        top = y + round(s * 1.6)
        self.rows = []
        for i, table in enumerate(shown):
            r = (x + pad, top + i * (row_h + gap), w - 2 * pad, row_h)
            size = max(16, round(row_h * 0.52))  # the button's own words' size
            button(surface, r, fit(row_words(table), size, r[2] - 2 * pad), True, contains(r, mouse))
            self.rows.append((str(table.get("code", "")), r))
