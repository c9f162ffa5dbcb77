"""The cribbage table's layout, pure arithmetic tested without a window: everything inside the window
and apart at the sizes people use, six cards in the hand, eight in a count, the show beside the crib,
and which card lies under a point."""

from __future__ import annotations

import itertools

import pytest

from cribtiles.ui.cribbage.layout import HAND_MOST, PILE_MOST, ButtonKind, CribLayout
from cribtiles.ui.geometry import Rect

SIZES = [(960, 640), (1024, 640), (1280, 800), (1920, 1080), (3840, 2160)]


def inside(inner: Rect, outer: Rect) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[0] + inner[2] <= outer[0] + outer[2]
        and inner[1] + inner[3] <= outer[1] + outer[3]
    )


def apart(a: Rect, b: Rect) -> bool:
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


@pytest.mark.parametrize("size", SIZES)
def test_every_place_lies_in_the_window_and_apart_from_the_others(size: tuple[int, int]) -> None:
    lay = CribLayout.of(*size)
    window = (0, 0, *size)
    places = {
        "bot_row": lay.bot_row,
        "deck": lay.deck,
        "starter": lay.starter,
        "play": lay.play,
        "crib": lay.crib,
        "count": lay.count,
        "prompt": lay.prompt,
        "hand": lay.hand,
        "buttons": lay.button_row,
        "panel": lay.panel,
    }
    for name, rect in places.items():
        assert inside(rect, window), name
        if name != "panel":
            assert inside(rect, lay.felt), name
    for (a, ra), (b, rb) in itertools.combinations(places.items(), 2):
        assert apart(ra, rb) or {a, b} == {"deck", "starter"}, (a, b)  # the starter is turned on the pack
    for name in ("pegboard", "info", "keys"):
        assert inside(getattr(lay, name), lay.panel), name
    assert apart(lay.pegboard, lay.info) and apart(lay.info, lay.keys)


@pytest.mark.parametrize("size", SIZES)
def test_a_hand_of_six_a_count_of_eight_and_the_show_fit_their_places(size: tuple[int, int]) -> None:
    lay = CribLayout.of(*size)
    hand = lay.hand_slots(HAND_MOST)
    assert all(inside(r, lay.hand) for r in hand) and all(apart(a, b) for a, b in itertools.pairwise(hand))
    assert all(inside(lay.lifted(r), lay.hand) or lay.lifted(r)[1] >= lay.prompt[1] + lay.prompt[3] for r in hand)
    pile = lay.pile_slots(PILE_MOST)
    assert all(inside(r, lay.play) for r in pile) and pile[0][0] == lay.play[0]
    four = lay.pile_slots(4)
    assert all(apart(a, b) for a, b in itertools.pairwise(four))  # a short count's cards side by side
    show = lay.show_slots()
    assert len(show) == 5 and all(inside(r, lay.felt) and apart(r, lay.crib) for r in show)
    assert show[4][0] - (show[3][0] + show[3][2]) > show[1][0] - (show[0][0] + show[0][2])  # the starter apart
    assert lay.bot_slots(6)[0][2] == lay.back_w and all(inside(r, lay.bot_row) for r in lay.bot_slots(6))


def test_the_card_under_a_point_is_the_topmost_of_overlapping_ones() -> None:
    lay = CribLayout.of(1280, 800)
    rects = [(100, 100, 80, 112), (140, 100, 80, 112)]  # the second overlaps the first's right half
    assert lay.hand_at((150, 150), rects) == 1
    assert lay.hand_at((110, 150), rects) == 0
    assert lay.hand_at((10, 10), rects) is None


def test_drops_land_in_the_crib_or_the_play() -> None:
    lay = CribLayout.of(1280, 800)
    crib_centre = (lay.crib[0] + lay.crib[2] // 2, lay.crib[1] + lay.crib[3] // 2)
    play_centre = (lay.play[0] + lay.play[2] // 2, lay.play[1] + lay.play[3] // 2)
    assert lay.in_crib_zone(crib_centre) and not lay.in_crib_zone(play_centre)
    assert lay.in_play_zone(play_centre) and not lay.in_play_zone((lay.hand[0] + 5, lay.hand[1] + lay.hand[3] - 5))


def test_the_buttons_are_centred_and_the_count_box_sits_between_minus_and_plus() -> None:
    lay = CribLayout.of(1280, 800)
    one = lay.buttons((ButtonKind.DISCARD,))[ButtonKind.DISCARD]
    x, _, w, _ = lay.button_row
    assert abs((one[0] + one[2] / 2) - (x + w / 2)) <= 1
    three = lay.buttons((ButtonKind.LESS, ButtonKind.MORE, ButtonKind.COUNT))
    box = lay.number_box(three)
    assert box is not None
    less, more = three[ButtonKind.LESS], three[ButtonKind.MORE]
    assert less[0] + less[2] < box[0] and box[0] + box[2] < more[0]
    assert lay.number_box(lay.buttons((ButtonKind.GO,))) is None
    card = lay.end_card()
    assert all(inside(r, card) for r in lay.end_buttons().values())


@pytest.mark.parametrize("size", [(1280, 800), (1024, 640), (800, 600)])
def test_the_end_cards_three_buttons_fit_apart_on_the_card(size: tuple[int, int]) -> None:
    lay = CribLayout.of(*size)
    card = lay.end_card()
    three = lay.end_buttons(review=True)
    assert list(three) == [ButtonKind.NEW_GAME, ButtonKind.REVIEW, ButtonKind.TITLE]
    rects = list(three.values())
    assert all(inside(r, card) for r in rects)
    assert all(a[0] + a[2] < b[0] for a, b in itertools.pairwise(rects))


ODD_SIZES = [(960, 640), (961, 641), (1000, 999), (1366, 768), (1599, 601), (2560, 1080), (3840, 2160), (640, 480)]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", ODD_SIZES)
def test_the_other_players_seats_share_the_top_row_in_order_at_any_size(size: tuple[int, int], players: int) -> None:
    """With three or four players each other player has a seat in the top row, left to right as they sit
    clockwise from your left: its label and its row of cards inside the felt, apart from each other and
    from the middle of the table; a hand of five backs (or four face up in the show) fits its row."""
    lay = CribLayout.of(*size, players)
    others = players - 1
    labels = [lay.seat_label(i) for i in range(others)]
    rows = [lay.seat_row(i) for i in range(others)]
    blocks = labels + rows
    for block in blocks:
        assert inside(block, lay.felt) and block[2] > 0
        for place in (lay.deck, lay.crib, lay.play, lay.count, lay.prompt, lay.hand, lay.button_row):
            assert apart(block, place)
    assert all(apart(a, b) for a, b in itertools.combinations(blocks, 2))
    assert [r[0] for r in labels] == sorted(r[0] for r in labels)  # left to right: your left first
    for i in range(others):
        five = lay.seat_slots(i, 5)
        assert all(inside(r, rows[i]) for r in five) and five[0][2] == lay.back_w
    card = lay.end_card()
    assert inside(card, lay.felt) and all(inside(r, card) for r in lay.end_buttons().values())


@pytest.mark.parametrize("size", ODD_SIZES)
def test_two_players_lay_out_as_before(size: tuple[int, int]) -> None:
    lay = CribLayout.of(*size)
    assert lay == CribLayout.of(*size, 2) and lay.players == 2 and lay.sides == 2
    assert (lay.seat_label(0), lay.seat_row(0), lay.seat_slots(0, 6)) == (lay.bot_label, lay.bot_row, lay.bot_slots(6))
