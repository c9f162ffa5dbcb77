"""A person is "here" only at the online table on screen (issue 44, defect 5): the window, headless with
its real remote sessions and posted keys against a real server on a loopback port, leaves each table as
the screen changes (a new table's code screen gone, a cribbage table closed, the title opened over a
table) and comes back when the table is shown again; `status` (what `cribtiles online status` prints)
says so. Before, every table the window had sat at stayed "here", and its timers ran out unseen."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.online.client import Link
from cribtiles.server.front import Limits
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.online.screens import CodeScene, CreateScene
from cribtiles.ui.online.services import OnlineServices
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App
from tests.server.running import running_server

PATIENCE = 30.0


@pytest.fixture
def server() -> Iterator[tuple[str, Any]]:
    with running_server(limits=Limits(per_second=1000, burst=1000)) as running:  # Ann asks at every frame
        yield running


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(tmp_path))
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


class Ann:
    """The friend at every table: a link of her own, which makes tables and asks their status."""

    def __init__(self, url: str) -> None:
        self.link = Link(url)
        assert self.link.wait_connected(PATIENCE)

    def table(self, game: str) -> str:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
        return str(self.link.request("create", game=game, seats=seats, sit=0)["code"])

    def here(self, code: str, seat: int) -> bool:
        """Whether the player at `seat` is here, as `status` tells anyone with the code."""
        return bool(self.link.request("status", code=code)["table"]["seats"][seat]["present"])


def test_only_the_table_on_screen_is_here(app: App, server: tuple[str, Any]) -> None:
    url, _hall = server
    ann = Ann(url)
    try:
        # a table made on the Online screen, its code screen left before the friend came
        app.open_title()
        app.online_side.open_online()
        online = app.scenes[-1]
        online.name.text, online.address.text = "Ben", url  # type: ignore[attr-defined]
        online.create()  # type: ignore[attr-defined]
        create = app.scenes[-1]
        assert isinstance(create, CreateScene)
        create.forms["tiles"].seats[0].choose("friend")
        create.create()
        assert until(app, lambda: isinstance(app.scenes[-1], CodeScene)), create.status
        made = app.scenes[-1].held.code  # type: ignore[attr-defined]
        # the code screen is the table's: Ben is here while it is shown (once the table's own link has sat,
        # after the server's link let the new table go, so that behind a proxy the process it reaches takes it)
        assert until(app, lambda: ann.here(made, 0))
        post_key(pygame.K_ESCAPE)
        assert until(app, lambda: not ann.here(made, 0))
        ann.link.request("join", code=made, name="Ann")

        # a cribbage table, opened and closed
        crib = ann.table("cribbage")
        app.open_online_table(url, crib, "Ben")
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene))
        assert ann.here(crib, 1)
        post_key(pygame.K_ESCAPE)
        assert until(app, lambda: isinstance(app.scenes[-1], TitleScene))
        assert until(app, lambda: not ann.here(crib, 1))

        # a tile table: here while shown, away while the title is over it, here again on Continue
        tiles = ann.table("tiles")
        app.open_online_table(url, tiles, "Ben")
        assert until(app, lambda: isinstance(app.scenes[-1], GameScene) and ann.here(tiles, 1))
        post_key(pygame.K_ESCAPE)
        assert until(app, lambda: isinstance(app.scenes[-1], TitleScene))
        assert until(app, lambda: not ann.here(tiles, 1))
        post_key(pygame.K_ESCAPE)  # back to the game
        assert until(app, lambda: isinstance(app.scenes[-1], GameScene) and ann.here(tiles, 1))
        assert not ann.here(made, 0) and not ann.here(crib, 1)
        assert sorted(app.lobby.link(url).seats) == [tiles]  # the one table it comes back to
    finally:
        ann.link.close()


def test_the_caption_and_the_title_keep_up_with_a_table_not_on_screen(app: App, server: tuple[str, Any]) -> None:
    """Issue 44, defect 8: with the title over an online table, the caption and the title's Continue kept
    the scores last seen at the table; they now follow what its server tells of it."""
    from cribtiles.online.tiles_seat import tile_move
    from cribtiles.rules import new_game

    url, _hall = server
    ann = Ann(url)
    try:
        seed = next(s for s in range(100) if new_game(2, seed=s, names=("Ann", "Ben")).current == 0)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
        code = str(ann.link.request("create", game="tiles", seats=seats, sit=0, seed=seed)["code"])
        app.open_online_table(url, code, "Ben")
        assert until(app, lambda: isinstance(app.scenes[-1], GameScene))
        assert until(app, lambda: app._caption_shown == "Crib Tiles — Ann 0 · You 0"), app._caption_shown
        post_key(pygame.K_ESCAPE)  # the title over the table: it is left
        assert until(app, lambda: isinstance(app.scenes[-1], TitleScene) and not ann.here(code, 1))

        states = [m["state"] for m in ann.link.messages() if m["type"] == "state" and m["state"].get("match")]
        told = states[-1]  # Ann's seat as it stands: her turn
        move = tile_move(told, "easy", random.Random(3))
        answer = ann.link.request("act", code=code, ply=told["ply"], move=move)
        scores = answer["state"]["match"]["game"]["scores"]
        assert scores[0] > 0
        words = f"Ann {scores[0]} · You 0"
        # and it is Ben's turn there now, which the caption says first
        assert until(app, lambda: app._caption_shown == f"(1) Your turn — Crib Tiles — {words}"), app._caption_shown
        title = app.scenes[-1]
        assert isinstance(title, TitleScene)
        continued = next(item for item in title.menu.items if item.label == "Continue")
        assert continued.note == f"The game at the table: {words}"
    finally:
        ann.link.close()
