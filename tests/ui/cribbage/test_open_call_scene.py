"""The cribbage window under muggins keeps what a score said aloud makes until it is answered, as the table
tells it: the pegs and the scores beside them stay as before the count, the prompt and the panel say the
number said; the answer pegs it, and a count that wins the game shows the end only once it is answered
(issue 43). Headless (SDL's dummy driver), driven by posted keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.cribbage.moves import Muggins
from cribtiles.cribbage.options import CribbageOptions
from cribtiles.table.cribbage.public import Act, PublicMove
from cribtiles.table.cribbage.session import CribbageSession
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.window import App
from tests.table.cribbage.test_open_call import bots_winning_count
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
    until(app, lambda: not any(p.moving for p in scene.pegging.pegs))


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


@pytest.mark.parametrize(
    ("key", "answer"), [(pygame.K_RETURN, "no muggins"), (pygame.K_m, "muggins")], ids=["let stand", "called"]
)
def test_a_count_that_reaches_the_target_shows_the_end_only_once_it_is_answered(
    app: App, key: int, answer: str
) -> None:
    scene = at_table(app, bots_winning_count())
    settled(app, scene)
    assert scene.snapshot().prompt == "The play is over: Enter or The show counts the hands."
    post_key(pygame.K_RETURN)
    frames(app)
    post_key(pygame.K_RETURN)  # go on: the bot counts its hand
    until(app, lambda: table_of(scene).state.claim is not None)
    settled(app, scene)
    frames(app, 120)  # long past the pause before the end of a game
    table = table_of(scene)
    assert table.state.scores == (29, 62) and not table.is_over  # pegged at once, the end at the answer
    assert not scene.ended and scene.snapshot().end is None
    assert pegs(scene)[1][1:] == (56, 56) and scene.window_caption() == "Cribbage — You 29 · Hard bot 56"
    assert scene.snapshot().prompt == "The Hard bot says its hand makes 6: M calls muggins, Enter lets it stand."
    post_key(key)
    until(app, lambda: scene.ended)
    assert table.state.log[-2:] == ("count 6", answer) and table.state.scores == (29, 61)
    summary = table.summary()
    assert summary is not None and summary.words == "Hard bot wins by a lurch (skunk), 61 to 29."
    assert scene.snapshot().end == summary and pegs(scene)[1][1:] == (61, 61)
    assert [g.scores for g in app.keeper.past_games()] == [(29, 61)]  # recorded once, at the end


def test_a_card_laid_on_a_card_that_wins_lets_it_stand_and_shows_the_end(app: App) -> None:
    """Muggins in the play, seed 1 to 61 against the Hard bot, your first legal moves and every card of its
    let stand: at 91 moves its TD on the TH says 2 (a pair), which takes it to 61. Laying on it is offered as
    ever; the JC laid lets the pair stand, which ends the game: the JC is not laid."""
    table = CribbageTable.new(1, "hard", CribbageOptions(play_muggins=True, target=61))
    while table.ply < 91:
        if table.person_to_move:
            table.play(Muggins(False) if table.state.claim else table.state.legal_actions()[0])
        else:
            table.bot_move()
    assert table.state.scores == (47, 61) and table.state.log[-1] == "play TD 2"
    scene = at_table(app, table)
    settled(app, scene)
    assert scene.snapshot().prompt == "The Hard bot said 2 for its TD: M calls muggins; playing on lets it stand."
    assert not scene.ended and pegs(scene)[1][1:] == (59, 59)
    post_click(card_centre(scene, "JC"))
    until(app, lambda: scene.ended)
    played = table_of(scene)
    assert played.state.log[-2:] == ("play TD 2", "no muggins") and "JC" in [str(c) for c in scene.hand]
    assert scene.snapshot().end == played.summary() and pegs(scene)[1][1:] == (61, 61)
