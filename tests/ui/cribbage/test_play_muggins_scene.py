"""The cribbage window under muggins in the play, as a seasoned player met it (issue 44, defects 18 and
19): after your go the bot lays on with its card said aloud; Enter answers even with the keyboard's cursor
on a card, a card of yours says why it waits, and when the count starts again once the card stands the
prompt says so. Headless (SDL's dummy driver), driven by posted keys through the window."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.cribbage.options import CribbageOptions
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.window import App
from tests.ui.cribbage import table_of
from tests.ui.cribbage.test_scene import at_table, drive, frames, open_app

#: Seed 16 under muggins in the play: you said go at 27, and the Medium bot laid its 4S saying 0.
AFTER_YOUR_GO = (
    "discard QS KC",
    "discard AH 7D",
    "play 7C 0",
    "no muggins",
    "play JD 14",
    "muggins",
    "play 6S 0",
    "no muggins",
    "go",
    "play 4S 0",
)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = open_app(tmp_path)
    yield a
    a.close()


def after_your_go(app: App) -> CribbageScene:
    table = CribbageTable.new(16, "medium", options=CribbageOptions(play_muggins=True))
    scene = at_table(app, drive(table, *AFTER_YOUR_GO))
    frames(app)
    assert scene.seen.count == 27
    return scene


def test_after_your_go_enter_lets_the_bots_card_stand_even_with_the_cursor_on_a_card(app: App) -> None:
    scene = after_your_go(app)
    assert scene.snapshot().prompt == "The Medium bot said 0 for its 4S: M calls muggins, Enter lets it stand."
    post_key(pygame.K_RIGHT)  # the keyboard's cursor on a card of yours
    frames(app)
    assert scene.cards.cursor is not None
    post_key(pygame.K_SPACE)  # laying it: the bot lays again first, said in words
    frames(app)
    assert scene.message == "The Medium bot lays again before you: Enter lets its 4S stand, M calls muggins."
    post_key(pygame.K_RETURN)  # was: "Wait: the Medium bot is to play", and nothing moved
    frames(app)
    log = table_of(scene).state.log
    assert log[log.index("play 4S 0") + 1] == "no muggins"


def test_when_the_count_starts_again_once_the_card_stands_the_prompt_says_so(app: App) -> None:
    scene = after_your_go(app)
    post_key(pygame.K_RETURN)
    frames(app)
    table = table_of(scene)
    assert table.state.log[-1] == "play 3H 0" and scene.seen.count == 30  # the bot's 3H said aloud at 30
    prompt = scene.snapshot().prompt
    assert prompt == (
        "The Medium bot said 0 for its 3H: M calls muggins; then the count starts again at 0: "
        "laying your card lets it stand."
    )


def test_the_go_pegged_once_the_card_stands_has_its_line(app: App) -> None:
    """Defect 19: the go (and the last card) pegged as the bot's card was let stand had no line in the panel."""
    scene = after_your_go(app)
    for _ in range(2):  # the 4S, then the 3H at 30, let stand: the bot has no card to lay, its go for one
        post_key(pygame.K_RETURN)
        frames(app)
    assert table_of(scene).state.log[-2:] == ("play 3H 0", "no muggins")
    texts = [(line.text, line.right) for line in scene.snapshot().lines]
    assert ("go for one", "+1") in texts
