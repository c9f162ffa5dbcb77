"""Hosting in the window (issue 44, defect 6), with the real `cribtiles serve` on a free loopback port and
posted keys: Ctrl+Q while hosting asks first (it quit without a word, and the server stopped with it);
"Keep it running" leaves the server running after the window closed, and the next window takes it back;
"Stop it" stops it; and Your online games offers to host again a table whose server was this computer's
and is stopped (it said "No server answers", and nothing more)."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.hosting import HostedServer
from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.online.client import Link
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.online.games_list import STOPPED, GamesScene
from cribtiles.ui.online.quit_hosting import QuitHostingScene
from cribtiles.ui.online.screens import OnlineScene
from cribtiles.ui.online.services import HeldSeat, OnlineServices
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.window import App

PATIENCE = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait(check: Callable[[], bool]) -> bool:
    end = time.monotonic() + PATIENCE
    while not check() and time.monotonic() < end:
        time.sleep(0.05)
    return check()


def until(app: App, check: Callable[[], bool]) -> bool:
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        app.frame(1 / 60)
        if check():
            return True
        time.sleep(0.01)
    return check()


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostedServer]:
    server = HostedServer(tmp_path / "server", port=free_port())
    server.start(shared=False)
    assert wait(lambda: server.url is not None or bool(server.problem)), server.problem
    yield server
    HostedServer(tmp_path / "server", port=server.port).stop()  # whichever window had it last


def window(folder: Path, host: HostedServer) -> App:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), Store(folder), size=(1280, 800))
    app.online = OnlineServices(OnlineGames(folder), host)
    return app


def ctrl_q() -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_LCTRL, unicode="", scancode=0))


def test_ctrl_q_while_hosting_asks_and_keep_it_running_leaves_it_for_the_next_window(
    tmp_path: Path, host: HostedServer
) -> None:
    url = host.url
    assert url is not None
    app = window(tmp_path, host)
    try:
        ctrl_q()
        app.frame(1 / 60)
        assert app.running and isinstance(app.scenes[-1], QuitHostingScene)
        post_key(pygame.K_k)  # keep it running
        app.frame(1 / 60)
        assert not app.running
    finally:
        app.close()
    assert host.running  # the window closed, the server goes on
    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE) and link.request("ping")["type"] == "pong"
    finally:
        link.close()

    again = HostedServer(tmp_path / "server", port=host.port)  # the next window's
    assert again.running and again.url == url
    app = window(tmp_path, again)
    try:
        app.open_title()
        app.online_side.open_online()
        online = app.scenes[-1]
        assert isinstance(online, OnlineScene)
        assert until(app, lambda: online.tone == "good"), online.status
        assert online.status.startswith(f"Hosting at {url}") and online.address.text == url
        ctrl_q()
        app.frame(1 / 60)
        post_key(pygame.K_s)  # stop it this time
        app.frame(1 / 60)
        assert not app.running
    finally:
        app.close()
    assert wait(lambda: not again.running)
    assert not HostedServer(tmp_path / "server", port=host.port).running


def test_escape_on_the_question_goes_back_and_nothing_stops(tmp_path: Path, host: HostedServer) -> None:
    app = window(tmp_path, host)
    try:
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window's close button
        app.frame(1 / 60)
        assert isinstance(app.scenes[-1], QuitHostingScene)
        post_key(pygame.K_ESCAPE)
        app.frame(1 / 60)
        assert app.running and not isinstance(app.scenes[-1], QuitHostingScene) and host.running
    finally:
        app.close()
    assert not host.running  # a window closed otherwise (a signal, the end of a test) stops it


def test_your_online_games_hosts_again_a_table_of_this_computer_s_stopped_server(
    tmp_path: Path, host: HostedServer
) -> None:
    url = host.url
    assert url is not None
    ann = Link(url)
    try:
        assert ann.wait_connected(PATIENCE)
        made = ann.request("create", game="tiles", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}])
        joined = ann.request("join", code=made["code"], name="Ann")
    finally:
        ann.close()
    book = OnlineGames(tmp_path)
    book.add(HeldSeat(url, made["code"], joined["seat"], "Ann", "tiles", joined["token"], made["host"]))
    host.stop()
    app = window(tmp_path, host)
    try:
        app.open_title()
        app.online_side.open_online_games()
        games = app.scenes[-1]
        assert isinstance(games, GamesScene)
        assert until(app, lambda: games.cells(0)[0][3] == STOPPED), games.cells(0)
        assert games.status == ""  # the foot says what H does (drawn from STOPPED_WORDS)
        assert [label for label, _, _ in games.buttons] == ["Host again", "Forget", "Back"]
        post_key(pygame.K_h)
        assert until(app, lambda: games.cells(0)[0][3] == "waiting for 1 player"), (games.cells(0), games.status)
        assert host.running and host.url == url
        assert games.status == "Your server is running again: its tables come back."
    finally:
        app.close()


def test_the_code_screen_of_a_table_hosted_here_gives_the_address_to_type(tmp_path: Path, host: HostedServer) -> None:
    """Issue 44, defect 12: it said "this computer" where the address to type belongs."""
    from cribtiles.ui.online.screens import CodeScene

    url = host.url
    assert url is not None
    app = window(tmp_path, host)
    try:
        held = HeldSeat(url, "KXRMTB", 0, "Ann", "tiles", "token")
        scene = CodeScene(app, app.lobby, held, 1)
        assert scene.server_words() == f"{url} (this computer only: host for your network to let friends in)"
        elsewhere = CodeScene(app, app.lobby, HeldSeat("ws://192.0.2.7:8765", "KXRMTB", 0, "Ann"), 1)
        assert elsewhere.server_words() == "ws://192.0.2.7:8765"
    finally:
        app.close()


def test_a_shared_server_s_code_screen_gives_its_address_on_the_network(tmp_path: Path) -> None:
    from cribtiles.online.lan import lan_address
    from cribtiles.ui.online.screens import CodeScene

    address = lan_address()
    if address is None:
        pytest.skip("this computer has no address on a network")
    shared = HostedServer(tmp_path / "server", port=free_port(), advertise=lambda port, label: Quiet())
    shared.start(shared=True)
    try:
        assert wait(lambda: shared.url is not None or bool(shared.problem)), shared.problem
        assert shared.url is not None
        app = window(tmp_path, shared)
        try:
            scene = CodeScene(app, app.lobby, HeldSeat(shared.url, "KXRMTB", 0, "Ann"), 1)
            assert scene.server_words() == f"ws://{address}:{shared.port}"
        finally:
            app.close()
    finally:
        shared.stop()


class Quiet:
    """An advertisement on the network that says nothing (the test needs no mDNS)."""

    def close(self) -> None:
        pass
