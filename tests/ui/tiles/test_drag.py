"""The drag-and-drop state machine: it moves tiles between rack and board and only proposes plays."""

from __future__ import annotations

import random

from cribtiles.rules import Board, Square, parse_move, parse_rack
from cribtiles.rules.moves import Exchange, Play
from cribtiles.ui.tiles.drag import Draft, Drop

RACK = parse_rack("4L 5D 6L KD 5D")
F7, G7, A1 = Square(6, 5), Square(6, 6), Square(0, 0)


def test_deal_starts_with_every_tile_on_the_rack() -> None:
    d = Draft.deal(RACK)
    assert d.rack_ids() == [0, 1, 2, 3, 4]
    assert d.proposal() is None and d.held is None


def test_drag_from_rack_to_a_free_square_proposes_a_play() -> None:
    d = Draft.deal(RACK)
    assert d.pick_from_rack(1) == 1
    assert d.rack_ids() == [0, 2, 3, 4]
    assert d.drop_on_square(Board.empty(), F7) is Drop.PLACED
    assert d.placed == {F7: 1} and d.held is None
    assert d.proposal() == Play.of([(F7, RACK[1])])


def test_drop_on_occupied_blocked_or_no_square_returns_the_tile_to_its_slot() -> None:
    board = Board.empty().place(parse_move("f7=4L g7=5D").placements)
    for target in (F7, A1, None):
        d = Draft.deal(RACK)
        d.pick_from_rack(2)
        assert d.drop_on_square(board, target) is Drop.RETURNED
        assert d.rack_ids() == [0, 1, 2, 3, 4] and not d.placed


def test_a_tile_laid_this_turn_can_move_to_another_square_or_back_to_the_rack() -> None:
    d = Draft.deal(RACK)
    d.pick_from_rack(0)
    d.drop_on_square(Board.empty(), F7)
    assert d.pick_from_board(F7) == 0
    assert d.drop_on_square(Board.empty(), G7) is Drop.PLACED
    assert d.placed == {G7: 0}
    d.pick_from_board(G7)
    assert d.drop_on_rack(2) is Drop.RACKED
    assert d.rack_ids() == [1, 2, 0, 3, 4] and not d.placed


def test_a_board_tile_dropped_on_a_taken_square_returns_to_its_square() -> None:
    d = Draft.deal(RACK)
    d.pick_from_rack(0)
    d.drop_on_square(Board.empty(), F7)
    d.pick_from_rack(0)
    d.drop_on_square(Board.empty(), G7)
    d.pick_from_board(G7)
    assert d.drop_on_square(Board.empty(), F7) is Drop.RETURNED
    assert d.placed == {F7: 0, G7: 1}


def test_tiles_of_earlier_turns_cannot_be_picked_up() -> None:
    d = Draft.deal(RACK)
    assert d.pick_from_board(F7) is None
    assert d.pick_from_rack(7) is None


def test_only_one_tile_is_held_at_a_time() -> None:
    d = Draft.deal(RACK)
    d.pick_from_rack(0)
    assert d.pick_from_rack(0) is None


def test_reorder_the_rack_by_dragging() -> None:
    d = Draft.deal(RACK)
    d.pick_from_rack(4)
    d.drop_on_rack(0)
    assert d.rack_ids() == [4, 0, 1, 2, 3]
    d.pick_from_rack(0)
    d.drop_on_rack(9)
    assert d.rack_ids() == [0, 1, 2, 3, 4]


def test_recall_brings_every_laid_tile_back() -> None:
    d = Draft.deal(RACK)
    for sq in (F7, G7):
        d.pick_from_rack(0)
        d.drop_on_square(Board.empty(), sq)
    d.pick_from_rack(0)  # and one in the hand
    assert sorted(d.recall()) == [0, 1]
    assert d.rack_ids() == [0, 1, 2, 3, 4] and not d.placed and d.held is None  # as the rack was


def test_recall_puts_tiles_back_where_they_were_not_at_the_end() -> None:
    d = Draft.deal(RACK)
    d.pick_from_rack(3)  # the fourth tile, then the second
    d.drop_on_square(Board.empty(), F7)
    d.pick_from_rack(1)
    d.drop_on_square(Board.empty(), G7)
    assert d.rack_ids() == [0, 2, 4]
    d.recall()
    assert d.rack_ids() == [0, 1, 2, 3, 4]


def test_shuffle_changes_the_order_and_keeps_the_tiles() -> None:
    d = Draft.deal(RACK)
    d.shuffle(random.Random(1))
    assert d.rack_ids() != [0, 1, 2, 3, 4]
    assert sorted(d.rack_ids()) == [0, 1, 2, 3, 4]
    same = Draft.deal(parse_rack("5D 5D"))
    same.shuffle(random.Random(1))  # nothing to shuffle: must not loop forever
    assert same.rack_ids() == [0, 1]


def test_flip_turns_a_six_into_a_nine_and_back_only_for_six_nine_tiles() -> None:
    d = Draft.deal(RACK)
    assert d.flip(2)
    assert d.face(2).rank == 9
    d.place(2, Board.empty(), F7)
    assert str(d.proposal()) == "f7=9L"
    assert d.flip(2) and d.face(2).rank == 6
    assert not d.flip(0)


def test_keyboard_place_and_take_back() -> None:
    d = Draft.deal(RACK)
    assert d.place(3, Board.empty(), F7)
    assert not d.place(3, Board.empty(), G7)  # no longer on the rack
    assert not d.place(0, Board.empty(), F7)  # square taken
    assert not d.place(0, Board.empty(), A1)  # the name patch
    assert d.take_back(F7) == 3 and d.rack_ids() == [0, 1, 2, 3, 4]  # back in its own slot
    d.move_in_rack(3, -10)
    assert d.rack_ids() == [3, 0, 1, 2, 4]


def test_exchange_marks() -> None:
    d = Draft.deal(RACK)
    d.toggle_mark(1)
    d.toggle_mark(4)
    assert d.exchange() == Exchange.of(parse_rack("5D 5D"))
    d.toggle_mark(1)
    assert d.exchange() == Exchange.of(parse_rack("5D"))
    d.place(4, Board.empty(), F7)
    assert d.exchange() is None


def test_deal_keeps_the_players_order_when_it_fits() -> None:
    assert Draft.deal(RACK, [4, 3, 2, 1, 0]).rack_ids() == [4, 3, 2, 1, 0]
    assert Draft.deal(RACK, [0, 1]).rack_ids() == [0, 1, 2, 3, 4]
