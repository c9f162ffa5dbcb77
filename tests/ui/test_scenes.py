"""The window driven by real pygame events, headless: whole games, drops, flips, keys, the bot's turn."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules import Square, new_game, parse_move
from cribtiles.rules.game import GameState
from cribtiles.rules.moves import Play
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import past_the_result, play_through, post_click, post_drag, post_key
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.window import App


def human_first(level: str = "Medium") -> GameState:
    """A game in which the player (seat 0) plays first."""
    for seed in range(100):
        s = new_game(2, seed=seed, names=("You", level))
        if s.current == 0:
            return s
    raise AssertionError("no seed lets the player start")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = App(human_first(), Preferences(speed="instant"), Store(tmp_path), size=(1280, 800))
    yield a
    a.close()


def frames(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def test_a_finished_game_greets_the_next_start_with_its_end_card(tmp_path: Path) -> None:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=12)
    while not table.round_over:
        view = table.view(table.state.current)
        move = greedy_move(view, random.Random(0))
        if table.person_to_move:
            table.play(move)
        else:
            table.play_bot(move)
    store = Store(tmp_path)
    store.save_game(table)
    saved, note = store.load_table(finished=True)
    assert saved is not None and note == "" and store.load_table()[0] is None  # the text mode starts afresh
    a = App(saved, Preferences(speed="instant"), store, size=(1280, 800))
    try:
        frames(a, 5)
        assert isinstance(a.scenes[-1], EndScene) and a.game.session.table.state == table.state
        past_the_result(a)  # the end card takes Enter once its result has been in view a moment
        post_key(pygame.K_RETURN)
        frames(a)
        assert not a.game.state.is_over and a.game.session.table.state.seed != table.state.seed
    finally:
        a.close()


def test_a_whole_game_against_the_bot_through_posted_mouse_events(app: App, tmp_path: Path) -> None:
    play_through(app, frames_per_step=1, max_seconds=240)
    game = app.game
    assert game.state.is_over
    assert isinstance(app.scenes[-1], EndScene)
    human_plays = [t for t in game.state.turns if t.player == 0 and isinstance(t.move, Play)]
    assert len(human_plays) >= 3
    saved = load_table((tmp_path / "game.json").read_text()).state
    assert saved.log == game.session.table.state.log
    post_click(centre(app.layout.grid))  # a click outside New game leaves the end card
    frames(app)
    assert isinstance(app.scenes[-1], EndScene)
    past_the_result(app)
    post_key(pygame.K_RETURN)
    frames(app)
    assert app.game is not game and not app.game.state.is_over


def test_an_illegal_drop_returns_its_tile(app: App) -> None:
    lay, game = app.layout, app.game
    frames(app)
    before = list(game.draft.order)
    # off the board, onto the name patch, onto the side panel: back to the rack each time
    for target in (centre(lay.panel), centre(lay.square_rect(Square(0, 0))), (5, 5)):
        post_drag(centre(lay.slot_rect(0)), target)
        frames(app)
        assert game.draft.order == before and not game.draft.placed
    # one tile on an empty board: it lies there, but the play is refused with the reason in words
    post_drag(centre(lay.slot_rect(0)), centre(lay.square_rect(Square(6, 6))))
    frames(app)
    assert game.draft.placed == {Square(6, 6): before[0]}
    assert game.live is not None and not game.live.is_legal
    assert "first play" in game.live.reason
    post_key(pygame.K_RETURN)
    frames(app)
    assert game.state.turns == ()  # Enter did nothing
    # a second tile dropped on the first one's square goes back to the rack
    post_drag(centre(lay.slot_rect(0)), centre(lay.square_rect(Square(6, 6))))
    frames(app)
    assert len(game.draft.placed) == 1 and len(game.draft.order) == 4
    post_click(centre(lay.buttons["recall"]))
    frames(app)
    assert sorted(game.draft.order) == sorted(before) and not game.draft.placed


def test_a_legal_play_dragged_and_played_with_enter_is_saved(app: App, tmp_path: Path) -> None:
    game = app.game
    play = next(
        p
        for p in game.session.table.state.legal_plays()
        if len(p.placements) == 2 and all(t.rank != 9 for t in p.tiles)
    )
    lay = app.layout
    for p in play.placements:
        slot = next(i for i, tid in enumerate(game.draft.order) if game.draft.tiles[tid] == p.tile.rack_form)
        post_drag(centre(lay.slot_rect(slot)), centre(lay.square_rect(p.square)))
        frames(app)
    assert game.live is not None and game.live.is_legal and game.acts.can_play()
    post_key(pygame.K_RETURN)
    frames(app, 1)
    assert game.session.table.state.log[0] == str(play)
    assert load_table((tmp_path / "game.json").read_text()).state.log[0] == str(play)
    assert game.state.turns[0].points == game.state.scores[0] > 0
    if game.state.current == 0:  # the bot has not answered yet: the breakdown is the player's play
        assert game.anims.breakdown is not None and game.anims.breakdown.player == 0


def test_drag_within_the_rack_reorders_it_and_shuffle_keeps_the_tiles(app: App) -> None:
    game, lay = app.game, app.layout
    first = game.draft.order[0]
    post_drag(centre(lay.slot_rect(0)), centre(lay.slot_rect(4)))
    frames(app)
    assert game.draft.order[-1] == first
    post_key(pygame.K_s)
    frames(app)
    assert sorted(game.draft.order) == [0, 1, 2, 3, 4]


def test_right_click_wheel_and_f_turn_a_six_into_a_nine(tmp_path: Path) -> None:
    for seed in range(200):
        s = new_game(2, seed=seed, names=("You", "Medium"))
        if s.current == 0 and any(t.rank == 6 for t in s.racks[0]):
            break
    a = App(s, Preferences(speed="normal"), Store(tmp_path), size=(1280, 800))
    try:
        game, lay = a.game, a.layout
        tid = next(i for i in game.draft.order if game.draft.tiles[i].rank == 6)
        slot = game.draft.order.index(tid)
        spot = centre(lay.slot_rect(slot))
        post_click(spot, button=3)
        frames(a)
        assert game.draft.face(tid).rank == 9
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0))
        frames(a)
        assert game.draft.face(tid).rank == 6
        post_key(pygame.K_f)
        frames(a, 30)  # the flip animation runs and ends
        assert game.draft.face(tid).rank == 9 and not game.hand.flips
    finally:
        a.close()


def test_keyboard_play(app: App) -> None:
    game = app.game
    play = next(
        p
        for p in game.session.table.state.legal_plays()
        if len(p.placements) == 2 and all(t.rank != 9 for t in p.tiles)
    )
    post_key(pygame.K_LEFT)  # shows the cursor at the centre
    frames(app)
    assert game.keys.keyboard
    for p in play.placements:
        while game.keys.cursor.row != p.square.row:
            post_key(pygame.K_DOWN if game.keys.cursor.row < p.square.row else pygame.K_UP)
            frames(app, 1)
        while game.keys.cursor.col != p.square.col:
            post_key(pygame.K_RIGHT if game.keys.cursor.col < p.square.col else pygame.K_LEFT)
            frames(app, 1)
        slot = next(i for i, tid in enumerate(game.draft.order) if game.draft.tiles[tid] == p.tile.rack_form)
        post_key(pygame.K_1 + slot)
        post_key(pygame.K_SPACE)
        frames(app)
    assert game.acts.can_play()
    post_key(pygame.K_RETURN)
    frames(app)
    assert game.session.table.state.log[0] == str(play)


def test_pass_and_exchange_only_when_the_rules_allow(app: App) -> None:
    game = app.game
    assert not game.acts.can_pass()
    post_key(pygame.K_p)
    post_key(pygame.K_x)
    frames(app)
    assert game.state.turns == () and not game.hand.exchanging
    assert any("legal play" in t.text for t in game.anims.toasts)


def test_exchange_under_the_any_time_rule(tmp_path: Path) -> None:
    from cribtiles.rules import RuleOptions

    for seed in range(100):
        s = new_game(2, RuleOptions.parse("exchange=any-time"), seed, ("You", "Medium"))
        if s.current == 0:
            break
    a = App(s, Preferences(speed="instant"), Store(tmp_path), size=(1280, 800))
    try:
        game, lay = a.game, a.layout
        post_click(centre(lay.buttons["exchange"]))
        frames(a)
        assert game.hand.exchanging
        post_click(centre(lay.slot_rect(0)))
        post_click(centre(lay.slot_rect(2)))
        frames(a)
        assert len(game.draft.marked) == 2
        post_click(centre(lay.buttons["play"]))
        frames(a)
        assert (
            game.session.table.state.log[0].startswith("exchange ")
            and len(game.session.table.state.log[0].split()) == 3
        )
    finally:
        a.close()


def test_the_bot_turn_completes_while_frames_keep_coming(tmp_path: Path) -> None:
    s = human_first("Expert")
    s = s.apply(next(p for p in s.legal_plays() if len(p.placements) == 2))
    a = App(s, Preferences(speed="fast"), Store(tmp_path), size=(1280, 800))
    try:
        game = a.game
        times: list[float] = []
        deadline = time.perf_counter() + 60
        clock_dt = 1 / 60
        while game.state.current != 0 and time.perf_counter() < deadline:
            t0 = time.perf_counter()
            a.frame(clock_dt)
            times.append(time.perf_counter() - t0)
            time.sleep(0.004)
        assert game.state.current == 0, "the expert bot did not move within 60 s"
        assert len(times) > 40  # it thought for a while, and frames kept coming meanwhile
        times.sort()
        assert times[len(times) // 2] < 0.05  # the frames were not stalled by the bot
    finally:
        a.close()


def test_resize_and_fullscreen_keep_the_game(app: App) -> None:
    game = app.game
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1600, h=1000, size=(1600, 1000)))
    frames(app)
    assert app.layout.width == 1600 or app.layout.width == app.screen.get_width()
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=500, h=400, size=(500, 400)))
    frames(app)
    assert app.layout.width >= 960 and app.layout.height >= 640
    post_key(pygame.K_F11)
    frames(app)
    post_key(pygame.K_F11)
    frames(app)
    assert app.game is game and not app.prefs.fullscreen


def test_settings_keys_are_saved(app: App, tmp_path: Path) -> None:
    post_key(pygame.K_a)
    post_key(pygame.K_m)
    post_key(pygame.K_l)
    frames(app)
    prefs, note = Store(tmp_path).load_preferences()
    assert note == ""
    assert prefs.speed == "normal" and prefs.sound is False and prefs.level == "hard"


def test_a_resumed_game_shows_the_last_play(tmp_path: Path) -> None:
    s = human_first()
    s = s.apply(next(p for p in s.legal_plays() if len(p.placements) == 2))
    a = App(s, Preferences(speed="instant"), NoKeeper(), size=(960, 640))
    try:
        assert a.game.anims.breakdown is not None and a.game.anims.breakdown.score.total == s.scores[0]
        assert a.game.anims.pegs[0].front == s.scores[0]
        frames(a)
    finally:
        a.close()


def test_the_draft_never_plays_a_move_the_rules_refuse(app: App) -> None:
    game = app.game
    game.draft.place(game.draft.order[0], game.state.board, Square(6, 6))
    game.refresh_preview()
    assert not game.acts.can_play()
    assert parse_move("pass") not in game.session.table.state.legal_actions()


@pytest.mark.parametrize("rules", ["mode=solitaire", "joker=on", "exchange=any-time,start=high"])
def test_whole_games_under_each_rule_option(rules: str, tmp_path: Path) -> None:
    from cribtiles.rules import RuleOptions

    a = App(None, Preferences(speed="instant"), Store(tmp_path), RuleOptions.parse(rules), size=(960, 640), seed=3)
    try:
        play_through(a, frames_per_step=1, max_seconds=240)
        assert a.game.state.is_over and a.game.state.options == RuleOptions.parse(rules)
        assert load_table((tmp_path / "game.json").read_text()).state.log == a.game.session.table.state.log
    finally:
        a.close()


def test_a_tile_held_while_the_bot_moves_stays_in_hand(tmp_path: Path) -> None:
    s = human_first()
    s = s.apply(next(p for p in s.legal_plays() if len(p.placements) == 2))  # the bot to move
    a = App(s, Preferences(speed="instant"), Store(tmp_path), size=(1280, 800))
    try:
        game, lay = a.game, a.layout
        spot = centre(lay.slot_rect(0))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot, button=1))
        held_before = None
        deadline = time.perf_counter() + 30
        while game.state.current != 0 and time.perf_counter() < deadline:
            a.frame(1 / 60)
            held_before = held_before if held_before is not None else game.draft.held
            time.sleep(0.002)
        assert game.state.current == 0
        assert game.draft.held == held_before is not None  # still in hand after the bot's play
        post_drag(spot, spot, steps=1)  # let go over the rack: it goes back
        a.frame(1 / 60)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot, button=1))
        a.frame(1 / 60)
        assert game.draft.held is None and sorted(game.draft.order) == [0, 1, 2, 3, 4]
    finally:
        a.close()
