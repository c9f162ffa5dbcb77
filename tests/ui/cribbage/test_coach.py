"""The coach at the cribbage table, driven by posted keys headless: I in the discard lists the advisor's
best discards and rings the two cards to lay away, ? in the play shows Hard's card and why; each counts
one hint (once per position), kept in the save and taken into the history; hints off, or the show, are
refused in words."""

from __future__ import annotations

import json
from pathlib import Path

import pygame

from cribtiles.app.storage import Store
from cribtiles.bot.cribbage.advisor import advise_discard, peg_hint
from cribtiles.cribbage.moves import PlayCard
from cribtiles.cribbage.options import Phase
from cribtiles.table.cribbage.session import CribbageSession, FinishedCribbage
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.ui.cribbage.history_row import cribbage_marks
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.window import App
from tests.table.cribbage.test_ledger import played
from tests.ui.cribbage.test_scene import app as app  # the fixture
from tests.ui.cribbage.test_scene import at_table, frames, reach


def hinted(scene: object) -> set[str]:
    snap = scene.snapshot()  # type: ignore[attr-defined]
    return {str(s.card) for s in snap.sprites if s.hinted}


def marks(folder: Path) -> dict[str, int]:
    saved = json.loads((folder / "cribbage.json").read_text())
    return saved.get("marks", {})  # type: ignore[no-any-return]


def test_the_hint_key_in_the_discard_shows_the_best_discards(app: App, tmp_path: Path) -> None:
    scene = at_table(app, CribbageTable.new(11))
    assert scene.seen.phase is Phase.DISCARD and scene.snapshot().coach is None
    post_key(pygame.K_i)
    frames(app)
    note = scene.snapshot().coach
    assert note is not None and note.title.startswith("Coach: the best discards")
    advice = advise_discard(scene.seen.hand, scene.seen.dealer == scene.person)
    assert note.rows[0][0] == f"throw {advice[0].thrown[0]} {advice[0].thrown[1]}" and len(note.rows) == 4
    assert note.rows[0][1] == f"{advice[0].hand:.1f} {advice[0].crib:+.1f} = {advice[0].total:.1f}"
    assert hinted(scene) == {str(c) for c in advice[0].thrown}  # the best pair ringed in your hand
    assert scene.session.hints == 1 and marks(tmp_path)["hints"] == 1
    post_key(pygame.K_i)  # again: put away
    frames(app)
    assert scene.snapshot().coach is None and not hinted(scene)
    post_key(pygame.K_i)  # asked again in the same position: no second hint
    frames(app)
    assert scene.snapshot().coach is not None and scene.session.hints == 1
    post_key(pygame.K_ESCAPE)  # Escape puts it away, and leaves the table open
    frames(app)
    assert scene.snapshot().coach is None and app.scenes[-1] is scene


def test_the_hint_key_in_the_play_shows_hards_card_and_why(app: App, tmp_path: Path) -> None:
    table = reach(
        12, lambda t: t.state.phase is Phase.PLAY and any(isinstance(m, PlayCard) for m in t.state.legal_actions())
    )
    scene = at_table(app, table)
    assert scene.seen.phase is Phase.PLAY and scene.my_turn
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=0, unicode="?", scancode=0))
    frames(app)
    note = scene.snapshot().coach
    hint = peg_hint(scene.seen)
    assert hint is not None and note is not None
    assert note.title == f"Coach: lay {hint.card}" and note.why == hint.why and note.why.startswith(f"Lay {hint.card}:")
    assert hinted(scene) == {str(hint.card)}
    assert scene.session.hints == 1 and marks(tmp_path)["hints"] == 1
    post_key(pygame.K_RIGHT)
    post_key(pygame.K_RETURN)  # a card laid: the position moved on, the hint is put away
    frames(app, 3)
    assert scene.snapshot().coach is None


def test_hints_off_are_refused_in_words(app: App, tmp_path: Path) -> None:
    app.prefs.hints = False
    scene = at_table(app, CribbageTable.new(13))
    post_key(pygame.K_i)
    frames(app)
    assert scene.snapshot().coach is None and "Hints are off in the settings" in scene.snapshot().prompt
    assert scene.session.hints == 0


def test_the_hint_limit_is_kept(app: App, tmp_path: Path) -> None:
    app.prefs.hint_limit = 2
    table = CribbageTable.new(14)
    table.hints = 1  # one asked before the game was saved and opened again
    scene = at_table(app, table)
    post_key(pygame.K_i)
    frames(app)
    assert scene.session.hints == 2 and "Hint 2 of the 2" in scene.snapshot().prompt
    app.prefs.hint_limit = 1
    scene.coach.dismiss()
    scene.coach.counted.clear()  # as in a position of its own
    post_key(pygame.K_i)
    frames(app)
    assert scene.session.hints == 2 and "used this game's 1 hint" in scene.snapshot().prompt
    assert scene.snapshot().coach is None


def test_the_hints_are_stored_with_the_game_in_the_history(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.record_cribbage(played(4), 0, "hard", (0, 3))
    store.record_cribbage(played(5), 0, "hard")
    again = Store(tmp_path)  # read back from the database
    found = {g.seed: g.cribbage.hints for g in again.history.games()}
    assert found == {played(4).seed: 3, played(5).seed: 0}
    shown = [cribbage_marks(g) for g in again.history.games()]
    assert any(m.endswith("3 hints") for m in shown)


def test_the_session_takes_its_hints_into_the_history(tmp_path: Path) -> None:
    kept: list[tuple[int, int]] = []

    class Keeper:
        def save(self, table: CribbageTable) -> bool:
            return True

        def record(self, game: FinishedCribbage) -> None:
            kept.append(game.marks)

    state = played(3)
    table = CribbageTable(state, 0, "medium")
    session = CribbageSession(table, keeper=Keeper())
    assert session.count_hint() == 1 and session.count_hint() == 2 and session.hints == 2
    session.finish()
    assert kept == [(0, 2)]  # the undos and hints of undo's marks (issue 32)


def test_the_advice_stays_while_the_bot_chooses_and_goes_once_you_discard(app: App, tmp_path: Path) -> None:
    scene = at_table(app, CribbageTable.new(6, "hard"))  # you deal: the bot lays its crib cards first
    post_key(pygame.K_i)
    frames(app, 6)
    note = scene.snapshot().coach
    assert note is not None and scene.seen.phase is Phase.DISCARD and scene.session.hints == 1
    for card in note.cards:  # the pair ringed, chosen and laid away
        post_key(pygame.K_RIGHT)
        frames(app)
        while str(scene.hand[scene.cards.cursor or 0]) != str(card):
            post_key(pygame.K_RIGHT)
            frames(app)
        post_key(pygame.K_SPACE)
        frames(app)
        scene.cards.cursor = None
    assert {str(c) for c in scene.cards.chosen} == {str(c) for c in note.cards}
    post_key(pygame.K_RETURN)
    frames(app, 4)
    assert scene.seen.discards == note.cards or set(scene.seen.discards) == set(note.cards)
    assert scene.snapshot().coach is None and not hinted(scene)


def test_the_pegging_hint_under_muggins_in_the_play_while_you_may_call(tmp_path: Path) -> None:
    """Issue 44, defect 17: under muggins in the play, with the bot's card said aloud and yours to answer,
    the hint said "No card of yours fits: say Go" though cards fit (it read the moves of the answer, not
    the cards you may lay once you let it stand). It names a card of yours that fits."""
    from cribtiles.cribbage.options import CribbageOptions
    from cribtiles.table.cribbage.table import CribbageTable
    from tests.ui.cribbage.test_scene import at_table, drive, frames, open_app

    app = open_app(tmp_path)
    try:
        table = CribbageTable.new(1, options=CribbageOptions(play_muggins=True))
        scene = at_table(app, drive(table, "discard 8D 9H", "discard AD AH", "play 7S 0", "no muggins", "play 8H 1"))
        assert table.state.claim is not None and table.person_to_move  # the bot's 8H said aloud, count 15
        post_key(pygame.K_i)
        frames(app)
        note = scene.coach.note
        assert not scene.message.startswith("No card"), scene.message
        assert note is not None and len(note.cards) == 1
        assert note.cards[0] in {m.card for m in table.legal_after_answer(table.person) if hasattr(m, "card")}
    finally:
        app.close()
