"""The game review in the window, headless, through posted events: the progress of the analysis, then
every turn against the best play (the biggest misses first), the chart of the scores, a turn opened
with the two plays side by side, the chart saved as a PNG; and the ways in from the end card and the
History screen. The analysis is a real review of a real game (`review_table`, with a clock that allows
no continuations, so that it is quick and the same every time), handed over by a stand-in worker."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.moves import Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.review import Review, review_table
from cribtiles.table.tiles.table import Table
from cribtiles.ui import art
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.history_scene import HistoryScene
from cribtiles.ui.review_chart import EXPORT_SIZE, Series, chart_surface, plot_of, ticks
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.review_scene import (
    Mode,
    ReviewScene,
    cost_words,
    evaluation_words,
    list_layout,
    lost_reason,
    region,
    series_of,
    turn_layout,
    turn_region,
)
from cribtiles.ui.window import App


def finished(seed: int, players: str = "You,hard", rules: str = "") -> Table:
    table = Table.new(parse_players(players), RuleOptions.parse(rules), seed=seed)
    rng = random.Random(seed)
    while True:
        while not table.round_over:
            move = greedy_move(table.view(table.state.current), random.Random(rng.random()))
            table.play_bot(move) if table.bot_to_move else table.play(move)
        if table.match_over:
            return table
        table.next_round()


def quick_review(table: Table) -> Review:
    """A real review whose clock runs a second at each look: no continuations, Hard's evaluation."""
    ticks_ = itertools.count()
    return review_table(table, 0.5, lambda: float(next(ticks_)), random.Random(1))


class StandIn:
    """A worker that reports `steps` of progress, then hands over `review`; records what it was told."""

    def __init__(self, review: Review | None, steps: int = 3, fail: str = "") -> None:
        self.review = review
        self.steps = steps
        self.polls = 0
        self.fail = fail
        self.cancelled = 0
        self.closed = 0

    def progress(self) -> tuple[int, int]:
        total = len(self.review.turns) if self.review is not None else 10
        return min(total, self.polls * total // max(1, self.steps)), total

    def result(self) -> Review | None:
        self.polls += 1
        if self.fail:
            raise RuntimeError(self.fail)
        return self.review if self.polls > self.steps else None

    def cancel(self) -> None:
        self.cancelled += 1

    def close(self) -> None:
        self.closed += 1


class Host:
    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def exports_folder(self) -> Path | None:
        return self.folder


@pytest.fixture(scope="module")
def game() -> tuple[Table, Review]:
    table = finished(4)
    return table, quick_review(table)


@pytest.fixture
def app() -> Iterator[App]:
    a = App(None, Preferences(speed="instant", tutorial_offered=True), NoKeeper(), size=(1280, 800), seed=3)
    yield a
    a.close()


def frames(app: App, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def opened(app: App, table: Table, worker: StandIn, host: Host | None = None) -> tuple[ReviewScene, list[int]]:
    closed: list[int] = []

    def on_close() -> None:
        closed.append(1)
        app.close_top()

    scene = ReviewScene(host or Host(None), table, on_close, worker=worker)
    app.push(scene)
    frames(app)
    return scene, closed


def test_the_progress_is_shown_while_the_analysis_runs_and_escape_stops_it(app: App, game: tuple) -> None:
    table, review = game
    worker = StandIn(review, steps=20)
    scene, closed = opened(app, table, worker)
    assert scene.mode is Mode.RUNNING
    assert scene.total == len(review.turns) and 0 < scene.done < scene.total  # the bar moves
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert (worker.cancelled, worker.closed, closed) == (1, 1, [1])
    assert app.scenes[-1] is app.game


def test_the_cancel_button_stops_the_analysis_too(app: App, game: tuple) -> None:
    from cribtiles.ui.review_frame import _running_button

    worker = StandIn(game[1], steps=1000)
    _, closed = opened(app, game[0], worker)
    post_click(centre(_running_button(app.screen.get_size())))
    frames(app)
    assert worker.cancelled == 1 and closed == [1]


def test_the_turns_are_listed_biggest_misses_first_then_in_the_order_played(app: App, game: tuple) -> None:
    table, review = game
    worker = StandIn(review)
    scene, _ = opened(app, table, worker)
    frames(app, 4)
    assert scene.mode is Mode.LIST and worker.closed == 1  # the worker is let go once it has answered
    assert sorted(scene.shown) == list(range(len(review.turns)))  # every turn once
    lost = [review.turns[i].value_lost for i in scene.shown]
    assert lost == sorted(lost, reverse=True) and lost[0] > 0
    assert [review.turns[i] for i in scene.shown[: len(review.biggest_misses(99))]] == list(review.biggest_misses(99))
    post_key(pygame.K_o)
    frames(app)
    assert scene.shown == list(range(len(review.turns)))


def test_a_click_on_a_turn_shows_the_two_plays_side_by_side_and_the_keys_step(app: App, game: tuple) -> None:
    table, review = game
    scene, closed = opened(app, table, StandIn(review))
    frames(app, 4)
    lay = list_layout(app.screen.get_size())
    second = (lay.rows[0] + 40, lay.rows[1] + lay.row + lay.row // 2)
    post_click(second)
    frames(app)
    assert scene.mode is Mode.TURN
    assert scene.turn is review.turns[scene.shown[1]]
    post_key(pygame.K_RIGHT)
    frames(app)
    assert scene.turn is review.turns[scene.shown[2]]
    post_click(centre(turn_layout(app.screen.get_size()).buttons["previous"]))
    frames(app)
    assert scene.turn is review.turns[scene.shown[1]]
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert scene.mode is Mode.LIST and not closed
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert closed == [1]


def test_a_turn_shows_the_played_and_the_best_tiles_in_their_colours(app: App, game: tuple) -> None:
    """Where the two boards are drawn, the squares of each play are framed: gold for the play made,
    green for the best one; and the score on each side is the engine's."""
    from cribtiles.ui.review_frame import BEST

    table, review = game
    scene, _ = opened(app, table, StandIn(review))
    frames(app, 4)
    post_key(pygame.K_RETURN)  # the biggest miss: two different plays
    frames(app)
    turn = scene.turn
    assert turn is not None and not turn.is_best
    for move in (turn.played, turn.best):
        if isinstance(move, Play):
            assert score_play(turn.board_before, move).total == (
                turn.played_score if move is turn.played else turn.best_score
            )
    surface = app.screen
    lay = turn_layout(surface.get_size())
    for panel, colour in zip(lay.panels, ((255, 214, 102), BEST), strict=True):
        x, y, w, h = panel
        seen = sum(
            1 for px in range(x, x + w, 2) for py in range(y, y + h, 2) if tuple(surface.get_at((px, py)))[:3] == colour
        )
        assert seen > 20, colour


def test_the_chart_has_a_line_per_player_in_their_colour_ending_at_their_last_score(game: tuple) -> None:
    _, review = game
    series = series_of(review)
    assert series.scores == tuple((0, *(row[p] for row in review.scores)) for p in range(2))
    size = (640, 400)
    surface = chart_surface(series, size, 16)
    plot = plot_of(series, size, 16)
    for p in range(2):
        end = (round(plot.x(series.turns)) - 1, round(plot.y(series.scores[p][-1])))
        near = {tuple(surface.get_at((end[0] + dx, end[1] + dy)))[:3] for dx in range(-2, 1) for dy in range(-1, 2)}
        assert art.PLAYER_COLOURS[p] in near


def test_a_match_charts_each_round_from_zero() -> None:
    table = finished(6, "Ann,hard", "rounds=2")
    review = quick_review(table)
    series = series_of(review)
    assert len(series.round_starts) == 1
    start = series.round_starts[0]
    assert review.turns[start].round == 1 and review.turns[start - 1].round == 0
    pieces = series.segments(0)
    assert [p[0] for p in pieces] == [(0, 0), (start, 0)]
    assert pieces[0][-1] == (start, series.scores[0][start])  # the first round's last score
    totals = tuple(sum(f[p] for f in review.finals) for p in range(2))
    assert tuple(series.legend_score(p) for p in range(2)) == totals


def test_e_saves_the_chart_as_a_png_in_the_exports_folder(app: App, game: tuple, tmp_path: Path) -> None:
    table, review = game
    scene, _ = opened(app, table, StandIn(review), Host(tmp_path / "exports"))
    frames(app, 4)
    post_key(pygame.K_e)
    frames(app)
    saved = list((tmp_path / "exports").glob("*.png"))
    assert len(saved) == 1 and str(saved[0]) in scene.message
    assert pygame.image.load(str(saved[0])).get_size() == EXPORT_SIZE
    post_click(centre(list_layout(app.screen.get_size()).buttons["export"]))
    frames(app)
    assert len(list((tmp_path / "exports").glob("*.png"))) == 2  # a second file, not the first overwritten


def test_a_chart_that_cannot_be_saved_says_why(app: App, game: tuple, tmp_path: Path) -> None:
    table, review = game
    blocked = tmp_path / "exports"
    blocked.write_text("a file where the folder should be")
    scene, _ = opened(app, table, StandIn(review), Host(blocked))
    frames(app, 4)
    post_key(pygame.K_e)
    frames(app)
    assert "could not be saved" in scene.message and scene.mode is Mode.LIST
    scene.host = Host(None)
    post_key(pygame.K_e)
    frames(app)
    assert "no data folder" in scene.message


def test_a_failed_analysis_is_said_in_words_and_escape_goes_back(app: App, game: tuple) -> None:
    worker = StandIn(None, fail="the worker process died")
    scene, closed = opened(app, game[0], worker)
    assert scene.mode is Mode.FAILED and "the worker process died" in scene.message
    assert worker.closed == 1
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert closed == [1]


def test_the_wheel_scrolls_the_list_and_the_chart_opens_the_turn_under_it(app: App, game: tuple) -> None:
    table, review = game
    scene, _ = opened(app, table, StandIn(review))
    frames(app, 4)
    assert scene.visible < len(review.turns)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    frames(app)
    assert scene.top == 3
    lay = list_layout(app.screen.get_size())
    plot = plot_of(series_of(review), lay.chart[2:], max(14, lay.text - 5))
    post_click((lay.chart[0] + plot.x(5), lay.chart[1] + lay.chart[3] // 2))
    frames(app)
    assert scene.mode is Mode.TURN and scene.turn is review.turns[4]  # the fifth turn


def test_the_words_of_a_turns_cost() -> None:
    class Turn:
        is_best = False
        played_score, best_score, points_lost, value_lost = 6, 14, 8, 9.25

    assert cost_words("Ann", Turn()) == (  # type: ignore[arg-type]
        "Ann scored 6; the best play found scores 14: 8 points and 9.2 of evaluation lost."
    )
    Turn.best_score, Turn.points_lost = 4, -2
    assert "2 fewer now but 9.2 more in evaluation" in cost_words("Ann", Turn())  # type: ignore[arg-type]
    assert lost_reason(Turn()) == ": 2 fewer now, more later"  # type: ignore[arg-type]
    Turn.best_score, Turn.points_lost, Turn.value_lost = 14, 8, 0.0  # the continuations could not tell them apart
    assert cost_words("Ann", Turn()) == (  # type: ignore[arg-type]
        "Ann scored 6; the best play found scores 14: 8 points lost now; later turns cannot tell the two apart."
    )
    assert lost_reason(Turn()) == ""  # type: ignore[arg-type]
    for method, words in (("simulated", "over the next turns"), ("endgame", "to the end"), ("static", "Hard's")):
        Turn.method = method  # type: ignore[attr-defined]
        assert evaluation_words(Turn()).startswith("Evaluation: ") and words in evaluation_words(Turn())  # type: ignore[arg-type]
    Turn.is_best = True
    assert cost_words("Ann", Turn()) == "Ann made the best play found (6 points)."  # type: ignore[arg-type]


def test_a_turn_is_shown_on_the_part_of_the_board_its_lines_lie_in(game: tuple) -> None:
    from cribtiles.rules.board import Square

    _, review = game
    for turn in review.turns:
        r0, r1, c0, c1 = turn_region(turn)
        assert r1 - r0 >= 6 and c1 - c0 >= 6
        for move in (turn.played, turn.best):
            if isinstance(move, Play):
                for line in score_play(turn.board_before, move).lines:
                    assert all(r0 <= s.row <= r1 and c0 <= s.col <= c1 for s in line.line.squares)
        # issue 44, defect 24: no tile of the board is cut off (the view showed only columns c-m, rows 1-11)
        assert all(r0 <= s.row <= r1 and c0 <= s.col <= c1 for s, _ in turn.board_before.tiles())
    assert region([Square(12, 0)]) == (6, 12, 0, 6)
    assert ticks(0, 57) == (0, 10, 20, 30, 40, 50, 60)


def test_chart_series_from_each_turns_scores() -> None:
    series = Series.of(("A", "B"), ((3, 0), (3, 7), (9, 7)))
    assert series.scores == ((0, 3, 3, 9), (0, 0, 7, 7)) and series.turns == 3


# --- the ways in ---


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> list[Table]:
    """The review's worker replaced: the tables it was started on are recorded."""
    started: list[Table] = []

    def start(table: Table) -> StandIn:
        started.append(table)
        return StandIn(None, steps=1000)

    monkeypatch.setattr("cribtiles.ui.tiles.review_scene.start_worker", start)
    return started


def test_v_on_the_end_card_reviews_the_game_just_played(stand_in: list[Table]) -> None:
    table = finished(8)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), NoKeeper(), size=(1280, 800))
    try:
        frames(app, 4)
        end = app.scenes[-1]
        assert isinstance(end, EndScene)
        post_key(pygame.K_v)
        frames(app)
        assert isinstance(app.scenes[-1], ReviewScene) and stand_in == [app.session.table]
        post_key(pygame.K_ESCAPE)
        frames(app)
        assert app.scenes[-1] is end
        post_click(centre(end.review_rect()))  # the Review button
        frames(app)
        assert isinstance(app.scenes[-1], ReviewScene) and len(stand_in) == 2
    finally:
        app.close()


def test_v_and_the_review_button_on_the_history_review_the_chosen_game(stand_in: list[Table], tmp_path: Path) -> None:
    store = Store(tmp_path)
    for seed in (1, 2):
        store.record_game(finished(seed))
    app = App(None, Preferences(speed="instant", tutorial_offered=True), store, size=(1280, 800), seed=9)
    try:
        frames(app)
        app.menus.open_history()
        frames(app)
        history = app.scenes[-1]
        assert isinstance(history, HistoryScene)
        post_key(pygame.K_DOWN)
        post_key(pygame.K_v)
        frames(app)
        assert isinstance(app.scenes[-1], ReviewScene)
        assert stand_in[0].state.log == finished(1).state.log  # the older game, chosen second
        assert app.exports_folder() == tmp_path / "exports"
        post_key(pygame.K_ESCAPE)
        frames(app)
        assert app.scenes[-1] is history
        post_click(centre(history.buttons["review"]))
        frames(app)
        assert isinstance(app.scenes[-1], ReviewScene) and len(stand_in) == 2
    finally:
        app.close()


def test_a_review_dropped_without_being_closed_still_stops_its_worker(app: App, game: tuple) -> None:
    """A new game started over the review (Ctrl+N) drops it: its analysis is stopped at once."""
    worker = StandIn(game[1], steps=1000)
    opened(app, game[0], worker)
    app.start(app.session.table.seats, app.session.table.options, seed=5)
    assert (worker.cancelled, worker.closed) == (1, 1)
    frames(app)
    assert (worker.cancelled, worker.closed) == (1, 1)


def test_the_review_workers_own_analysis_reaches_the_list(app: App) -> None:
    """The real runner, in its own process with a short budget a turn: the window polls it to the end,
    and the list shows its review of this very game."""
    import time

    from cribtiles.table.tiles.review_worker import ReviewWorker

    table = finished(4)
    worker = ReviewWorker(budget=0.02)
    worker.start(table)
    scene, _ = opened(app, table, worker)  # type: ignore[arg-type]
    for _ in range(3000):  # at most a minute, in frames of 20 ms
        if scene.mode is not Mode.RUNNING:
            break
        frames(app, 1)
        time.sleep(0.02)
    assert scene.mode is Mode.LIST, scene.message
    assert scene.review is not None and len(scene.review.turns) == len(table.state.turns)
    assert (scene.done, scene.total) == (len(table.state.turns),) * 2
    assert [t.played for t in scene.review.turns] == [t.move for t in table.state.turns]


def test_tab_lists_one_players_turns_at_a_time(app: App, game: tuple) -> None:
    table, review = game
    scene, _ = opened(app, table, StandIn(review))
    frames(app, 4)
    every = list(scene.shown)
    post_key(pygame.K_TAB)
    frames(app)
    assert scene.player == 0 and scene.shown == [i for i in every if review.turns[i].player == 0]
    post_key(pygame.K_TAB)
    post_key(pygame.K_TAB)
    frames(app)
    assert scene.player is None and scene.shown == every


def test_a_turn_says_under_each_board_what_the_play_opens_and_the_learned_value(
    app: App, game: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under each side's board: the coach's sentence on what the play opens or closes for the reply,
    and where the learned value expects the player to finish after it, inside that side's panel."""
    from cribtiles.bot.opens import ahead
    from cribtiles.ui.tiles import review_scene

    written: list[tuple[str, tuple[float, float]]] = []
    real = review_scene.write

    def spy(surface: pygame.Surface, text: str, size: int, colour: tuple[int, int, int], pos, *rest):  # type: ignore[no-untyped-def]
        written.append((text, pos))
        return real(surface, text, size, colour, pos, *rest)

    monkeypatch.setattr(review_scene, "write", spy)
    table, review = game
    scene, _ = opened(app, table, StandIn(review))
    frames(app, 4)
    post_key(pygame.K_RETURN)
    frames(app)
    for _ in range(len(review.turns)):
        if scene.turn is not None and scene.turn.played_opens and not scene.turn.is_best:
            break
        post_key(pygame.K_RIGHT)
        frames(app)
    turn = scene.turn
    assert turn is not None and turn.played_opens and turn.played_after is not None
    written.clear()
    scene.draw(app.screen, full=True)  # the turn shown, drawn again whole
    lay = turn_layout(app.screen.get_size())
    said = " ".join(text for text, _ in written)
    name = review.names[turn.player]
    assert turn.played_opens in said
    assert f"Learned value: {name} can expect to finish {ahead(turn.played_after)} after this play." in said
    if turn.best_after is not None:
        assert f"{name} can expect to finish {ahead(turn.best_after)} after this play." in said
    first = turn.played_opens.split()[0]  # "Opens", "Closes", "Takes"
    x, y, w, h = lay.panels[0]
    at = next(pos for text, pos in written if text.startswith(first))
    assert x <= at[0] < x + w and y <= at[1] < y + h


def test_side_notes_in_words() -> None:
    from cribtiles.ui.tiles.review_scene import side_notes

    assert side_notes("Ann", "", None) == ()
    (opens, _), (value, _) = side_notes("Ann", "Opens row 7 at k7, ...", -2.04)
    assert opens == "Opens row 7 at k7, ..."
    assert value == "Learned value: Ann can expect to finish 2.0 behind after this play."
