"""Watching a table in the window (issue 44): the Online screen's Watch with a code, with posted keys,
headless against a real server on a loopback port, opens a table as a spectator sees it, in both games:
no rack and no hand, the same board (or felt), the players' moves as they come, and the table's chat;
Your online games lists it, to watch again. The window never sits at the table it watches."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.online.client import Link
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.online.remote import RemoteSession
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.again import AgainQuestion
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.online.games_list import GamesScene
from cribtiles.ui.online.services import OnlineServices
from cribtiles.ui.online.watch import WatchScene
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.window import App
from tests.server.running import running_server

PATIENCE = 30.0


@pytest.fixture
def server() -> Iterator[tuple[str, Any]]:
    with running_server() as running:
        yield running


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(tmp_path))
    a.open_title()
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


def watch_with_a_code(app: App, url: str, code: str) -> None:
    """From the title: O, the server's address, W, the code typed, Enter."""
    post_key(pygame.K_o)
    app.frame(1 / 60)
    online = app.scenes[-1]
    online.address.text = url  # type: ignore[attr-defined]
    online.focus = online.rows.index(online.shared)  # type: ignore[attr-defined]  # out of the text fields
    post_key(pygame.K_w)
    app.frame(1 / 60)
    watch = app.scenes[-1]
    assert isinstance(watch, WatchScene) and watch.focused() is watch.code and watch.address.text == url
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=code.lower()))
    post_key(pygame.K_RETURN)
    app.frame(1 / 60)


def ann_at(url: str, game: str) -> tuple[Link, str]:
    """Ann's table against the server's bot (the game on as soon as it is made)."""
    ann = Link(url)
    assert ann.wait_connected(PATIENCE)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
    made = ann.request("create", game=game, seats=seats, sit=0, seed=3)
    return ann, str(made["code"])


def test_a_tile_table_is_watched_with_its_board_and_chat_and_no_rack(app: App, server: tuple[str, Any]) -> None:
    url, hall = server
    ann, code = ann_at(url, "tiles")
    try:
        ann.request("chat", code=code, text="welcome, watcher")
        watch_with_a_code(app, url, code)
        assert until(app, lambda: isinstance(app.scenes[-1], GameScene)), app.scenes[-1].status  # type: ignore[attr-defined]
        scene = app.scenes[-1]
        assert isinstance(scene, GameScene) and isinstance(scene.session, RemoteSession)
        assert scene.session.mine == () and not scene.draft.order  # nothing to play, no rack
        assert not hall.rooms[code].present.get(1) and hall.rooms[code].present.get(0)  # only Ann sits
        post_key(pygame.K_c)  # the chat's panel: what was said before the window came
        app.frame(1 / 60)
        chat = scene.snapshot().chat
        assert chat is not None and "Ann: welcome, watcher" in chat.history
        post_key(pygame.K_ESCAPE)
        post_key(pygame.K_ESCAPE)  # the field, then the table: the title
        assert until(app, lambda: not isinstance(app.scenes[-1], GameScene))
        post_key(pygame.K_y)
        app.frame(1 / 60)
        games = app.scenes[-1]
        assert isinstance(games, GamesScene)
        assert until(app, lambda: games.cells(0)[0][3].startswith("watching · "))
        assert games.cells(0)[0][2] == "Ann, Easy" and next(b for b, _, _ in games.buttons) == "Watch"
    finally:
        ann.close()


def test_a_cribbage_table_is_watched_move_by_move_with_no_hand(app: App, server: tuple[str, Any]) -> None:
    url, _hall = server
    ann, code = ann_at(url, "cribbage")
    try:
        watch_with_a_code(app, url, code)
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene))
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene) and isinstance(scene.session, RemoteCribbageSession)
        assert scene.watching and scene.hand == () and scene.session.mine == ()
        snap = scene.snapshot()
        assert snap.prompt.startswith("Watching Ann and Easy bot") and snap.buttons == ()
        assert snap.keys.startswith("You are watching")
        # Ann lays her two crib cards: the watcher is told, and sees no card of her hand
        state = next(m["state"] for m in iter(lambda: ann.next_message(PATIENCE), None) if m["type"] == "state")
        hand = state["view"]["hand"][:2]
        ann.request("act", code=code, ply=state["ply"], move="discard " + " ".join(hand))
        assert until(app, lambda: "crib" in scene.snapshot().prompt and "Ann" in scene.snapshot().prompt)
        assert scene.hand == ()

        # the felt is seen from no seat: Ann sits at the bottom named and with her cards' backs, as the
        # bot at the top, and nobody is called the watcher's partner
        def both_laid_away() -> bool:  # Ann has, and the server's bot (which thinks in a pool of its own)
            snap = scene.snapshot()
            return snap.near is not None and "4 cards" in snap.near.note and "4 cards" in snap.seats[0].note

        assert until(app, both_laid_away)
        snap = scene.snapshot()
        assert snap.near is not None and snap.near.name == "Ann" and "partner" not in snap.near.note
        [bot] = snap.seats
        assert bot.name == "Easy bot" and "4 cards" in bot.note
        near = [s for s in snap.sprites if (s.x, s.y) in {r[:2] for r in snap.layout.near_slots(4)}]
        assert len(near) == 4 and all(s.card is None for s in near)
        post_key(pygame.K_g)  # a key of the table's: nothing to play here
        app.frame(1 / 60)
        assert isinstance(app.scenes[-1], CribbageScene)
        post_key(pygame.K_ESCAPE)
        assert until(app, lambda: not isinstance(app.scenes[-1], CribbageScene))
    finally:
        ann.close()


def test_a_cribbage_table_watched_to_its_end_offers_only_to_watch_it_played_again(
    app: App, server: tuple[str, Any]
) -> None:
    url, hall = server
    ann, code = ann_at(url, "cribbage")
    try:
        watch_with_a_code(app, url, code)
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene))
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene)
        ann.request("resign", PATIENCE, code=code)
        assert until(app, lambda: scene.snapshot().end is not None)
        over = scene.snapshot().end_again
        assert over is not None and over.button is None and over.text.startswith("The game is over")
        post_key(pygame.K_RETURN)  # nothing of a spectator's to start: no game, no request
        app.frame(1 / 60)
        assert hall.rooms[code].rematch is None and app.scenes[-1] is scene
        ann.request("rematch", PATIENCE, code=code)  # the server's bot agrees by itself
        again = next(c for c in hall.rooms if c != code)
        told = f"Ann and Easy bot play again at table {again[:3]} {again[3:]}."
        assert until(app, lambda: scene.snapshot().end_again == AgainQuestion(told, "Enter watches it", "Watch it"))
        post_key(pygame.K_RETURN)
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene) and app.scenes[-1] is not scene)
        watching = app.scenes[-1]
        assert isinstance(watching, CribbageScene) and watching.watching
        assert watching.session.where == (url, again) and watching.snapshot().end is None
    finally:
        ann.close()
