"""A window that holds seats at several online tables while its server (`cribtiles serve`, a process of its
own) is killed and started again: it comes back to the table on screen, and Your online games takes it
back to any other (issue 44, defect 2: "The server did not send the table", every retry, until the
program was restarted).

The window runs in the test's process, headless, with its real remote sessions; the friend at each
table is a plain link of the test."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.online.client import Link
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.online.games_list import GamesScene
from cribtiles.ui.online.screens import CodeScene, CreateScene, OnlineScene
from cribtiles.ui.online.services import OnlineServices
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.window import App

from .test_server_kill import Server, free_port

PATIENCE = 30.0  # seconds any one wait may take before the test fails (never a timing assertion)
LINES = 25  # lines said at each table: more than the server sends again to a seat that comes back


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    server = Server(free_port(), tmp_path / "server")
    server.start()
    try:
        yield server
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    folder = tmp_path / "window"
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(folder), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(folder))
    yield a
    a.close()


def until(app: App, check: Callable[[], bool]) -> bool:
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        app.frame(1 / 60)
        if check():
            return True
        time.sleep(0.01)
    return check()


def chatter(url: str, code: str, name: str) -> None:
    """`name` takes the open seat at `code` and says `LINES` lines there (paced within the server's limit)."""
    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE)
        link.request("join", code=code, name=name)
        for n in range(LINES):
            link.request("chat", code=code, text=f"line {n + 1} from {name}")
            time.sleep(0.06)
    finally:
        link.close()


def at_table(app: App, code: str) -> bool:
    return isinstance(app.scenes[-1], GameScene) and getattr(app.session, "code", None) == code


def create_in_window(app: App, url: str) -> str:
    """A table made on the Online screen (Ben, and a friend's open seat), its code screen left with Back."""
    app.open_title()
    app.online_side.open_online()
    online = app.scenes[-1]
    assert isinstance(online, OnlineScene)
    online.name.text, online.address.text = "Ben", url
    online.create()
    create = app.scenes[-1]
    assert isinstance(create, CreateScene)
    create.forms["tiles"].seats[0].choose("friend")
    create.create()
    assert until(app, lambda: isinstance(app.scenes[-1], CodeScene)), create.status
    code_scene = app.scenes[-1]
    assert isinstance(code_scene, CodeScene)
    code = code_scene.held.code
    code_scene.back()
    app.back_to_game()
    return code


def a_friends_table(url: str, name: str) -> str:
    """A table `name` made (their seat and an open one) and said `LINES` lines at."""
    maker = Link(url)
    try:
        assert maker.wait_connected(PATIENCE)
        seats = [{"kind": "person", "name": name}, {"kind": "open"}]
        code = str(maker.request("create", game="tiles", seats=seats, sit=0)["code"])
        for n in range(LINES):
            maker.request("chat", code=code, text=f"line {n + 1} from {name}")
            time.sleep(0.06)
        return code
    finally:
        maker.close()


def test_after_the_server_restarts_the_window_goes_back_to_each_of_its_tables(app: App, server: Server) -> None:
    """The reported steps: a table opened (CODE1), the server killed and started again, a second table
    joined, then Your online games, CODE1, Resume. Before, the window's link came back to every seat it
    had ever held at once, each sent again with its last lines of chat: more than the server lets wait
    for a connection, which it closed, and so again at every reconnection; the table gone back to came
    last, and its state never got through."""
    url = server.url
    made = [create_in_window(app, url) for _ in range(5)]  # left on their code screens: friends chat there
    for code in made:
        chatter(url, code, "Ann")
    first, second = a_friends_table(url, "Cy"), a_friends_table(url, "Di")
    app.open_online_table(url, first, "Ben")
    assert until(app, lambda: at_table(app, first)), app.scenes[-1]

    server.kill()
    server.start()
    link = app.lobby.link(url)
    assert until(app, lambda: link.connects >= 2)
    app.open_online_table(url, second, "Ben")
    assert until(app, lambda: at_table(app, second)), getattr(app.scenes[-1], "status", "")

    app.open_title()
    app.online_side.open_online_games()
    games = app.scenes[-1]
    assert isinstance(games, GamesScene)
    games.chosen = [h.code for h in games.held].index(first)
    games.resume()
    assert until(app, lambda: at_table(app, first) or games.tone == "bad"), games.status
    assert at_table(app, first), games.status
