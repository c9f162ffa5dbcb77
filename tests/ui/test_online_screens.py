"""The Online screens driven by posted events, headless, against a real server on a loopback port:
creating a table shows its code, a second link joins with it, joining with a code takes the seat,
Your online games lists each table with whose turn it is, an unreachable server is said in plain
words, and hosting starts and stops a child server on a free loopback port.

With CRIBTILES_SHOTS=<folder> set, the screens are also saved there as PNGs to look at."""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from cribtiles.app.hosting import HostedServer, local_url, serve_command
from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.online.client import Link
from cribtiles.online.lan import Advertiser, Browser
from cribtiles.rules.options import OPTIONS, RuleOptions
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.online.games_list import GamesScene
from cribtiles.ui.online.screens import CodeScene, CreateScene, JoinScene, OnlineScene
from cribtiles.ui.online.services import HeldSeat, OnlineServices
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App
from tests.server.running import running_server

LOOPBACK = ["127.0.0.1"]
#: Seconds any wait on the server may take before the test fails (never a timing assertion).
PATIENCE = 30.0

#: A stand-in for `cribtiles serve` while the command line's own is not there: the real server (its
#: hall and front), told where to listen as `serve` is, saying the line `serve` says once it listens.
STAND_IN = """
import argparse, asyncio
from cribtiles.server.front import Hall, run_server
from cribtiles.server.store import MemoryStore
ap = argparse.ArgumentParser()
ap.add_argument("serve"); ap.add_argument("--host"); ap.add_argument("--port", type=int); ap.add_argument("--data-dir")
a = ap.parse_args()
hall = Hall(MemoryStore())
asyncio.run(run_server(hall, a.host, a.port, lambda url: print(f"Crib Tiles server on {url} (0 tables)", flush=True)))
"""


class Opened:
    """Stands in for the making of a remote table's session (the remote session's own tests play one):
    records (link, code, seat), and the window's taking of what it made."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, str, int]] = []
        self.games: list[str] = []  # the game of each table opened
        self.taken: list[Any] = []

    def __call__(self, link: Any, code: str, seat: int, game: str = "tiles") -> tuple[str, str, int]:
        self.calls.append((link, code, seat))
        self.games.append(game)
        return ("session", code, seat)

    def into(self, app: App) -> None:
        app.take_seat = self.taken.append  # type: ignore[method-assign,assignment]


@pytest.fixture
def server() -> Iterator[tuple[str, Any]]:
    with running_server() as (url, hall):
        yield url, hall


@pytest.fixture
def opened() -> Opened:
    return Opened()


@pytest.fixture
def app(tmp_path: Path, opened: Opened) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(tmp_path), sessions=opened)
    opened.into(a)
    a.open_title()
    frames(a)
    yield a
    a.close()


def frames(app: App, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def until(app: App, check: Callable[[], bool], seconds: float = PATIENCE) -> bool:
    """Run frames until `check` holds (a bounded wait)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.frame(1 / 60)
        if check():
            return True
        time.sleep(0.01)
    return check()


def type_text(text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))


def clear_and_type(app: App, text: str) -> None:
    """Empty the field in focus and type `text` into it."""
    top = app.scenes[-1]
    top.focused().text = ""  # type: ignore[attr-defined]
    type_text(text)
    frames(app)


def shot(app: App, name: str) -> None:
    folder = os.environ.get("CRIBTILES_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(Path(folder) / f"{name}.png"))


def to_online(app: App, name: str, url: str) -> OnlineScene:
    """From the title to the Online screen, with `name` and the server's address typed."""
    assert isinstance(app.scenes[-1], TitleScene)
    labels = [item.label for item in app.scenes[-1].menu.items]
    assert "Online" in labels and "Your online games" in labels
    post_key(pygame.K_o)
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, OnlineScene)
    assert scene.focused() is scene.name
    clear_and_type(app, name)
    post_key(pygame.K_DOWN)
    frames(app)
    clear_and_type(app, url)
    post_key(pygame.K_DOWN)  # out of the text fields: the letters are the buttons' again
    frames(app)
    return scene


def a_table(url: str, *seats: dict[str, Any]) -> tuple[Link, dict[str, Any]]:
    """A table made by a link of its own for Ann (seat 0) and `seats`: the link and the server's answer."""
    link = Link(url)
    assert link.wait_connected(PATIENCE)
    answer = link.request("create", game="tiles", seats=[{"kind": "person", "name": "Ann"}, *seats], sit=0)
    return link, answer


def test_creating_a_table_shows_its_code_and_a_second_link_joins_with_it(
    app: App, server: tuple[str, Any], opened: Opened
) -> None:
    url, hall = server
    to_online(app, "Ann", url)
    shot(app, "online")
    post_key(pygame.K_c)
    frames(app)
    create = app.scenes[-1]
    assert isinstance(create, CreateScene)
    while create.forms["tiles"].seats[0].value != "friend":  # seat 2: from the default bot to a friend
        post_key(pygame.K_LEFT)
        frames(app, 1)
    post_key(pygame.K_c)
    assert until(app, lambda: isinstance(app.scenes[-1], CodeScene)), create.status
    code_scene = app.scenes[-1]
    assert isinstance(code_scene, CodeScene)
    code = code_scene.held.code
    frames(app)
    shot(app, "code")
    assert code in hall.rooms and hall.rooms[code].phase == "waiting"
    assert [(s.code, s.seat, s.name) for s in app.online.book.seats()] == [(code, 0, "Ann")]  # type: ignore[union-attr]

    assert until(app, lambda: code_scene.waiting == "Waiting for 1 player")
    post_key(pygame.K_g)  # before the friend: Ann sits here already, and the table opens by itself later
    frames(app)
    said = "You are at the table: it opens here as soon as it has its players (waiting for 1 player)."
    assert code_scene.status == said
    assert not opened.calls
    # she is at the table while its code is shown: on the table's own link, a moment after she sat down
    assert until(app, lambda: bool(hall.rooms[code].present.get(0)))

    ben = Link(url)
    try:
        assert ben.wait_connected(PATIENCE)
        joined = ben.request("join", code=code.lower(), name="Ben")
        assert joined["seat"] == 1
    finally:
        ben.close()
    assert hall.rooms[code].phase == "playing"

    # the screen hears that every seat is taken and takes Ann to the table (issue 44, defect 12: she had to
    # press Go, while Ben's turn timer was running)
    assert until(app, lambda: bool(opened.taken)), code_scene.status
    assert len(opened.calls) == 1 and opened.taken == [("session", code, 0)]
    link, at, seat = opened.calls[0]
    assert (at, seat) == (code, 0)
    assert isinstance(link, Link) and link.url == url and link.seats == {code: code_scene.held.token}


def test_the_create_form_offers_the_bonuses_and_the_table_carries_them(
    app: App, server: tuple[str, Any], opened: Opened
) -> None:
    """The Create screen's rules are the rule options' rows: bonuses=off chosen there is the table's,
    and so the server scores its game without bonuses (issue 45)."""
    url, hall = server
    to_online(app, "Ann", url)
    post_key(pygame.K_c)
    frames(app)
    create = app.scenes[-1]
    assert isinstance(create, CreateScene)
    (row,) = (r for o, r in zip(OPTIONS, create.forms["tiles"].rules, strict=True) if o.name == "bonuses")
    assert row.value is True
    row.choose(False)
    assert create.rules_text().endswith(",bonuses=off")
    post_key(pygame.K_c)
    assert until(app, lambda: isinstance(app.scenes[-1], CodeScene)), create.status
    code_scene = app.scenes[-1]
    assert isinstance(code_scene, CodeScene)
    room = hall.rooms[code_scene.held.code]
    assert RuleOptions.parse(room.settings.rules) == RuleOptions(bonuses=False)


def test_joining_with_a_code_takes_the_open_seat_and_opens_the_table(
    app: App, server: tuple[str, Any], opened: Opened
) -> None:
    url, hall = server
    ann, made = a_table(url, {"kind": "open"})
    try:
        to_online(app, "Ben", url)
        post_key(pygame.K_j)
        frames(app)
        join = app.scenes[-1]
        assert isinstance(join, JoinScene) and join.focused() is join.code
        type_text("zzzzzz")  # a code no table has: refused in the server's words
        frames(app)
        join.focus = join.rows.index(join.name)
        post_key(pygame.K_DOWN)
        post_key(pygame.K_RETURN)
        assert until(app, lambda: join.tone == "bad"), join.status
        assert join.status == "No table has that code." and not opened.calls
        join.focus = join.rows.index(join.code)
        clear_and_type(app, made["code"][:3].lower() + " " + made["code"][3:])
        assert join.code.text == made["code"][:3] + " " + made["code"][3:]  # shown in capitals
        shot(app, "join")
        post_key(pygame.K_RETURN)  # to the name, then to Join
        post_key(pygame.K_RETURN)
        frames(app)
        post_key(pygame.K_RETURN)
        assert until(app, lambda: bool(opened.taken)), join.status
        link, code, seat = opened.calls[0]
        assert (code, seat) == (made["code"], 1) and link.seats[code]
        assert hall.rooms[code].phase == "playing"
        assert [(s.code, s.seat, s.name) for s in app.online.book.seats()] == [(code, 1, "Ben")]  # type: ignore[union-attr]
    finally:
        ann.close()


def test_your_online_games_lists_each_table_with_whose_turn_and_resumes_one(
    app: App, server: tuple[str, Any], opened: Opened
) -> None:
    url, _hall = server
    first, vs_bot = a_table(url, {"kind": "bot", "level": "easy"})
    second, waiting = a_table(url, {"kind": "open"})
    first.close()
    second.close()
    book = app.online.book  # type: ignore[union-attr]
    for answer in (vs_bot, waiting):
        book.add(HeldSeat(url, answer["code"], 0, "Ann", "tiles", answer["token"], answer["host"]))
    post_key(pygame.K_y)
    frames(app)
    games = app.scenes[-1]
    assert isinstance(games, GamesScene)
    turns = lambda: [games.cells(i)[0][3] for i in range(len(games.held))]  # noqa: E731
    # the newest first; the bot moves at once when it starts, then it is Ann's turn
    assert until(app, lambda: turns() == ["waiting for 1 player", "yours"]), turns()
    # the table that waits for Ann's move is marked; the game, the others, and when the last move was made
    assert [games.cells(i)[0][0].replace(" ", "") for i in range(2)] == [waiting["code"], "»" + vs_bot["code"]]
    assert [games.cells(i)[0][1:3] for i in range(2)] == [("Kings Cribbage", "(open)"), ("Kings Cribbage", "Easy")]
    assert [games.cells(i)[0][4] for i in range(2)] == ["", "moved just now"]
    shot(app, "games")
    post_key(pygame.K_DOWN)
    post_key(pygame.K_RETURN)
    assert until(app, lambda: bool(opened.taken)), games.status
    link, code, seat = opened.calls[0]
    assert (code, seat) == (vs_bot["code"], 0) and link.seats[code] == vs_bot["token"]


def test_an_unreachable_server_is_said_in_plain_words_and_nothing_is_kept(app: App, opened: Opened) -> None:
    with socket.socket() as probe:  # a loopback port where nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    scene = to_online(app, "Ann", f"127.0.0.1:{port}")
    post_key(pygame.K_c)
    frames(app)
    post_key(pygame.K_c)
    create = app.scenes[-1]
    assert isinstance(create, CreateScene)
    assert until(app, lambda: create.tone == "bad"), create.status
    assert create.status == f"No server answers at that address (ws://127.0.0.1:{port})"
    assert app.online.book.seats() == [] and not opened.calls  # type: ignore[union-attr]
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes[-1] is scene
    scene.address.text = "http://example.org"
    post_key(pygame.K_j)
    frames(app)
    assert app.scenes[-1] is scene and scene.tone == "bad" and "ws://" in scene.status


def test_hosting_starts_a_child_server_on_a_free_loopback_port_and_stops_it(tmp_path: Path) -> None:
    host = HostedServer(tmp_path / "server", port=0, command=[sys.executable, "-c", STAND_IN, "serve"])
    host.start(shared=False)
    try:
        end = time.monotonic() + PATIENCE
        while host.url is None and not host.problem and time.monotonic() < end:
            time.sleep(0.05)
        assert host.url is not None, host.problem
        assert host.url.startswith("ws://127.0.0.1:") and not host.url.endswith(":0")
        assert host.lan_url is None  # this computer only
        link = Link(host.url)
        try:
            assert link.wait_connected(PATIENCE)
            assert link.request("ping")["type"] == "pong"
        finally:
            link.close()
        process = host._process
        assert process is not None and process.poll() is None
    finally:
        host.stop()
    assert process.poll() is not None and host.url is None and not host.running


def test_a_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    failing = "import sys; print('cribtiles serve: port 8765 is in use'); sys.exit(2)"
    host = HostedServer(tmp_path, port=0, command=[sys.executable, "-c", failing, "serve"])
    host.start(shared=False)
    end = time.monotonic() + PATIENCE
    while not host.problem and time.monotonic() < end:
        time.sleep(0.05)
    assert host.problem == "the server stopped: port 8765 is in use" and host.url is None


def test_the_serve_command_is_the_bundles_own_executable_when_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    assert serve_command() == [sys.executable, "-m", "cribtiles", "serve"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert serve_command() == [sys.executable, "serve"]
    assert local_url("ws://0.0.0.0:8765") == "ws://127.0.0.1:8765"


def test_host_on_the_online_screen_fills_in_the_address_and_quitting_the_window_stops_the_server(
    tmp_path: Path, opened: Opened
) -> None:
    host = HostedServer(tmp_path / "server", port=0, command=[sys.executable, "-c", STAND_IN, "serve"])
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    try:
        app.online = OnlineServices(OnlineGames(tmp_path), host, sessions=opened)
        app.open_title()
        frames(app)
        scene = to_online(app, "Ann", "")
        post_key(pygame.K_h)
        assert until(app, lambda: scene.tone == "good"), scene.status
        assert host.url is not None and scene.address.text == host.url
        assert scene.status == f"Hosting at {host.url}. Create a table next."
        process = host._process
        assert process is not None and process.poll() is None
    finally:
        app.close()
    assert process.poll() is not None and not host.running


def test_servers_heard_of_on_the_network_are_listed_and_choosing_one_fills_in_its_address(
    tmp_path: Path, opened: Opened
) -> None:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    club = Advertiser(8765, "Crib Tiles at the club", LOOPBACK)
    try:
        app.online = OnlineServices(OnlineGames(tmp_path), lookout=lambda: Browser(LOOPBACK), sessions=opened)
        app.open_title()
        frames(app)
        scene = to_online(app, "Ann", "")
        assert scene.focused() is scene.nearby
        assert until(app, lambda: len(scene.nearby.choices) == 2), scene.nearby.choices
        assert scene.nearby.choices[1] == ("ws://127.0.0.1:8765", "Crib Tiles at the club · 127.0.0.1:8765")
        post_key(pygame.K_RIGHT)
        frames(app)
        assert scene.address.text == "ws://127.0.0.1:8765"
        post_key(pygame.K_ESCAPE)  # the look-out stops with the screen
        frames(app)
        assert not isinstance(app.scenes[-1], OnlineScene) and app.lobby._lookout is None
    finally:
        club.close()
        app.close()


def serve_is_wired() -> bool:
    """Whether `cribtiles serve` is a command of this checkout (the command line's own branch adds it)."""
    import subprocess

    done = subprocess.run([*serve_command(), "--help"], capture_output=True, text=True, timeout=PATIENCE)
    return done.returncode == 0


@pytest.mark.skipif(not serve_is_wired(), reason="`cribtiles serve` is not in this checkout yet")
def test_hosting_runs_the_real_serve_command_on_a_free_loopback_port(tmp_path: Path) -> None:
    host = HostedServer(tmp_path / "server", port=0)
    host.start(shared=False)
    try:
        end = time.monotonic() + PATIENCE
        while host.url is None and not host.problem and time.monotonic() < end:
            time.sleep(0.05)
        assert host.url is not None and host.url.startswith("ws://127.0.0.1:"), host.problem
        link = Link(host.url)
        try:
            assert link.wait_connected(PATIENCE)
            assert link.request("ping")["type"] == "pong"
        finally:
            link.close()
    finally:
        host.stop()
    assert not host.running
