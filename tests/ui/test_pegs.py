"""The peg board model: leapfrogging pegs, laps and hole positions."""

from __future__ import annotations

from cribtiles.ui.pegs import HOLES_PER_ROW, LAP, Pegs, hole_position, lap_and_hole


def test_pegs_leapfrog() -> None:
    p = Pegs()
    p.score(12)
    assert (p.back, p.front) == (0, 12) and p.moving
    p.advance(1.0, 0.5)
    assert not p.moving and p.shown_score == 12
    p.score(5)
    assert (p.back, p.front) == (12, 17) and p.moving_from == 0
    p.score(0)
    assert (p.back, p.front) == (12, 17)


def test_the_moving_peg_travels_from_the_back_hole() -> None:
    p = Pegs()
    p.set(20, 10)
    p.score(4)
    assert p.shown_score == 10
    p.advance(0.25, 0.5)
    assert 10 < p.shown_score < 24
    p.advance(10, 0.5)
    assert p.shown_score == 24


def test_laps() -> None:
    assert lap_and_hole(0) == (0, 0)
    assert lap_and_hole(-7) == (0, 0)
    assert lap_and_hole(1) == (0, 1)
    assert lap_and_hole(LAP) == (0, LAP)
    assert lap_and_hole(LAP + 1) == (1, 1)
    assert lap_and_hole(5 * LAP + 3) == (5, 3)


def test_holes_are_inside_the_track_and_distinct() -> None:
    track = (100, 50, 400, 40)
    points = [hole_position(track, h) for h in range(LAP + 1)]
    assert len(set(points)) == LAP + 1
    for x, y in points:
        assert 100 <= x <= 500 and 50 <= y <= 90
    assert points[1][1] == points[HOLES_PER_ROW][1] < points[HOLES_PER_ROW + 1][1]  # out on top, back below
    assert points[HOLES_PER_ROW][0] == points[HOLES_PER_ROW + 1][0]  # the turn at the far end


def test_end_card_counts_every_leftover_tile_at_any_speed() -> None:
    import math
    from types import SimpleNamespace

    from cribtiles.rules import parse_rack
    from cribtiles.ui.tiles.endcard import COUNT_EACH, COUNT_START, counted

    racks = (parse_rack("5D JL"), (), parse_rack("AL"))
    scene = SimpleNamespace(state=SimpleNamespace(end_racks=racks, outcome=None, players=3))
    assert counted(scene, 0.0) == 0  # type: ignore[arg-type]
    assert counted(scene, COUNT_START) == 1  # type: ignore[arg-type]
    assert counted(scene, COUNT_START + COUNT_EACH * 1.5) == 2  # type: ignore[arg-type]
    assert counted(scene, 100.0) == 3  # type: ignore[arg-type]
    assert counted(scene, math.inf) == 3  # type: ignore[arg-type]


def test_the_peg_waits_while_the_breakdown_is_read() -> None:
    p = Pegs()
    p.score(10, wait=0.5)
    p.advance(0.3, 0.5)
    assert p.shown_score == 0 and p.moving
    p.advance(0.3, 0.5)  # the wait is over; the peg sets off on the next frame
    p.advance(0.25, 0.5)
    assert 0 < p.shown_score < 10
    p.advance(1, 0.5)
    assert p.shown_score == 10 and not p.moving


def test_a_name_on_the_peg_board_has_room_in_both_games() -> None:
    """Two players: the score under the name, which has the whole width ("Medium bot" is not cut, as it
    was once both games drew one board); four: the score beside a shorter name."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from cribtiles.ui import art
    from cribtiles.ui.cribbage.layout import CribLayout
    from cribtiles.ui.geometry import Layout
    from cribtiles.ui.pegboard import name_place, tracks

    pygame.font.init()
    crib = CribLayout.of(1280, 800)
    size = max(13, crib.text - 2)
    room, _ = name_place(crib.pegboard, tracks(crib.pegboard, 2)[1], size)
    assert art.font(size).size("Medium bot")[0] <= room
    tiles = Layout.of(1280, 800)
    size = max(14, round(800 * 0.022))
    two = name_place(tiles.pegboard, tracks(tiles.pegboard, 2)[1], size)[0]
    four = name_place(tiles.pegboard, tracks(tiles.pegboard, 4)[3], size)[0]
    assert art.font(size).size("Medium bot")[0] <= two and four < two
