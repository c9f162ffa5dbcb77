"""The review of a game of cribbage in the window (issue 32), headless with posted events: every discard
and card laid, the biggest misses first, a decision opened with the chosen and the best side by side,
the keys through the list; opened from the end card (V and its button) and from the History (V and its
button); a variant refused in words; the runner's own analysis reaching the list."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from cribtiles.table.cribbage.ledger import summarize_cribbage
from cribtiles.table.cribbage.review import CribbageReview, DiscardReview, PlayReview, review_game
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.settings import Preferences
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.cribbage import review_scene
from cribtiles.ui.cribbage.layout import ButtonKind
from cribtiles.ui.cribbage.pilot import CribbagePilot
from cribtiles.ui.cribbage.review_scene import CribbageReviewScene, Refused, chosen_words, when_words
from cribtiles.ui.geometry import centre
from cribtiles.ui.history_scene import HistoryScene
from cribtiles.ui.review_frame import Mode, list_layout, turn_layout
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.window import App
from tests.table.cribbage.test_review_worker import finished_table
from tests.ui.cribbage import table_of
from tests.ui.cribbage.test_scene import PATIENCE, at_table, open_app

#: Seconds the test waits for the real analysis (never reached when all is well).
WAIT = 120.0


class StandIn:
    """A worker that reports progress twice, then hands over `review`; records what it was told."""

    def __init__(self, review: CribbageReview, steps: int = 2) -> None:
        self.review = review
        self.steps = steps
        self.polls = 0
        self.cancelled = 0
        self.closed = 0

    def progress(self) -> tuple[int, int]:
        total = len(self.review.decisions)
        return min(total, self.polls * total // max(1, self.steps)), total

    def result(self) -> CribbageReview | None:
        self.polls += 1
        return self.review if self.polls > self.steps else None

    def cancel(self) -> None:
        self.cancelled += 1

    def close(self) -> None:
        self.closed += 1


class Host:
    def exports_folder(self) -> Path | None:
        return None


@pytest.fixture(scope="module")
def game() -> tuple[CribbageTable, CribbageReview]:
    table = finished_table(4)
    return table, review_game(table.state, random.Random(1), 8)


@pytest.fixture
def app() -> Iterator[App]:
    a = App(None, Preferences(speed="instant", tutorial_offered=True), NoKeeper(), size=(1280, 800), seed=3)
    yield a
    a.close()


def frames(app: App, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def opened(app: App, table: CribbageTable, worker: object) -> tuple[CribbageReviewScene, list[int]]:
    closed: list[int] = []

    def on_close() -> None:
        closed.append(1)
        app.close_top()

    scene = CribbageReviewScene(Host(), table, on_close, worker=worker)  # type: ignore[arg-type]
    app.push(scene)
    frames(app)
    return scene, closed


def test_the_decisions_are_listed_biggest_misses_first_and_open_one_by_one(app: App, game: tuple) -> None:
    table, review = game
    worker = StandIn(review)
    scene, closed = opened(app, table, worker)
    frames(app, 4)
    assert scene.mode is Mode.LIST and worker.closed == 1
    assert sorted(scene.shown) == list(range(len(review.decisions)))
    lost = [review.decisions[i].value_lost for i in scene.shown]
    assert lost == sorted(lost, reverse=True) and lost[0] > 0
    post_key(pygame.K_DOWN)
    post_key(pygame.K_RETURN)
    frames(app)
    assert scene.mode is Mode.TURN and scene.decision is review.decisions[scene.shown[1]]
    post_key(pygame.K_RIGHT)
    frames(app)
    assert scene.decision is review.decisions[scene.shown[2]]
    post_click(centre(turn_layout(app.screen.get_size()).buttons["previous"]))
    frames(app)
    assert scene.decision is review.decisions[scene.shown[1]]
    post_key(pygame.K_ESCAPE)
    post_key(pygame.K_o)  # in the order played
    frames(app)
    assert scene.mode is Mode.LIST and scene.shown == list(range(len(review.decisions)))
    post_key(pygame.K_HOME)
    frames(app)
    lay = list_layout(app.screen.get_size())
    post_click((lay.rows[0] + 40, lay.rows[1] + lay.row // 2))  # the first decision: the first discard
    frames(app)
    assert scene.mode is Mode.TURN and isinstance(scene.decision, DiscardReview)
    while not isinstance(scene.decision, PlayReview):  # every page drawn on the way to the first card laid
        post_key(pygame.K_RIGHT)
        frames(app, 1)
    assert scene.decision.number == 2 and not closed
    post_key(pygame.K_ESCAPE)
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert closed == [1] and worker.cancelled == 1


def test_each_row_says_what_was_chosen_in_words(game: tuple) -> None:
    _, review = game
    discard = next(d for d in review.decisions if isinstance(d, DiscardReview))
    play = next(d for d in review.decisions if isinstance(d, PlayReview) and d.pile)
    assert when_words(discard) == f"Deal {discard.deal} · discard"
    kept = " ".join(str(c) for c in discard.chosen.kept)
    assert chosen_words(discard).startswith(f"kept {kept}, laid ")
    assert chosen_words(play).startswith(f"laid {play.played} on ") and f"({play.count})" in chosen_words(play)


def test_a_variant_is_refused_in_words(app: App, game: tuple) -> None:
    scene, closed = opened(app, game[0], Refused("The review takes two-player cribbage only; this game had 3."))
    frames(app)
    assert scene.mode is Mode.FAILED and "two-player cribbage only" in scene.message
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert closed == [1]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, game: tuple) -> list[CribbageTable]:
    """The tables the window's review was started on, each answered at once with the game's review."""
    seen: list[CribbageTable] = []

    def start(table: CribbageTable) -> StandIn:
        seen.append(table)
        return StandIn(game[1], steps=0)

    monkeypatch.setattr(review_scene, "start_worker", start)
    return seen


def test_v_and_the_review_button_on_the_end_card_review_the_game_just_played(
    tmp_path: Path, started: list[CribbageTable]
) -> None:
    whole = finished_table(6)
    late = whole.at_ply(len(whole.state.log) - 6)  # a few moves before the end
    app = open_app(tmp_path)
    try:
        scene = at_table(app, late)
        pilot = CribbagePilot(scene, "medium", seed=6)
        for _ in range(PATIENCE):
            if scene.ended:
                break
            pilot.step()
            frames(app, 2)
        assert scene.ended and scene.snapshot().end_review
        post_key(pygame.K_v)
        frames(app)
        assert isinstance(app.scenes[-1], CribbageReviewScene) and started == [table_of(scene)]
        assert started[0].is_over
        post_key(pygame.K_ESCAPE)
        frames(app)
        assert app.scenes[-1] is scene
        post_click(centre(scene.layout.end_buttons(True)[ButtonKind.REVIEW]))
        frames(app)
        assert isinstance(app.scenes[-1], CribbageReviewScene) and len(started) == 2
    finally:
        app.close()


def test_v_and_the_review_button_on_the_history_review_a_cribbage_game(started: list[CribbageTable]) -> None:
    from tests.table.cribbage.test_ledger import played

    keeper = NoKeeper()
    keeper.games.append(replace(summarize_cribbage(played(1), 0, "hard", "2026-11-03T09:00:00"), id=1))
    app = App(None, Preferences(speed="instant", tutorial_offered=True), keeper, size=(1280, 800), seed=9)
    try:
        frames(app)
        app.menus.open_history()
        frames(app)
        history = app.scenes[-1]
        assert isinstance(history, HistoryScene) and history.reviewable
        post_key(pygame.K_v)
        frames(app)
        assert isinstance(app.scenes[-1], CribbageReviewScene)
        assert started[0].state.log == played(1).log
        post_key(pygame.K_ESCAPE)
        frames(app)
        assert app.scenes[-1] is history
        post_click(centre(history.buttons["review"]))
        frames(app)
        assert isinstance(app.scenes[-1], CribbageReviewScene) and len(started) == 2
    finally:
        app.close()


def test_the_runners_own_analysis_reaches_the_list(app: App) -> None:
    table = finished_table(4)
    app.open_review(table)
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageReviewScene)
    give_up = time.monotonic() + WAIT
    while scene.mode is Mode.RUNNING:
        assert time.monotonic() < give_up, "the analysis did not reach the list"
        frames(app, 1)
        time.sleep(0.01)
    assert scene.mode is Mode.LIST and scene.review is not None
    assert len(scene.review.decisions) == len(scene.shown) > 40


def test_tab_lists_one_players_decisions_then_the_others_then_everyones(app: App, game: tuple) -> None:
    table, review = game
    scene, _ = opened(app, table, StandIn(review))
    frames(app, 4)
    every = list(scene.shown)
    for seat in (0, 1):
        post_key(pygame.K_TAB)
        frames(app)
        mine = [i for i in every if review.decisions[i].player == seat]
        assert scene.player == seat and scene.shown == mine  # still the biggest misses first
    post_key(pygame.K_TAB)
    frames(app)
    assert scene.player is None and scene.shown == every


def test_the_chart_ends_at_the_final_scores(game: tuple) -> None:
    """Issue 44, defect 19: the lines stopped at the last decision (22 and 54) while the legend said the
    final scores (26 and 61): what was pegged after the last card laid is on the chart."""
    table, review = game
    series = CribbageReviewScene.series(None, review)  # type: ignore[arg-type]
    assert tuple(s[-1] for s in series.scores) == review.finals == table.state.scores
    assert tuple(s[-2] for s in series.scores) == review.scores[-1] != review.finals
