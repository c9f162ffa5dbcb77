"""The chat field, panel and strip of a table online (`cribtiles.ui.chat`), without a server: what is kept
of a line typed, how many lines heard stay and how they fade, a line refused kept with why, the table's
chat shown and scrolled, a player muted and heard again (issues 31, 44)."""

from __future__ import annotations

import pygame

from cribtiles.rules.errors import IllegalMove
from cribtiles.table.chat import CHAT_LIMIT, TABLE_NAME, ChatLine
from cribtiles.ui.chat import CLICK_WAITS, HEARD_LINES, HEARD_SECONDS, PAGE_LINES, Chat, MemoryMutes


class Table:
    """A session that takes lines (or refuses them, saying why), at seat 0 of a table online."""

    def __init__(self, allowed: bool = True, refuse: str = "", lines: tuple[ChatLine, ...] = ()) -> None:
        self.chat_allowed = allowed
        self.refuse = refuse
        self.said: list[str] = []
        self.chat_lines = lines
        self.where = ("ws://h:1", "KXRMTB")
        self.mine = (0,)

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


def test_the_panel_shows_the_history_the_news_leaves_it_out_and_a_muted_player_is_hidden() -> None:
    before = (ChatLine(1, "Ben", "hello", 10.0), ChatLine(None, TABLE_NAME, "Ben's time ran out.", 11.0))
    table = Table(lines=before)
    mutes = MemoryMutes()
    chat = Chat(table, mutes)
    assert chat.news() == ()  # said before the table was opened: history, not news
    chat.open()
    view = chat.view(0.0)
    assert view.history == ("Ben: hello", "The table: Ben's time ran out.")
    assert view.speakers == (("Ben", False),)  # neither the table's own words nor this player's own
    table.chat_lines = (*before, ChatLine(0, "Ann", "hi Ben", 12.0), ChatLine(1, "Ben", "rude words", 13.0))
    assert [line.words for line in chat.news()] == ["Ann: hi Ben", "Ben: rude words"]
    assert chat.news() == ()

    chat.type("/mute ben")
    chat.send()  # a command: nothing goes to the table, and the field stays open
    assert table.said == [] and chat.typing and chat.typed == ""
    assert mutes.muted(table.where) == frozenset({"Ben"})
    view = chat.view(0.0)
    assert view.history == ("The table: Ben's time ran out.", "Ann: hi Ben")
    assert view.speakers == (("Ben", True),) and view.note.startswith("Ben's lines are hidden")
    table.chat_lines = (*table.chat_lines, ChatLine(1, "Ben", "more", 14.0), ChatLine(0, "Ann", "ok", 15.0))
    assert [line.words for line in chat.news()] == ["Ann: ok"]

    chat.chips = (("Ben", (100, 100, 60, 20)),)  # where the panel drew his name
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(120, 110))
    assert chat.handle(click) and mutes.muted(table.where) == frozenset()
    assert "Ben: more" in chat.view(0.0).history and chat.error == ""
    chat.type("/mute Cy")
    chat.send()
    assert chat.error == "No one called Cy has said anything at this table."


def test_pageup_scrolls_back_through_the_table_s_chat_and_pagedown_comes_back() -> None:
    lines = tuple(ChatLine(1, "Ben", f"line {n}", float(n)) for n in range(20))
    chat = Chat(Table(lines=lines))
    chat.open()
    assert chat.view(0.0).history[-1] == "Ben: line 19"
    chat.handle(key(pygame.K_PAGEUP))
    assert chat.view(0.0).history[-1] == f"Ben: line {19 - PAGE_LINES}" and chat.view(0.0).scroll == PAGE_LINES
    chat.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    chat.handle(key(pygame.K_PAGEDOWN))
    assert chat.view(0.0).history[-1] == "Ben: line 19" and chat.view(0.0).scroll == 0
