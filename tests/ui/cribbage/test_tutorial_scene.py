"""Classic cribbage's tutorial through posted events, headless: the step's words in the panel, a move
the step does not ask for refused with the step named, the scripted deal played to its show with the bot
polled, and nothing saved or recorded; Done and Escape leave it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.cribbage import parse_card
from cribtiles.table import Seat
from cribtiles.table.cribbage.tutorial import DONE, SCRIPT, STEPS
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.cribbage.layout import ButtonKind
from cribtiles.ui.cribbage.tutorial_scene import CribbageTutorialScene, open_cribbage_tutorial
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.window import App
from tests.ui.cribbage import table_of
from tests.ui.cribbage.test_scene import frames, until


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(tiles, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800), title=True)
    frames(a)
    yield a
    a.close()


def tutorial(app: App) -> CribbageTutorialScene:
    open_cribbage_tutorial(app)
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageTutorialScene)
    return scene


def click_card(app: App, scene: CribbageTutorialScene, text: str) -> None:
    card = parse_card(text)
    rect = scene.hand_rects()[scene.hand.index(card)]
    post_click(centre(rect))
    frames(app)


def button(scene: CribbageTutorialScene, kind: ButtonKind) -> tuple[int, int]:
    (found,) = [b for b in scene.buttons.views(scene.can_undo) if b.kind is kind]
    return centre(found.rect)


def test_the_steps_words_are_in_the_panel_and_a_wrong_move_is_refused(app: App) -> None:
    scene = tutorial(app)
    lines = scene.lines()
    assert lines[0].text == f"Tutorial: {STEPS[0].title}"
    words = " ".join(line.text for line in lines[1:6])
    assert words.startswith("The bot cut the lower card and deals")
    click_card(app, scene, "AH")
    click_card(app, scene, "2S")
    post_click(button(scene, ButtonKind.DISCARD))
    frames(app)
    assert table_of(scene).ply == 0
    assert scene.message == "The tutorial asks for: discard 9C QC. Your six cards: see the words on the right."


def test_the_scripted_deal_is_played_to_its_show_and_nothing_is_kept(app: App, tmp_path: Path) -> None:
    scene = tutorial(app)
    click_card(app, scene, "9C")
    click_card(app, scene, "QC")
    post_click(button(scene, ButtonKind.DISCARD))
    until(app, lambda: table_of(scene).ply == 2)  # the bot's discard, from the script
    assert scene.lines()[0].text == "Tutorial: You lead"
    for ply, card in ((2, "2S"), (4, "4S"), (6, "AH"), (8, "3H")):
        until(app, lambda ply=ply: table_of(scene).ply == ply and table_of(scene).person_to_move)
        click_card(app, scene, card)
        assert (
            table_of(scene).ply > ply and parse_card(card) not in table_of(scene).view().hand
        )  # the bot may have replied
    until(app, lambda: table_of(scene).ply == 11 and scene.holding)  # the bot's two tens, the play kept in sight
    assert table_of(scene).state.scores == (3, 3)
    post_key(pygame.K_RETURN)  # to the show
    frames(app)
    post_key(pygame.K_RETURN)  # count your hand
    frames(app)
    assert table_of(scene).state.scores == (11, 3)
    for ply in (12, 13):
        post_key(pygame.K_RETURN)  # go on: the bot counts
        until(app, lambda ply=ply: table_of(scene).ply == ply + 1)
    until(app, lambda: scene.over and scene.holding)
    assert table_of(scene).ply == len(SCRIPT) and table_of(scene).state.scores == (11, 7)
    assert scene.lines()[0].text == f"Tutorial: {DONE.title}"
    assert [b.label for b in scene.buttons.views(scene.can_undo)] == ["Done"]
    assert scene.aside.keeper.skipped > 0
    assert not (tmp_path / "cribbage.json").exists()  # nothing saved
    assert app.keeper.past_games() == []  # nothing recorded
    post_click(button(scene, ButtonKind.GO_ON))
    frames(app)
    assert scene not in app.scenes


def test_escape_leaves_at_any_time(app: App) -> None:
    before = list(app.scenes)
    scene = tutorial(app)
    post_key(pygame.K_n)  # no new game here: said
    frames(app)
    assert scene.message.startswith("This is the tutorial")
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes == before


def test_the_new_cribbage_game_choice_offers_the_tutorial(app: App) -> None:
    from cribtiles.ui.cribbage.setup import CribbageSetupScene

    app.push(CribbageSetupScene(app))
    frames(app)
    setup = app.scenes[-1]
    assert "Tutorial" in [item.label for item in setup.menu.items]
    post_key(pygame.K_t)
    frames(app)
    assert isinstance(app.scenes[-1], CribbageTutorialScene)
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes[-1] is setup


def test_the_hint_key_is_refused_in_words_so_no_coach_box_covers_the_steps_words(app: App) -> None:
    from cribtiles.ui.cribbage.tutorial_scene import NO_COACH

    scene = tutorial(app)
    post_key(pygame.K_i)
    frames(app)
    assert scene.message == NO_COACH and scene.coach.note is None
    assert scene.snapshot().coach is None and table_of(scene).hints == 0
