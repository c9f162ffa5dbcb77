"""The learned value's compiled inference against its plain-Python reference, and its symmetries.

The compiled core (`_movegen.features`) computes what the features read of the board, the rack and the
tiles unseen; `reference_position_features` computes it all in plain Python. They must agree to the
last bit, on every feature and so on the value (whose weighted sum is the same Python on both paths):
the float features are the same few IEEE operations in the same order (the C code rounds each product
on its own, never a fused multiply-add), the rest are counts.

Symmetries: the colour swap of every tile (tests/bot/tiles/test_value_features.py) and the board's
eight mirror images and rotations, where the blocked name patch in the corner allows. The patch breaks
every symmetry of the square, but a blocked square changes what the features read only when it lies
within a line's reach of a tile (`patch_near`); on boards whose tiles lie out of reach of the patch
and of its image, the mirror image of a position has the very same features.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.bot.tiles import value_features
from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.simulate import policy_turn
from cribtiles.bot.tiles.value import default_value
from cribtiles.bot.tiles.value_features import (
    FEATURE_NAMES,
    HOT,
    VERY_HOT,
    position_features,
    reference_position_features,
)
from cribtiles.rules import BLOCKED, Board, GameState, new_game, parse_rack
from cribtiles.rules.game import PlayerView
from cribtiles.rules.movegen import load_compiled_core
from cribtiles.rules.options import Mode, RuleOptions
from cribtiles.rules.scoring import STANDARD_BONUSES, Bonuses
from cribtiles.rules.tiles import Colour, Tile, full_set

from .test_value_features import colour_swapped

ROOT = Path(__file__).resolve().parents[3]
SIZE = 13
compiled = load_compiled_core()
needs_compiled = pytest.mark.skipif(compiled is None, reason="the compiled move generator is not built here")

#: The tables whose positions are compared: (players, solitaire, first seed, games), about 1,700 views.
TABLES = ((2, False, 300, 8), (3, False, 400, 5), (4, False, 500, 3), (2, True, 600, 6))


@cache
def views_of(players: int, solitaire: bool, seed: int, games: int) -> tuple[PlayerView, ...]:
    """Every seat's view before every turn of `games` games the continuation policy plays."""
    leave = default_leave()
    options = RuleOptions(mode=Mode.SOLITAIRE) if solitaire else RuleOptions()
    out: list[PlayerView] = []
    for s in range(seed, seed + games):
        state: GameState = new_game(players, options=options, seed=s)
        while not state.is_over:
            out.extend(state.view(p) for p in range(players))
            state = policy_turn(state, leave)
    return tuple(out)


def fresh(view: PlayerView) -> PlayerView:
    """The view on a board object with nothing cached on it, so each path builds its own tables."""
    return replace(view, board=Board(view.board.cells))


def compiled_features(view: PlayerView) -> tuple[float, ...]:
    """The features by the compiled core, whichever core is in use (`CRIBTILES_CORE=python` too)."""
    assert compiled is not None

    def counts(
        board: Board, rack: tuple[Tile, ...], unseen: tuple[Tile, ...], drawn: int, bonuses: Bonuses
    ) -> tuple[tuple[float, ...], tuple[int, ...]]:
        return compiled.features(board.cells, rack, unseen, drawn, HOT, VERY_HOT, bonuses)  # type: ignore[no-any-return]

    return value_features._assemble(view, None, counts)


def assert_same(view: PlayerView) -> None:
    """Both paths give the same features, bit for bit (== on floats is bitwise here: none is a NaN)."""
    got, want = compiled_features(fresh(view)), reference_position_features(fresh(view))
    if value_features._CORE is not None:
        assert position_features(fresh(view)) == got  # the core in use is the compiled one
    if got != want:
        diff = [(n, g, w) for n, g, w in zip(FEATURE_NAMES, got, want, strict=True) if g != w]
        raise AssertionError(f"the compiled features differ from the reference: {diff}\n{view.board}")


@needs_compiled
@pytest.mark.parametrize(("players", "solitaire", "seed", "games"), TABLES)
def test_the_compiled_features_are_the_references_to_the_last_bit(
    players: int, solitaire: bool, seed: int, games: int, thorough: bool
) -> None:
    views = views_of(players, solitaire, seed, games * (5 if thorough else 1))
    assert len(views) >= 300
    for view in views:
        assert_same(view)


@needs_compiled
@pytest.mark.parametrize("table", [TABLES[0], TABLES[3]])
def test_without_bonuses_the_compiled_features_are_the_references(table: tuple[int, bool, int, int]) -> None:
    """The bonuses are an argument of the features too: with none (bonuses=off) both paths agree, and
    where a one-colour line of five is open the board reads differently from the standard rules'."""
    differ = 0
    for view in views_of(*table)[::3]:
        off = replace(view, options=replace(view.options, bonuses=False))
        assert_same(off)
        differ += reference_position_features(fresh(off)) != reference_position_features(fresh(view))
    assert differ > 0


@needs_compiled
def test_the_value_is_the_same_on_both_paths() -> None:
    model = default_value()
    assert model is not None
    for view in views_of(*TABLES[0])[::7]:
        a = model.remaining(compiled_features(fresh(view)))
        assert a == model.remaining(reference_position_features(fresh(view)))


def nine_form(tile: Tile) -> Tile:
    return Tile(9, tile.colour) if tile.rank == 6 else tile


@needs_compiled
def test_odd_racks_are_the_same_on_both_paths() -> None:
    """A rack holding a 6/9 written as a 9, racks of every size 0-5, and nothing unseen."""
    for view in views_of(*TABLES[0])[40:400:9]:
        for size in range(6):
            assert_same(replace(view, rack=view.rack[:size]))
        assert_same(replace(view, rack=tuple(map(nine_form, view.rack))))
        assert_same(replace(view, unseen=()))
    view = views_of(*TABLES[0])[60]
    assert_same(replace(view, rack=parse_rack("6L 6D 6L 6D 9L")))


ALL_TILES = sorted(set(full_set()) | {Tile(9, Colour.LIGHT), Tile(9, Colour.DARK)})
PLAYABLE = [i for i in range(SIZE * SIZE) if i not in {s.pos for s in BLOCKED}]
tiles = st.sampled_from(ALL_TILES)


@st.composite
def random_views(draw: st.DrawFn) -> PlayerView:
    """A view of a random board: tiles anywhere off the patch, lines valid or not, runs of any length."""
    base = views_of(*TABLES[0])[draw(st.integers(0, 200))]
    squares = draw(st.lists(st.sampled_from(PLAYABLE), max_size=60, unique=True))
    cells: list[Tile | None] = [None] * (SIZE * SIZE)
    for i in squares:
        cells[i] = draw(tiles)
    rack = tuple(draw(st.lists(tiles, max_size=5)))
    unseen = tuple(draw(st.lists(tiles, max_size=90)))  # a 9 among them too: it is its 6/9 tile
    return replace(base, board=Board(tuple(cells)), rack=rack, unseen=unseen)


@needs_compiled
@settings(max_examples=150, deadline=None)
@given(random_views())
def test_random_boards_are_the_same_on_both_paths(view: PlayerView) -> None:
    assert_same(view)


@needs_compiled
def test_bad_input_is_refused_in_words_not_a_crash() -> None:
    assert compiled is not None
    board = Board.empty().cells
    good = (board, (), (), 5, HOT, VERY_HOT, STANDARD_BONUSES)
    cases: list[tuple[tuple[object, ...], type[Exception], str]] = [
        ((board[:10], *good[1:]), TypeError, "169 squares"),
        ((board, (Tile(5, Colour.LIGHT),) * 9, (), 5, HOT, VERY_HOT, STANDARD_BONUSES), ValueError, "at most 8 tiles"),
        ((board, ("5L",), (), 5, HOT, VERY_HOT, STANDARD_BONUSES), TypeError, "expected a tile"),
        ((board, (), [Tile(5, Colour.LIGHT)], 5, HOT, VERY_HOT, STANDARD_BONUSES), TypeError, "unseen must be a tuple"),
        ((board, (), ((14, Colour.LIGHT),), 5, HOT, VERY_HOT, STANDARD_BONUSES), ValueError, "rank 1-13"),
        ((board, (), (), "five", HOT, VERY_HOT, STANDARD_BONUSES), TypeError, "integer"),
        ((board, (), (), 5, 0, VERY_HOT, STANDARD_BONUSES), ValueError, "hot thresholds"),
        ((board, (), (), 5, HOT, VERY_HOT, (10, 10)), TypeError, "three ints"),
        (good[:6], TypeError, "takes 7 arguments"),
    ]
    for args, error, words in cases:
        with pytest.raises(error, match=words):
            compiled.features(*args)
    board_features, counts = compiled.features(*good)
    assert len(board_features) == 16 and len(counts) == 11


def test_a_full_racks_leave_is_its_best_four() -> None:
    leave = default_leave()
    for view in views_of(*TABLES[0])[::5]:
        rack = view.rack
        if len(rack) == 5:
            want = max(leave(keep) for keep in combinations(rack, 4))
            assert value_features._rack_leave(rack, leave) == want
            assert value_features._rack_leave(tuple(map(nine_form, rack)), leave) == want


def test_without_the_compiled_core_the_features_are_the_reference() -> None:
    """CRIBTILES_CORE=python: the features take the plain-Python path, and give what they give here."""
    code = (
        "from cribtiles.bot.tiles import value_features as f; from cribtiles.rules import new_game\n"
        "s = new_game(2, seed=9); v = s.apply(s.legal_plays()[0]).view(1)\n"
        "assert f._CORE is None\n"
        "print(repr(f.position_features(v)))\n"
    )
    env = {**os.environ, "CRIBTILES_CORE": "python"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    state = new_game(2, seed=9)
    view = state.apply(state.legal_plays()[0]).view(1)
    assert out.stdout.strip() == repr(reference_position_features(view)) == repr(position_features(view))


# --- the board's symmetries ---

Map = Callable[[int, int], tuple[int, int]]
N = SIZE - 1
#: The seven symmetries of the square other than the identity: (row, column) -> (row, column).
SYMMETRIES: dict[str, Map] = {
    "left-right mirror": lambda r, c: (r, N - c),
    "top-bottom mirror": lambda r, c: (N - r, c),
    "diagonal mirror": lambda r, c: (c, r),
    "anti-diagonal mirror": lambda r, c: (N - c, N - r),
    "quarter turn": lambda r, c: (c, N - r),
    "half turn": lambda r, c: (N - r, N - c),
    "three-quarter turn": lambda r, c: (N - c, r),
}
PATCH = [(s.pos // SIZE, s.pos % SIZE) for s in BLOCKED]


def inverse(g: Map) -> Map:
    table = {g(r, c): (r, c) for r in range(SIZE) for c in range(SIZE)}
    return lambda r, c: table[(r, c)]


def near(tile: tuple[int, int], square: tuple[int, int]) -> bool:
    """Whether a blocked `square` can change what the features read of a `tile`: in its row or column
    within a line's length (a window, the room a line has to grow), or in the rows or columns beside
    it within a window's length of it (the windows through the squares beside the tile)."""
    dr, dc = abs(tile[0] - square[0]), abs(tile[1] - square[1])
    return (dr <= 1 and dc <= 5) or (dc <= 1 and dr <= 5)


@cache
def squares_near_patch(g: Map) -> frozenset[int]:
    """The squares where a tile lies near the patch or near the squares `g` maps onto it."""
    back = inverse(g)
    patch = PATCH + [back(r, c) for r, c in PATCH]
    return frozenset(i for i in range(SIZE * SIZE) if any(near((i // SIZE, i % SIZE), sq) for sq in patch))


def square_near_patch(i: int, g: Map) -> bool:
    return i in squares_near_patch(g)


def patch_near(board: Board, g: Map) -> bool:
    """Whether the patch, or the squares `g` maps onto it, lies near a tile of the board."""
    return any(square_near_patch(i, g) for i, t in enumerate(board.cells) if t is not None)


def mirrored(board: Board, g: Map) -> Board:
    cells: list[Tile | None] = [None] * (SIZE * SIZE)
    for i, t in enumerate(board.cells):
        if t is not None:
            r, c = g(i // SIZE, i % SIZE)
            cells[r * SIZE + c] = t
    return Board(tuple(cells))


def far_part(board: Board, g: Map) -> Board:
    """The board's tiles that lie out of reach of the patch and of its image under `g`."""
    return Board(tuple(None if square_near_patch(i, g) else t for i, t in enumerate(board.cells)))


@pytest.mark.parametrize("name", SYMMETRIES)
def test_a_mirror_image_of_the_board_has_the_same_features_where_the_patch_allows(name: str) -> None:
    """Every game starts beside the patch, so no whole board of a game is out of its reach: these are
    the parts of real boards (their lines, their hot spots) that are, and their mirror images."""
    g = SYMMETRIES[name]
    checked = 0
    for view in views_of(*TABLES[0])[::4] + views_of(*TABLES[1])[::6]:
        far = far_part(view.board, g)
        if len(far) < 4:
            continue
        view = replace(view, board=far)
        image = replace(view, board=mirrored(far, g))
        assert position_features(image) == position_features(view), (name, str(far))
        checked += 1
    assert checked >= 60, checked


@pytest.mark.parametrize("name", SYMMETRIES)
@settings(max_examples=40, deadline=None)
@given(view=random_views(), colour_swap=st.booleans())
def test_random_boards_mirrored_where_the_patch_allows_keep_their_features(
    name: str, view: PlayerView, colour_swap: bool
) -> None:
    g = SYMMETRIES[name]
    view = replace(view, board=far_part(view.board, g))
    image = replace(view, board=mirrored(view.board, g))
    if colour_swap:
        image = swap_view(image)
    assert position_features(image) == position_features(view)


def swap_view(view: PlayerView) -> PlayerView:
    def swap(t: Tile) -> Tile:
        return Tile(t.rank, Colour.DARK if t.colour is Colour.LIGHT else Colour.LIGHT)

    cells = tuple(None if t is None else swap(t) for t in view.board.cells)
    return replace(view, board=Board(cells), rack=tuple(map(swap, view.rack)), unseen=tuple(map(swap, view.unseen)))


def test_near_the_patch_its_mirror_image_differs() -> None:
    """The patch does matter: a line just below it has fewer squares around it than its image, so the
    condition on the symmetries is needed (and `near` is not too narrow to see it)."""
    from .test_value_features import board_of

    board = board_of("a3=4L b3=5D c3=6L")
    view = replace(views_of(*TABLES[0])[0], board=board)
    g = SYMMETRIES["left-right mirror"]
    assert patch_near(board, g)
    assert position_features(replace(view, board=mirrored(board, g))) != position_features(view)


def test_the_value_is_unchanged_by_a_mirror_image_and_the_colour_swap_together() -> None:
    model = default_value()
    assert model is not None
    checked = 0
    for view in views_of(*TABLES[0])[100:400:10]:
        for name, g in SYMMETRIES.items():
            far = replace(view, board=far_part(view.board, g))
            image = swap_view(replace(far, board=mirrored(far.board, g)))
            assert model(image) == model(far), name
            checked += len(far.board) > 0
    assert checked >= 100, checked


def _states(seed: int) -> list[GameState]:
    from .test_value_features import states

    return states(seed)


def test_colour_swap_holds_for_every_view(thorough: bool) -> None:
    for state in _states(11)[:: 2 if thorough else 6]:
        swapped = colour_swapped(state)
        for p in range(2):
            assert position_features(swapped.view(p)) == position_features(state.view(p))


def test_a_rack_longer_than_the_compiled_core_takes_goes_to_the_reference() -> None:
    view = views_of(*TABLES[0])[50]
    long_rack = replace(view, rack=parse_rack("AL 2L 3L 4L 5D 6D 7D 8D TL JL"))
    assert position_features(long_rack) == reference_position_features(long_rack)
