"""Watching a table in the window (the protocol's `watch`): the Online screen's Watch with a code, a server's
address and a table's code, and the table opens as a spectator sees it, the same board (or felt), pegs
and chat, no rack or hand; Your online games lists the tables watched, to watch again (issue 44)."""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from . import form
from .form import FormScene
from .lobby import Lobby, code_words


class Window(Protocol):
    """What the screen asks of the window."""

    def push(self, scene: Any) -> None: ...

    def close_top(self) -> None: ...


class WatchScene(FormScene):
    """The server's address and the table's code; Watch (Enter) opens it as a spectator."""

    title = "Watch a table"
    height = 0.6

    def __init__(self, window: Window, lobby: Lobby, url: str) -> None:
        self.window, self.lobby = window, lobby
        self.address = form.text("Server address", url, "Where the table is", 120)
        self.code = form.text("Code", "", "Six letters; capitals or not, spaces or not", 12, "ABC DEF")
        self.code.changed = self._capitals
        rows = [
            self.address,
            self.code,
            form.action("Watch", self.watch, "See the table as everyone sees it: no rack, no hand", pygame.K_w),
            form.action("Back", window.close_top, "Back to the Online screen"),
        ]
        super().__init__(rows, window.close_top)
        self.focus = 1
        self.submit = self.watch

    def _capitals(self) -> None:
        self.code.text = self.code.text.upper()
        if self.tone == "bad":
            self.say("")

    def watch(self) -> None:
        if self.tone == "busy":
            return
        address, code = self.address.text.strip(), self.code.text.strip()
        missing = next((row for row, v in ((self.address, address), (self.code, code)) if not v), None)
        if missing is not None:
            self.focus = self.rows.index(missing)
            self.say(f"Type the {missing.label.lower()} first.", "bad")
            return
        self.say(f"Going to watch {code_words(code.upper().replace(' ', ''))}…", "busy")
        self.lobby.watch(address, code, lambda problem: self.say(problem, "bad"))

    def update(self, dt: float) -> None:
        self.lobby.update()
