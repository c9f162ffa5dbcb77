"""The title screen and the Settings screen, driven by posted events headless: every item reachable by
keys and mouse, Escape goes back, each setting applied at once and saved."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui import art
from cribtiles.ui.geometry import centre
from cribtiles.ui.settings_scene import SETTINGS, SettingsScene, step_value
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.tiles.newgame import NewGameScene
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App


def frames(app: App, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800), title=True)
    frames(a)
    yield a
    a.close()


def labels(app: App) -> list[str]:
    top = app.scenes[-1]
    assert isinstance(top, TitleScene)
    return [item.label for item in top.menu.items]


def test_the_title_screen_offers_every_way_on_and_continue_while_a_game_is_unfinished(app: App) -> None:
    assert labels(app) == [
        "Continue",
        "New game",
        "Cribbage",
        "Rules",
        "Tutorial",
        "Puzzles",
        "History",
        "Statistics",
        "Settings",
        "Quit",
    ]
    post_key(pygame.K_RETURN)  # Continue has the focus
    frames(app)
    assert app.scenes == [app.game]


def test_escape_at_the_table_opens_the_title_and_escape_there_goes_back(app: App) -> None:
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes == [app.game]
    post_key(pygame.K_ESCAPE)  # nothing under way at the table: the title screen
    frames(app)
    assert isinstance(app.scenes[-1], TitleScene)
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes == [app.game]


def test_escape_cancels_what_is_under_way_before_it_opens_the_title(app: App) -> None:
    app.back_to_game()
    app.game.hand.exchanging = True
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes == [app.game] and not app.game.hand.exchanging


def test_a_finished_game_has_no_continue(tmp_path: Path) -> None:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=12)
    while not table.round_over:
        move = greedy_move(table.view(table.state.current), random.Random(0))
        table.play(move) if table.person_to_move else table.play_bot(move)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    try:
        a.open_title()
        frames(a)
        assert labels(a)[0] == "New game"
    finally:
        a.close()


def test_the_letters_and_the_mouse_take_items(app: App) -> None:
    post_key(pygame.K_e)  # Settings
    frames(app)
    assert isinstance(app.scenes[-1], SettingsScene)
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert isinstance(app.scenes[-1], TitleScene)
    title = app.scenes[-1]
    assert isinstance(title, TitleScene)
    new_game = title.menu.rects[[i.label for i in title.menu.items].index("New game")]
    post_click(centre(new_game))
    frames(app)
    assert isinstance(app.scenes[-1], NewGameScene)
    post_key(pygame.K_ESCAPE)  # back to the title it was opened from
    frames(app)
    assert isinstance(app.scenes[-1], TitleScene)
    post_key(pygame.K_q)
    frames(app)
    assert not app.running


def test_up_and_down_wrap_round_the_menu_and_skip_nothing(app: App) -> None:
    title = app.scenes[-1]
    assert isinstance(title, TitleScene)
    seen = []
    for _ in range(len(title.menu.items)):
        seen.append(title.menu.focus)
        post_key(pygame.K_DOWN)
        frames(app, 1)
    assert sorted(seen) == list(range(len(title.menu.items)))
    assert title.menu.focus == seen[0]


def test_the_first_start_offers_the_tutorial_once(tmp_path: Path) -> None:
    store = Store(tmp_path)
    a = App(None, Preferences(speed="instant"), store, size=(1280, 800), seed=3, title=True)
    try:
        frames(a)
        title = a.scenes[-1]
        assert isinstance(title, TitleScene) and "tutorial" in title.greeting
        assert title.menu.items[title.menu.focus].label == "Tutorial"
    finally:
        a.close()
    prefs, _ = Store(tmp_path).load_preferences()
    assert prefs.tutorial_offered
    b = App(None, prefs, Store(tmp_path), size=(1280, 800), seed=3, title=True)
    try:
        title = b.scenes[-1]
        assert isinstance(title, TitleScene) and title.greeting == ""
    finally:
        b.close()


def test_every_setting_changes_with_the_keys_is_applied_and_saved(app: App, tmp_path: Path) -> None:
    app.menus.open_settings()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, SettingsScene)
    for i, setting in enumerate(SETTINGS):
        before = getattr(app.prefs, setting.name)
        post_key(pygame.K_RIGHT)
        frames(app, 1)
        after = getattr(app.prefs, setting.name)
        assert after == step_value(setting, before, 1) and after != before
        saved = json.loads((tmp_path / "settings.json").read_text())
        assert saved[setting.name] == (list(after) if isinstance(after, tuple) else after)
        post_key(pygame.K_LEFT)
        frames(app, 1)
        assert getattr(app.prefs, setting.name) == before
        post_key(pygame.K_DOWN)
        frames(app, 1)
        assert scene.focus == i + 1
    post_key(pygame.K_RETURN)  # Back
    frames(app)
    assert isinstance(app.scenes[-1], TitleScene)


def test_settings_act_at_once(app: App) -> None:
    app.menus.open_settings()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, SettingsScene)
    names = [s.name for s in SETTINGS]

    def set_to(name: str, value: object) -> None:
        scene.focus = names.index(name)
        while getattr(app.prefs, name) != value:
            post_key(pygame.K_RIGHT)
            frames(app, 1)

    set_to("sound", False)
    assert not app.sounds.enabled
    set_to("volume", 30)
    assert app.sounds.volume == 30
    set_to("colour_marks", True)
    assert art.letter_marks()
    set_to("colour_marks", False)
    assert not art.letter_marks()
    set_to("fullscreen", True)
    assert app.screen.get_flags() & pygame.FULLSCREEN
    set_to("fullscreen", False)
    assert not app.screen.get_flags() & pygame.FULLSCREEN


def test_a_click_on_a_settings_arrow_changes_it_both_ways(app: App) -> None:
    app.menus.open_settings()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, SettingsScene)
    x, y, w, h = scene.fields[2]  # animation speed
    post_click((x + w - 8, y + h // 2))
    frames(app)
    assert app.prefs.speed == "normal"  # instant wraps round to normal
    post_click((x + 8, y + h // 2))
    frames(app)
    assert app.prefs.speed == "instant"


def test_letter_marks_draw_another_face() -> None:
    from cribtiles.rules.tiles import Colour, Tile

    art.set_letter_marks(False)
    plain = pygame.image.tobytes(art.tile_face(Tile(5, Colour.DARK), 48), "RGBA")
    art.set_letter_marks(True)
    try:
        marked = pygame.image.tobytes(art.tile_face(Tile(5, Colour.DARK), 48), "RGBA")
    finally:
        art.set_letter_marks(False)
    assert plain != marked


@pytest.mark.parametrize("size", [(800, 600), (1280, 800), (3840, 2400)])
def test_the_title_and_settings_draw_at_any_size(tmp_path: Path, size: tuple[int, int]) -> None:
    a = App(None, Preferences(speed="instant"), Store(tmp_path), size=size, seed=2, title=True)
    try:
        frames(a)
        title = a.scenes[-1]
        assert isinstance(title, TitleScene)
        w, h = a.screen.get_size()
        for x, y, bw, bh in title.menu.rects:  # every button within the window, none overlapping
            assert x >= 0 and x + bw <= w and y >= 0 and y + bh <= h
        tops = [r[1] for r in title.menu.rects]
        assert all(b - a_ >= r[3] for a_, b, r in zip(tops, tops[1:], title.menu.rects, strict=False))
        a.menus.open_settings()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, SettingsScene)
        _, cy, _, ch = scene.card
        assert all(cy <= f[1] and f[1] + f[3] <= cy + ch for f in scene.fields)
    finally:
        a.close()


def test_the_game_under_the_title_is_the_saved_one(app: App) -> None:
    assert isinstance(app.scenes[0], GameScene) and app.scenes[0].session is app.session
