"""Every mode of both games played through the one table (`core.GameTable`'s verbs only: who is to
move, the bot's request, `play_bot`, whether it is over) and through the one arena (issue 30): the tile
game of 2, 3 and 4 seats, under the Joker rule, a match of rounds (the Servant's), Solitaire; classic
cribbage, with muggins too. A save taken half-way resumes into the very same game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.moves import CribbageError
from cribtiles.cribbage.options import CribbageOptions
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.options import RuleOptions
from cribtiles.table import arena
from cribtiles.table.core import GameTable
from cribtiles.table.cribbage import arena as ca
from cribtiles.table.cribbage.table import CribbageTable, choose
from cribtiles.table.saves import load_saved, save_table
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.table import Table


def a_move(table: GameTable[Any, Any, Any]) -> None:
    """One move at `table`, through its verbs: a bot's by its request, a person's (the test's) by the
    same bot's choice, made with the game's own `play`."""
    if isinstance(table, CribbageTable):
        if table.bot_to_move:
            request = table.bot_request()
            assert table.play_bot(choose(request), request) is not None
        else:
            table.play(table.view().legal[0])
        return
    assert isinstance(table, Table)
    if table.bot_to_move:
        request = table.bot_request()
        table.play_bot(choose_safely(make_bot(request.level), request.view, random.Random(request.seed)), request)
    else:
        p = table.to_move
        assert p is not None
        table.play(choose_safely(make_bot("easy"), table.view(p), random.Random(p)))


def play_out(table: GameTable[Any, Any, Any]) -> int:
    """The game at `table` to its end (a match's every round); the moves made."""
    moves = 0
    while not table.is_over:
        if table.to_move is None:  # a match between rounds
            assert isinstance(table, Table) and table.next_is_round
            table.next_round()
        a_move(table)
        moves += 1
    return moves


def tiles(levels: tuple[str | None, ...], rules: str = "", seed: int = 1) -> Table:
    seats = [Seat(f"P{i}") if level is None else Seat.bot(level, f"B{i}") for i, level in enumerate(levels)]
    return Table.new(seats, RuleOptions.parse(rules), seed)


def cribbage(levels: tuple[str | None, str | None], muggins: bool = False, seed: int = 1) -> CribbageTable:
    names = ("Ann", "Ben")
    seats = [Seat(n) if level is None else Seat(n, level) for n, level in zip(names, levels, strict=True)]
    return CribbageTable(new_game(seed, names, CribbageOptions(muggins=muggins)), seats=seats)


MODES = {
    "tiles, 2 seats": lambda: tiles((None, "medium")),
    "tiles, 3 seats": lambda: tiles(("easy", None, "beginner")),
    "tiles, 4 seats": lambda: tiles(("easy", "medium", None, "beginner")),
    "tiles, Joker": lambda: tiles((None, "hard", "easy"), "joker=on"),
    "tiles, a Servant's match": lambda: tiles(("medium", None, "easy"), "rounds=2"),
    "tiles, Solitaire": lambda: tiles((None, "medium"), "mode=solitaire"),
    "cribbage": lambda: cribbage((None, "hard")),
    "cribbage, muggins": lambda: cribbage(("medium", None), muggins=True),
    "cribbage, two bots": lambda: cribbage(("easy", "hard")),
}


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_plays_to_its_end_at_the_one_table(mode: str) -> None:
    table = MODES[mode]()
    assert table.game == ("cribbage" if mode.startswith("cribbage") else "tiles")
    assert table.names == tuple(s.name for s in table.seats) and not table.is_over
    assert play_out(table) > 10 and table.is_over and table.to_move is None
    if isinstance(table, CribbageTable):
        summary = table.summary()
        assert summary is not None and max(summary.scores) >= table.options.target
    else:
        assert table.state.outcome is not None and len(table.match.finished) == table.options.rounds - 1


@pytest.mark.parametrize("mode", MODES)
def test_a_save_half_way_resumes_into_the_same_game(mode: str) -> None:
    table = MODES[mode]()
    for _ in range(12):
        a_move(table)
    resumed = load_saved(save_table(table))
    assert type(resumed) is type(table) and resumed.seats == table.seats and resumed.turn == table.turn
    play_out(table)
    play_out(resumed)
    if isinstance(table, CribbageTable):
        assert isinstance(resumed, CribbageTable) and resumed.state == table.state
    else:
        assert isinstance(resumed, Table) and resumed.match == table.match


def test_a_bot_answer_for_another_turn_is_refused_by_both_tables() -> None:
    tile, crib = tiles(("medium", "easy")), cribbage(("medium", "easy"))
    stale = tile.bot_request()
    a_move(tile)
    move = choose_safely(make_bot("medium"), stale.view, random.Random(stale.seed))
    with pytest.raises(IllegalMove, match="that move was chosen for another turn"):
        tile.play_bot(move, stale)
    old = crib.bot_request()
    a_move(crib)
    assert crib.play_bot(choose(old), old) is None and crib.ply == 1  # the cribbage table drops it
    assert not tile.can_undo(0) and not crib.can_undo(0)  # a bot's moves stand, at either table
    with pytest.raises(CribbageError, match="only a person takes back a move"):
        crib.undo(0)


@pytest.mark.parametrize(
    ("argv", "games", "seat_games"),
    [
        (["--bots", "medium,easy"], 2, [1, 1]),
        (["--bots", "medium,easy,beginner"], 3, [1, 1, 1]),
        (["--bots", "easy,medium,beginner,easy"], 4, [1, 1, 1, 1]),
        (["--bots", "medium,easy,beginner", "--rules", "joker=on"], 3, [1, 1, 1]),
        (["--bots", "medium,easy", "--mode", "solitaire"], 2, [1, 1]),
    ],
)
def test_the_one_arena_plays_every_tile_mode_through_the_table(
    argv: list[str], games: int, seat_games: list[int]
) -> None:
    setup, _, _ = arena.parse_arena([*argv, "--games", "1", "--jobs", "1"])
    assert isinstance(setup, arena.Arena)
    results = arena.run(setup, jobs=1)
    assert [g.game for g in results] == list(range(games))
    summaries = arena.summarize(setup, results)
    assert [list(s.seats) for s in summaries] == [seat_games] * len(seat_games)
    assert sum(s.win_rate * s.games for s in summaries) == pytest.approx(games)  # one win a game, ties shared


@pytest.mark.parametrize("muggins", [False, True])
def test_the_one_arena_plays_cribbage_through_the_table(muggins: bool) -> None:
    setup, _, _ = arena.parse_arena(
        ["--game", "cribbage", "--bots", "hard,easy", "--games", "2", "--jobs", "1", *(["--muggins"] * muggins)]
    )
    assert setup == ca.CribbageArena(("hard", "easy"), 1, 1, CribbageOptions(muggins=muggins))
    results = ca.run(setup, jobs=1)
    assert [tuple(s.bot for s in g.seats) for g in results] == [(0, 1), (1, 0)]
    assert all(max(s.final for s in g.seats) == 121 and sum(s.won for s in g.seats) == 1 for g in results)
