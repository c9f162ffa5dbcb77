"""The cribbage window under muggins keeps what a score said aloud makes until it is answered, as the table
tells it: the pegs and the scores beside them stay as before the count, the prompt and the panel say the
number said; the answer pegs it (issue 43). Headless (SDL's dummy driver), driven by posted keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.cribbage.options import CribbageOptions
from cribtiles.table.cribbage.public import Act, PublicMove
from cribtiles.table.cribbage.session import CribbageSession
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.window import App
from tests.ui.cribbage import table_of
from tests.ui.cribbage.test_scene import FIRST_PLAY, at_table, card_centre, drive, frames, open_app, until


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = open_app(tmp_path)
    yield a
    a.close()


def pegs(scene: CribbageScene) -> list[tuple[int, int, int]]:
    """Each side's back peg, front peg and the score written beside its track (once the pegs have stopped)."""
    return [(p.back, round(p.shown), p.number) for p in scene.snapshot().pegs]


def settled(app: App, scene: CribbageScene) -> None:
    frames(app)
    until(app, lambda: not any(p.moving for p in scene.pegs))


def lines(scene: CribbageScene) -> list[tuple[str, str]]:
    return [(line.text, line.right) for line in scene.snapshot().lines]


def bot_counted(app: App, said: int) -> CribbageScene:
    """Seed 1 under muggins: you 4 (your hand's 2 let stand), the Medium bot 3, its hand (6C 7D 8H 9D with
    QC: 8) said at `said`."""
    table = CribbageTable.new(1, options=CribbageOptions(muggins=True))
    drive(table, *FIRST_PLAY, "play 2S", "play 7D", "play 6C", "count 2", "no muggins", f"count {said}")
    assert table.state.scores == (4, 3 + min(said, 8))  # pegged at once by the engine
    scene = at_table(app, table)
    settled(app, scene)
    return scene


def test_the_bots_over_count_is_said_and_pegged_only_once_you_call(app: App) -> None:
    scene = bot_counted(app, 11)
    assert pegs(scene) == [(2, 4, 4), (2, 3, 3)]  # the bot's pegs and score as before its count
    assert scene.snapshot().prompt == "The Medium bot says its hand makes 11: M calls muggins, Enter lets it stand."
    assert lines(scene)[1:3] == [("The Medium bot's hand", "11"), ("said 11: waiting for your answer", "")]
    assert scene.window_caption() == "Cribbage — You 4 · Medium bot 3"
    post_key(pygame.K_m)
    settled(app, scene)
    assert table_of(scene).state.scores == (7, 11)
    assert pegs(scene) == [(4, 7, 7), (3, 11, 11)]  # its 8 pegged at the answer, your 3 said over too
    assert scene.snapshot().prompt.startswith("You called muggins on the Medium bot's hand: 11 said, it makes 8")


def test_a_short_count_let_stand_moves_the_bots_pegs_at_the_answer(app: App) -> None:
    scene = bot_counted(app, 6)
    assert pegs(scene) == [(2, 4, 4), (2, 3, 3)]
    post_key(pygame.K_RETURN)
    settled(app, scene)
    assert pegs(scene) == [(2, 4, 4), (3, 9, 9)] and table_of(scene).state.scores == (4, 9)


def test_in_the_play_the_bots_card_is_said_and_pegged_once_you_lay_on(app: App) -> None:
    table = CribbageTable.new(1, options=CribbageOptions(play_muggins=True))
    scene = at_table(app, drive(table, "discard 8D 9H", "discard AD AH", "play 7S 0", "no muggins", "play 8H 1"))
    settled(app, scene)
    assert table_of(scene).state.scores == (0, 1) and pegs(scene) == [(0, 0, 0), (0, 0, 0)]
    assert ("says 1", "") in lines(scene)  # the number said, its points to come
    assert scene.snapshot().prompt == "The Medium bot said 1 for its 8H: M calls muggins; playing on lets it stand."
    post_click(card_centre(scene, "4C"))  # 19: laid on, the 8H stands; the 4C says 0
    frames(app)
    log = table_of(scene).state.log
    assert log[log.index("play 4C 0") - 1 :][:2] == ("no muggins", "play 4C 0")
    settled(app, scene)
    assert pegs(scene)[1] == (0, 1, 1) and ("says 1", "+1") in lines(scene)


class AnswersUntold(CribbageSession):
    """A session that tells no answer to a score said aloud, as an online one does when the answer came
    with the next deal's first move (the story it reads holds that deal's moves only)."""

    def take_pending(self) -> list[PublicMove]:
        return [m for m in super().take_pending() if m.act not in (Act.CALL, Act.LET_STAND)]


def test_an_answer_not_told_still_moves_the_pegs_to_the_scores(app: App) -> None:
    table = CribbageTable.new(1, options=CribbageOptions(muggins=True))
    drive(table, *FIRST_PLAY, "play 2S", "play 7D", "play 6C", "count 2", "no muggins", "count 6")
    scene = CribbageScene(app, AnswersUntold(table))
    app.push(scene)
    settled(app, scene)
    assert pegs(scene) == [(2, 4, 4), (2, 3, 3)]
    post_key(pygame.K_RETURN)  # let stand: the bot's 6, told by the scores alone
    settled(app, scene)
    assert pegs(scene) == [(2, 4, 4), (3, 9, 9)]
