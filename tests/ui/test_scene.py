"""The scene contract (cribtiles.ui.scene): every scene that leaves the window's stack is shut down once,
the top one first, whether it is closed, replaced by a new game, or the window closes."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.window import App


class Stub:
    """A scene that notes when it is shut down."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log

    def handle(self, event: pygame.event.Event) -> None:
        pass

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        return []

    def shutdown(self) -> None:
        self.log.append(self.name)


def new_app() -> App:
    return App(Table.new(parse_players("You,easy"), seed=3), Preferences(speed="instant"), NoKeeper(), size=(1280, 800))


def test_closing_a_screen_shuts_it_down_and_only_it() -> None:
    app, log = new_app(), []
    try:
        app.push(Stub("a", log))
        app.push(Stub("b", log))
        app.close_top()
        assert log == ["b"] and [type(s).__name__ for s in app.scenes] == ["GameScene", "Stub"]
        app.back_to_game()
        assert log == ["b", "a"] and app.scenes == [app.game]
        app.close_top()  # never the game itself
        assert app.scenes == [app.game]
    finally:
        app.close()


def test_a_new_game_shuts_down_the_old_table_and_every_screen_over_it() -> None:
    app, log = new_app(), []
    try:
        old = app.game
        stopped: list[str] = []
        old.coach.worker.close = lambda: stopped.append("coach")  # type: ignore[method-assign]
        app.push(Stub("title", log))
        app.push(Stub("review", log))
        app.start(app.session.table.seats, app.session.table.options, seed=9)
        assert log == ["review", "title"]  # the top one first
        assert stopped == ["coach"]  # the old table's coach worker ended with it
        assert app.game is not old and app.scenes == [app.game]
    finally:
        app.close()


def test_the_window_closing_shuts_down_every_scene_once() -> None:
    app, log = new_app(), []
    stopped: list[str] = []
    app.game.coach.worker.close = lambda: stopped.append("coach")  # type: ignore[method-assign]
    app.push(Stub("settings", log))
    app.close()
    assert log == ["settings"] and stopped == ["coach"] and app.scenes == []


def test_escape_on_the_title_shuts_the_title_down() -> None:
    app = new_app()
    try:
        app.open_title()
        title = app.scenes[-1]
        shut: list[str] = []
        title.shutdown = lambda: shut.append("title")  # type: ignore[method-assign]
        post_key(pygame.K_ESCAPE)
        app.frame(1 / 60)
        assert app.scenes == [app.game] and shut == ["title"]
    finally:
        app.close()
