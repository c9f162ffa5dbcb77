"""The chat field and strip of a table online (`cribtiles.ui.chat`), without a server: what is kept of a
line typed, how many lines heard stay and how they fade, a line refused kept with why (issue 31)."""

from __future__ import annotations

import pygame

from cribtiles.rules.errors import IllegalMove
from cribtiles.table.chat import CHAT_LIMIT
from cribtiles.ui.chat import CLICK_WAITS, HEARD_LINES, HEARD_SECONDS, Chat


class Table:
    """A session that takes lines (or refuses them, saying why)."""

    def __init__(self, allowed: bool = True, refuse: str = "") -> None:
        self.chat_allowed = allowed
        self.refuse = refuse
        self.said: list[str] = []

    def say(self, text: str) -> None:
        if self.refuse:
            raise IllegalMove(self.refuse)
        self.said.append(text)


def key(k: int, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=unicode, scancode=0)


def test_the_field_keeps_printable_text_up_to_the_limit_and_sends_it_on_enter() -> None:
    table = Table()
    chat = Chat(table)
    assert chat.handle(key(pygame.K_c, "c")) and chat.typing
    assert chat.handle(pygame.event.Event(pygame.TEXTINPUT, text="c"))  # the opening key's own text
    chat.handle(pygame.event.Event(pygame.TEXTINPUT, text="hi\x00\x1b\n there"))
    assert chat.typed == "hi there"
    chat.handle(pygame.event.Event(pygame.TEXTINPUT, text="x" * 500))
    assert chat.typed is not None and len(chat.typed) == CHAT_LIMIT
    assert chat.handle(key(pygame.K_g))  # a table key is the field's while it is open
    chat.handle(key(pygame.K_RETURN))
    assert not chat.typing and table.said == ["hi there" + "x" * (CHAT_LIMIT - 8)]


def test_a_refused_line_stays_with_why_and_a_table_without_chat_never_opens() -> None:
    chat = Chat(Table(refuse="that was not sent: the server is gone"))
    chat.open()
    chat.type("hello")
    chat.send()
    assert chat.typed == "hello" and chat.error == "That was not sent: the server is gone."
    closed = Chat(Table(allowed=False))
    assert not closed.handle(key(pygame.K_c, "c")) and not closed.typing


def test_the_last_lines_heard_stay_a_while_and_fade_in_quarters() -> None:
    chat = Chat(Table())
    chat.hear(tuple(f"Ann: {n}" for n in range(HEARD_LINES + 2)), now=100.0)
    assert [line for line, _ in chat.view(100.0).heard] == [f"Ann: {n}" for n in range(2, HEARD_LINES + 2)]
    assert {fade for _, fade in chat.view(100.0).heard} == {0.0}
    assert {fade for _, fade in chat.view(100.0 + HEARD_SECONDS - 1.5).heard} == {0.5}
    assert chat.view(100.0 + HEARD_SECONDS).heard == ()


def test_a_click_while_a_line_is_open_is_not_played_and_the_field_says_how_to_close_it() -> None:
    chat = Chat(Table())
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(300, 300))
    release = pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(300, 300))
    assert not chat.handle(click)  # closed: the table's
    chat.open()
    chat.type("gg")
    assert chat.handle(click) and chat.error == CLICK_WAITS and chat.typed == "gg"
    assert not chat.handle(release)  # a drag begun before the field opened still ends on the table
    chat.handle(pygame.event.Event(pygame.TEXTINPUT, text="!"))
    assert chat.error == "" and chat.typed == "gg!"
