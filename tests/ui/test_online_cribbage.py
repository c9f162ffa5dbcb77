"""Classic cribbage online in the window, headless, with posted events against a real server on a loopback
port: the lobby's Create a table makes a cribbage table (two seats, cribbage's rules), a friend takes
the open seat (a seat bot on a link of its own), Go to the table opens the cribbage scene driven by
`RemoteCribbageSession`, and the game is played to its end card. The friend is named without an
article, the finished game goes into the history once with its record, and opening it again from Your
online games records nothing twice (issue 31)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.cribbage.record import replay
from cribtiles.online.botclient import Outcome, SeatBot
from cribtiles.online.client import Link
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.server.cribbage_room import CribbageGame
from cribtiles.server.front import Hall, Limits
from cribtiles.table import Seat
from cribtiles.table.game_summary import Game, Result
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.cribbage.pilot import CribbagePilot
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.online.games_list import GamesScene
from cribtiles.ui.online.screens import CodeScene, CreateScene, JoinScene
from cribtiles.ui.online.services import OnlineServices
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App
from tests.server.running import running_server
from tests.ui.test_online_screens import clear_and_type, frames, shot, to_online, until

#: Seat bots answer in milliseconds: the server's allowance of messages a second is raised for them.
FAST = Limits(per_second=1000, burst=1000)
#: The most seconds a whole game may take here (it takes a few): only a hung test meets it.
PATIENCE = 240.0


@pytest.fixture
def server() -> Iterator[tuple[str, Hall]]:
    with running_server(limits=FAST) as running:
        yield running


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    """The window with its own online services: the real session maker, the real keeper."""
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(tmp_path))
    a.open_title()
    frames(a)
    yield a
    a.close()


def choose(app: App, scene: CreateScene, row: Any, value: object) -> None:
    """Move the focus to `row` with Up/Down, then Right until it shows `value`."""
    for _ in range(len(scene.rows)):
        if scene.focused() is row:
            break
        post_key(pygame.K_DOWN)
        frames(app, 1)
    assert scene.focused() is row
    for _ in range(len(row.choices)):
        if row.value == value:
            return
        post_key(pygame.K_RIGHT)
        frames(app, 1)
    assert row.value == value


def play_to_the_end(app: App, scene: CribbageScene) -> list[str]:
    """Ann's seat played with posted events to the end card; every prompt the scene showed."""
    import time

    pilot = CribbagePilot(scene, "medium", seed=8)
    prompts: list[str] = []
    end = time.monotonic() + PATIENCE
    while not scene.ended and time.monotonic() < end:
        if not pilot.step():
            time.sleep(0.001)  # the friend's move is on its way: let the threads run
        frames(app)
        prompts.append(scene._prompt()[0])
    assert scene.ended, "the game did not end in time"
    return prompts


def test_a_cribbage_table_made_in_the_lobby_is_played_to_its_end_and_kept_once_in_the_history(
    app: App, server: tuple[str, Hall]
) -> None:
    url, hall = server
    to_online(app, "Ann", url)
    post_key(pygame.K_c)
    frames(app)
    create = app.scenes[-1]
    assert isinstance(create, CreateScene) and not create.cribbage
    post_key(pygame.K_UP)  # from Seat 2 up to the game
    frames(app)
    assert create.focused() is create.game
    post_key(pygame.K_RIGHT)
    frames(app)
    assert create.cribbage and create.focused() is create.game
    assert create.crib_seat in create.rows and not any(row in create.rows for row in (*create.seats, *create.rules))
    choose(app, create, create.crib_seat, "friend")
    choose(app, create, create.crib_rules[2], 61)  # a short game: to 61
    shot(app, "create_cribbage")
    post_key(pygame.K_c)
    assert until(app, lambda: isinstance(app.scenes[-1], CodeScene)), create.status
    code_scene = app.scenes[-1]
    assert isinstance(code_scene, CodeScene) and code_scene.open_seats == 1
    held = code_scene.held
    assert held.game == "cribbage" and [s.game for s in app.online.book.seats()] == ["cribbage"]
    room = hall.rooms[held.code]
    assert room.game_name == "cribbage" and room.phase == "waiting"
    assert room.settings.rules == "muggins=off,play_muggins=off,target=61"

    ben_link = Link(url)
    outcome: list[Outcome] = []
    try:
        assert ben_link.wait_connected(30)
        ben = SeatBot(ben_link, held.code, "easy", seed=3)
        assert ben.take_seat("Ben") == 1
        playing = threading.Thread(target=lambda: outcome.append(ben.play(PATIENCE)), daemon=True)
        playing.start()
        assert until(app, lambda: code_scene.waiting == "")
        post_key(pygame.K_g)  # Go to the table
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene)), code_scene.status
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene) and isinstance(scene.session, RemoteCribbageSession)
        assert isinstance(app.scenes[-2], TitleScene)  # Escape leaves the table for the title, as at one window
        assert scene.pub.names == ("Ann", "Ben") and scene.pub.called(1) == "Ben" and scene.pub.options.target == 61
        frames(app)
        shot(app, "online_cribbage")
        assert "U undo" not in scene.snapshot().keys
        post_key(pygame.K_u)  # issue 32: online, a move of cribbage is not taken back, and the table says so
        frames(app)
        assert scene.message == "Taking back a move is not available in online cribbage."
        scene.message = ""
        prompts = play_to_the_end(app, scene)
        playing.join(PATIENCE)
    finally:
        ben_link.close()
    assert outcome and outcome[0].over
    assert not [p for p in prompts if "the Ben" in p or "The Ben" in p]  # a person takes no article
    assert any(p.startswith("Ben ") for p in prompts)  # Ben is to play..., Ben counts their hand...

    game = room.game
    assert isinstance(game, CribbageGame) and game.table.is_over
    kept = [g for g in app.keeper.past_games() if g.game is Game.CRIBBAGE]
    assert len(kept) == 1
    summary = kept[0]
    assert summary.seats == (("Ann", None), ("Ben", None)) and summary.result is Result.PEOPLE_ONLY
    assert summary.scores == game.table.state.scores
    assert replay(json.loads(summary.record)).log == game.table.state.log  # its replay

    post_key(pygame.K_n)  # a new game at this table is asked of the other person there, who has gone
    frames(app)
    assert app.scenes[-1] is scene and scene.message == "Ben is not at the table: a new table needs everyone here."
    post_key(pygame.K_ESCAPE)  # the end card: back to the title
    frames(app)
    assert isinstance(app.scenes[-1], TitleScene)
    post_key(pygame.K_y)
    frames(app)
    assert isinstance(app.scenes[-1], GamesScene)
    post_key(pygame.K_RETURN)  # the finished game opened again
    assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene))
    again = app.scenes[-1]
    assert isinstance(again, CribbageScene) and again is not scene
    assert until(app, lambda: again.ended)
    assert [g.key for g in app.keeper.past_games() if g.game is Game.CRIBBAGE] == [summary.key]  # not twice


def test_joining_a_cribbage_table_with_a_code_opens_the_cribbage_scene(app: App, server: tuple[str, Hall]) -> None:
    url, hall = server
    ann = Link(url)
    try:
        assert ann.wait_connected(30)
        made = ann.request(
            "create", game="cribbage", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}], sit=0, seed=9
        )
        to_online(app, "Ben", url)
        post_key(pygame.K_j)
        frames(app)
        join = app.scenes[-1]
        assert isinstance(join, JoinScene) and join.focused() is join.code
        clear_and_type(app, made["code"])
        join.focus = join.rows.index(join.rows[3])  # Join
        post_key(pygame.K_RETURN)
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene)), join.status
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene) and isinstance(scene.session, RemoteCribbageSession)
        assert scene.person == 1 and scene.pub.called(0) == "Ann"
        assert [(s.code, s.seat, s.game) for s in app.online.book.seats()] == [(made["code"], 1, "cribbage")]  # type: ignore[union-attr]
        assert hall.rooms[made["code"]].phase == "playing"
    finally:
        ann.close()
