"""Chat at a table online, the same in both games' scenes: C opens a one-line field over the table (Enter
sends, Esc cancels; no control character gets in, and it holds no more than the server takes) with the
table's chat above it, every line heard since the table was opened (PageUp/PageDown or the wheel scroll
it), and the strip of the last lines heard (the session's incidents and the new lines said), fading.
Each other player may be muted (a click on their name in the chat, or `/mute Ben`): the window's choice,
kept by `Mutes`. A table of this window has no one to write to: no field, no C (issues 31, 44)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

import pygame

from cribtiles.rules.errors import IllegalMove
from cribtiles.table.chat import CHAT_LIMIT, TABLE_NAME, ChatLine, Talker, chat_text

from .geometry import Point, Rect, contains

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
#: Lines the chat's panel moves by for a PageUp or PageDown, and for a notch of the wheel.
PAGE_LINES, WHEEL_LINES = 5, 2
#: `/mute Ben` and `/unmute Ben` typed in the field: the window's choice, never sent to the table.
MUTE_COMMAND = re.compile(r"^/(un)?mute\s+(.+)$", re.IGNORECASE)


class Mutes(Protocol):
    """The players whose lines this window hides, table by table (`where`: its server and code)."""

    def muted(self, where: tuple[str, str]) -> frozenset[str]: ...

    def set_muted(self, where: tuple[str, str], name: str, muted: bool) -> None: ...


class MemoryMutes:
    """Mutes kept for as long as the window runs (a window without a data folder for them)."""

    def __init__(self) -> None:
        self._muted: dict[tuple[str, str], frozenset[str]] = {}

    def muted(self, where: tuple[str, str]) -> frozenset[str]:
        return self._muted.get(where, frozenset())

    def set_muted(self, where: tuple[str, str], name: str, muted: bool) -> None:
        names = self.muted(where)
        self._muted[where] = names | {name} if muted else names - {name}


@dataclass(frozen=True)
class ChatView:
    """What is drawn of the chat this frame: the field's text (None: closed) and what it says under it
    (a line not sent, or what a command did), the lines heard with how faded each is (0 full, 1 gone),
    and, while the field is open, the table's chat: its lines (the muted players' left out) up to the
    newest shown (`scroll` lines back from the newest), and the players who may be muted, each with
    whether they are."""

    typed: str | None
    error: str
    heard: tuple[tuple[str, float], ...]
    caret: bool
    history: tuple[str, ...] = ()
    scroll: int = 0
    speakers: tuple[tuple[str, bool], ...] = ()
    note: str = ""


class Chat:
    """The field, the table's chat and the strip of one scene, over `session`: `handle` takes an event
    first (True: it was the chat's, the scene's own keys must not see it), `hear` adds what the session
    told, `news` hands out the lines said since last asked. `mutes` keeps whom this window hides."""

    def __init__(self, session: Talker, mutes: Mutes | None = None) -> None:
        self.session = session
        self.mutes = mutes or MemoryMutes()
        self.typed: str | None = None  # None: the field is closed
        self.error = ""
        self.note = ""  # what a command did (`/mute Ben`)
        self.heard: list[tuple[str, float]] = []  # a line and when it was heard (the scene's clock)
        self.scroll = 0  # lines of the table's chat scrolled back from the newest
        self.chips: tuple[tuple[str, Rect], ...] = ()  # where each name to mute was drawn (the scene's layout)
        self._swallow = ""  # the C that opened the field, sent again as text by the same key press
        # the lines said before the table was opened are its history, not news (the panel shows them)
        self._told_at = max((line.at for line in session.chat_lines), default=0.0)

    @property
    def allowed(self) -> bool:
        return self.session.chat_allowed

    @property
    def typing(self) -> bool:
        return self.typed is not None

    def open(self, unicode: str = "") -> None:
        if not self.allowed:
            return
        self.typed, self.error, self.note, self._swallow, self.scroll = "", "", "", unicode, 0
        pygame.key.start_text_input()

    def close(self) -> None:
        self.typed, self.error, self.note, self._swallow = None, "", "", ""
        self.chips = ()

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
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(event.y * WHEEL_LINES)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:  # the table waits for the line, as its keys do
            if event.button == 1 and self.click(event.pos):
                return True
            if event.button in (4, 5):  # the wheel's old buttons: its MOUSEWHEEL scrolls
                return True
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
        elif event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.scroll_by(PAGE_LINES if event.key == pygame.K_PAGEUP else -PAGE_LINES)
        return True  # a letter comes as its TEXTINPUT; the key itself is no shortcut now

    def scroll_by(self, lines: int) -> None:
        """Further back in the table's chat (`lines` > 0), or nearer the newest."""
        self.scroll = max(0, min(self.scroll + lines, max(0, len(self.shown_lines()) - 1)))

    def click(self, pos: Point) -> bool:
        """A click on a name of the chat's panel mutes that player, or lets them be heard again."""
        for name, rect in self.chips:
            if contains(rect, pos):
                self.toggle(name)
                return True
        return False

    # --- muting ---

    @property
    def muted(self) -> frozenset[str]:
        where = self.session.where
        return frozenset() if where is None else self.mutes.muted(where)

    def speakers(self) -> tuple[str, ...]:
        """The other players heard at this table (and spectators), whom this window may mute: never the
        table's own words, nor this player's lines."""
        names: list[str] = []
        mine = self.session.mine
        for line in self.session.chat_lines:
            own = line.seat is None and line.name == TABLE_NAME
            if not own and line.seat not in mine and line.name not in names:
                names.append(line.name)
        return tuple(names)

    def toggle(self, name: str, muted: bool | None = None) -> None:
        where = self.session.where
        if where is None:
            return
        hide = name not in self.muted if muted is None else muted
        self.mutes.set_muted(where, name, hide)
        self.scroll = 0
        self.note = (
            f"{name}'s lines are hidden at this table (click the name, or /unmute {name}, to hear them)."
            if hide
            else f"{name}'s lines are shown again."
        )

    def shown_lines(self) -> tuple[ChatLine, ...]:
        """The table's chat as this window shows it: the muted players' lines left out."""
        return tuple(line for line in self.session.chat_lines if self._heard(line))

    def _heard(self, line: ChatLine) -> bool:
        """Whether `line` is shown: this player's own always, another's unless muted."""
        return line.seat in self.session.mine or line.name not in self.muted

    def news(self) -> tuple[ChatLine, ...]:
        """The lines said since last asked (a muted player's left out), oldest first."""
        lines = self.session.chat_lines
        fresh = tuple(line for line in lines if line.at > self._told_at)
        if fresh:
            self._told_at = max(line.at for line in fresh)
        return tuple(line for line in fresh if self._heard(line))

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
        command = MUTE_COMMAND.match(self.typed.strip())
        if command is not None:
            self._command(command.group(2).strip(), command.group(1) is None)
            return
        try:
            self.session.say(self.typed)
        except IllegalMove as e:
            said = str(e)
            self.error = said[:1].upper() + said[1:] + ("" if said.endswith(".") else ".")
            return
        self.close()

    def _command(self, name: str, mute: bool) -> None:
        """`/mute NAME` or `/unmute NAME`: the player of that name (any case) muted or heard again."""
        known = {n.lower(): n for n in (*self.speakers(), *self.muted)}
        if name.lower() not in known:
            self.error = f"No one called {name} has said anything at this table."
            return
        self.typed = ""
        self.error = ""
        self.toggle(known[name.lower()], mute)

    def hear(self, lines: tuple[str, ...], now: float) -> None:
        """Lines told by the session at `now`: the newest `HEARD_LINES` are kept."""
        if lines:
            self.heard = [*self.heard, *((line, now) for line in lines)][-HEARD_LINES:]

    def view(self, now: float) -> ChatView:
        """What is drawn at `now` (the scene's clock): the lines heard in the last `HEARD_SECONDS`, and
        while the field is open the table's chat."""
        fading = HEARD_SECONDS - FADE_SECONDS
        heard = tuple(
            (line, _step(max(0.0, now - at - fading) / FADE_SECONDS))
            for line, at in self.heard
            if now - at < HEARD_SECONDS
        )
        if self.typed is None:
            return ChatView(self.typed, self.error, heard, int(now * 2) % 2 == 0)
        shown = self.shown_lines()
        scroll = min(self.scroll, max(0, len(shown) - 1))
        history = tuple(line.words for line in shown[: len(shown) - scroll])
        muted = self.muted
        speakers = tuple((name, name in muted) for name in self.speakers())
        return ChatView(self.typed, self.error, heard, int(now * 2) % 2 == 0, history, scroll, speakers, self.note)


def _step(fade: float) -> float:
    """A fade in quarters: the frame is drawn again four times as a line fades, not at every frame."""
    return min(3, int(fade * 4)) / 4
