"""The puzzles in the window, driven by posted pygame events, headless: the list, a puzzle answered
with a lesser play and then with the best, the solve remembered through the keeper, Retry, Show the
answer, Next, the buttons of the card, the Play button answering rather than playing, Escape back to
the list and out; the player's own game and its save never touched."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from cribtiles.rules.moves import Play
from cribtiles.table.seats import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.puzzles import shipped_puzzles
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import post_click, post_drag, post_key
from cribtiles.ui.tiles.puzzle_scene import PuzzleScene
from cribtiles.ui.window import App

PUZZLES = shipped_puzzles()


@pytest.fixture
def keeper() -> NoKeeper:
    return NoKeeper()


@pytest.fixture
def app(keeper: NoKeeper) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=4)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), keeper, size=(1280, 800))
    yield a
    a.close()


def frames(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def open_puzzles(app: App) -> tuple[PuzzleScene, list[int]]:
    closed: list[int] = []

    def on_close() -> None:
        closed.append(1)
        app.close_top()

    scene = PuzzleScene(app, on_close)
    app.push(scene)
    frames(app)
    return scene, closed


def lay(app: App, scene: PuzzleScene, play: Play) -> None:
    """Drag each tile of `play` from the rack to its square; a 6/9 turned with a right click."""
    assert scene.game is not None
    for p in play.placements:
        draft = scene.game.draft
        slot = next(i for i, tid in enumerate(draft.order) if draft.tiles[tid] == p.tile.rack_form)
        post_drag(centre(app.layout.slot_rect(slot)), centre(app.layout.square_rect(p.square)))
        frames(app)
        if draft.faces[draft.placed[p.square]] != p.tile:
            post_click(centre(app.layout.square_rect(p.square)), button=3)
            frames(app)
    assert scene.proposal == play


def button_of(scene: PuzzleScene, name: str) -> tuple[int, int]:
    return next(centre(rect) for n, _, rect in scene.card().buttons if n == name)


def test_a_puzzle_answered_then_solved_through_posted_events(app: App, keeper: NoKeeper) -> None:
    players_table, players_state = app.session.table, app.session.table.state
    saves = len(keeper.saved)
    scene, closed = open_puzzles(app)
    assert scene.game is None and scene.chosen == 0 and len(scene.puzzles) == len(PUZZLES) >= 30

    post_key(pygame.K_DOWN)
    post_key(pygame.K_RETURN)
    frames(app)
    puzzle = PUZZLES[1]
    assert scene.game is not None and scene.puzzle == puzzle
    assert scene.game.session.table is not players_table and scene.game.state.board == puzzle.position
    assert "beat " + str(puzzle.obvious_score) in " ".join(r[0] for r in scene.card().rows)

    # the obvious play: scored against the best, not played, not remembered
    lay(app, scene, puzzle.obvious_play)
    post_key(pygame.K_RETURN)
    frames(app)
    v = scene.verdict
    assert v is not None and not v.found and v.points == puzzle.obvious_score
    assert v.words == f"You found {puzzle.obvious_score}: the best is {puzzle.best_score} — {puzzle.best}."
    assert any(v.words in row[0] or row[0] in v.words for row in scene.card().rows)
    assert scene.game.state.turns == () and keeper.solved == {}

    # Retry: the rack as dealt; then the best play, through the Play button
    post_key(pygame.K_r)
    frames(app)
    assert scene.game.draft.placed == {} and scene.verdict is None
    lay(app, scene, puzzle.best_play)
    post_click(centre(app.layout.buttons["play"]))
    frames(app)
    assert scene.verdict is not None and scene.verdict.found and scene.verdict.points == puzzle.best_score
    assert keeper.solved == {puzzle.id: puzzle.best_score}
    assert scene.game.state.turns == ()  # answered, never played

    # back to the list: the solve is marked there; Escape again leaves
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert scene.game is None and scene.solved == {puzzle.id: puzzle.best_score} and not closed
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert closed == [1] and app.scenes[-1] is not scene
    assert app.session.table is players_table and app.session.table.state is players_state
    assert len(keeper.saved) == saves


def test_the_answer_shown_is_lit_on_the_board_and_not_counted_as_solved(app: App, keeper: NoKeeper) -> None:
    scene, _ = open_puzzles(app)
    post_key(pygame.K_RETURN)
    frames(app)
    puzzle = PUZZLES[0]
    post_click(button_of(scene, "answer"))  # Show the answer, by its button
    frames(app)
    assert scene.shown and scene.proposal == puzzle.best_play
    live = scene.game.live if scene.game is not None else None
    assert live is not None and live.score is not None and live.score.total == puzzle.best_score
    assert f"{puzzle.best} for {puzzle.best_score}" in " ".join(r[0] for r in scene.card().rows)
    post_key(pygame.K_RETURN)
    frames(app)
    assert scene.verdict is not None and scene.verdict.found and keeper.solved == {}  # shown: not a solve


def test_next_goes_to_the_next_unsolved_puzzle_and_the_list_opens_on_the_first(app: App, keeper: NoKeeper) -> None:
    keeper.mark_solved(PUZZLES[0].id, PUZZLES[0].best_score)
    keeper.mark_solved(PUZZLES[2].id, PUZZLES[2].best_score)
    scene, _ = open_puzzles(app)
    assert scene.chosen == 1  # the first not solved
    post_key(pygame.K_RETURN)
    frames(app)
    assert scene.puzzle == PUZZLES[1]
    post_key(pygame.K_n)
    frames(app)
    assert scene.puzzle == PUZZLES[3]  # 2 is solved: passed over
    post_click(button_of(scene, "next"))
    frames(app)
    assert scene.puzzle == PUZZLES[4] and scene.game is not None and scene.game.draft.placed == {}
    post_click(button_of(scene, "list"))
    frames(app)
    assert scene.game is None and scene.chosen == 4


def test_a_click_on_a_row_of_the_list_opens_that_puzzle(app: App) -> None:
    scene, _ = open_puzzles(app)
    i, rect = scene.rows[3]
    post_click(centre(rect))
    frames(app)
    assert scene.game is not None and scene.puzzle == PUZZLES[i] == PUZZLES[3]


def test_enter_with_nothing_laid_says_what_to_do_and_the_coach_keys_give_nothing_away(app: App) -> None:
    scene, _ = open_puzzles(app)
    post_key(pygame.K_RETURN)
    frames(app)
    post_key(pygame.K_RETURN)
    frames(app)
    assert scene.verdict is None and "Lay tiles" in scene.message
    game = scene.game
    assert game is not None
    for key in (pygame.K_i, pygame.K_b, pygame.K_p, pygame.K_x, pygame.K_u):
        post_key(key)
        frames(app)
    assert game.draft.placed == {} and game.state.turns == () and not scene.shown
    assert getattr(game, "coach", None) is None or getattr(game.coach, "hint", None) is None


def test_without_puzzles_the_list_says_so_and_nothing_breaks(app: App) -> None:
    closed: list[int] = []
    scene = PuzzleScene(app, lambda: closed.append(1), puzzles=())
    app.push(scene)
    for key in (pygame.K_RETURN, pygame.K_DOWN, pygame.K_n, pygame.K_a):
        post_key(key)
        frames(app)
    assert scene.game is None and scene.puzzle is None
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert closed == [1]


def test_the_puzzle_scene_draws_at_small_and_large_windows(keeper: NoKeeper) -> None:
    for size in ((800, 600), (1920, 1080)):
        table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=4)
        app = App(table, Preferences(speed="instant", tutorial_offered=True), keeper, size=size)
        try:
            scene, _ = open_puzzles(app)
            post_key(pygame.K_RETURN)
            frames(app)
            c = scene.card()
            x, y, w, h = c.rect
            for _, _, (bx, by, bw, bh) in c.buttons:  # the buttons lie inside the card
                assert x <= bx and bx + bw <= x + w and y <= by and by + bh <= y + h
            rows_height = sum(round(size * 1.3) for _, size, _ in c.rows)
            assert y + c.pad + rows_height <= c.buttons[0][2][1]  # the words end above the buttons
        finally:
            app.close()
