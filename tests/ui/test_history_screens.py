"""The History and Statistics screens through posted events, headless: the finished games listed
newest first, chosen with keys and the mouse, replayed, exported; the statistics drawn."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.bot.greedy import greedy_move
from cribtiles.table import Seat
from cribtiles.table.model import Table
from cribtiles.ui.autopilot import post_click, post_key
from cribtiles.ui.config import NoKeeper, Preferences
from cribtiles.ui.geometry import centre
from cribtiles.ui.history_scene import HistoryScene, StatisticsScene, players
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App


def frames(app: App, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def finished(seed: int, level: str = "medium") -> Table:
    table = Table.new((Seat.person("You"), Seat.bot(level)), seed=seed)
    while not table.round_over:
        move = greedy_move(table.view(table.state.current), random.Random(seed))
        if table.person_to_move:
            table.play(move)
        else:
            table.play_bot(move)
    return table


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    store = Store(tmp_path)
    for seed, level in ((1, "easy"), (2, "medium"), (3, "hard")):
        store.record_game(finished(seed, level))
    a = App(None, Preferences(speed="instant", tutorial_offered=True), store, size=(1280, 800), seed=9, title=True)
    frames(a)
    yield a
    a.close()


def test_history_lists_the_games_newest_first_and_the_keys_choose(app: App) -> None:
    post_key(pygame.K_h)
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, HistoryScene)
    assert [g.seats[1][1] for g in scene.games] == ["hard", "medium", "easy"]
    assert [i for i, _ in scene.rows] == [0, 1, 2]
    post_key(pygame.K_DOWN)
    post_key(pygame.K_DOWN)
    post_key(pygame.K_DOWN)  # stays on the last
    frames(app)
    assert scene.chosen == 2
    post_key(pygame.K_HOME)
    frames(app)
    assert scene.chosen == 0
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert isinstance(app.scenes[-1], TitleScene)


def test_enter_replays_the_chosen_game_from_its_record(app: App) -> None:
    from cribtiles.ui.replay_scene import ReplayScene

    app.open_history()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, HistoryScene)
    post_key(pygame.K_DOWN)
    post_key(pygame.K_RETURN)
    frames(app)
    replay = app.scenes[-1]
    assert isinstance(replay, ReplayScene)
    assert replay.table.state.log == finished(2, "medium").state.log  # the medium game, rebuilt exactly
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes[-1] is scene


def test_a_double_click_replays_and_a_single_click_chooses(app: App) -> None:
    from cribtiles.ui.replay_scene import ReplayScene

    app.open_history()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, HistoryScene)
    clock = [10.0]
    scene._now = lambda: clock[0]
    post_click(centre(scene.rows[2][1]))
    frames(app)
    assert scene.chosen == 2 and app.scenes[-1] is scene
    clock[0] += 0.2
    post_click(centre(scene.rows[2][1]))
    frames(app)
    assert isinstance(app.scenes[-1], ReplayScene)


def test_export_writes_the_record_and_says_where(app: App, tmp_path: Path) -> None:
    app.open_history()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, HistoryScene)
    post_key(pygame.K_e)
    frames(app)
    written = [p for p in tmp_path.rglob("*.json") if p.name not in ("settings.json", "game.json")]
    assert len(written) == 1 and str(written[0]) in scene.message
    from cribtiles.table.saves import load_table

    assert load_table(written[0].read_text()).state.log == finished(3, "hard").state.log


def test_an_empty_history_says_so(tmp_path: Path) -> None:
    a = App(None, Preferences(speed="instant", tutorial_offered=True), NoKeeper(), size=(1280, 800), seed=1)
    try:
        a.open_history()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, HistoryScene) and scene.games == [] and scene.rows == []
        post_key(pygame.K_RETURN)  # nothing to replay: nothing happens
        frames(a)
        assert a.scenes[-1] is scene
        a.open_statistics()
        frames(a)
        assert isinstance(a.scenes[-1], StatisticsScene)
    finally:
        a.close()


def test_many_games_scroll_and_the_chosen_one_stays_in_sight(tmp_path: Path) -> None:
    keeper = NoKeeper()
    for seed in range(30):
        keeper.record_game(finished(100 + seed))
    a = App(None, Preferences(speed="instant", tutorial_offered=True), keeper, size=(1024, 640), seed=1)
    try:
        a.open_history()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, HistoryScene) and len(scene.games) == 30
        assert scene.visible < 30
        post_key(pygame.K_END)
        frames(a)
        assert scene.chosen == 29 and any(i == 29 for i, _ in scene.rows)
        post_key(pygame.K_PAGEUP)
        frames(a)
        assert scene.chosen == 29 - (scene.visible - 1) and any(i == scene.chosen for i, _ in scene.rows)
    finally:
        a.close()


def test_statistics_show_each_opponent_and_the_game_at_the_table_is_recorded_when_it_ends(app: App) -> None:
    app.open_statistics()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, StatisticsScene)
    (_, lines, total), *_ = scene.sections()
    assert [ln.opponent for ln in lines] == ["easy", "medium", "hard"] and total is not None and total.games == 3


def test_the_winner_is_marked() -> None:
    table = finished(4)
    keeper = NoKeeper()
    keeper.record_game(table)
    (g,) = keeper.past_games()
    words = players(g)
    assert words.count("»") == len(g.winners)
