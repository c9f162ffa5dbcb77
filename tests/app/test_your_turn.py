"""Your turn, wherever you are (issue 44): the program started as `cribtiles` starts it, its seats online
kept in the data folder, a real server on a loopback port. Without opening any table, the window hears
that one waits for this player's move: the caption says "(1) Your turn — Crib Tiles", the task bar is
asked to flash, the chime sounds, the title marks Your online games, and when the move's time is nearly
out it warns (the server's clock is moved on, as if the player had let most of a minute go by). Your
online games shows the game, the opponent, whose turn and the time left."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cribtiles.app.main import main
from cribtiles.app.online_games import OnlineGames
from cribtiles.online.client import Link
from cribtiles.rules import new_game
from cribtiles.ui.online.services import HeldSeat
from tests.server.running import running_server

PATIENCE = 30.0  # seconds any wait may take before the test fails (never a timing assertion)
TIMER = 60  # the table's turn timer: a warning at a fifth of it, 12 seconds


class Clock:
    """The server's clock: stopped at the test's start and moved on only by `offset`, so a machine slow
    enough to take the ten seconds left cannot run the turn's time out before the warning is seen."""

    def __init__(self) -> None:
        self.start = time.time()
        self.offset = 0.0

    def __call__(self) -> float:
        return self.start + self.offset


def frames_until(app: Any, check: Callable[[], bool]) -> bool:
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        app.frame(1 / 60)
        if check():
            return True
        time.sleep(0.01)
    return check()


def test_a_turn_at_a_table_not_on_screen_is_told_and_its_time_nearly_out_warned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    from cribtiles.ui import sound, window
    from cribtiles.ui.online.games_list import GamesScene
    from cribtiles.ui.title import TitleScene

    flashes: list[int] = []
    chimes: list[int] = []
    monkeypatch.setattr(window, "flash_window", lambda: flashes.append(1))
    monkeypatch.setattr(sound.Sounds, "chime", lambda self: chimes.append(1))
    clock = Clock()
    seen: dict[str, Any] = {}
    with running_server(clock=clock) as (url, _hall):
        seed = next(s for s in range(100) if new_game(2, seed=s, names=("Ann", "Ben")).current == 1)
        ann = Link(url)
        try:
            assert ann.wait_connected(PATIENCE)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
            made = ann.request("create", game="tiles", seats=seats, sit=0, seed=seed, turn_timer=TIMER)
            ben = Link(url)
            try:
                assert ben.wait_connected(PATIENCE)
                token = ben.request("join", code=made["code"], name="Ben")["token"]
            finally:
                ben.close()
            OnlineGames(tmp_path).add(HeldSeat(url, made["code"], 1, "Ben", "tiles", token))

            def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
                title = self.scenes[-1]
                assert isinstance(title, TitleScene)
                seen["turn"] = frames_until(self, lambda: self._caption_shown.startswith("(1) Your turn — Crib Tiles"))
                seen["caption"] = self._caption_shown
                seen["label"] = [item.label for item in title.menu.items if item.label.startswith("Your online")]
                seen["told"] = title.greeting
                seen["alerts"] = (len(flashes), len(chimes))
                clock.offset = TIMER - 10  # fifty seconds on: ten left, under the warning's twelve
                seen["late"] = frames_until(self, lambda: "left before it is made for you" in title.greeting)
                seen["warned"] = title.greeting
                seen["alerts late"] = (len(flashes), len(chimes))
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_y, mod=0, unicode="y", scancode=0))
                frames_until(self, lambda: isinstance(self.scenes[-1], GamesScene))
                games = self.scenes[-1]
                assert isinstance(games, GamesScene)
                frames_until(self, lambda: games.cells(0)[0][3] != "asking…")
                seen["row"] = games.cells(0)[0]
                self.close()

            monkeypatch.setattr(window.App, "run", fake_run)
            assert main(["--data-dir", str(tmp_path)]) == 0
        finally:
            ann.close()
    assert seen["turn"], seen["caption"]
    assert seen["caption"].startswith("(1) Your turn — Crib Tiles — ")  # then the game at the window's table
    assert seen["label"] == ["Your online games (1 your turn)"]
    assert seen["told"] == f"Your turn at {made['code'][:3]} {made['code'][3:]}: Your online games takes you there."
    assert seen["alerts"] == (1, 1)
    assert seen["late"], seen["warned"]
    assert seen["warned"].startswith(f"Your move at {made['code'][:3]} {made['code'][3:]}: 0:")
    assert seen["alerts late"] == (2, 2)
    table, game, others, turn, left = seen["row"]
    assert (table, game, others, turn) == (f"» {made['code'][:3]} {made['code'][3:]}", "Kings Cribbage", "Ann", "yours")
    assert left.startswith("0:") and left.endswith(" left"), left
