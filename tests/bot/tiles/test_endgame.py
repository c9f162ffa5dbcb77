"""The endgame search against a plain minimax referee: with the bag empty in a two-player game the
position has perfect information, and the search's exact answer must be the game's true value."""

from __future__ import annotations

import random
import time
from functools import cache

import pytest

from cribtiles.bot import make_bot
from cribtiles.bot.tiles.endgame import EndgameResult, rack_value, solve_view
from cribtiles.rules import Board, PlayerView, new_game
from cribtiles.rules.movegen import CORE, scored_plays
from cribtiles.rules.tiles import Tile, remove_tiles

#: The largest endgames (tiles on both racks) checked against the referee: it walks every line, which
#: the pure-Python generator (CI's second run) makes ten to thirty times slower.
MOST_TILES = 7 if CORE == "compiled" else 5


def referee(board: Board, me: tuple[Tile, ...], opp: tuple[Tile, ...]) -> int:
    """Every line to the end of the game, no pruning: the spread gain of the side to move."""
    plays = scored_plays(board, me)
    if not plays:
        if not scored_plays(board, opp):
            return rack_value(opp) - rack_value(me)
        return -referee(board, opp, me)
    best = None
    for play, score in plays:
        left = remove_tiles(me, play.tiles)
        v = score + rack_value(opp) if not left else score - referee(board.place(play.placements), opp, left)
        best = v if best is None else max(best, v)
    assert best is not None
    return best


@cache
def small_endgames(seed: int, most_tiles: int) -> tuple[PlayerView, ...]:
    """Bag-empty positions of a Medium-vs-Medium game with at most `most_tiles` tiles on both racks."""
    medium = make_bot("medium")
    state = new_game(2, seed=seed)
    found = []
    while not state.is_over:
        view = state.view(state.current)
        if view.bag_size == 0 and len(view.rack) + len(view.unseen) <= most_tiles:
            found.append(view)
        state = state.apply(medium.choose(view, random.Random(seed)))
    return tuple(found)


def solved(view: PlayerView) -> EndgameResult:
    return solve_view(view, time.perf_counter() + 60.0, time.perf_counter)


@pytest.mark.parametrize("seed", range(10))
def test_the_exact_value_is_the_referee_s(seed: int) -> None:
    views = small_endgames(seed, MOST_TILES)
    for view in views:
        result = solved(view)
        assert result.exact
        assert result.value == referee(view.board, view.rack, view.unseen)
        if result.play is not None:  # the play it names is worth that value
            left = remove_tiles(view.rack, result.play.tiles)
            score = dict(scored_plays(view.board, view.rack))[result.play]
            after = (
                score + rack_value(view.unseen)
                if not left
                else score - referee(view.board.place(result.play.placements), view.unseen, left)
            )
            assert after == result.value


def test_enough_positions_were_checked() -> None:
    assert sum(len(small_endgames(seed, MOST_TILES)) for seed in range(10)) >= 10


def test_out_of_time_it_still_names_a_legal_play() -> None:
    view = next(v for seed in range(10) for v in small_endgames(seed, MOST_TILES) if scored_plays(v.board, v.rack))
    result = solve_view(view, time.perf_counter() - 1.0, time.perf_counter)  # the deadline has passed
    assert not result.exact
    assert result.play in dict(scored_plays(view.board, view.rack))
