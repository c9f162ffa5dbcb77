"""The breakdown in the side panel: three of a kind told as one row, rows that would read alike told
apart by their squares, and the longest breakdown of a real game shown whole at 1280x800 and 960x640."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from cribtiles.rules import Board, Square, new_game, parse_move
from cribtiles.rules.moves import Play
from cribtiles.rules.scoring import PlayScore, score_play
from cribtiles.table.settings import Preferences
from cribtiles.ui import art
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.breakdown import breakdown_rows, score_rows
from cribtiles.ui.tiles.panel import info_rows, toast_boxes
from cribtiles.ui.tiles.snapshot import Breakdown
from cribtiles.ui.window import App

#: A position of a seeded two-player game (seed 168, eight greedy turns) and the five-tile play that
#: came next: a column of five crossing four rows, the five-tile bonus, 63 points in 31 rows.
BOARD = (
    "i1=5D k1=9L l1=6D i2=TL k2=8L l2=7L i3=5D j3=JL k3=5L l3=5L i4=QD j4=5D k4=TL l4=KD g5=TL h5=5L "
    "i5=JL j5=4L k5=6L h6=6D j6=JD h7=4D j7=AD k7=AD h8=6L k8=4D h9=TD k9=6L k10=KL k11=8L"
)
LONG_PLAY = "m1=6L m2=7D m3=QD m4=5D m5=2D"


def scored(board: str, play: str) -> PlayScore:
    move = parse_move(play)
    assert isinstance(move, Play)
    return score_play(Board.empty().place(parse_move(board).placements) if board else Board.empty(), move)


@pytest.fixture
def app() -> Iterator[App]:
    a = App(new_game(2, seed=1, names=("You", "Medium")), Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    yield a
    a.close()


def test_three_and_four_of_a_kind_are_one_row_each() -> None:
    three = score_rows(scored("f7=6L g7=6D", "h7=6L"), "scored")
    assert [(r[0], r[1]) for r in three] == [("scored", "6"), ("row 7:  6 6 6", "6"), ("three of a kind  6 6 6", "6")]
    assert three[2][4] == (Square(6, 5), Square(6, 6), Square(6, 7))  # pointing at it lights all three
    four = score_rows(scored("f7=3L g7=3D h7=3L", "i7=3D"), "scored")
    assert [(r[0], r[1]) for r in four[1:]] == [("row 7:  3 3 3 3", "12"), ("four of a kind  3 3 3 3", "12")]
    assert len(four[2][4]) == 4
    pairs = score_rows(scored("f7=4L g7=5D h7=6L i7=5D", "j7=4D"), "scored")  # two pairs stay pairs
    assert [r[0] for r in pairs if "pair" in r[0] or "kind" in r[0]] == ["pair  4 4", "pair  5 5"]


def test_every_fifteen_names_its_squares_and_rows_alike_light_their_own(app: App) -> None:
    score = scored("f7=AL g7=4D h7=JL", "i7=JD")  # A 4 J J: two fifteens A+4+J, one with each J
    rows = score_rows(score, "scored")
    fifteens = [r for r in rows if r[0].startswith("fifteen")]
    assert [(r[0], r[1]) for r in fifteens] == [("fifteen A+4+J: f7 g7 h7", "2"), ("fifteen A+4+J: f7 g7 i7", "2")]
    game = app.game
    game.anims.breakdown = Breakdown(1, score)
    for text, jack in (("fifteen A+4+J: f7 g7 h7", Square(6, 7)), ("fifteen A+4+J: f7 g7 i7", Square(6, 8))):
        row = next(r for r in info_rows(game.snapshot()) if r.left == text)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre(row.rect), rel=(0, 0), buttons=(0, 0, 0)))
        app.frame(1 / 60)
        assert game.turn_list.hover_rows == (Square(6, 5), Square(6, 6), jack)  # each lights its own J


@pytest.mark.parametrize("size", [(1280, 800), (960, 640)])
def test_the_longest_breakdown_shows_every_row(size: tuple[int, int]) -> None:
    score = scored(BOARD, LONG_PLAY)
    assert (score.total, breakdown_rows(score), len(score.lines)) == (63, 31, 5)
    a = App(new_game(2, seed=1, names=("You", "Medium")), Preferences(speed="instant"), NoKeeper(), size=size)
    try:
        game = a.game
        game.anims.breakdown = Breakdown(1, score)
        game.anims.toasts.clear()  # the draw for the start
        spec = score_rows(score, "Medium scored")
        for messages in ((), ("Animation speed: fast", "Medium passed, and a message long enough for two lines.")):
            for text in messages:  # messages take the foot of the text box: the rows still all fit above
                game.toast(text)
            snap = game.snapshot()
            rows = info_rows(snap)
            assert [(r.left, r.right) for r in rows] == [(s[0], s[1]) for s in spec]  # all 31, none "... more"
            x, y, w, _ = a.layout.info
            bottom = min([r[1] for r, _ in toast_boxes(snap)] or [y + a.layout.info[3]])
            for r in rows:
                rx, ry, rw, rh = r.rect
                assert x <= rx and rx + rw <= x + w and y <= ry and ry + rh <= bottom
                assert r.size >= 12  # readable
                f = art.font(r.size)
                used = r.indent * r.size + f.size(r.left)[0] + (f.size(r.right)[0] if r.right else 0)
                assert used < rw  # the words never run into the points
            rects = [pygame.Rect(r.rect) for r in rows]
            assert all(r.collidelist(rects[i + 1 :]) == -1 for i, r in enumerate(rects))  # no two overlap
    finally:
        a.close()


def test_a_short_breakdown_keeps_its_size_and_one_column(app: App) -> None:
    game = app.game
    game.anims.breakdown = Breakdown(1, scored("f7=4L g7=5D h7=6L i7=5D", "j7=4D"))
    rows = info_rows(game.snapshot())
    base = max(15, round(800 * 0.025))
    assert [r.size for r in rows[:3]] == [base + 2, base, base - 2]
    assert len({r.rect[0] for r in rows}) == 1
