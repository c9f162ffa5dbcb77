"""Chat at a table online, in the real game scene with posted events: two people's `RemoteSession`s at one
table of a real server on the loopback address, each in a scene of its own (shown in turn in one headless
window). C opens the field, typed text goes in (control characters do not), the table's shortcuts wait
while it is open, Enter sends it and the other's scene shows it, the name first; Esc cancels; a table
of this window has no chat at all (issue 31)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pygame
import pytest

from cribtiles.online.client import Link
from cribtiles.online.remote import RemoteSession
from cribtiles.rules.options import RuleOptions
from cribtiles.table.chat import CHAT_LIMIT
from cribtiles.table.seats import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.tiles.panel import keys_line
from cribtiles.ui.window import App
from tests.server.running import running_server

WAIT = 30.0


@pytest.fixture
def app() -> Iterator[App]:
    a = App(Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), 5), Preferences(speed="instant"), NoKeeper())
    yield a
    a.close()


def show(app: App, scene: GameScene) -> None:
    """The window shows `scene` (each person's scene keeps its own session: neither is closed)."""
    app.session, app.game, app.scenes = scene.session, scene, [scene]
    app.frame(1 / 60)


def frames_until(app: App, done: Callable[[], bool]) -> None:
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, "what was waited for did not come"
        app.frame(1 / 60)
        time.sleep(0.002)


def press(key: int, unicode: str = "") -> None:
    """A key pressed as a keyboard sends it: its KEYDOWN, then its text (a letter's TEXTINPUT)."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=unicode, scancode=0))
    if unicode:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=unicode))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=unicode, scancode=0))


def type_text(text: str) -> None:
    for ch in text:
        key = pygame.key.key_code(ch) if ch.isalpha() else (pygame.K_SPACE if ch == " " else 0)
        press(key, ch)


def keys_written(scene: GameScene) -> str:
    snap = scene.snapshot()
    size = max(12, round(snap.layout.height * 0.017))
    return keys_line(snap, size, 10_000)


def test_a_line_typed_at_one_window_is_shown_at_the_other_with_its_name_first(app: App) -> None:
    with running_server() as (url, _hall):
        links = [Link(url), Link(url)]
        try:
            assert all(link.wait_connected(10) for link in links)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
            made = links[0].request("create", game="tiles", seats=seats, sit=0, seed=12)
            links[0].sit(made["code"], made["token"])
            joined = links[1].request("join", code=made["code"], name="Ben")
            links[1].sit(made["code"], joined["token"])
            sessions = [RemoteSession(links[0], made["code"], 0), RemoteSession(links[1], made["code"], 1)]
            app.take_seat(sessions[0])
            ann, ben = app.game, GameScene(app, sessions[1])
            show(app, ann)
            assert "C chat" in keys_written(ann) and ann.snapshot().chat is not None
            turns, speed = len(ann.state.turns), app.prefs.speed

            # C opens the field (its own letter is not typed); the table's letters are text now: P does not
            # pass, A does not change the speed, and a bell, a tab and an escape never get in
            press(pygame.K_c, "c")
            app.frame(1 / 60)
            assert ann.typing and ann.chat.typed == ""
            type_text("Play ")
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="well\x07\t\x1b[2J"))
            type_text(" Ben a")
            app.frame(1 / 60)
            snap = ann.snapshot()
            assert snap.chat is not None and snap.chat.typed == "Play well[2J Ben a"
            assert app.prefs.speed == speed and len(ann.state.turns) == turns and app.scenes == [ann]
            press(pygame.K_BACKSPACE)
            press(pygame.K_BACKSPACE)
            press(pygame.K_RETURN)
            app.frame(1 / 60)
            assert not ann.typing and ann.snapshot().chat is not None

            # Ben's window shows it, Ann's name first; Ann's shows her own line come back
            show(app, ben)
            frames_until(app, lambda: "Ann: Play well[2J Ben" in ben.snapshot().toasts)
            assert not any("\x07" in t or "\x1b" in t or "\t" in t for t in ben.snapshot().toasts)
            show(app, ann)
            frames_until(app, lambda: "Ann: Play well[2J Ben" in ann.snapshot().toasts)

            # Esc cancels a line (the table stays: Esc is the field's), and nothing is sent
            press(pygame.K_c, "c")
            type_text("never sent")
            press(pygame.K_ESCAPE)
            app.frame(1 / 60)
            assert not ann.typing and app.scenes == [ann]
            # a line no longer than the server takes
            press(pygame.K_c, "c")
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="x" * (CHAT_LIMIT + 50)))
            app.frame(1 / 60)
            assert ann.chat.typed == "x" * CHAT_LIMIT
            press(pygame.K_ESCAPE)
            app.frame(1 / 60)
            show(app, ben)
            for _ in range(30):
                app.frame(1 / 60)
            assert not any("never sent" in t for t in ben.snapshot().toasts)
        finally:
            for link in links:
                link.close()


def test_a_table_of_this_window_shows_no_chat(app: App) -> None:
    game = app.game
    app.frame(1 / 60)
    assert game.snapshot().chat is None and "chat" not in keys_written(game)
    press(pygame.K_c, "c")
    app.frame(1 / 60)
    assert not game.typing and game.snapshot().chat is None
