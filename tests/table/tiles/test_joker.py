"""A person's declaration under the Joker rule, item by item."""

from __future__ import annotations

from cribtiles.rules import Board, parse_move, score_play
from cribtiles.rules.board import parse_square
from cribtiles.table.tiles.joker import Declaration, items_of


def squares(*names: str) -> frozenset:  # type: ignore[type-arg]
    return frozenset(parse_square(n) for n in names)


def test_pointing_at_tiles_claims_each_item_once_and_never_more_than_the_play_scores() -> None:
    play = parse_move("f7=5D g7=TL h7=5L")  # first play: 5 10 5 across
    score = score_play(Board.empty(), play)
    items = items_of(score)
    assert sorted((i.what, i.points) for i in items) == [
        ("fifteen", 2),
        ("fifteen", 2),
        ("first play", 10),
        ("pair", 2),
    ]
    d = Declaration(score)
    d, item = d.point_at(squares("f7", "g7"))
    assert item is not None and item.what == "fifteen" and d.points == 2
    d, again = d.point_at(squares("f7", "g7"))
    assert again is None and d.points == 2  # found already
    d, item = d.point_at(squares("g7", "h7"))
    d, item = d.point_at(squares("f7", "h7"))
    assert item is not None and item.what == "pair" and d.points == 6
    d, item = d.point_at(squares("f7", "g7", "h7"))  # the whole play: the first-play bonus
    assert item is not None and item.what == "first play" and d.points == score.total == 16
    assert d.point_at(squares("f7"))[1] is None


def test_a_typed_score_above_the_true_one_is_accepted_and_only_a_negative_one_refused() -> None:
    score = score_play(Board.empty(), parse_move("f7=5D g7=TL"))
    d = Declaration(score)
    assert d.check(score.total) == "" and d.check(0) == ""
    assert d.check(score.total + 1) == "" and d.check(99) == ""  # a refusal would give the score away
    assert d.check(-1) == "A score cannot be below 0."
