"""The synthesised click, a missing sound device, and the bot worker (thread and process)."""

from __future__ import annotations

import itertools
import random
import time
from array import array

import pygame
import pytest

from cribtiles.rules import new_game
from cribtiles.rules.moves import Play
from cribtiles.ui.botworker import BotWorker
from cribtiles.ui.config import NoKeeper, Preferences
from cribtiles.ui.sound import Sounds, click_samples
from cribtiles.ui.window import App


def test_the_click_is_short_loud_enough_and_never_clips() -> None:
    data = array("h")
    data.frombytes(click_samples(22050, 2))
    assert 0.05 < len(data) / 2 / 22050 < 0.1
    peak = max(abs(v) for v in data)
    assert 8000 < peak <= 20000
    assert data[0] == data[1]  # the same sample on both channels


def test_no_sound_device_is_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", broken)
    sounds = Sounds()
    assert not sounds.available
    sounds.click()  # silently nothing


@pytest.mark.parametrize("use_process", [False, True])
def test_the_worker_returns_a_legal_move(use_process: bool) -> None:
    state = new_game(2, seed=3, names=("You", "Medium"))
    worker = BotWorker(use_process=use_process)
    try:
        worker.start("medium", state.view(state.current), seed=1)
        deadline = time.perf_counter() + 60
        move = None
        while move is None and time.perf_counter() < deadline:
            move = worker.result()
            time.sleep(0.01)
        assert isinstance(move, Play) and move in state.legal_plays()
        assert not worker.busy
    finally:
        worker.close()


def test_a_cancelled_move_is_forgotten() -> None:
    state = new_game(2, seed=3, names=("You", "Medium"))
    worker = BotWorker(use_process=False)
    worker.start("medium", state.view(state.current), seed=1)
    worker.cancel()
    assert worker.result() is None and not worker.busy


def test_every_turn_is_saved_as_it_happens() -> None:
    from cribtiles.ui.autopilot import play_through

    keeper = NoKeeper()
    app = App(None, Preferences(speed="instant"), keeper, size=(960, 640), seed=random.Random(5).randrange(100))
    try:
        play_through(app, frames_per_step=1, max_turns=4)
        logs = [s.log for s in keeper.saved]
        assert logs[0] == ()  # the new game, before anyone moved
        for a, b in itertools.pairwise(logs):
            assert len(b) == len(a) + 1 and b[: len(a)] == a  # one save per turn, none skipped
        assert logs[-1] == app.game.state.log
    finally:
        app.close()
