"""The compiled move generator against the pure-Python reference (and the brute-force referee).

The compiled core (`cribtiles/rules/_movegen.c`) must give exactly the plays of the pure-Python one,
in the same order, with the same scores, and answer `has_legal_play` the same, on every position:
the empty board, mid-game and dense boards, racks of 1-8 tiles, 6/9 tiles both ways up, the squares
beside the blocked name patch, one-colour racks (Solitaire). Without the extension (not built, or
`CRIBTILES_CORE=python`) the pure-Python core runs, and the fallback is tested in a fresh interpreter.
"""

from __future__ import annotations

import functools
import gc
import itertools
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles import __version__
from cribtiles.rules import BLOCKED, Board, Colour, Play, RuleOptions, Tile, full_set, movegen, new_game, parse_rack
from cribtiles.rules.movegen import (
    reference_has_legal_play,
    reference_legal_plays,
    reference_scored_plays,
)
from cribtiles.rules.scoring import NO_BONUSES, STANDARD_BONUSES, Bonuses
from tests.rules.rules_reference import brute_force_plays

ROOT = Path(__file__).resolve().parents[2]
ALL_TILES = list(full_set())
SCORED, LEGAL, ANY, BEST, TOP, KEEPING = 0, 1, 2, 3, 4, 5

compiled = movegen.load_compiled_core()
needs_compiled = pytest.mark.skipif(compiled is None, reason="the compiled move generator is not built here")


def same_as_reference(
    board: Board, rack: Sequence[Tile], bonuses: Bonuses = STANDARD_BONUSES
) -> list[tuple[object, int]]:
    """The compiled core's answers equal the reference's, in order, scored with `bonuses`; the
    reference's plays."""
    assert compiled is not None
    tiles = tuple(rack)
    fresh = Board(board.cells)  # no cross-checks cached by the reference on this object
    reference = reference_scored_plays(board, tiles, bonuses)
    assert compiled.generate(fresh.cells, tiles, SCORED, bonuses) == reference
    assert compiled.generate(fresh.cells, tiles, LEGAL, bonuses) == reference_legal_plays(board, tiles)
    assert (
        compiled.generate(fresh.cells, tiles, ANY, bonuses) is reference_has_legal_play(board, tiles) is bool(reference)
    )
    # the best score, and the best-scoring plays kept in the order a stable sort of the list keeps them
    ordered = sorted(reference, key=lambda ps: ps[1], reverse=True)
    assert compiled.generate(fresh.cells, tiles, BEST, bonuses) == (ordered[0][1] if ordered else -1)
    for want in (1, 12, 64):
        assert compiled.generate(fresh.cells, tiles, TOP, bonuses, want) == ordered[:want]
    values = kept_values(tiles, random.Random(len(reference)))
    for want in (1, 12, 64):
        assert compiled.generate(fresh.cells, tiles, KEEPING, bonuses, want, values) == best_kept(
            ordered[:want], tiles, values
        )
    return reference  # type: ignore[return-value]


def kept_values(rack: Sequence[Tile], rng: random.Random) -> dict[int, float]:
    """Made-up values for what a play of `rack` may keep: whole and half points, so that ties occur,
    and some multisets left out (worth 0.0)."""
    values: dict[int, float] = {}
    for n in range(len(rack) + 1):
        for kept in itertools.combinations(rack, n):
            if rng.random() < 0.8:
                values[movegen.rank_key(kept)] = rng.randrange(-8, 9) / 2
    return values


def best_kept(
    ordered: Sequence[tuple[Play, int]], rack: Sequence[Tile], values: dict[int, float]
) -> tuple[Play, int] | None:
    """The first of `ordered` with the greatest score plus the value of what it keeps, said plainly:
    the kept tiles are the rack less the play's, each as its rack form."""

    def value(ps: tuple[Play, int]) -> float:
        kept = [t.rack_form for t in rack]
        for t in ps[0].tiles:
            kept.remove(t.rack_form)
        return ps[1] + values.get(movegen.ranks_key(t.rank for t in kept), 0.0)

    return max(ordered, key=value) if ordered else None


@functools.cache
def game(seed: int, turns: int, solitaire: bool = False) -> tuple[tuple[Board, tuple[Tile, ...]], ...]:
    """(board, rack to move) before each turn of a two-player game of random plays (the reference's),
    the best-scoring play one turn in three so that long lines form; it may end before `turns`."""
    state = new_game(2, RuleOptions(mode="solitaire" if solitaire else "standard"), seed=seed)
    rng = random.Random(seed)
    seen = []
    for turn in range(turns):
        if state.is_over:
            break
        rack = state.racks[state.current]
        seen.append((state.board, rack))
        plays = reference_scored_plays(state.board, rack)
        if not plays:
            state = state.apply(state.legal_actions()[0])
            continue
        play = max(plays, key=lambda p: p[1]) if turn % 3 == 0 else rng.choice(plays)
        state = state.apply(play[0])
    return tuple(seen)


# --- the core in use ---


@pytest.mark.parametrize("seed", [3, 4])
def test_top_plays_and_best_score_are_the_sorted_list_s_head(seed: int) -> None:
    """Whichever core is in use, `top_plays` is a stable sort of `scored_plays` by score, cut."""
    for board, rack in game(seed, 30):
        ordered = sorted(movegen.scored_plays(board, rack), key=lambda ps: ps[1], reverse=True)
        assert movegen.best_score(board, rack) == (ordered[0][1] if ordered else None)
        for count in (1, 5, 12):
            assert movegen.top_plays(board, rack, count) == ordered[:count]


@pytest.mark.parametrize("seed", [3, 4])
def test_best_keeping_is_the_best_of_the_top_plays_by_score_and_kept_value(seed: int) -> None:
    """Whichever core is in use, `best_keeping` is the first of `top_plays` with the greatest score
    plus the value of the tiles it keeps."""
    rng = random.Random(seed)
    for board, rack in game(seed, 30):
        values = kept_values(rack, rng)
        for count in (1, 5, 12):
            expected = best_kept(movegen.top_plays(board, rack, count), rack, values)
            assert movegen.best_keeping(board, rack, count, values) == expected
    assert movegen.best_keeping(Board.empty(), (), 12, {}) is None


def test_rank_key_counts_a_nine_as_its_six_and_subtracts() -> None:
    rack = parse_rack("6L 9D 6D KL AD")
    assert movegen.rank_key(rack) == movegen.ranks_key([6, 6, 6, 13, 1])
    assert movegen.rank_key(rack) - movegen.rank_key(parse_rack("9L KL")) == movegen.ranks_key([6, 6, 1])
    assert movegen.ranks_key([2, 3]) != movegen.ranks_key([1, 1, 1, 2])


def test_top_plays_wants_a_count_it_can_give() -> None:
    for count in (0, -1, movegen.TOP_LIMIT + 1):
        with pytest.raises(ValueError, match="top_plays returns 1 to 64 plays"):
            movegen.top_plays(Board.empty(), parse_rack("5D TL"), count)
        with pytest.raises(ValueError, match="best_keeping looks at 1 to 64 plays"):
            movegen.best_keeping(Board.empty(), parse_rack("5D TL"), count, {})


@needs_compiled
def test_the_compiled_top_sink_refuses_a_count_out_of_range() -> None:
    assert compiled is not None
    with pytest.raises(ValueError, match="modes 4 and 5 want 1 to 64 plays"):
        compiled.generate(Board.empty().cells, tuple(parse_rack("5D TL")), TOP, STANDARD_BONUSES, 65)
    with pytest.raises(ValueError, match="modes 4 and 5 want"):
        compiled.generate(Board.empty().cells, tuple(parse_rack("5D TL")), TOP, STANDARD_BONUSES)
    with pytest.raises(TypeError, match="mode 5 takes a dict"):
        compiled.generate(Board.empty().cells, tuple(parse_rack("5D TL")), KEEPING, STANDARD_BONUSES, 12)
    with pytest.raises(TypeError, match="mode 5 takes a dict"):
        compiled.generate(Board.empty().cells, tuple(parse_rack("5D TL")), KEEPING, STANDARD_BONUSES, 12, [])


def test_the_core_in_use_is_named() -> None:
    wanted = os.environ.get("CRIBTILES_CORE", "").strip().lower()
    assert ("python" if wanted == "python" or compiled is None else "compiled") == movegen.CORE
    words = {"compiled": "compiled move generator", "python": "pure-Python move generator"}
    assert words[movegen.CORE] == movegen.CORE_DESCRIPTION


def test_the_public_functions_use_the_core_named() -> None:
    board, _ = game(3, 12)[-1]
    rack = parse_rack("5D TL 6L 4D JD")
    assert movegen.scored_plays(board, rack) == reference_scored_plays(board, rack)
    assert movegen.legal_plays(board, iter(rack)) == reference_legal_plays(board, rack)  # any iterable
    assert movegen.has_legal_play(board, list(rack)) == reference_has_legal_play(board, rack)


# --- seeded random positions: thousands, compared in full ---


@needs_compiled
@pytest.mark.parametrize("seed", range(16))
def test_seeded_games_agree_turn_by_turn(seed: int) -> None:
    """Each turn of a random game, with its rack, a part of it and 5 other tiles: 2,300 positions in all."""
    rng = random.Random(seed)
    positions = 0
    for board, rack in game(seed, 60):
        for tiles in (rack, rack[: rng.randrange(1, 5)], tuple(rng.sample(ALL_TILES, 5)), ()):
            same_as_reference(board, tiles)
            positions += 1
    assert positions >= 100


@needs_compiled
@pytest.mark.parametrize("seed", range(4))
def test_dense_boards_agree(seed: int) -> None:
    """Whole games fill the board with lines of 4 and 5 tiles, crossing each other."""
    history = game(100 + seed, 200)
    assert len(history[-1][0]) >= 50
    rng = random.Random(seed)
    for board, rack in history[-25:]:
        for tiles in (rack, tuple(rng.sample(ALL_TILES, 5))):
            same_as_reference(board, tiles)


@needs_compiled
@pytest.mark.parametrize("size", [6, 7, 8])
def test_racks_longer_than_a_game_holds_agree(size: int) -> None:
    rng = random.Random(size)
    for board, _ in game(7, 15)[:: 2 * size - 7]:
        same_as_reference(board, tuple(rng.sample(ALL_TILES, size)))


def test_racks_longer_than_the_compiled_core_takes_go_to_the_reference() -> None:
    board, _ = game(7, 15)[-1]
    rack = tuple(full_set()[::11])[:9]
    assert len(rack) == 9
    assert movegen.scored_plays(board, rack) == reference_scored_plays(board, rack)


# --- hypothesis: any board a game reaches, any rack ---

tiles = st.builds(Tile, st.integers(1, 13), st.sampled_from([Colour.LIGHT, Colour.DARK]))


@needs_compiled
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 40), st.integers(0, 45), st.lists(tiles, min_size=0, max_size=5))
def test_any_rack_on_any_reached_board_agrees(seed: int, turn: int, rack: list[Tile]) -> None:
    history = game(seed, 45)
    board, _ = history[min(turn, len(history) - 1)]
    same_as_reference(board, rack)


bonus_settings = st.sampled_from([STANDARD_BONUSES, NO_BONUSES, Bonuses(0, 10, 0), Bonuses(5, 0, 7), Bonuses(3, 4, 5)])


@needs_compiled
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 40), st.integers(0, 45), st.lists(tiles, min_size=0, max_size=5), bonus_settings)
def test_both_cores_agree_under_any_bonuses(seed: int, turn: int, rack: list[Tile], bonuses: Bonuses) -> None:
    """The bonuses are an argument of both cores: under the standard ones, none (bonuses=off) or any
    others, the compiled core gives the reference's plays, order and scores."""
    history = game(seed, 45)
    board, _ = history[min(turn, len(history) - 1)]
    same_as_reference(board, rack, bonuses)


@needs_compiled
@pytest.mark.parametrize("seed", [1, 2])
def test_solitaire_games_agree_without_bonuses(seed: int) -> None:
    """Solitaire's one-colour racks, where the one-colour bonus is common, with no bonuses."""
    for board, rack in game(seed, 60, solitaire=True)[::3]:
        same_as_reference(board, rack, NO_BONUSES)


@needs_compiled
def test_the_compiled_core_refuses_bonuses_that_are_not_three_points() -> None:
    assert compiled is not None
    cells, rack = Board.empty().cells, tuple(parse_rack("5D TL"))
    with pytest.raises(TypeError, match="three ints"):
        compiled.generate(cells, rack, SCORED, (10, 10))
    with pytest.raises(ValueError, match="0 to 1000"):
        compiled.generate(cells, rack, SCORED, (10, -1, 10))
    with pytest.raises(TypeError, match="takes 4 to 6 arguments"):
        compiled.generate(cells, rack, SCORED)  # type: ignore[call-arg]


six_nines = st.builds(Tile, st.sampled_from([6, 9]), st.sampled_from([Colour.LIGHT, Colour.DARK]))


@needs_compiled
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 40), st.integers(0, 30), st.lists(six_nines, min_size=1, max_size=3), st.lists(tiles, max_size=2))
def test_six_nines_both_faces_agree(seed: int, turn: int, sixes: list[Tile], others: list[Tile]) -> None:
    """Racks full of 6/9 tiles, written as 6 or as 9: both faces of each are tried, the same by both cores,
    and a 9 on the rack is the same tile as a 6 of its colour."""
    history = game(seed, 30)
    board, _ = history[min(turn, len(history) - 1)]
    plays = same_as_reference(board, sixes + others)
    assert same_as_reference(board, [t.flipped for t in sixes] + others) == plays


@needs_compiled
@settings(max_examples=20, deadline=None)
@given(st.lists(tiles, min_size=0, max_size=5))
def test_any_rack_on_the_empty_board_agrees(rack: list[Tile]) -> None:
    same_as_reference(Board.empty(), rack)


@needs_compiled
@pytest.mark.parametrize(
    "rack", ["AL 2L 3L 4L 5L", "5L 5D 5L 5D JL", "6L 6D 9L 3D TD", "6L 6L 6D 6D 9L", "4L 5D 6L JD QL", "KD"]
)
def test_full_racks_on_the_empty_board_agree(rack: str) -> None:
    same_as_reference(Board.empty(), parse_rack(rack))


def board_of(text: str) -> Board:
    from cribtiles.rules import parse_square, parse_tile

    pairs = (w.split("=") for w in text.split())
    return Board.empty().place((parse_square(s), parse_tile(t)) for s, t in pairs)


@needs_compiled
@pytest.mark.parametrize(
    "text",
    ["d1=5D d2=TL", "a3=5D b3=TL", "d1=4L d2=5L d3=6L", "a3=7D a4=8D b3=8L", "e1=5D e2=5L d3=5L e3=TD"],
)
def test_beside_the_blocked_name_patch_agrees(text: str) -> None:
    board = board_of(text)
    for rack in ("5D TL 5L 4D 6L", "AL 2L 3L 4L 9D", "TD JD QD KD 5L"):
        plays = same_as_reference(board, parse_rack(rack))
        blocked = {s.pos for s in BLOCKED}
        assert not any(p.square.pos in blocked for play, _ in plays for p in play.placements)  # type: ignore[attr-defined]


@needs_compiled
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solitaire_games_agree(seed: int) -> None:
    """Solitaire: each side's rack is all of one colour, so one-colour lines and bonuses are common."""
    history = game(seed, 60, solitaire=True)
    assert len(history) >= 20
    for board, rack in history:
        assert len({t.colour for t in rack}) <= 1
        same_as_reference(board, rack)


# --- the brute-force referee, on a sample ---


@needs_compiled
@pytest.mark.parametrize(("seed", "turns", "size"), [(1, 4, 3), (2, 8, 2), (3, 12, 3), (4, 20, 2), (5, 2, 4)])
def test_compiled_core_matches_the_brute_force_referee(seed: int, turns: int, size: int) -> None:
    board, _ = game(seed, turns)[-1]
    rng = random.Random(seed)
    for _ in range(2):
        rack = tuple(rng.sample(ALL_TILES, size))
        assert compiled is not None
        assert dict(compiled.generate(board.cells, rack, SCORED, STANDARD_BONUSES)) == brute_force_plays(board, rack)


@needs_compiled
def test_compiled_core_matches_the_referee_on_the_empty_board() -> None:
    for rack in ("5D TL", "6L 9D 5L", "AL 2L 3L"):
        tiles = parse_rack(rack)
        assert compiled is not None
        assert dict(compiled.generate(Board.empty().cells, tiles, SCORED, STANDARD_BONUSES)) == brute_force_plays(
            Board.empty(), tiles
        )


# --- the compiled core's edges ---


@needs_compiled
def test_the_cycle_collector_is_left_as_it_was() -> None:
    assert compiled is not None
    rack = parse_rack("AL 2L 3L")
    was = gc.isenabled()
    try:
        gc.enable()
        compiled.generate(Board.empty().cells, rack, SCORED, STANDARD_BONUSES)
        assert gc.isenabled()
        gc.disable()
        compiled.generate(Board.empty().cells, rack, SCORED, STANDARD_BONUSES)
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


@needs_compiled
@pytest.mark.parametrize(
    ("cells", "rack", "mode", "error"),
    [
        (Board.empty().cells, ("5D",), 0, TypeError),  # a string is not a tile
        (Board.empty().cells, (Tile(14, Colour.LIGHT),), 0, ValueError),  # no rank 14
        (Board.empty().cells, (Tile(5, "L"),), 0, ValueError),  # type: ignore[arg-type]  # not a Colour
        (Board.empty().cells, tuple(full_set()[:9]), 0, ValueError),  # longer than it takes
        (Board.empty().cells, (), 5, ValueError),  # no such mode
        (Board.empty().cells, (), -1, ValueError),  # nor this
        (Board.empty().cells[:100], (), 0, TypeError),  # not a whole board
    ],
)
def test_bad_input_to_the_compiled_core_is_an_error_not_a_crash(
    cells: tuple[object, ...], rack: tuple[object, ...], mode: int, error: type[Exception]
) -> None:
    assert compiled is not None
    with pytest.raises(error):
        compiled.generate(cells, rack, mode, STANDARD_BONUSES)  # type: ignore[arg-type]


# --- the fallback, in a fresh interpreter ---

HIDE_THE_EXTENSION = "import sys; sys.modules['cribtiles.rules._movegen'] = None\n"
SHOW_THE_CORE = """
from cribtiles.rules import Board, legal_plays, movegen, parse_rack
print(movegen.CORE, len(legal_plays(Board.empty(), parse_rack("5D TL"))))
"""


def run_python(code: str, core: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CRIBTILES_CORE"}
    if core is not None:
        env["CRIBTILES_CORE"] = core
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_environment_variable_forces_the_pure_python_core() -> None:
    done = run_python(SHOW_THE_CORE, "python")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["python", "600"]


def test_without_the_extension_the_pure_python_core_plays() -> None:
    done = run_python(HIDE_THE_EXTENSION + SHOW_THE_CORE, None)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["python", "600"]


def test_without_the_extension_version_says_pure_python() -> None:
    code = (
        HIDE_THE_EXTENSION
        + "import sys; sys.argv = ['cribtiles', '--version']\nfrom cribtiles.app.main import main\nmain()"
    )
    done = run_python(code, None)
    assert done.stdout.strip() == f"Crib Tiles {__version__} (pure-Python move generator)", done.stderr


def test_asking_for_the_compiled_core_without_it_says_so() -> None:
    done = run_python(HIDE_THE_EXTENSION + SHOW_THE_CORE, "compiled")
    assert done.returncode != 0
    assert "CRIBTILES_CORE=compiled, but the compiled move generator is not built" in done.stderr


@needs_compiled
def test_by_default_the_compiled_core_plays() -> None:
    done = run_python(SHOW_THE_CORE, None)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["compiled", "600"]
