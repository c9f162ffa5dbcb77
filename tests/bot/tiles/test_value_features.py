"""The learned value's features: from the player's view only, the same every time, unchanged by the
colour swap of every tile (the game scores both colours alike), and right on boards worked by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.simulate import policy_turn
from cribtiles.bot.tiles.value_features import FEATURE_NAMES, expected_best, position_features
from cribtiles.rules import Board, GameState, new_game, parse_rack
from cribtiles.rules.tiles import Colour, Tile


def states(seed: int) -> list[GameState]:
    """Every state before a turn of a game the continuation policy plays against itself."""
    leave = default_leave()
    state = new_game(2, seed=seed)
    out = []
    while not state.is_over:
        out.append(state)
        state = policy_turn(state, leave)
    return out


def named(view_state: GameState) -> dict[str, float]:
    return dict(zip(FEATURE_NAMES, position_features(view_state.view(view_state.current)), strict=True))


def _swap(t: Tile) -> Tile:
    return Tile(t.rank, Colour.DARK if t.colour is Colour.LIGHT else Colour.LIGHT)


def colour_swapped(state: GameState) -> GameState:
    return replace(
        state,
        board=Board(tuple(None if t is None else _swap(t) for t in state.board.cells)),
        racks=tuple(tuple(map(_swap, r)) for r in state.racks),
        bags=tuple(tuple(map(_swap, b)) for b in state.bags),
    )


def test_the_features_are_the_same_every_time_and_one_per_name() -> None:
    for state in states(3)[::5]:
        view = state.view(state.current)
        first = position_features(view)
        assert len(first) == len(FEATURE_NAMES)
        fresh = replace(view, board=Board(view.board.cells))  # no tables cached on this board
        assert position_features(fresh) == first


def test_what_the_opponent_holds_changes_nothing() -> None:
    """Two games the mover cannot tell apart (the opponent's rack swapped with tiles of the bag) give
    the same features, though the opponent's own features change."""
    checked = 0
    for state in states(5)[4:40:3]:
        me, other = state.current, 1 - state.current
        bag = state.bags[0]
        if len(bag) < 5:
            continue
        hidden = replace(
            state,
            racks=tuple(bag[:5] if p == other else r for p, r in enumerate(state.racks)),
            bags=(state.racks[other] + bag[5:],),
        )
        assert hidden.view(me).unseen == state.view(me).unseen
        assert position_features(hidden.view(me)) == position_features(state.view(me))
        if position_features(hidden.view(other)) != position_features(state.view(other)):
            checked += 1
    assert checked >= 5


def test_the_colour_swap_of_every_tile_changes_nothing() -> None:
    for state in states(7)[::4]:
        swapped = colour_swapped(state)
        assert swapped.board != state.board or state.board.is_empty()
        assert named(swapped) == named(state)


def test_the_expected_best_reply_is_the_hypergeometric_one() -> None:
    # Two tiles from four, two of which make 10: none of them with chance 1/6.
    best, p10, p20 = expected_best([0, 0, 10, 10], 2)
    assert best == pytest.approx(10 * 5 / 6)
    assert p10 == pytest.approx(5 / 6)
    assert p20 == 0.0
    # A 20 among them: the best is 20 when it is drawn (1/2), else 10 when a 10 is (5/6 of the rest).
    best, p10, p20 = expected_best([0, 10, 10, 20], 2)
    assert p20 == pytest.approx(0.5)
    assert best == pytest.approx(20 * 0.5 + 10 * (1.0 - 0.5))
    assert expected_best([], 5) == (0.0, 0.0, 0.0)


def board_of(placements: str) -> Board:
    from cribtiles.rules import parse_move

    move = parse_move(placements)
    return Board.empty().place(move.placements)  # type: ignore[union-attr]


def test_the_lines_on_a_board_worked_by_hand() -> None:
    base = new_game(2, seed=1)
    # Row 7 holds 4 5 6: one open line; it can take two more tiles, and each tile's column four.
    state = replace(base, board=board_of("f7=4L g7=5D h7=6L"))
    f = named(state)
    assert (f["open_lines"], f["open_fours"], f["open_fours_one_colour"], f["lanes"]) == (1, 0, 0, 4)
    assert f["board_tiles"] == pytest.approx(0.03)
    # Four light tiles in a row: an open four of one colour (the next tile can make the bonus).
    state = replace(base, board=board_of("e7=AL f7=2L g7=3L h7=4L"))
    f = named(state)
    assert (f["open_lines"], f["open_fours"], f["open_fours_one_colour"]) == (1, 1, 1)
    # A 5 laid at d7 or i7 makes A 2 3 4 5 (7 points) plus the one-colour bonus when light: 17.
    state = replace(state, racks=(parse_rack("5L KD KD QD QD"), state.racks[1]), current=0)
    f = named(state)
    assert f["my_single_best"] == 17
    assert f["my_best_play"] >= 17


def test_the_value_too_is_unchanged_by_the_colour_swap() -> None:
    from cribtiles.bot.tiles.value import default_value

    model = default_value()
    assert model is not None
    for state in states(9)[::6]:
        me = state.current
        assert model(colour_swapped(state).view(me)) == model(state.view(me))


@pytest.mark.parametrize(("players", "solitaire"), [(3, False), (4, False), (2, True)])
def test_every_table_gives_features(players: int, solitaire: bool) -> None:
    """The value is learned from two-player games, but a view of any table has features (no crash)."""
    from cribtiles.rules.options import Mode, RuleOptions

    options = RuleOptions(mode=Mode.SOLITAIRE) if solitaire else RuleOptions()
    state = new_game(players, options=options, seed=4)
    leave = default_leave()
    seen = 0
    while not state.is_over:
        f = dict(zip(FEATURE_NAMES, position_features(state.view(state.current)), strict=True))
        assert f["players"] == players
        assert f["bag_share"] >= 0.0
        state = policy_turn(state, leave)
        seen += 1
    assert seen >= 10
