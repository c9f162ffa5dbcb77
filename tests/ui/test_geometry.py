"""Layout and hit-testing of the table at many window sizes, without a window."""

from __future__ import annotations

import itertools

import pytest

from cribtiles.rules.board import SIZE, Square
from cribtiles.ui.geometry import MIN_HEIGHT, MIN_WIDTH, RACK_SLOTS, Layout, Rect, centre, contains

SIZES = [(960, 640), (1024, 768), (1280, 800), (1366, 768), (1600, 900), (1920, 1080), (2560, 1440), (1000, 1400)]


def overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def inside(inner: Rect, outer: Rect) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[0] + inner[2] <= outer[0] + outer[2]
        and inner[1] + inner[3] <= outer[1] + outer[3]
    )


@pytest.mark.parametrize("size", SIZES)
def test_everything_fits_in_the_window_and_nothing_overlaps(size: tuple[int, int]) -> None:
    lay = Layout.of(*size)
    window = (0, 0, *size)
    parts = {
        "board": lay.board,
        "rack": lay.rack,
        "panel": lay.panel,
        **{f"button {k}": r for k, r in lay.buttons.items()},
    }
    for name, r in parts.items():
        assert inside(r, window), name
        assert r[2] > 0 and r[3] > 0, name
    top_level = ["board", "rack", "panel", "button shuffle", "button recall"]
    for a, b in itertools.combinations(top_level, 2):
        assert not overlaps(parts[a], parts[b]), (a, b)
    panel_parts = [lay.opponents, lay.pegboard, lay.status, lay.info, lay.buttons["play"], lay.buttons["pass"]]
    panel_parts.append(lay.buttons["exchange"])
    for r in panel_parts:
        assert inside(r, lay.panel)
    for a, b in itertools.combinations(panel_parts, 2):
        assert not overlaps(a, b)
    assert inside(lay.grid, lay.board)
    for i in range(RACK_SLOTS):
        assert inside(lay.slot_rect(i), lay.rack)


@pytest.mark.parametrize("size", SIZES)
def test_readable_sizes(size: tuple[int, int]) -> None:
    lay = Layout.of(*size)
    assert lay.cell >= 36  # a tile you can read and hit with the mouse
    assert lay.info[3] >= 150  # room for a score breakdown
    assert lay.rack_tile > lay.cell


def test_bigger_windows_give_bigger_boards() -> None:
    cells = [Layout.of(w, h).cell for w, h in [(960, 640), (1280, 800), (1920, 1080), (2560, 1440)]]
    assert cells == sorted(cells) and cells[0] < cells[-1]


def test_windows_below_the_minimum_are_laid_out_at_the_minimum() -> None:
    assert Layout.of(400, 300) == Layout.of(MIN_WIDTH, MIN_HEIGHT)


@pytest.mark.parametrize("size", SIZES)
def test_square_under_every_square_centre_and_corner(size: tuple[int, int]) -> None:
    lay = Layout.of(*size)
    for r in range(SIZE):
        for c in range(SIZE):
            sq = Square(r, c)
            x, y, w, h = lay.square_rect(sq)
            assert lay.square_at(centre((x, y, w, h))) == sq
            assert lay.square_at((x, y)) == sq
            assert lay.square_at((x + w - 0.01, y + h - 0.01)) == sq
            assert inside(lay.tile_rect(sq), (x, y, w, h))


def test_no_square_off_the_grid() -> None:
    lay = Layout.of(1280, 800)
    gx, gy, gw, gh = lay.grid
    for p in [(gx - 1, gy + 5), (gx + 5, gy - 1), (gx + gw, gy + 5), (gx + 5, gy + gh), (0, 0), (1279, 799)]:
        assert lay.square_at(p) is None
    assert lay.nearest_square((gx - 3, gy - 3)) == Square(0, 0)
    assert lay.nearest_square((gx + gw + 3, gy + gh + 3)) == Square(SIZE - 1, SIZE - 1)
    assert lay.nearest_square((gx - lay.cell, gy)) is None


@pytest.mark.parametrize("size", SIZES)
def test_rack_slots(size: tuple[int, int]) -> None:
    lay = Layout.of(*size)
    rects = [lay.slot_rect(i) for i in range(RACK_SLOTS)]
    for i, r in enumerate(rects):
        assert lay.rack_slot_at(centre(r)) == i
        assert lay.square_at(centre(r)) is None
    for a, b in itertools.pairwise(rects):
        assert a[0] + a[2] < b[0]  # a visible gap between tiles
        gap_mid = ((a[0] + a[2] + b[0]) / 2, a[1] + a[3] / 2)
        assert lay.rack_slot_at(gap_mid) in (rects.index(a), rects.index(b))
    assert lay.rack_slot_at((lay.rack[0] - 200, lay.rack[1])) is None
    assert lay.rack_slot_at(centre(lay.panel)) is None


def test_buttons_are_found_and_distinct() -> None:
    lay = Layout.of(1280, 800)
    for name, r in lay.buttons.items():
        assert lay.button_at(centre(r)) == name
    assert lay.button_at(centre(lay.grid)) is None
    assert contains(lay.board, centre(lay.grid))
