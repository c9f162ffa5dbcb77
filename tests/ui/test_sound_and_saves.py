"""The synthesised click, a missing sound device, and every turn saved as it happens."""

from __future__ import annotations

import itertools
import random
from array import array

import pygame
import pytest

from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
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


def test_every_turn_is_saved_as_it_happens() -> None:
    from cribtiles.ui.tiles.autopilot import play_through

    keeper = NoKeeper()
    app = App(None, Preferences(speed="instant"), keeper, size=(960, 640), seed=random.Random(5).randrange(100))
    try:
        play_through(app, frames_per_step=1, max_turns=4)
        logs = [s.log for s in keeper.saved]
        assert logs[0] == ()  # the new game, before anyone moved
        for a, b in itertools.pairwise(logs):
            assert len(b) == len(a) + 1 and b[: len(a)] == a  # one save per turn, none skipped
        assert logs[-1] == app.session.table.state.log
    finally:
        app.close()


def test_a_trouble_of_the_history_is_not_told_as_a_failed_save() -> None:
    """The keeper's errors hold every trouble; only the save's own is told as "could not be saved"."""

    class Troubled(NoKeeper):
        def __init__(self) -> None:
            super().__init__()
            self.errors: list[str] = []
            self.unsaved: str | None = None

        def save(self, table: object) -> bool:
            return self.unsaved is None

    keeper = Troubled()
    table = Table.new(parse_players("You,easy"), seed=4)
    app = App(table, Preferences(speed="instant"), keeper, size=(1280, 800))
    try:
        game = app.game
        keeper.errors.append("This game could not be added to the history of your games (disk I/O error).")
        game.saved()
        assert (
            game.anims.toasts[-1].text == "This game could not be added to the history of your games (disk I/O error)."
        )
        keeper.unsaved = "No space left on device"
        keeper.errors.append("could not save the game in /x (No space left on device)")
        game.saved()
        assert game.anims.toasts[-1].text == "The game could not be saved (No space left on device)."
    finally:
        app.close()
