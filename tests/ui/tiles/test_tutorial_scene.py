"""The first-game tutorial in the window, driven by posted pygame events, headless: every step to the
end, the play that is not the step's held back, Escape at any time, and the player's own game and
its save never touched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.rules import score_play
from cribtiles.rules.board import Square
from cribtiles.rules.moves import Play
from cribtiles.rules.tiles import Tile
from cribtiles.table.seats import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.table.tiles.tutorial import BOT, REPLIES, STEPS, YOU, Kind, Progress
from cribtiles.ui.geometry import Layout, centre
from cribtiles.ui.tiles.autopilot import post_click, post_drag, post_key
from cribtiles.ui.tiles.panel import info_rows
from cribtiles.ui.tiles.tutorial_scene import TutorialScene
from cribtiles.ui.window import App


class RecordingKeeper:
    """Records every save the window asks for."""

    def __init__(self) -> None:
        self.games: list[object] = []
        self.prefs = 0

    def save(self, table: Table) -> None:
        self.games.append(table.state)

    def save_preferences(self, prefs: Preferences) -> None:
        self.prefs += 1


@pytest.fixture
def keeper() -> RecordingKeeper:
    return RecordingKeeper()


def players_game() -> Table:
    """The player's own game at the window: their turn, so it waits for them while the tutorial is on."""
    for seed in range(100):
        table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=seed)
        if table.person_to_move:
            return table
    raise AssertionError("no seed lets the player start")


@pytest.fixture
def app(keeper: RecordingKeeper) -> Iterator[App]:
    a = App(players_game(), Preferences(speed="instant", tutorial_offered=True), keeper, size=(1280, 800))
    yield a
    a.close()


def frames(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def open_tutorial(app: App) -> tuple[TutorialScene, list[int]]:
    closed: list[int] = []

    def on_close() -> None:
        closed.append(1)
        app.scenes.pop()

    scene = TutorialScene(app, on_close)
    app.scenes.append(scene)
    frames(app)
    return scene, closed


def drag_tile(app: App, scene: TutorialScene, tile: Tile, square: Square) -> None:
    """Drag the rack tile `tile` (rack form) onto `square` with posted mouse events."""
    draft = scene.game.draft
    slot = next(i for i, tid in enumerate(draft.order) if draft.tiles[tid] == tile.rack_form)
    post_drag(centre(app.layout.slot_rect(slot)), centre(app.layout.square_rect(square)))
    frames(app)


def lay(app: App, scene: TutorialScene, play: Play) -> None:
    for p in play.placements:
        drag_tile(app, scene, p.tile, p.square)


def until_your_turn(app: App, scene: TutorialScene) -> None:
    for _ in range(20):
        if scene.game.my_turn:
            return
        frames(app, 1)
    raise AssertionError("Medium did not reply")


def test_the_whole_tutorial_through_posted_events(app: App, keeper: RecordingKeeper) -> None:
    players_table, players_state = app.session.table, app.session.table.state
    saves = len(keeper.games)
    scene, closed = open_tutorial(app)
    game = scene.game
    assert scene.progress == Progress() and "Step 1 of 5" in scene.card().rows[0][0]
    assert game.session.table is not app.session.table and game.state.turns[0].player == BOT

    # step 1, a fifteen: first a legal fifteen in the wrong place, which the tutorial holds back
    step = STEPS[0]
    assert step.play is not None
    post_key(pygame.K_RETURN)  # nothing on the board: nothing happens
    frames(app)
    drag_tile(app, scene, Tile(5, step.play.tiles[0].colour), Square(8, 6))  # g9, below the J
    assert game.live is not None and game.live.is_legal
    post_key(pygame.K_RETURN)
    frames(app)
    assert len(game.state.turns) == 1 and scene.nudge and scene.hint  # not played; why, and the hint shown
    post_key(pygame.K_r)  # recall
    frames(app)
    assert not game.draft.placed and not scene.nudge
    lay(app, scene, step.play)
    assert scene.proposal == step.play and "press Enter" in " ".join(r[0] for r in scene.card().rows)
    post_key(pygame.K_RETURN)
    frames(app)
    until_your_turn(app, scene)
    assert game.state.turns[1].move == step.play and game.state.scores[YOU] == step.points
    assert str(game.state.turns[2].move) == REPLIES[0]
    assert scene.progress.index == 1 and not scene.hint

    # step 2, a run: the Play button plays it
    step = STEPS[1]
    assert step.play is not None
    lay(app, scene, step.play)
    post_click(centre(app.layout.buttons["play"]))
    frames(app)
    until_your_turn(app, scene)
    assert game.state.turns[3].move == step.play and scene.progress.index == 2

    # step 3, a refusal: the rules say why, and the step waits for the player's word
    step = STEPS[2]
    assert step.kind is Kind.REFUSAL and step.play is not None
    lay(app, scene, step.play)
    assert game.live is not None and not game.live.is_legal and game.live.reason == step.reason
    assert scene.progress.seen and scene.progress.index == 2
    assert step.reason in " ".join(r[0] for r in scene.card().rows)
    frames(app, 5)
    assert scene.progress.index == 2  # still waiting
    post_click(centre(app.layout.buttons["play"]))  # Play refuses it, as at any table
    frames(app)
    assert len(game.state.turns) == 5 and scene.progress.index == 2
    post_key(pygame.K_RETURN)
    frames(app)
    assert len(game.state.turns) == 5 and scene.progress.index == 3

    # step 4, the flip: a right-click on the 6 lying on e8 makes it a 9
    step = STEPS[3]
    assert step.play is not None
    square = step.play.squares[0]
    post_click(centre(app.layout.square_rect(square)), button=3)
    frames(app)
    assert scene.proposal == step.play and game.live is not None and game.live.is_legal
    # the mouse left resting on a row of this play's preview: it will not count as reading Medium's
    preview_row = next(r for r in info_rows(game.snapshot()) if r.squares)
    move_to = centre(preview_row.rect)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=move_to, rel=(0, 0), buttons=(0, 0, 0)))
    frames(app)
    assert game.turn_list.hover_rows
    post_key(pygame.K_RETURN)
    frames(app)
    until_your_turn(app, scene)
    assert game.state.turns[5].move == step.play
    reply = game.session.table.last
    assert reply is not None and reply.player == BOT and str(reply.turn.move) == REPLIES[-1]
    assert scene.progress.index == 4
    frames(app, 5)
    assert scene.progress.index == 4  # read only when pointed at (or Enter)

    # step 5, the breakdown: pointing at one of its rows reads it
    assert game.anims.breakdown is not None and game.anims.breakdown.player == BOT
    assert game.anims.breakdown.score.total == score_play(reply.board_before, reply.turn.move).total == STEPS[4].points
    rows = [r for r in info_rows(game.snapshot()) if r.squares]
    assert rows
    pos = centre(rows[0].rect)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    frames(app)
    assert scene.progress.finished and scene.card().rows[0][0] == "You're ready"
    assert not closed

    # the player's own game and its save are untouched
    assert len(keeper.games) == saves
    assert app.session.table is players_table and app.session.table.state is players_state
    assert scene.host.skips.skipped >= 6  # every tutorial turn asked, and nothing was written

    post_key(pygame.K_RETURN)
    frames(app)
    assert closed == [1] and app.scenes[-1] is app.game
    assert len(keeper.games) == saves and app.session.table.state is players_state  # as the player left it


def test_escape_closes_at_any_time_and_nothing_is_saved(app: App, keeper: RecordingKeeper) -> None:
    saves, players_state = len(keeper.games), app.session.table.state
    app.own.open_tutorial()  # as the title screen opens it
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, TutorialScene)
    step = STEPS[0]
    assert step.play is not None
    lay(app, scene, step.play)
    post_key(pygame.K_RETURN)
    frames(app)
    until_your_turn(app, scene)
    assert scene.progress.index == 1 and len(scene.game.state.turns) == 3
    post_drag(centre(app.layout.slot_rect(0)), centre(app.layout.square_rect(Square(10, 2))))  # under way
    frames(app)
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes[-1] is app.game and len(app.scenes) == 1
    assert len(keeper.games) == saves and app.session.table.state is players_state


def test_a_tile_let_go_on_the_card_goes_back_to_the_rack(app: App) -> None:
    scene, _ = open_tutorial(app)
    before = list(scene.game.draft.order)
    card = scene.card().rect
    post_drag(centre(app.layout.slot_rect(0)), centre(card))
    frames(app)
    assert scene.game.draft.order == before and not scene.game.draft.placed
    post_click(centre(scene.card().show_me or (0, 0, 0, 0)))  # Show me, by the mouse
    frames(app)
    assert scene.hint


@pytest.mark.parametrize("size", [(960, 640), (1280, 800), (1920, 1080), (2560, 1080)])
def test_every_card_fits_over_the_empty_rows_of_the_board(app: App, size: tuple[int, int]) -> None:
    scene, _ = open_tutorial(app)
    app.layout = Layout.of(*size)
    frames(app, 1)
    assert scene.host.layout is app.layout  # the tutorial's table follows the window
    played = {s for step in STEPS if step.play for s in step.play.squares}
    played |= {s for s, _ in scene.game.state.board.tiles()}
    top = min(app.layout.square_rect(s)[1] for s in played)
    gx, gy, gw, _ = app.layout.grid
    for index in range(len(STEPS) + 1):
        for seen in (False, True):
            scene.progress = Progress(index, seen)
            scene.hint = True
            x, y, w, h = scene.card().rect
            assert gx <= x and x + w <= gx + gw and gy <= y
            assert y + h < top, (index, seen)  # the squares of the game stay in view


def test_at_normal_speed_the_card_waits_for_medium_and_a_row_pointed_at_early_does_not_count(
    keeper: RecordingKeeper,
) -> None:
    a = App(players_game(), Preferences(speed="normal", tutorial_offered=True), keeper, size=(1280, 800))
    try:
        scene, _ = open_tutorial(a)
        step = STEPS[0]
        assert step.play is not None
        lay(a, scene, step.play)
        post_key(pygame.K_RETURN)
        frames(a, 2)
        assert scene.progress.index == 1 and not scene.game.my_turn
        assert any("Medium is replying" in r[0] for r in scene.card().rows)
        for _ in range(600):  # the bot's pause and its tiles' flight, on the scene's clock
            if scene.game.my_turn:
                break
            frames(a, 1)
        assert scene.game.my_turn and str(scene.game.state.turns[-1].move) == REPLIES[0]
        assert scene.progress.index == 1
    finally:
        a.close()


def test_the_welcome_line_stops_offering_the_tutorial_once_it_is_done(tmp_path: Path) -> None:
    from cribtiles.app.storage import Store
    from cribtiles.ui.tiles.home import WELCOME, WELCOME_BACK
    from cribtiles.ui.title import TitleScene

    a = App(players_game(), Preferences(speed="instant"), Store(tmp_path), size=(1280, 800), title=True)
    try:
        frames(a)
        title = a.scenes[-1]
        assert isinstance(title, TitleScene) and title.greeting == WELCOME
        assert title.menu.items[title.menu.focus].label == "Tutorial"
        post_key(pygame.K_RETURN)  # the tutorial, as offered
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, TutorialScene)
        post_key(pygame.K_ESCAPE)  # left before its end: still offered
        frames(a)
        assert a.scenes[-1] is title and title.greeting == WELCOME and not a.prefs.tutorial_done
        post_key(pygame.K_RETURN)
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, TutorialScene)
        for step in STEPS[:2]:  # a fifteen, a run
            assert step.play is not None
            lay(a, scene, step.play)
            post_key(pygame.K_RETURN)
            frames(a)
            until_your_turn(a, scene)
        refusal, flip = STEPS[2], STEPS[3]
        assert refusal.play is not None and flip.play is not None
        lay(a, scene, refusal.play)  # refused by the rules, read with Enter
        post_key(pygame.K_RETURN)
        frames(a)
        post_click(centre(a.layout.square_rect(flip.play.squares[0])), button=3)  # the 6 made a 9
        frames(a)
        post_key(pygame.K_RETURN)
        frames(a)
        until_your_turn(a, scene)
        row = next(r for r in info_rows(scene.game.snapshot()) if r.squares)  # Medium's breakdown read
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre(row.rect), rel=(0, 0), buttons=(0, 0, 0)))
        frames(a)
        assert scene.progress.finished and a.prefs.tutorial_done
        post_key(pygame.K_RETURN)  # "You're ready": back to the title
        frames(a)
        assert a.scenes[-1] is title and title.greeting == WELCOME_BACK and "utorial done" in title.greeting
        assert "teaches" not in title.greeting
        assert title.menu.items[title.menu.focus].label == "New game"
    finally:
        a.close()
    prefs, _ = Store(tmp_path).load_preferences()
    assert prefs.tutorial_done and prefs.tutorial_offered  # kept in the settings
