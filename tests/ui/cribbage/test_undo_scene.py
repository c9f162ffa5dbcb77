"""U at the cribbage table, posted as real key presses headless (issue 32): your discard and the bot's
reply taken back, the felt as it was, the game kept so; refused in words where the settings say no."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from cribtiles.cribbage.moves import Discard
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.ui.cribbage.scene import Mode
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.window import App
from tests.ui.cribbage.test_scene import at_table, frames, open_app, saved_moves, until


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = open_app(tmp_path)
    yield a
    a.close()


def test_u_takes_back_your_discard_and_the_bots_reply(app: App, tmp_path: Path) -> None:
    table = CribbageTable.new(4, "easy")
    scene = at_table(app, table)
    until(app, lambda: scene.my_turn and scene.mode is Mode.DISCARD)
    start_moves = saved_moves(tmp_path)
    hand = scene.seen.hand
    assert "U undo" not in scene.snapshot().keys  # nothing of yours to take back yet
    post_key(pygame.K_u)
    frames(app)
    assert "no move to take back" in scene.message
    post_key(pygame.K_RIGHT)
    post_key(pygame.K_SPACE)
    post_key(pygame.K_RIGHT)
    post_key(pygame.K_SPACE)
    post_key(pygame.K_RETURN)  # two cards to the crib
    frames(app)
    until(app, lambda: scene.mode is Mode.PLAY and len(saved_moves(tmp_path)) >= 2)
    assert "U undo" in scene.snapshot().keys
    post_key(pygame.K_u)
    frames(app)
    assert scene.message.startswith("Took back your discard of ")
    assert scene.mode is Mode.DISCARD and scene.seen.hand == hand and scene.cards.chosen == []
    assert saved_moves(tmp_path) == start_moves  # the game is kept as it stands again
    assert scene.pub.scores == (0, 0) or scene.pegging.pegs[0].front == scene.pub.scores[0]
    saved = CribbageTable.from_json((tmp_path / "cribbage.json").read_text())
    assert saved.undos == 1


def test_u_is_refused_in_words_when_the_settings_say_no(app: App) -> None:
    app.prefs = replace(app.prefs, undo=False)
    table = CribbageTable.new(4, "easy")
    scene = at_table(app, table)
    until(app, lambda: scene.my_turn and scene.mode is Mode.DISCARD)
    discard = next(m for m in scene.seen.legal if isinstance(m, Discard))
    scene.session.act(scene.person, discard)
    scene.refresh()
    until(app, lambda: scene.mode is Mode.PLAY)
    assert "U undo" not in scene.snapshot().keys
    post_key(pygame.K_u)
    frames(app)
    assert scene.message == "Undo is off in the settings." and scene.mode is Mode.PLAY


def test_the_undo_button_takes_back_a_card_laid(app: App, tmp_path: Path) -> None:
    """A card you laid in the play, and the bot's reply, taken back with the Undo button (clicked)."""
    from cribtiles.ui.cribbage.layout import ButtonKind
    from cribtiles.ui.tiles.autopilot import post_click
    from tests.ui.cribbage.test_scene import button_centre, card_centre, reach

    table = reach(6, lambda t: t.state.phase.value == "play" and len(t.view().hand) == 4)
    scene = at_table(app, table)
    until(app, lambda: scene.my_turn and scene.mode is Mode.PLAY)
    hand = scene.seen.hand
    count = scene.seen.count
    assert ButtonKind.UNDO in [b.kind for b in scene.snapshot().buttons]  # your discard may be taken back
    card = str(hand[0])
    post_click(card_centre(scene, card))
    frames(app)
    until(app, lambda: scene.my_turn or scene.pub.is_over or scene.holding)
    assert card not in [str(c) for c in scene.seen.hand]
    post_click(button_centre(scene, ButtonKind.UNDO))
    frames(app)
    assert scene.message.startswith(f"Took back your {card}")
    assert scene.seen.hand == hand and scene.seen.count == count and scene.my_turn
