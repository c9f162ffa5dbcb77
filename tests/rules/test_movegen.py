"""Tests for cribtiles.rules.movegen: the generated plays against score_play and a brute-force search."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.rules import (
    Board,
    Colour,
    IllegalMove,
    Play,
    Tile,
    has_legal_play,
    legal_plays,
    parse_move,
    parse_rack,
    parse_square,
    parse_tile,
    score_play,
    scored_plays,
)
from tests.rules.rules_reference import (
    assignments,
    brute_force_plays,
    random_game,
    random_position,
    ref_geometry_ok,
    ref_play_total,
    square_sets,
    to_play,
)

L, D = Colour.LIGHT, Colour.DARK

# (seed, turns) of the random mid-game boards the completeness checks run on
POSITIONS = [(1, 3), (2, 6), (3, 9), (4, 12), (5, 15), (6, 20)]


@functools.cache
def position(seed: int, turns: int) -> tuple[Board, tuple[Tile, ...]]:
    """A board after `turns` random legal plays, and the tiles still unseen (bag and racks), shuffled."""
    board, bag, _ = random_position(seed, turns)
    return board, tuple(bag)


def board_of(text: str) -> Board:
    pairs = (w.split("=") for w in text.split())
    return Board.empty().place((parse_square(s), parse_tile(t)) for s, t in pairs)


def engine_accepted(board: Board, rack: Sequence[Tile]) -> dict[Play, int]:
    """Every play score_play accepts among all ways to lay rack tiles on squares in one row or column.

    Every tiling of every square set the reference finds well placed goes to score_play; of the other
    square sets (misplaced whatever the tiles) one tiling each is tried, and it must be refused.
    """
    first = board.is_empty()
    grid = {(s.row, s.col): t for s, t in board.tiles()}
    accepted: dict[Play, int] = {}
    for k in range(1, min(len(rack), 5) + 1):
        for cells in square_sets(k):
            tilings = assignments(rack, cells)
            if not ref_geometry_ok(grid, cells, first):
                play = to_play(next(tilings))
                with pytest.raises(IllegalMove):
                    score_play(board, play)
                continue
            for placements in tilings:
                play = to_play(placements)
                with contextlib.suppress(IllegalMove):
                    accepted[play] = score_play(board, play).total
    return accepted


def check_agreement(board: Board, rack: Sequence[Tile]) -> dict[Play, int]:
    """score_play, the brute-force reference and the generator agree on every legal play and its score."""
    reference = brute_force_plays(board, rack)
    assert engine_accepted(board, rack) == reference
    scored = scored_plays(board, rack)
    plays = [play for play, _ in scored]
    assert len(plays) == len(set(plays)), "scored_plays gave a play twice"
    assert dict(scored) == reference
    generated = legal_plays(board, rack)
    assert len(generated) == len(set(generated)), "legal_plays gave a play twice"
    assert set(generated) == set(reference)
    assert has_legal_play(board, rack) == bool(reference)
    return reference


# --- completeness and soundness against brute force ---


@pytest.mark.parametrize("size", [1, 2, 3])
@pytest.mark.parametrize(("seed", "turns"), POSITIONS)
def test_agreement_on_mid_game_boards(seed: int, turns: int, size: int) -> None:
    board, unseen = position(seed, turns)
    assert len(board) > 0
    for start in (0, 5):
        check_agreement(board, unseen[start : start + size])


@pytest.mark.parametrize(("seed", "turns"), POSITIONS[2:4])
def test_agreement_with_four_tiles(seed: int, turns: int) -> None:
    board, unseen = position(seed, turns)
    check_agreement(board, unseen[10:14])


@pytest.mark.parametrize(
    "rack",
    ["5D TL", "6L 9D", "6L 6L", "JD 4D", "5D 6L 9D", "AL 2L 3L", "5D 5D 5L", "7L 8D KD", "4D 4L 9D"],
)
def test_agreement_on_the_empty_board(rack: str) -> None:
    check_agreement(Board.empty(), parse_rack(rack))


def test_agreement_with_six_nines_next_to_the_board() -> None:
    board = board_of("f7=4D g7=5D h7=6D h8=9L")
    check_agreement(board, parse_rack("6L 9D 3L"))


@pytest.mark.parametrize(
    ("board_text", "rack", "play", "total"),
    [
        # a one-colour column j (A 2 3 4) that a 5 completes as a cross line: row 7 (5 10) 2 + column j 7 + 10
        ("j3=AL j4=2L j5=3L j6=4L", "5L TD 5D", "j7=5L k7=TD", 19),
        # a 5 at j7 completes two one-colour lines at once: 7 + 7 + 10 + 10
        ("f7=AL g7=2L h7=3L i7=4L j3=AL j4=2L j5=3L j6=4L", "5L 5D TL", "j7=5L", 34),
        # four dark tiles in a row: a fifth dark one earns the bonus (28 + 10), a light one does not
        ("e9=5D f9=5D g9=5D h9=TD", "5L 5D", "d9=5D", 38),
        ("e9=5D f9=5D g9=5D h9=TD", "5L 5D", "d9=5L", 28),
    ],
)
def test_agreement_on_one_colour_bonuses(board_text: str, rack: str, play: str, total: int) -> None:
    reference = check_agreement(board_of(board_text), parse_rack(rack))
    assert reference[parse_move(play)] == total  # type: ignore[index]


# --- regression counts ---
#
# Counts on the empty board are worked out by hand: a pair of side-by-side free squares can be chosen
# 2 * 9 + 11 * 12 = 150 ways across (rows 1-2 have 10 free squares, rows 3-13 have 13) and
# 3 * 10 + 10 * 12 = 150 ways down, so 300 ways; five in a line 2 * 6 + 11 * 9 = 111 ways across and
# 3 * 7 + 10 * 9 = 111 ways down, so 222 ways.


@pytest.mark.parametrize(
    ("rack", "count"),
    [
        ("5D TL", 300 * 2),  # 5 10 is a fifteen, in either order
        ("6L 9D", 300 * 8),  # 6 9, 9 6, 6 6, 9 9 are all valid: 2 faces each, 2 orders
        ("6L 6L", 300 * 4),  # 66, 69, 96, 99; the two tiles are the same tile
        ("JD 4D", 0),
        ("7D", 0),  # the first play needs two tiles
    ],
)
def test_empty_board_counts(rack: str, count: int) -> None:
    plays = legal_plays(Board.empty(), parse_rack(rack))
    assert len(plays) == count
    assert has_legal_play(Board.empty(), parse_rack(rack)) == (count > 0)


def test_no_play_uses_a_blocked_square() -> None:
    blocked = {parse_square(name) for name in ("a1", "b1", "c1", "a2", "b2", "c2")}
    plays = legal_plays(Board.empty(), parse_rack("5D TL 5L"))
    assert any(parse_square("d1") in play.squares for play in plays)  # right beside the patch is fine
    assert not any(blocked & set(play.squares) for play in plays)


def test_empty_board_five_one_colour_tiles() -> None:
    scored = scored_plays(Board.empty(), parse_rack("AL 2L 3L 4L 5L"))
    five = [(play, total) for play, total in scored if len(play.placements) == 5]
    # A 2 3 4 5 is valid in any order: 120 orders in each of 222 places, all 7 + 30 bonus points
    assert len(five) == 222 * 120
    assert {total for _, total in five} == {37}
    assert len({play for play, _ in five}) == len(five)
    for play, total in five[::997]:
        assert score_play(Board.empty(), play).total == total


def test_single_tile_counts_next_to_a_pair_of_aces() -> None:
    board = board_of("f7=AD g7=AL")
    # a third A fits at e7 and h7 (three of a kind) and above or below either A (a pair in a column):
    # f6 f8 g6 g8, so six plays
    assert len(legal_plays(board, parse_rack("AL"))) == 6
    # a 7 adds nothing next to two aces and scores nothing beside one
    assert legal_plays(board, parse_rack("7D")) == []
    assert not has_legal_play(board, parse_rack("7D"))


def test_single_tile_counts_next_to_a_fifteen() -> None:
    board = board_of("f7=5D g7=TD")
    # e7 (5 5 10) and h7 (5 10 5) and f6 f8 (5 5) and g6 g8 (10 5): six plays
    assert len(legal_plays(board, parse_rack("5L"))) == 6


MID_GAME = """\
## ## ## .. KD 5L QD .. .. .. .. .. ..
## ## ## .. .. 8D .. .. .. .. .. .. ..
.. .. .. .. .. 5L .. .. .. .. .. .. ..
.. .. 5D QL 3L 2L 4L .. .. .. .. .. ..
.. .. 6D .. .. KL .. .. .. .. .. .. ..
.. .. 7L .. TD .. .. .. .. .. .. .. ..
.. .. 2L .. 8L .. .. .. .. .. .. .. ..
3L 2L JL 4D AD .. .. 7D .. .. .. .. ..
4L .. .. .. AD .. .. 8D .. .. .. .. ..
8L .. .. AD 5D 3L 6D JD .. .. .. .. ..
.. .. .. .. .. .. .. JD .. .. .. .. ..
.. .. .. .. .. .. .. 9D .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. .. ..
"""

MID_GAME_2 = """\
## ## ## 2L .. .. .. .. .. .. .. .. ..
## ## ## 2L .. .. .. .. .. 6D .. .. ..
.. .. .. 3L .. .. 2D 2D KD 5D QD .. ..
.. .. .. QD .. .. 4D .. .. 7L .. .. ..
.. .. .. KD TL 5L JD .. .. 9L .. .. ..
.. .. .. .. .. .. 8D .. .. QD .. .. ..
.. .. .. 5D 3L 4L 3D 7D .. .. .. .. ..
.. .. .. 2L .. TD .. .. .. .. .. .. ..
KD 7D 8L KL .. 4D .. .. .. .. .. .. ..
.. .. .. 8D .. AL .. .. .. .. .. .. ..
.. .. .. TD .. 6L .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. .. ..
"""


@pytest.mark.parametrize(
    ("board_text", "rack", "count"),
    [
        pytest.param(MID_GAME, "QL TL 2D", 36, id="mid-game-QL-TL-2D"),
        pytest.param(MID_GAME, "KD 3D TL", 11, id="mid-game-KD-3D-TL"),
        pytest.param(MID_GAME_2, "4D 2D AL", 52, id="mid-game-2-4D-2D-AL"),
        pytest.param(MID_GAME_2, "6L 4L 8D", 58, id="mid-game-2-6L-4L-8D"),
    ],
)
def test_mid_game_counts(board_text: str, rack: str, count: int) -> None:
    """Counts found by the brute-force reference, pinned so that any change in legality shows."""
    board = Board.from_text(board_text)
    tiles = parse_rack(rack)
    assert len(brute_force_plays(board, tiles)) == count
    assert len(legal_plays(board, tiles)) == count


def test_mid_game_count_with_five_tiles() -> None:
    board = Board.from_text(MID_GAME)
    tiles = parse_rack("4L 7L 4L 8L 8L")
    reference = brute_force_plays(board, tiles)
    assert len(reference) == 335
    assert dict(scored_plays(board, tiles)) == reference


# --- 6/9 ---


def test_legal_plays_offer_both_faces_of_a_six_nine() -> None:
    board = board_of("f7=4D g7=5D h7=6D")
    plays = set(legal_plays(board, parse_rack("6L")))
    # 4 5 6 6 (a pair) and 4 5 6 9 (6 + 9) are both valid at i7, and 6 4 5 6 / 9 4 5 6 at e7
    for text in ("i7=6L", "i7=9L", "e7=6L", "e7=9L"):
        assert parse_move(text) in plays


def test_a_rack_nine_is_a_rack_six() -> None:
    board = board_of("f7=4D g7=5D h7=6D")
    from_six = legal_plays(board, parse_rack("6L 3D"))
    assert set(from_six) == set(legal_plays(board, parse_rack("9L 3D")))
    assert set(from_six) == set(legal_plays(board, [Tile(9, L), Tile(3, D)]))
    assert any(t.rank == 9 for play in from_six for t in play.tiles)


def test_no_plays_from_an_empty_rack() -> None:
    assert legal_plays(Board.empty(), []) == []
    assert not has_legal_play(Board.empty(), [])
    board, _ = position(*POSITIONS[1])
    assert legal_plays(board, []) == [] and not has_legal_play(board, [])


# --- every generated play is legal, with its score (any rack, any position) ---


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(POSITIONS), st.integers(0, 60), st.integers(1, 5))
def test_scored_plays_are_legal_with_their_scores(pos: tuple[int, int], start: int, size: int) -> None:
    board, unseen = position(*pos)
    rack = unseen[start : start + size]
    scored = scored_plays(board, rack)
    assert len(scored) == len({play for play, _ in scored})
    for play, total in scored:
        assert score_play(board, play).total == total
        assert ref_play_total(board, play) == total
    assert has_legal_play(board, rack) == bool(scored)
    assert legal_plays(board, rack) == [play for play, _ in scored]


@functools.cache
def game(seed: int) -> list[tuple[Board, tuple[Tile, ...]]]:
    return random_game(seed, 24)[0]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.integers(0, 24), st.integers(0, 5))
def test_has_legal_play_matches_legal_plays(seed: int, turn: int, size: int) -> None:
    board, rack = game(seed)[turn]
    for tiles in (rack, rack[:size], rack[size:]):
        assert has_legal_play(board, tiles) == bool(legal_plays(board, tiles))
