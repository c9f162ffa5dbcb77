"""Tests for cribtiles.rules.scoring: which plays are legal, what they score, why the others are not."""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from cribtiles.rules import (
    Board,
    Colour,
    Exchange,
    IllegalMove,
    NotationError,
    Pass,
    Placement,
    Play,
    PlayScore,
    Square,
    Tile,
    is_legal_play,
    legal_plays,
    parse_move,
    parse_square,
    parse_tile,
    score_play,
)
from cribtiles.rules.scoring import FIRST_PLAY, FIVE_TILES, ONE_COLOUR, BonusKind, score_laid
from tests.rules.rules_reference import random_position, ref_play_total

L, D = Colour.LIGHT, Colour.DARK
FIRST = "f7=4L g7=5D h7=6L"
ROW_7_FULL = ["f7=4L g7=5D h7=6L", "i7=5D", "j7=4D"]


def board_of(text: str) -> Board:
    """A board with these tiles (placed directly, not played), written like 'f7=4L g7=5D'."""
    pairs = (w.split("=") for w in text.split())
    return Board.empty().place((parse_square(s), parse_tile(t)) for s, t in pairs)


def played(*moves: str) -> Board:
    """The board after these plays, each checked by score_play from the empty board on."""
    board = Board.empty()
    for text in moves:
        play = parse_move(text)
        assert isinstance(play, Play)
        score_play(board, play)
        board = board.place(play.placements)
    return board


def score(board: Board, text: str) -> PlayScore:
    play = parse_move(text)
    assert isinstance(play, Play)
    return score_play(board, play)


def illegal(board: Board, text: str) -> str:
    """The IllegalMove message for a play that must be refused."""
    with pytest.raises(IllegalMove) as info:
        score(board, text)
    return str(info.value)


def lines_of(result: PlayScore) -> dict[str, tuple[tuple[int, ...], int]]:
    return {line.name: (line.line.ranks, line.total) for line in result.lines}


def bonus_kinds(result: PlayScore) -> list[str]:
    return sorted(b.kind for b in result.bonuses)


# --- rules.md section 9, row by row ---


def test_worked_example_first_play() -> None:
    result = score(Board.empty(), FIRST)
    assert result.total == 15
    assert lines_of(result) == {"row 7": ((4, 5, 6), 5)}
    assert bonus_kinds(result) == [FIRST_PLAY]
    assert [b.points for b in result.bonuses] == [10]


def test_worked_example_whole_hand_scores_again() -> None:
    result = score(played(FIRST), "i7=5D")
    assert result.total == 12
    assert lines_of(result) == {"row 7": ((4, 5, 6, 5), 12)}
    assert result.bonuses == ()


def test_worked_example_five_tile_line_of_mixed_colours() -> None:
    result = score(played(FIRST, "i7=5D"), "j7=4D")
    assert result.total == 24
    assert lines_of(result) == {"row 7": ((4, 5, 6, 5, 4), 24)}
    assert result.bonuses == ()


def test_worked_example_six_tile_line_is_illegal() -> None:
    message = illegal(played(*ROW_7_FULL), "k7=3L")
    assert "at most 5" in message and "row 7" in message


def test_worked_example_cross_line() -> None:
    result = score(played(*ROW_7_FULL), "i8=KD")
    assert result.total == 2
    assert lines_of(result) == {"column i": ((5, 13), 2)}


def test_worked_example_scoreless_line_is_illegal() -> None:
    # row 8 (10 K) scores nothing too, but the reason rules.md gives must be among those named
    message = illegal(played(*ROW_7_FULL, "i8=KD"), "h8=TL")
    assert "column h (6 10) scores nothing" in message


def test_scoreless_cross_line_message() -> None:
    # without the K at i8 the column is the only invalid line
    message = illegal(played(*ROW_7_FULL), "h8=TL")
    assert "column h (6 10) scores nothing" in message


def test_worked_example_all_bonuses_add_up() -> None:
    result = score(Board.empty(), "e7=AL f7=2L g7=3L h7=4L i7=5L")
    assert result.total == 37
    assert lines_of(result) == {"row 7": ((1, 2, 3, 4, 5), 7)}
    assert bonus_kinds(result) == sorted([FIRST_PLAY, FIVE_TILES, ONE_COLOUR])
    assert sum(b.points for b in result.bonuses) == 30


# --- dead tiles ---


def test_dead_tile_in_a_cross_line() -> None:
    board = board_of("j5=6D j6=7L j7=8D j8=9L")  # column j: 6 7 8 9, a valid hand
    # the main line, row 9 (Q 5), is a fifteen; the Q also extends column j, where it adds nothing
    message = illegal(board, "j9=QL k9=5L")
    assert "the Q adds nothing to 6 7 8 9 Q" in message
    assert "column j" in message


def test_dead_tile_in_the_main_line() -> None:
    message = illegal(played("f7=4L g7=5D h7=6L"), "i7=8D")
    assert "the 8 adds nothing to 4 5 6 8" in message and "row 7" in message


def test_dead_first_play() -> None:
    message = illegal(Board.empty(), "f7=JL g7=4D")
    assert "(J 4) scores nothing" in message


# --- joining two hands ---


def test_joining_two_hands_into_a_valid_line() -> None:
    board = board_of("c7=5D d7=TD f7=5L g7=TL")
    result = score(board, "e7=5D")
    # 5 10 5 5 10: six 5-10 fifteens and 5+5+5 (14), three 5s (6) and two 10s (2)
    assert result.total == 22
    assert lines_of(result) == {"row 7": ((5, 10, 5, 5, 10), 22)}


def test_joining_two_hands_into_six_tiles_is_illegal() -> None:
    board = board_of("c7=5D d7=TD f7=5L g7=TL h7=5D")
    message = illegal(board, "e7=5L")
    assert "at most 5" in message and "6" in message


def test_joining_two_hands_with_a_dead_tile_is_illegal() -> None:
    board = board_of("c7=7D d7=8D f7=KD g7=5D")
    message = illegal(board, "e7=AL")
    assert "the A adds nothing to 7 8 A K 5" in message


# --- 6/9 ---


def test_a_six_nine_scores_as_the_face_it_is_laid_as() -> None:
    board = played(FIRST.replace("6L", "6D"))
    as_nine = score(board, "i7=9L")  # 4 5 6 9: 4+5+6 and 6+9, run 4 5 6
    as_six = score(board, "i7=6L")  # 4 5 6 6: 4+5+6 twice, a pair, two runs
    assert (as_nine.total, as_six.total) == (7, 12)
    assert board.place(as_nine.play.placements)[parse_square("i7")] == Tile(9, L)


def test_a_nine_on_the_board_stays_a_nine() -> None:
    assert score(Board.empty(), "f7=9D g7=AD h7=5D").total == 2 + 10  # 9+1+5 = 15
    message = illegal(Board.empty(), "f7=6D g7=AD h7=5D")
    assert "(6 A 5) scores nothing" in message


# --- geometry ---


def test_gaps_filled_by_board_tiles_are_legal() -> None:
    result = score(played(FIRST), "e7=3D i7=5L")
    # 3 4 5 6 5: 4+5+6 twice, the two 5s, and the run 3 4 5 6 twice
    assert result.total == 4 + 2 + 8
    assert lines_of(result) == {"row 7": ((3, 4, 5, 6, 5), 14)}


def test_gaps_filled_by_board_tiles_down_a_column() -> None:
    result = score(played(FIRST), "g6=TD g8=TL")
    assert lines_of(result) == {"column g": ((10, 5, 10), 6)}


def test_a_real_gap_is_illegal() -> None:
    message = illegal(played(FIRST), "f8=4D h8=6D")
    assert "gap" in message and "g8" in message


def test_first_play_may_not_have_a_gap() -> None:
    message = illegal(Board.empty(), "f7=5D h7=TD")
    assert "gap" in message and "g7" in message


def test_first_play_needs_two_tiles() -> None:
    message = illegal(Board.empty(), "f7=5D")
    assert "first play" in message and "2" in message


def test_first_play_may_go_anywhere() -> None:
    assert score(Board.empty(), "l13=5D m13=TD").total == 12
    assert score(Board.empty(), "d1=5D d2=TD").total == 12
    assert score(Board.empty(), "a3=5D a4=TD").total == 12


def test_a_play_may_use_at_most_five_tiles() -> None:
    message = illegal(Board.empty(), "e7=AL f7=2L g7=3L h7=4L i7=5L j7=6L")
    assert "at most 5" in message


def test_later_plays_may_use_one_tile() -> None:
    assert score(played(FIRST), "f8=4D").total == 2


def test_later_plays_must_touch() -> None:
    message = illegal(played(FIRST), "a13=5D b13=TD")
    assert "must touch" in message
    # a diagonal neighbour does not count
    message = illegal(played(FIRST), "i8=5D i9=TD")
    assert "must touch" in message


def test_tiles_must_lie_in_one_row_or_column() -> None:
    message = illegal(played(FIRST), "f8=4D g9=5D")
    assert "one row or one column" in message
    message = illegal(Board.empty(), "f7=5D g8=TD")
    assert "one row or one column" in message


def test_occupied_square() -> None:
    message = illegal(played(FIRST), "g7=5L")
    assert "g7" in message and "already" in message
    message = illegal(played(FIRST), "g7=5L g8=TD")
    assert "g7" in message


@pytest.mark.parametrize(
    "text",
    ["a1=5D b1=TD", "a1=5D a2=TD", "b1=5D b2=TD", "c1=5D d1=TD", "a2=5D a3=TD", "b2=5D b3=TD", "c2=5D c3=TD"],
)
def test_blocked_squares_on_the_first_play(text: str) -> None:
    blocked = {w.split("=")[0] for w in text.split()} & {"a1", "b1", "c1", "a2", "b2", "c2"}
    message = illegal(Board.empty(), text)
    assert any(name in message for name in blocked)


@pytest.mark.parametrize("name", ["a1", "b1", "c1", "a2", "b2", "c2"])
def test_blocked_squares_later(name: str) -> None:
    board = board_of("a3=5D b3=TD c3=5L d3=TL d2=5D d1=TD")
    message = illegal(board, f"{name}=5D")
    assert name in message


def test_two_tiles_on_one_square() -> None:
    play = Play((Placement(Square(6, 5), Tile(5, D)), Placement(Square(6, 5), Tile(10, D))))
    with pytest.raises(IllegalMove):
        score_play(Board.empty(), play)


@pytest.mark.parametrize("move", [Play(()), Pass(), Exchange((Tile(5, D),))])
def test_only_a_play_of_tiles_scores(move: object) -> None:
    with pytest.raises(IllegalMove):
        score_play(Board.empty(), move)  # type: ignore[arg-type]


def test_illegal_move_is_a_value_error_but_not_notation() -> None:
    assert issubclass(IllegalMove, ValueError)
    assert not issubclass(IllegalMove, NotationError)
    assert not is_legal_play(played(FIRST), parse_move("k7=3L"))  # type: ignore[arg-type]
    assert is_legal_play(played(FIRST), parse_move("i7=5D"))  # type: ignore[arg-type]


# --- every line scored once; bonuses ---


def test_main_and_cross_lines_each_scored_once() -> None:
    result = score(played(FIRST), "f8=4D g8=5L h8=6D")
    assert lines_of(result) == {
        "row 8": ((4, 5, 6), 5),
        "column f": ((4, 4), 2),
        "column g": ((5, 5), 2),
        "column h": ((6, 6), 2),
    }
    assert result.total == 11
    for line in result.lines:
        placed = {str(s) for s, p in zip(line.line.squares, line.placed, strict=True) if p}
        assert placed == {str(s) for s in line.line.squares if s.row == 7}


def test_one_colour_bonus_for_a_cross_line() -> None:
    board = board_of("j3=AL j4=2L j5=3L j6=4L")
    result = score(board, "j7=5L k7=TD")
    assert lines_of(result) == {"row 7": ((5, 10), 2), "column j": ((1, 2, 3, 4, 5), 7)}
    assert bonus_kinds(result) == [ONE_COLOUR]
    (bonus,) = result.bonuses
    assert bonus.line is not None and bonus.line.name == "column j"
    assert result.total == 2 + 7 + 10


def test_no_one_colour_bonus_for_mixed_colours() -> None:
    board = board_of("j3=AL j4=2L j5=3L j6=4D")
    result = score(board, "j7=5L k7=TD")
    assert result.bonuses == ()
    assert result.total == 9


def test_no_one_colour_bonus_for_four_tiles() -> None:
    result = score(Board.empty(), "f7=AL g7=2L h7=3L i7=4L")
    assert bonus_kinds(result) == [FIRST_PLAY]
    assert result.total == 4 + 10


def test_two_one_colour_lines_give_two_bonuses() -> None:
    board = board_of("f7=AL g7=2L h7=3L i7=4L j3=AL j4=2L j5=3L j6=4L")
    result = score(board, "j7=5L")
    assert lines_of(result) == {"row 7": ((1, 2, 3, 4, 5), 7), "column j": ((1, 2, 3, 4, 5), 7)}
    assert bonus_kinds(result) == [ONE_COLOUR, ONE_COLOUR]
    assert result.total == 7 + 7 + 20


def test_five_tiles_bonus_on_a_later_play() -> None:
    board = played("f5=5D g5=TD")
    result = score(board, "d6=5L e6=5D f6=TL g6=5L h6=5D")
    assert lines_of(result) == {
        "row 6": ((5, 5, 10, 5, 5), 28),
        "column f": ((5, 10), 2),
        "column g": ((10, 5), 2),
    }
    assert bonus_kinds(result) == [FIVE_TILES]
    assert result.total == 28 + 2 + 2 + 10


def test_total_is_lines_plus_bonuses() -> None:
    result = score(Board.empty(), "e7=AL f7=2L g7=3L h7=4L i7=5L")
    assert result.total == sum(line.total for line in result.lines) + sum(b.points for b in result.bonuses)
    assert "37" in result.describe()


# --- agreement with the reference on random plays, legal or not ---


tiles_st = st.builds(Tile, st.integers(1, 13), st.sampled_from([L, D]))


@functools.cache
def _positions() -> tuple[Board, ...]:
    return tuple(random_position(seed, seed % 13)[0] for seed in range(16))


@functools.cache
def _legal_plays_on_positions() -> tuple[tuple[Board, Play], ...]:
    found: list[tuple[Board, Play]] = []
    for board in _positions():
        for seed in range(3):
            _, bag, _ = random_position(seed, 0)
            found.extend((board, play) for play in legal_plays(board, bag[:5]))
    return tuple(found)


@st.composite
def near_miss_plays(draw: st.DrawFn) -> tuple[Board, Play]:
    """A legal play with one tile kept, recoloured or changed: the last often leaves a dead tile somewhere."""
    board, play = draw(st.sampled_from(_legal_plays_on_positions()))
    i = draw(st.integers(0, len(play.placements) - 1))
    old = play.placements[i].tile
    tile = draw(
        st.one_of(
            st.just(old),
            st.just(Tile(old.rank, D if old.colour is L else L)),
            tiles_st,
        )
    )
    placements = [(p.square, tile if j == i else p.tile) for j, p in enumerate(play.placements)]
    return board, Play.of(placements)


@st.composite
def positions_and_plays(draw: st.DrawFn) -> tuple[Board, Play]:
    """A mid-game board and 1-5 tiles near its tiles, mostly in one row or column, at times with a gap."""
    board = draw(st.sampled_from(_positions()))
    anchors = [s for s, _ in board.tiles()] or [Square(6, 6)]
    anchor = draw(st.sampled_from(anchors))
    across = draw(st.booleans())
    n = draw(st.integers(1, 5))
    start = draw(st.integers(-n, 1))
    skip = draw(st.sets(st.integers(0, n), max_size=1))
    jog = draw(st.sets(st.integers(0, n), max_size=1))  # this square moves off the line by one
    squares = []
    for i in range(n + len(skip)):
        if i in skip:
            continue
        side = 1 if i in jog else 0
        if across:
            r, c = anchor.row + side, anchor.col + start + i
        else:
            r, c = anchor.row + start + i, anchor.col + side
        if 0 <= r < 13 and 0 <= c < 13:
            squares.append(Square(r, c))
    tiles = draw(st.lists(tiles_st, min_size=5, max_size=5))
    return board, Play.of(zip(squares, tiles, strict=False))


@settings(max_examples=400, deadline=None)
@given(st.one_of(positions_and_plays(), near_miss_plays()))
def test_score_play_agrees_with_the_reference(position: tuple[Board, Play]) -> None:
    board, play = position
    expected = ref_play_total(board, play)
    try:
        got = score_play(board, play).total
    except IllegalMove:
        got = None
    event("legal" if got is not None else "illegal")
    assert got == expected


def test_illegal_move_names_the_squares_at_fault() -> None:
    board = Board.empty()
    for text in ("f7=4L g7=5D h7=6L", "i7=5D", "j7=4D", "i8=KD"):
        board = board.place(parse_move(text).placements)
    with pytest.raises(IllegalMove) as info:
        score_play(board, parse_move("h8=TL"))
    bad = {tuple(str(s) for s in line) for line in info.value.lines}
    assert bad == {("h8", "i8"), ("h7", "h8")}  # row 8 (10 K) and column h (6 10)
    with pytest.raises(IllegalMove) as info:
        score_play(board, parse_move("a1=5L b1=5D"))
    assert info.value.lines == ((parse_square("a1"),),)


def test_bonus_kinds_are_an_enum_that_reads_as_the_old_strings() -> None:
    assert [(k.name, k.value) for k in BonusKind] == [
        ("FIRST_PLAY", "first play"),
        ("FIVE_TILES", "five tiles"),
        ("ONE_COLOUR", "one colour"),
    ]
    assert tuple(BonusKind) == (FIRST_PLAY, FIVE_TILES, ONE_COLOUR)
    assert FIRST_PLAY is BonusKind.FIRST_PLAY and ONE_COLOUR == "one colour"
    result = score(Board.empty(), "e7=AL f7=2L g7=3L h7=4L i7=5L")
    assert [type(b.kind) for b in result.bonuses] == [BonusKind] * 3
    assert [b.describe() for b in result.bonuses] == ["first play +10", "five tiles +10", "one colour (row 7) +10"]
    assert (
        result.describe()
        == "row 7 (AL 2L 3L 4L 5L) = 7; first play +10; five tiles +10; one colour (row 7) +10; total 37"
    )
    assert json.dumps([b.kind for b in result.bonuses]) == '["first play", "five tiles", "one colour"]'


def test_a_play_on_the_board_is_scored_as_the_board_stood_before_it() -> None:
    """`score_laid`: how a player counts a play already down (issue 43: under the Joker rule its worth
    is not told while it may be called)."""
    board = Board.empty()
    for text in ("f7=4L g7=5D h7=6L", "i7=5D"):
        board = board.place(parse_move(text).placements)
    play = parse_move("i8=TL i9=5L")
    after = board.place(play.placements)
    assert score_laid(after, play) == score_play(board, play)
    assert score_laid(after, play).total == 6  # 5 10 5 down column i: two fifteens and a pair
    assert after.without(play.squares) == board and len(after.without(play.squares)) == len(board)
    with pytest.raises(IllegalMove):  # scored on the board with the play still on it, it would not fit
        score_play(after, play)
