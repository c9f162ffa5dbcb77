"""The live preview: scored lines for a legal play, the engine's reason and the red line otherwise."""

from __future__ import annotations

from cribtiles.rules import Board, Scorer, Square, parse_move
from cribtiles.ui.tiles.preview import preview

ROW7 = Board.empty().place(parse_move("f7=4L g7=5D h7=6L i7=5D j7=4D").placements)


def test_legal_play_scores_its_lines() -> None:
    p = preview(ROW7, parse_move("i8=KD"), Scorer())  # type: ignore[arg-type]
    assert p.is_legal and p.score is not None and p.score.total == 2 and not p.bad


def test_too_long_a_line_is_the_bad_line() -> None:
    p = preview(ROW7, parse_move("k7=3L"), Scorer())  # type: ignore[arg-type]
    assert not p.is_legal and "row 7" in p.reason
    assert len(p.bad) == 6 and Square(6, 10) in p.bad


def test_a_line_that_scores_nothing_is_named_in_words() -> None:
    p = preview(ROW7, parse_move("f8=KD f9=2L"), Scorer())  # type: ignore[arg-type]
    assert p.reason == "column f (4 K 2) scores nothing"
    assert p.bad == (Square(6, 5), Square(7, 5), Square(8, 5))


def test_a_misplaced_play_marks_its_own_tiles() -> None:
    p = preview(ROW7, parse_move("a7=3L"), Scorer())  # type: ignore[arg-type]
    assert "touch" in p.reason and p.bad == (Square(6, 0),)


def test_every_broken_line_is_marked_on_its_own() -> None:
    board = ROW7.place(parse_move("i8=KD").placements)  # type: ignore[union-attr]
    p = preview(board, parse_move("h8=TL"), Scorer())  # type: ignore[arg-type]
    assert "row 8" in p.reason and "column h" in p.reason
    assert set(p.bad_lines) == {(Square(7, 7), Square(7, 8)), (Square(6, 7), Square(7, 7))}
    assert set(p.bad) == {Square(7, 7), Square(7, 8), Square(6, 7)}
