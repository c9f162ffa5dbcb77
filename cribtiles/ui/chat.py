"""Chat at a table online, the same in both games' scenes: C opens a one-line field over the table (Enter
sends, Esc cancels; no control character gets in, and it holds no more than the server takes), and the
strip of the last lines heard (the session's incidents: "Name: text", the connection, who went away),
fading. A table of this window has no one to write to: no field, no C (issue 31)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pygame

from cribtiles.rules.errors import IllegalMove
from cribtiles.table.chat import CHAT_LIMIT, chat_text

#: The key that opens the field, and how the keys line says it.
CHAT_KEY = pygame.K_c
CHAT_KEYS = "C chat"
#: Seconds a line stays in the strip, the last of them fading; the most lines it keeps.
HEARD_SECONDS = 12.0
FADE_SECONDS = 3.0
HEARD_LINES = 4
ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
#: Said under the field when the table is clicked while a line is open: the click is not played.
CLICK_WAITS = "Enter sends the line, Esc closes it: then the table takes your clicks again."


class Talker(Protocol):
    """What the field needs of a game's session (both games' have it)."""

    @property
    def chat_allowed(self) -> bool: ...

    def say(self, text: str) -> None: ...


@dataclass(frozen=True)
class ChatView:
    """What is drawn of the chat this frame: the field's text (None: closed) and what it says under it
    (a line not sent), and the lines heard with how faded each is (0 full, 1 gone)."""

    typed: str | None
    error: str
    heard: tuple[tuple[str, float], ...]
    caret: bool


class Chat:
    """The field and the strip of one scene, over `session`: `handle` takes an event first (True: it was
    the chat's, the scene's own keys must not see it), `hear` adds what the session told."""

    def __init__(self, session: Talker) -> None:
        self.session = session
        self.typed: str | None = None  # None: the field is closed
        self.error = ""
        self.heard: list[tuple[str, float]] = []  # a line and when it was heard (the scene's clock)
        self._swallow = ""  # the C that opened the field, sent again as text by the same key press

    @property
    def allowed(self) -> bool:
        return self.session.chat_allowed

    @property
    def typing(self) -> bool:
        return self.typed is not None

    def open(self, unicode: str = "") -> None:
        if not self.allowed:
            return
        self.typed, self.error, self._swallow = "", "", unicode
        pygame.key.start_text_input()

    def close(self) -> None:
        self.typed, self.error, self._swallow = None, "", ""

    def handle(self, event: pygame.event.Event) -> bool:
        """The field's keys while it is open (every key: the table's shortcuts wait; a click on the table
        waits too, and the field says how to close it; a button let go passes, so a drag begun ends), and C
        to open it."""
        if self.typed is None:
            plain = event.type == pygame.KEYDOWN and not event.mod & (
                pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META
            )
            if plain and event.key == CHAT_KEY and self.allowed:
                self.open(getattr(event, "unicode", "") or "c")
                return True
            return False
        if event.type == pygame.TEXTINPUT:
            text = event.text
            if self._swallow and text == self._swallow:  # the opening key's own text
                self._swallow = ""
                return True
            self._swallow = ""
            self.type(text)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:  # the table waits for the line, as its keys do
            self.error = CLICK_WAITS
            return True
        if event.type != pygame.KEYDOWN:
            return False
        self._swallow = ""
        if event.key == pygame.K_ESCAPE:
            self.close()
        elif event.key in ENTER_KEYS:
            self.send()
        elif event.key == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
            self.error = ""
        return True  # a letter comes as its TEXTINPUT; the key itself is no shortcut now

    def type(self, text: str) -> None:
        """Text typed into the field: control characters left out, no more than the server takes."""
        if self.typed is None:
            return
        self.typed = (self.typed + chat_text(text))[:CHAT_LIMIT]
        self.error = ""

    def send(self) -> None:
        """Enter: the line goes to the table and the field closes; a line not sent stays, with why."""
        if self.typed is None:
            return
        if not self.typed.strip():
            self.close()
            return
        try:
            self.session.say(self.typed)
        except IllegalMove as e:
            said = str(e)
            self.error = said[:1].upper() + said[1:] + ("" if said.endswith(".") else ".")
            return
        self.close()

    def hear(self, lines: tuple[str, ...], now: float) -> None:
        """Lines told by the session at `now`: the newest `HEARD_LINES` are kept."""
        if lines:
            self.heard = [*self.heard, *((line, now) for line in lines)][-HEARD_LINES:]

    def view(self, now: float) -> ChatView:
        """What is drawn at `now` (the scene's clock): the lines heard in the last `HEARD_SECONDS`."""
        fading = HEARD_SECONDS - FADE_SECONDS
        heard = tuple(
            (line, _step(max(0.0, now - at - fading) / FADE_SECONDS))
            for line, at in self.heard
            if now - at < HEARD_SECONDS
        )
        return ChatView(self.typed, self.error, heard, int(now * 2) % 2 == 0)


def _step(fade: float) -> float:
    """A fade in quarters: the frame is drawn again four times as a line fades, not at every frame."""
    return min(3, int(fade * 4)) / 4
