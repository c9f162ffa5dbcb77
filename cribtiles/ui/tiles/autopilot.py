"""A player made of posted events: it plays the human's turns through the window, as a person would.

It asks a bot for a move, then posts real pygame events (press on a rack tile, move, release on a
square, right-click to turn a 6 into a 9, Enter; or clicks on Pass and Exchange). The scene tests
and `cribtiles --selftest` use it; nothing here reaches into the scene's state to make a move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pygame

from cribtiles.bot import choose_safely, make_bot
from cribtiles.rules.moves import Exchange, Pass, Play

from ..geometry import Point, centre
from ..window import App
from .end_scene import EndScene
from .game_scene import table_of


def past_the_result(app: App, step: float = 0.25, most: int = 80) -> None:
    """Let the scene's clock run (frames of `step` seconds) until the end card takes Enter: its result
    has been in view for the moment the card asks. Nothing happens when no end card is shown."""
    for _ in range(most):
        top = app.scenes[-1]
        if not isinstance(top, EndScene) or top.ready:
            return
        app.frame(step)


def post_click(pos: Point, button: int = 1) -> None:
    p = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=button))


def post_drag(start: Point, end: Point, steps: int = 6) -> None:
    s = (round(start[0]), round(start[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=s, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=s, button=1))
    for i in range(1, steps + 1):
        p = (round(start[0] + (end[0] - start[0]) * i / steps), round(start[1] + (end[1] - start[1]) * i / steps))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    e = (round(end[0]), round(end[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=e, button=1))


def post_key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))


class Autopilot:
    """Plays the human seat of `app` with the mouse; `turn()` yields after each group of events so
    the caller can run frames in between."""

    def __init__(self, app: App, level: str = "medium", seed: int = 1) -> None:
        self.app = app
        self.bot = make_bot(level)
        self.rng = random.Random(seed)
        self.turns = 0

    def turn(self) -> Iterator[None]:
        scene = table_of(self.app)
        state = scene.state
        move = choose_safely(self.bot, scene.session.view(scene.human), self.rng)
        lay = self.app.layout
        if isinstance(move, Play):
            for p in move.placements:
                draft = scene.draft
                slot = next(i for i, tid in enumerate(draft.order) if draft.tiles[tid] == p.tile.rack_form)
                post_drag(centre(lay.slot_rect(slot)), centre(lay.square_rect(p.square)))
                yield
                tid = draft.placed.get(p.square)
                if tid is not None and draft.face(tid) != p.tile:
                    post_click(centre(lay.square_rect(p.square)), button=3)
                    yield
            post_key(pygame.K_RETURN)
            if state.options.joker:  # the Joker rule: count the play, then declare it
                yield
                for digit in str(state.scorer.score(state.board, move).total):
                    post_key(pygame.K_0 + int(digit))
                post_key(pygame.K_RETURN)
        elif isinstance(move, Exchange):
            post_click(centre(lay.buttons["exchange"]))
            yield
            wanted = list(move.tiles)
            for slot, tid in enumerate(list(scene.draft.order)):
                if scene.draft.tiles[tid] in wanted:
                    wanted.remove(scene.draft.tiles[tid])
                    post_click(centre(lay.slot_rect(slot)))
                    yield
            post_click(centre(lay.buttons["play"]))
        elif isinstance(move, Pass):
            post_click(centre(lay.buttons["pass"]))
        self.turns += 1
        yield


def play_through(app: App, frames_per_step: int = 2, max_seconds: float = 120.0, max_turns: int | None = None) -> int:
    """Play the game in `app` to its end (or `max_turns` human turns) through posted events;
    returns the number of frames drawn. Raises RuntimeError if the game stops moving."""
    import time

    pilot = Autopilot(app)
    start = time.perf_counter()
    frames = 0
    game = table_of(app)
    stuck_since = time.perf_counter()
    last_turns = -1
    while not game.state.is_over:
        if max_turns is not None and pilot.turns >= max_turns:
            break
        if time.perf_counter() - start > max_seconds:
            raise RuntimeError(f"the game did not finish in {max_seconds:.0f} s ({len(game.state.turns)} turns played)")
        if game.curtain is not None:  # hot seat: the next person is ready
            post_key(pygame.K_RETURN)
            app.frame(1 / 60)
            frames += 1
        elif game.my_turn and game.draft.held is None:
            before = len(game.state.turns)
            for _ in pilot.turn():
                for _ in range(frames_per_step):
                    app.frame(1 / 60)
                    frames += 1
            for _ in range(frames_per_step):
                app.frame(1 / 60)
                frames += 1
            if len(game.state.turns) == before:
                raise RuntimeError(f"the player's move was not accepted: {game.live}")
        else:
            app.frame(1 / 60)
            frames += 1
            time.sleep(0.001)
        if len(game.state.turns) != last_turns:
            last_turns, stuck_since = len(game.state.turns), time.perf_counter()
        elif time.perf_counter() - stuck_since > 30:
            raise RuntimeError("no turn was taken for 30 s")
    for _ in range(10):
        app.frame(1 / 60)
        frames += 1
    return frames
