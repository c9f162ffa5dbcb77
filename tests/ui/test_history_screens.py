"""The History and Statistics screens through posted events, headless: the finished games listed
newest first, chosen with keys and the mouse, replayed, exported; the statistics drawn."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.history_scene import HistoryScene, StatisticsScene
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.history_row import players, what
from cribtiles.ui.tiles.statistics_page import sections
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
    from cribtiles.ui.tiles.replay_scene import ReplayScene

    app.menus.open_history()
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
    from cribtiles.ui.tiles.replay_scene import ReplayScene

    app.menus.open_history()
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
    app.menus.open_history()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, HistoryScene)
    post_key(pygame.K_e)
    frames(app)
    written = [p for p in tmp_path.rglob("*.json") if p.name not in ("settings.json", "game.json")]
    assert len(written) == 1 and str(written[0]) in scene.message
    from cribtiles.table.tiles.saved import load_table

    assert load_table(written[0].read_text()).state.log == finished(3, "hard").state.log


def test_an_empty_history_says_so(tmp_path: Path) -> None:
    a = App(None, Preferences(speed="instant", tutorial_offered=True), NoKeeper(), size=(1280, 800), seed=1)
    try:
        a.menus.open_history()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, HistoryScene) and scene.games == [] and scene.rows == []
        post_key(pygame.K_RETURN)  # nothing to replay: nothing happens
        frames(a)
        assert a.scenes[-1] is scene
        a.menus.open_statistics()
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
        a.menus.open_history()
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
    app.menus.open_statistics()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, StatisticsScene)
    (_, lines, total), *_ = sections(scene.stats.tiles)
    assert [ln.opponent for ln in lines] == ["easy", "medium", "hard"] and total is not None and total.games == 3


def test_the_winner_is_marked() -> None:
    table = finished(4)
    keeper = NoKeeper()
    keeper.record_game(table)
    (g,) = keeper.past_games()
    words = players(g)
    assert words.count("»") == len(g.winners)
    assert "»" not in players(replace(g, unfinished=True))  # a game kept unfinished was won by nobody


def played_out(players_text: str, rules: str, seed: int) -> Table:
    """A game (or a match, every round) played to its end with greedy moves."""
    from cribtiles.rules.options import RuleOptions
    from cribtiles.table import parse_players

    table = Table.new(parse_players(players_text), RuleOptions.parse(rules), seed)
    while True:
        while not table.round_over:
            move = greedy_move(table.view(table.state.current), random.Random(seed))
            (table.play_bot if table.bot_to_move else table.play)(move)
        if table.match_over:
            return table
        table.next_round()


def drawn_rows(keeper: NoKeeper, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the History draws at `size`."""
    from cribtiles.ui import art

    said: list[str] = []
    real = art.text
    monkeypatch.setattr(art, "text", lambda s, z, c: (said.append(s), real(s, z, c))[1])
    a = App(None, Preferences(speed="instant", tutorial_offered=True), keeper, size=size, seed=1)
    try:
        a.menus.open_history()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, HistoryScene) and [i for i, _ in scene.rows] == list(range(len(scene.games)))
        said.clear()
        scene.draw(a.screen, full=True)
        return said
    finally:
        a.close()
        monkeypatch.setattr(art, "text", real)


def test_history_rows_are_whole_while_the_row_has_room(monkeypatch: pytest.MonkeyPatch) -> None:
    keeper = NoKeeper()
    for players_text, rules, seed in (("You,medium,hard", "rounds=3", 1), ("Alexandra,Bartholomew,easy", "", 2)):
        keeper.record_game(played_out(players_text, rules, seed))
    games = keeper.past_games()
    assert [what(g) for g in games] == ["Standard, match of 3 · medium + hard", "Standard · easy"]
    for size in ((960, 640), (1111, 677), (1280, 800), (1917, 1033)):
        said = drawn_rows(keeper, size, monkeypatch)
        assert not any("…" in s for s in said), (size, [s for s in said if "…" in s])
        for g in games:  # every cell whole, in the smallest window too
            assert what(g) in said and players(g) in said, size


def test_columns_give_room_to_what_needs_it_and_cut_only_the_long_ones() -> None:
    from cribtiles.ui.screens import column_spans

    needs = [150, 300, 420, 60, 70]  # Ended, Game, Players, result, marks
    spans = column_spans(needs, 1100, grow=2, shrink=(1, 2))
    assert [w for _, w in spans] == [150, 300, 520, 60, 70]  # all whole, the spare room to the players
    spans = column_spans(needs, 800, grow=2, shrink=(1, 2))
    widths = [w for _, w in spans]
    assert widths[0] == 150 and widths[3:] == [60, 70]  # the date and the result stay whole
    assert widths[1] == 300 * 520 // 720 and widths[2] == 420 * 520 // 720  # the long ones share the cut
    assert all(a + w == b for (a, w), (b, _) in itertools.pairwise(spans))  # side by side, no overlap
    assert sum(w for _, w in column_spans(needs, 200, grow=2, shrink=(1, 2))) <= 200  # too narrow for all: all shrink


def test_a_history_that_cannot_be_read_is_said_on_both_screens_never_shown_as_no_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from cribtiles.app import history
    from cribtiles.ui import history_scene

    monkeypatch.setattr(history, "TIMEOUT", 0.2)
    drawn: list[str] = []
    real_write = history_scene.write

    def write(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> object:
        drawn.append(text)
        return real_write(surface, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(history_scene, "write", write)
    store = Store(tmp_path)
    store.record_game(finished(1))
    locker = sqlite3.connect(tmp_path / "history.sqlite3", isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")  # another program holds the history's write lock
    a = App(None, Preferences(speed="instant", tutorial_offered=True), store, size=(1280, 800), seed=1)
    try:
        a.menus.open_history()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, HistoryScene) and scene.games == []
        assert scene.trouble.startswith("The history of your games cannot be read just now (another program")
        shown = " ".join(drawn)
        assert "cannot be read just now" in shown and "No finished games yet" not in shown
        post_key(pygame.K_ESCAPE)
        frames(a)
        drawn.clear()
        a.menus.open_statistics()
        frames(a)
        stats = a.scenes[-1]
        assert isinstance(stats, StatisticsScene) and stats.trouble.startswith("The history of your games cannot")
        shown = " ".join(drawn)
        assert "cannot be read just now" in shown and "No games to count yet" not in shown
    finally:
        locker.execute("ROLLBACK")
        locker.close()
        a.close()
    assert len(Store(tmp_path).past_games()) == 1  # nothing was moved or lost


def test_a_game_given_up_names_who_resigned_in_the_history() -> None:
    from cribtiles.app.history_cli import cribbage_json, cribbage_text, game_json, game_text
    from cribtiles.table.cribbage.ledger import summarize_cribbage
    from cribtiles.table.cribbage.table import CribbageTable
    from cribtiles.table.ledger import summarize
    from cribtiles.ui.cribbage.history_row import cribbage_marks
    from cribtiles.ui.tiles.history_row import marks

    table = Table.new((Seat.person("You"), Seat.bot("hard")), seed=4)
    table.resign(0)
    assert marks(summarize(table, "2026-12-06T10:00:00")) == "you resigned"
    online = Table.new((Seat.person("Ann"), Seat.person("Ben")), seed=4)
    online.resign(1)
    assert summarize(online, "2026-12-06T10:00:00").resigned == 1
    assert marks(summarize(online, "2026-12-06T10:00:00")) == "Ben resigned"
    assert summarize(finished(1), "2026-12-06T10:00:00").resigned is None
    # and `cribtiles history`, its lines and its JSON (the field only for a game given up)
    given_up = summarize(online, "2026-12-06T10:00:00")
    assert game_text(given_up).split("  -  ")[1] == "Ann won, Ben resigned"
    assert game_json(given_up)["resigned"] == 1
    assert "resigned" not in game_json(summarize(finished(1), "2026-12-06T10:00:00"))
    crib = CribbageTable.new(3, "medium")
    crib.resign(0)
    game = summarize_cribbage(crib.state, 0, "medium", "2026-12-06T10:00:00")
    assert game.resigned == 0 and cribbage_marks(game) == "you resigned"
    assert cribbage_text(game).endswith("-  Medium bot won, You resigned") and cribbage_json(game)["resigned"] == 0
