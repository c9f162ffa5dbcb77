"""The cribbage table through the frame path: a frame drawn piecemeal (only what moved) looks exactly
like one drawn whole, and a card dragged or a peg moving sends rectangles, not the window."""

from __future__ import annotations

import pygame

from cribtiles.table import Seat
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.cribbage.paint import CribView
from cribtiles.ui.cribbage.pilot import CribbagePilot
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.geometry import centre
from cribtiles.ui.window import App
from tests.ui.cribbage import table_of


def cribbage_app(seed: int) -> tuple[App, CribbageScene]:
    keeper = NoKeeper()
    keeper.save_cribbage(CribbageTable.new(seed, "medium"))
    tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(tiles, Preferences(speed="normal", tutorial_offered=True), keeper, size=(1280, 800), title=True)
    app.menus.open_game("cribbage")
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageScene)
    return app, scene


def same_as_whole(app: App, scene: CribbageScene) -> bool:
    whole = pygame.Surface(app.screen.get_size())
    CribView().draw(whole, scene.snapshot(), full=True)  # a view of its own: the scene's is left as it was
    return pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(app.screen, "RGB")


def covered(rects: list[pygame.Rect]) -> int:
    """How many of the window's pixels the rectangles cover (each counted once)."""
    mask = pygame.Mask((1280, 800))
    for r in rects:
        mask.draw(pygame.Mask(r.size, fill=True), r.topleft)
    return mask.count()


def test_piecemeal_cribbage_frames_match_whole_frames_through_deals_plays_and_pegs() -> None:
    app, scene = cribbage_app(12)
    try:
        pilot = CribbagePilot(scene, seed=1, drag=True)
        for i in range(700):
            if i % 25 == 0:
                pilot.step()
            app.frame(1 / 60)
            assert same_as_whole(app, scene), f"frame {i} differs"
            if scene.ended:
                break
        assert table_of(scene).state.deal_number >= 2, "the game did not get past its first deal"
    finally:
        app.close()


def test_a_dragged_card_sends_rectangles_and_a_still_table_sends_nothing() -> None:
    app, scene = cribbage_app(3)
    try:
        for _ in range(90):  # the deal settles
            app.frame(1 / 60)
        assert scene.draw(app.screen) == []
        a = centre(scene.hand_rects()[0])
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
        for step in range(1, 6):
            at = (a[0] + 12 * step, a[1] - 25 * step)
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(1, 0, 0)))
            for e in pygame.event.get():
                app.handle(e)
            changed = scene.draw(app.screen)
            assert changed, "a dragged card must reach the screen"
            sent = covered(changed)
            assert sent < 1280 * 800 // 4, f"a drag sent {sent} pixels: the window redrawn"
            assert same_as_whole(app, scene)
    finally:
        app.close()
