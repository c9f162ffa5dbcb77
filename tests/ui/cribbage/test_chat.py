"""Chat and the table's news in the classic cribbage scene online, with posted events: Ann's and Ben's
`RemoteCribbageSession`s at one table of a real server on the loopback address, each in a cribbage scene
(shown in turn in one headless window). C opens the field, the scene's keys (G, N, digits) wait while
it is open, Enter sends; Ben's scene shows "Ann: ..." in its strip without the control characters typed;
Ben leaving is told and his name plate says he is away; the server gone is told as a lost connection.
A game of this window has no chat (issue 31)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pygame
import pytest

from cribtiles.online.client import Link
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.table import Seat
from cribtiles.table.cribbage.session import CribbageSession
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.cribbage.setup import online_table_scene
from cribtiles.ui.window import App
from tests.server.running import running_server
from tests.ui.test_online_chat import press, type_text

WAIT = 30.0


@pytest.fixture
def app() -> Iterator[App]:
    a = App(Table.new((Seat.person("You"), Seat.bot("medium")), seed=5), Preferences(speed="instant"), NoKeeper())
    yield a
    a.close()


def show(app: App, scene: CribbageScene) -> None:
    app.scenes = [scene]
    app.frame(1 / 60)


def frames_until(app: App, done: Callable[[], bool]) -> None:
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, "what was waited for did not come"
        app.frame(1 / 60)
        time.sleep(0.002)


def heard(scene: CribbageScene) -> list[str]:
    chat = scene.snapshot().chat
    return [] if chat is None else [line for line, _ in chat.heard]


def test_a_line_typed_in_one_cribbage_scene_is_shown_in_the_other(app: App) -> None:
    links: list[Link] = []
    with running_server() as (url, _hall):
        links = [Link(url), Link(url)]
        assert all(link.wait_connected(10) for link in links)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
        made = links[0].request("create", game="cribbage", seats=seats, sit=0, seed=9)
        links[0].sit(made["code"], made["token"])
        joined = links[1].request("join", code=made["code"], name="Ben")
        links[1].sit(made["code"], joined["token"])
        ann = online_table_scene(app, RemoteCribbageSession(links[0], made["code"], 0))
        ben = online_table_scene(app, RemoteCribbageSession(links[1], made["code"], 1))
        show(app, ann)
        assert ann.snapshot().keys.endswith("C chat")
        frames_until(app, lambda: "away" not in ann.snapshot().bot_label)  # Ben's seat taken: he is here
        chosen, ply = list(ann.cards.chosen), ann.pub.ply

        # C opens the field; G, N, digits and Space are letters of the line, not the table's keys
        press(pygame.K_c, "c")
        app.frame(1 / 60)
        assert ann.typing
        type_text("Good game ")
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="n\x00o\x1b 15 2"))
        press(pygame.K_SPACE, " ")
        press(pygame.K_RETURN)
        app.frame(1 / 60)
        assert not ann.typing and app.scenes == [ann]
        assert ann.cards.chosen == chosen and ann.pub.ply == ply and not ann.message  # no key reached the table

        show(app, ben)
        frames_until(app, lambda: "Ann: Good game no 15 2" in heard(ben))
        assert not any("\x00" in line or "\x1b" in line for line in heard(ben))
        show(app, ann)
        frames_until(app, lambda: "Ann: Good game no 15 2" in heard(ann))  # her own, back from the table

        # Ben goes: Ann is told, and his name plate says he is away
        links[1].close()
        frames_until(app, lambda: "Ben has gone away." in heard(ann))
        frames_until(app, lambda: ann.snapshot().bot_label.startswith("away"))
    try:
        # the server gone: the lost connection is told in the strip, and a line typed then is not sent:
        # the field stays open with its words, and says why
        frames_until(app, lambda: any("connection to the server was lost" in line for line in heard(ann)))
        press(pygame.K_c, "c")
        type_text("still there")
        press(pygame.K_RETURN)
        app.frame(1 / 60)
        chat = ann.snapshot().chat
        assert chat is not None and chat.typed == "still there" and chat.error.startswith("That was not sent")
    finally:
        for link in links:
            link.close()


def test_a_cribbage_game_at_this_window_has_no_chat(app: App) -> None:
    scene = CribbageScene(app, CribbageSession(CribbageTable.new(3, "easy")))
    show(app, scene)
    assert "chat" not in scene.snapshot().keys
    press(pygame.K_c, "c")
    app.frame(1 / 60)
    chat = scene.snapshot().chat
    assert not scene.typing and chat is not None and chat.typed is None
