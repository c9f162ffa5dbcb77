"""Frames drawn piecemeal (only what moved) must look exactly like frames drawn whole."""

from __future__ import annotations

import time

import pygame

from cribtiles.rules import new_game
from cribtiles.table.settings import Preferences
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles import table
from cribtiles.ui.window import App


def same_as_whole(app: App) -> bool:
    whole = pygame.Surface(app.screen.get_size())
    table.TableView().draw(whole, app.game.snapshot(), full=True)  # a view of its own: the scene's is left as it was
    return pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(app.screen, "RGB")


def test_piecemeal_frames_match_whole_frames_through_drags_flights_and_pegs() -> None:
    state = next(s for s in (new_game(2, seed=n, names=("You", "Medium")) for n in range(50)) if s.current == 0)
    app = App(state, Preferences(speed="normal"), NoKeeper(), size=(1280, 800))
    try:
        lay = app.layout
        game = app.game
        app.frame(1 / 60)
        play = next(
            p
            for p in game.session.table.state.legal_plays()
            if len(p.placements) == 3 and all(t.rank != 9 for t in p.tiles)
        )
        checks = 0
        for p in play.placements:
            slot = next(i for i, tid in enumerate(game.draft.order) if game.draft.tiles[tid] == p.tile.rack_form)
            a, b = centre(lay.slot_rect(slot)), centre(lay.square_rect(p.square))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
            for i in range(1, 11):
                pos = (a[0] + (b[0] - a[0]) * i // 10, a[1] + (b[1] - a[1]) * i // 10)
                pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
                app.frame(1 / 60)
                assert same_as_whole(app), f"a frame of the drag differs at step {i}"
                checks += 1
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
            for _ in range(8):  # the settle
                app.frame(1 / 60)
                assert same_as_whole(app)
                checks += 1
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
        app.frame(1 / 60)
        assert game.state.turns, f"the play was not made: {game.live}"
        deadline = time.perf_counter() + 30
        while (game.state.current != 0 or game.busy) and time.perf_counter() < deadline:
            app.frame(1 / 60)  # pegs move, the bot thinks, its tiles fly
            assert same_as_whole(app)
            checks += 1
            time.sleep(0.002)
        assert game.state.current == 0 and checks > 60
    finally:
        app.close()


def test_a_still_table_sends_nothing_to_the_screen_and_a_moving_one_does() -> None:
    state = next(s for s in (new_game(2, seed=n, names=("You", "Medium")) for n in range(50)) if s.current == 0)
    app = App(state, Preferences(speed="normal"), NoKeeper(), size=(1280, 800))
    try:
        game, lay = app.game, app.layout
        for _ in range(40):  # everything settles
            app.frame(1 / 60)
        game.view.draw(app.screen, game.snapshot())
        assert game.view.draw(app.screen, game.snapshot()) == []
        assert game.view.draw(app.screen, game.snapshot()) == []
        a = centre(lay.slot_rect(0))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(a[0], a[1] - 80), rel=(0, 0), buttons=(1, 0, 0)))
        for e in pygame.event.get():
            app.handle(e)
        changed = game.view.draw(app.screen, game.snapshot())
        assert changed, "a lifted tile must reach the screen"
        assert same_as_whole(app)
    finally:
        app.close()
