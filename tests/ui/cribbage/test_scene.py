"""The cribbage table driven by posted events headless: the title's Cribbage, discarding by mouse (clicks
and drags) and keys, the play (a refusal explained, Go), the bot polled until it moves, the show step
by step with a combination lit, a whole seeded game to its end, the autosave resumed, a damaged one."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.cribbage import CribbageOptions, parse_card, parse_move
from cribtiles.cribbage.moves import Go
from cribtiles.cribbage.options import Phase
from cribtiles.table import Seat
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.cribbage.layout import ButtonKind
from cribtiles.ui.cribbage.paint import line_rects
from cribtiles.ui.cribbage.pilot import CribbagePilot
from cribtiles.ui.cribbage.scene import CribbageScene, Mode
from cribtiles.ui.cribbage.setup import CribbageSetupScene
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import post_click, post_drag, post_key
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App
from tests.ui.cribbage import table_of

#: Frames a test waits, at most, for the bot (it answers in milliseconds; the cap only stops a hung test).
PATIENCE = 3000


def frames(app: App, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def until(app: App, done: Callable[[], bool]) -> None:
    """Run frames until `done()`: the bot thinks in a thread, so its move is polled, never assumed."""
    for _ in range(PATIENCE):
        if done():
            return
        app.frame(1 / 60)
    assert done(), "the table did not get there"


def open_app(folder: Path, size: tuple[int, int] = (1280, 800)) -> App:
    tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    store = Store(folder)
    app = App(tiles, Preferences(speed="instant", tutorial_offered=True), store, size=size, title=True)
    frames(app)
    return app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = open_app(tmp_path)
    yield a
    a.close()


def at_table(app: App, table: CribbageTable) -> CribbageScene:
    """`table` saved as the game in play, then opened from the title with K."""
    app.keeper.save_cribbage(table)
    post_key(pygame.K_k)
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageScene)
    return scene


def drive(table: CribbageTable, *moves: str) -> CribbageTable:
    for text in moves:
        move = parse_move(text)
        if table.person_to_move:
            table.play(move)
        else:
            table.play_bot(move)
    return table


def saved_moves(folder: Path) -> list[str]:
    return json.loads((folder / "cribbage.json").read_text())["record"]["moves"]  # type: ignore[no-any-return]


def card_centre(scene: CribbageScene, text: str) -> tuple[int, int]:
    i = [str(c) for c in scene.hand].index(text)
    return centre(scene.hand_rects()[i])


def button_centre(scene: CribbageScene, kind: ButtonKind) -> tuple[int, int]:
    found = [b for b in scene.snapshot().buttons if b.kind is kind]
    assert found, f"no {kind.value} button now"
    return centre(found[0].rect)


def reach(seed: int, wanted: Callable[[CribbageTable], bool]) -> CribbageTable:
    """A table of `seed` played (your first legal move, the bot's own) until `wanted` holds, your turn."""
    table = CribbageTable.new(seed)
    while not (table.person_to_move and wanted(table)):
        assert not table.is_over, "the game ended before the moment wanted"
        if table.person_to_move:
            table.play(table.state.legal_actions()[0])
        else:
            table.bot_move()
    table.take_pending()
    return table


# --- the way in ---


def test_the_choice_offers_the_expert_bot_after_hard(app: App) -> None:
    post_key(pygame.K_k)
    frames(app)
    setup = app.scenes[-1]
    assert isinstance(setup, CribbageSetupScene) and setup.level == "medium"
    post_key(pygame.K_RIGHT)
    post_key(pygame.K_RIGHT)
    frames(app)
    assert setup.level == "expert" and setup.menu.items[0].label == "Bot: Expert"
    post_key(pygame.K_RIGHT)  # round again to the first level
    frames(app)
    assert setup.level == "easy"


def test_the_title_opens_the_choice_which_deals_a_game_saved_at_once(app: App, tmp_path: Path) -> None:
    title = app.scenes[-1]
    assert isinstance(title, TitleScene) and "Cribbage" in [i.label for i in title.menu.items]
    post_key(pygame.K_k)
    frames(app)
    setup = app.scenes[-1]
    assert isinstance(setup, CribbageSetupScene) and setup.level == "medium" and not setup.muggins
    assert [i.label for i in setup.menu.items][2] == "Muggins in the play: off"  # off unless chosen
    post_key(pygame.K_RIGHT)  # the bot: Hard
    post_key(pygame.K_DOWN)
    post_key(pygame.K_RETURN)  # counting by hand
    post_key(pygame.K_RETURN)  # muggins
    post_key(pygame.K_DOWN)
    post_key(pygame.K_RIGHT)  # muggins in the play on
    frames(app)
    assert [i.label for i in setup.menu.items][1:3] == ["Counting: muggins", "Muggins in the play: on"]
    post_key(pygame.K_s)  # start
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageScene)
    assert table_of(scene).level == "hard" and table_of(scene).options == CribbageOptions(
        muggins=True, play_muggins=True
    )
    saved = json.loads((tmp_path / "cribbage.json").read_text())
    assert saved["record"]["options"] == {"muggins": True, "play_muggins": True, "target": 121, "end_on_answer": True}
    assert saved["seats"][1]["level"] == "hard" and saved["record"]["moves"] == list(
        table_of(scene).state.log
    )  # the bot may have discarded
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes[-1] is title
    post_key(pygame.K_k)  # unfinished: straight back to the table
    frames(app)
    again = app.scenes[-1]
    assert isinstance(again, CribbageScene)
    before, after = table_of(scene).state, table_of(again).state
    # the same deal, gone on from where it was left: the bot's discard, if still being thought over when
    # the table was left, may have landed in the save and be made again at the table opened again
    assert after.log[: len(before.log)] == before.log and after.hands[0] == before.hands[0]
    assert after == before or (len(after.log) > len(before.log) and after.hands[1] != before.hands[1])


# --- the discard ---


def test_two_cards_clicked_then_discard_lays_them_and_the_bot_follows(app: App, tmp_path: Path) -> None:
    scene = at_table(app, CribbageTable.new(1))  # you: AC 2S 4C 7S 8D 9H, the bot deals
    post_click(card_centre(scene, "8D"))
    frames(app)
    post_click(card_centre(scene, "9H"))
    frames(app)
    assert [str(c) for c in scene.cards.chosen] == ["8D", "9H"]
    assert "Lay 8D and 9H in its crib" in scene.snapshot().prompt
    post_click(button_centre(scene, ButtonKind.DISCARD))
    frames(app)
    assert table_of(scene).state.log[0] == "discard 8D 9H" and scene.cards.chosen == []
    until(app, lambda: table_of(scene).state.phase is Phase.PLAY)  # the bot has laid its two
    assert len(saved_moves(tmp_path)) == 2  # saved after each move
    assert [str(c) for c in scene.hand] == ["AC", "2S", "4C", "7S"]


def test_you_deal_and_lay_your_crib_cards_while_the_bot_still_chooses_its_own(tmp_path: Path) -> None:
    """Issue 44 (defect 11): the bot is asked first, but you need not wait for it. At the normal pace the
    bot lays its cards half a second after it is asked: before then your two are chosen under a prompt
    that says Enter or Discard over a lit button, laid at once, and the prompt says who is still
    choosing; the game, once the bot has laid its own, is the one where you waited."""
    tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(tiles, Preferences(speed="normal", tutorial_offered=True), Store(tmp_path), size=(1280, 800), title=True)
    try:
        frames(app)
        scene = at_table(app, CribbageTable.new(6))  # you deal: 3H 4H 6C 9C TD KS
        assert scene.bots_turn and scene.may_lay_away and not table_of(scene).state.log
        post_click(card_centre(scene, "3H"))
        post_click(card_centre(scene, "4H"))
        frames(app, 1)
        snap = scene.snapshot()
        assert snap.prompt == "Lay 3H and 4H in your crib: Enter or Discard."
        assert [b.enabled for b in snap.buttons if b.kind is ButtonKind.DISCARD] == [True]
        post_click(button_centre(scene, ButtonKind.DISCARD))
        frames(app, 1)
        table = table_of(scene)
        assert table.state.log == () and table.ahead == {0: parse_move("discard 3H 4H")}  # the bot's still to come
        assert [str(c) for c in scene.hand] == ["6C", "9C", "TD", "KS"] and scene.seen.discarded_by == (True, False)
        assert scene.snapshot().prompt == "The Medium bot is choosing its crib cards..."
        assert scene.snapshot().buttons[0].kind is ButtonKind.DISCARD and not scene.snapshot().buttons[0].enabled
        post_click(card_centre(scene, "6C"))
        frames(app, 1)
        assert scene.message == "Your crib cards are laid already." and scene.cards.chosen == []
        until(app, lambda: table_of(scene).state.phase is Phase.PLAY)
        waited = CribbageTable.new(6)
        waited.bot_move()
        waited.play(parse_move("discard 3H 4H"))
        assert table_of(scene).state == waited.state and table_of(scene).ahead == {}
    finally:
        app.close()


def test_cards_dragged_to_the_crib_are_chosen_and_enter_lays_them(app: App) -> None:
    scene = at_table(app, CribbageTable.new(1))
    lay = scene.layout
    post_drag(card_centre(scene, "AC"), centre(lay.crib))
    frames(app)
    post_click(button_centre(scene, ButtonKind.DISCARD))  # one card is not enough: said in words
    frames(app)
    assert table_of(scene).state.log == () and "a second card" in scene.snapshot().prompt
    post_drag(card_centre(scene, "2S"), centre(lay.crib))
    frames(app)
    assert {str(c) for c in scene.cards.chosen} == {"AC", "2S"}
    post_key(pygame.K_RETURN)
    frames(app)
    assert table_of(scene).state.log[0] == "discard AC 2S"


def test_the_keys_choose_and_lay_the_crib_cards(app: App) -> None:
    scene = at_table(app, CribbageTable.new(1))
    post_key(pygame.K_RIGHT)  # the first card
    post_key(pygame.K_SPACE)
    post_key(pygame.K_RIGHT)
    post_key(pygame.K_SPACE)
    frames(app)
    assert [str(c) for c in scene.cards.chosen] == ["AC", "2S"] and scene.snapshot().sprites
    post_key(pygame.K_RETURN)
    frames(app)
    assert table_of(scene).state.log[0] == "discard AC 2S"


# --- the play ---


def over_31(table: CribbageTable) -> bool:
    """Your turn in the play, one card of yours too big for the count and another that fits."""
    state = table.state
    values = [c.value + state.count for c in state.hands[table.person]]
    return state.phase is Phase.PLAY and any(v > 31 for v in values) and any(v <= 31 for v in values)


def test_a_card_over_31_is_refused_in_words_and_a_card_dragged_to_the_play_is_laid(app: App) -> None:
    table = reach(1, over_31)
    count = table.state.count
    hand = table.state.hands[0]
    too_big = next(c for c in hand if c.value + count > 31)
    fits = next(c for c in hand if c.value + count <= 31)
    scene = at_table(app, table)
    post_click(card_centre(scene, str(too_big)))
    frames(app)
    snap = scene.snapshot()
    assert snap.prompt_error and f"would make it {count + too_big.value}, over 31" in snap.prompt
    assert snap.count == count
    assert any(s.card == too_big and s.dim for s in snap.sprites)  # drawn dimmed: it cannot be played
    before = len(table_of(scene).state.log)
    post_drag(card_centre(scene, str(fits)), centre(scene.layout.play))
    frames(app)
    assert table_of(scene).state.log[before] == f"play {fits}"


def test_go_is_said_with_its_button_when_no_card_fits(app: App) -> None:
    table = reach(2, lambda t: Go() in t.state.legal_actions())
    scene = at_table(app, table)
    assert "say Go" in scene.snapshot().prompt
    before = len(table_of(scene).state.log)
    post_click(button_centre(scene, ButtonKind.GO))
    frames(app)
    assert table_of(scene).state.log[before] == "go"


def test_the_bot_is_polled_until_it_lays_its_card_and_the_score_is_explained(app: App) -> None:
    # seed 1: you lead 7S after the discards, the bot has 8H for fifteen two
    scene = at_table(app, drive(CribbageTable.new(1), "discard 8D 9H", "discard AD AH"))
    post_click(card_centre(scene, "7S"))
    frames(app)
    until(app, lambda: len(table_of(scene).state.log) >= 4)
    snap = scene.snapshot()
    assert snap.count == table_of(scene).state.count
    lines = [(line.text, line.right) for line in snap.lines]
    assert ("You played 7S: the count is 7.", "") in lines
    assert snap.pegs[1].number == table_of(scene).state.scores[1]
    if table_of(scene).state.log[3] == "play 8H":  # the Medium bot takes the fifteen it sees
        assert ("fifteen two", "+2") in lines and snap.pegs[1].number == 2


# --- the show ---


def test_the_show_is_counted_step_by_step_and_a_combination_is_lit_when_pointed_at(app: App) -> None:
    moves = ("discard 8D 9H", "discard AD AH", "play 7S", "play 8H", "play 4C", "play 9D", "play AC", "go")
    table = drive(CribbageTable.new(1), *moves, "play 2S", "play 7D")
    scene = at_table(app, table)
    until(app, lambda: scene.holding)  # the bot lays its last card, 6C: the play's end stays in sight
    snap = scene.snapshot()
    assert scene.mode is Mode.PLAY and snap.count == 13 and snap.count_words == "the last count"
    assert ("last card for one", "+1") in [(line.text, line.right) for line in snap.lines]
    assert {str(s.card) for s in snap.sprites if s.card is not None} >= {"7D", "6C"}
    post_key(pygame.K_RETURN)
    frames(app)
    assert scene.mode is Mode.SHOW and "Count your hand" in scene.snapshot().prompt
    post_key(pygame.K_RETURN)  # your hand: AC 2S 4C 7S with QC, one fifteen
    frames(app)
    assert len(table_of(scene).counted) == 1 and table_of(scene).state.scores[0] == 4
    assert "the Medium bot counts its hand" in scene.snapshot().prompt
    frames(app, 5)
    assert len(table_of(scene).counted) == 1  # the bot's count waits for you to go on
    post_click(button_centre(scene, ButtonKind.GO_ON))
    until(app, lambda: len(table_of(scene).counted) == 2)
    frames(app)
    snap = scene.snapshot()
    texts = [line.text for line in snap.lines]
    assert texts[:2] == ["The show", "The Medium bot's hand"] and "run of four" in texts
    run = texts.index("run of four")
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=centre(line_rects(scene.layout, snap.lines)[run]), rel=(0, 0), buttons=(0, 0, 0)
        )
    )
    frames(app)
    lit = {str(s.card) for s in scene.snapshot().sprites if s.lit}
    assert lit == {"6C", "7D", "8H", "9D"}
    post_key(pygame.K_RETURN)
    until(app, lambda: scene.holding)  # the crib counted, the next deal dealt: the show stays in sight
    assert scene.mode is Mode.SHOW and table_of(scene).state.deal_number == 2
    assert [str(c) for c in scene.hand] == ["AC", "2S", "4C", "7S"]
    post_key(pygame.K_RETURN)
    frames(app)
    assert scene.mode is Mode.DISCARD and len(scene.hand) == 6


FIRST_PLAY = ("discard 8D 9H", "discard AD AH", "play 7S", "play 8H", "play 4C", "play 9D", "play AC", "go")


def test_under_muggins_your_count_starts_empty_and_the_bot_calls_what_you_missed(app: App) -> None:
    table = CribbageTable.new(1, "hard", options=CribbageOptions(muggins=True))  # Hard never lets a miss stand
    scene = at_table(app, drive(table, *FIRST_PLAY, "play 2S", "play 7D", "play 6C"))
    assert scene.holding  # the play's end, in sight until you go on
    post_key(pygame.K_RETURN)
    frames(app)
    assert scene.snapshot().number == ""  # nothing typed: Enter alone does not say 0
    post_key(pygame.K_RETURN)
    frames(app)
    assert table_of(scene).state.log[-1] == "play 6C" and scene.message.startswith("Type your count first")
    post_key(pygame.K_1)  # the hand makes 2; you say 1
    post_click(button_centre(scene, ButtonKind.MORE))
    post_click(button_centre(scene, ButtonKind.LESS))
    frames(app)
    assert scene.snapshot().number == "1"
    post_key(pygame.K_RETURN)
    frames(app)
    assert table_of(scene).state.log[-1] in ("count 1", "muggins") and table_of(scene).state.scores[0] == 3
    until(app, lambda: table_of(scene).state.log[-1] == "muggins")  # the bot answers without waiting for you
    assert table_of(scene).state.scores[1] == 4  # 3 from the play and the 1 you missed
    announced = "Hard bot called muggins on your hand: 1 said, it makes 2: 1 missed, 1 to it."
    assert scene.snapshot().prompt == announced
    assert any(line.text == "said 1: 1 missed, muggins called by the Hard bot" for line in scene.snapshot().lines)


def test_counting_by_hand_is_chosen_on_the_setup_and_a_wrong_count_is_corrected_with_nothing_lost(
    app: App, tmp_path: Path
) -> None:
    post_key(pygame.K_k)
    frames(app)
    setup = app.scenes[-1]
    assert isinstance(setup, CribbageSetupScene) and setup.menu.items[1].label == "Counting: by the table"
    post_key(pygame.K_DOWN)
    post_key(pygame.K_RIGHT)  # by hand
    frames(app)
    assert setup.menu.items[1].label == "Counting: by hand" and "no points lost" in setup.menu.note()
    post_key(pygame.K_s)
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageScene) and table_of(scene).options == CribbageOptions(manual_count=True)
    assert json.loads((tmp_path / "cribbage.json").read_text())["record"]["options"]["manual_count"] is True
    app.close_top()  # the table; the same game dealt at seed 1 instead, opened from the title
    scene = at_table(app, drive(CribbageTable.new(1, options=CribbageOptions(manual_count=True)), *FIRST_PLAY))
    drive(table_of(scene), "play 2S", "play 7D", "play 6C")
    frames(app)
    post_key(pygame.K_RETURN)  # past the play's end
    frames(app)
    assert "type the points" in scene.snapshot().prompt and scene.snapshot().number == ""
    post_key(pygame.K_5)  # the hand makes 2; you say 5
    post_key(pygame.K_RETURN)
    frames(app)
    table = table_of(scene)
    assert table.state.log[-1] == "count 5" and table.state.claim is None
    assert table.state.scores[0] == 2 + 2  # the 2 pegged in the play and the hand's 2, not the 5 said
    lines = [line.text for line in scene.snapshot().lines]
    assert "said 5: corrected to 2, no points lost" in lines and "fifteen" in lines
    assert any("but it makes 2 (fifteens 2): 2 pegged" in h.words for h in table.story)


def bot_said_six(app: App) -> CribbageScene:
    """Seed 1 under muggins: you counted your 2, the Medium bot says its hand (it makes 8) makes 6."""
    table = CribbageTable.new(1, options=CribbageOptions(muggins=True))
    drive(table, *FIRST_PLAY, "play 2S", "play 7D", "play 6C", "count 2", "no muggins", "count 6")
    scene = at_table(app, table)
    assert not scene.holding and table_of(scene).call_open_to_person is not None
    return scene


def test_you_call_muggins_on_the_bots_miscount_with_m_and_it_is_announced(app: App) -> None:
    scene = bot_said_six(app)
    snap = scene.snapshot()
    assert snap.prompt == "The Medium bot says its hand makes 6: M calls muggins, Enter lets it stand."
    assert [b.kind for b in snap.buttons if b.kind is not ButtonKind.UNDO] == [ButtonKind.MUGGINS, ButtonKind.LET_GO]
    texts = [line.text for line in snap.lines]
    assert texts[1:4] == ["The Medium bot's hand", "said 6: waiting for your answer", "Your hand"]  # nothing more
    assert [line.right for line in snap.lines if line.text == "The Medium bot's hand"] == ["6"]
    before = table_of(scene).state.scores
    post_key(pygame.K_m)
    frames(app)
    assert table_of(scene).state.log[-1] == "muggins" and table_of(scene).state.scores == (before[0] + 2, before[1])
    snap = scene.snapshot()
    assert snap.prompt == "You called muggins on the Medium bot's hand: 6 said, it makes 8: 2 missed, 2 to you."
    texts = [line.text for line in snap.lines]
    assert texts[1:3] == ["The Medium bot's hand", "fifteen"] and "said 6: 2 missed, muggins called by you" in texts


def test_the_muggins_button_calls(app: App) -> None:
    scene = bot_said_six(app)
    post_click(button_centre(scene, ButtonKind.MUGGINS))
    frames(app)
    assert table_of(scene).state.log[-1] == "muggins" and scene.snapshot().prompt.startswith("You called muggins")


def test_enter_lets_the_bots_count_stand(app: App) -> None:
    scene = bot_said_six(app)
    post_key(pygame.K_RETURN)
    frames(app)
    assert table_of(scene).state.log[-1] == "no muggins" and table_of(scene).state.claim is None
    assert any(line.text == "said 6: 2 missed, let stand" for line in scene.snapshot().lines)


def test_with_muggins_in_the_play_you_call_the_bots_card_and_say_what_yours_scores(app: App) -> None:
    table = CribbageTable.new(1, options=CribbageOptions(play_muggins=True))
    scene = at_table(app, drive(table, "discard 8D 9H", "discard AD AH", "play 7S 0", "no muggins", "play 8H 1"))
    snap = scene.snapshot()
    assert snap.prompt == "The Medium bot said 1 for its 8H: M calls muggins; playing on lets it stand."
    kinds = [b.kind for b in snap.buttons if b.kind is not ButtonKind.UNDO]  # Undo beside them (issue 32)
    assert kinds == [ButtonKind.MUGGINS, ButtonKind.LESS, ButtonKind.MORE, ButtonKind.GO]
    assert snap.number == ""
    hand = {sp.card: sp.dim for sp in snap.sprites if sp.card in scene.hand}
    assert hand == {parse_card(c): False for c in ("AC", "2S", "4C")}  # each may be laid: it lets the 8H stand
    post_key(pygame.K_m)
    frames(app)
    assert table_of(scene).state.log[-1] == "muggins" and table_of(scene).state.scores == (1, 1)
    assert scene.snapshot().prompt.startswith("You called muggins on the Medium bot's card: 1 said, it makes 2")
    scene.message = ""
    post_key(pygame.K_3)
    post_key(pygame.K_BACKSPACE)  # nothing typed again: the card says 0
    frames(app)
    assert scene.snapshot().number == ""
    post_click(card_centre(scene, "4C"))  # 19: nothing
    frames(app)
    assert "play 4C 0" in table_of(scene).state.log
    until(app, lambda: table_of(scene).state.log[-1] != "play 4C 0")  # the bot answers: a right score stands
    assert table_of(scene).state.log[-1] == "no muggins"


# --- a whole game, the end, the saves ---


def test_a_whole_seeded_game_is_played_through_posted_events_to_its_end(app: App, tmp_path: Path) -> None:
    scene = at_table(app, CribbageTable.new(77, "hard"))
    pilot = CribbagePilot(scene, "medium", seed=77)
    for _ in range(20 * PATIENCE):
        if scene.ended:
            break
        pilot.step()
        frames(app, 2)
    assert scene.ended and table_of(scene).is_over and pilot.steps > 40
    summary = table_of(scene).summary()
    assert summary is not None and max(summary.scores) == 121
    snap = scene.snapshot()
    assert snap.end == summary
    history = app.keeper.past_games()  # recorded once, at its end
    assert [(g.game, g.seed, g.opponent, g.person, g.scores) for g in history] == [
        ("cribbage", 77, "hard", 0, summary.scores)
    ]
    assert saved_moves(tmp_path) == list(table_of(scene).state.log)
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert isinstance(app.scenes[-1], TitleScene)
    post_key(pygame.K_k)  # a finished game: the choice, offering its level
    frames(app)
    setup = app.scenes[-1]
    assert isinstance(setup, CribbageSetupScene) and setup.level == "hard"


def test_a_whole_game_with_muggins_both_ways_is_played_through_posted_events(app: App, tmp_path: Path) -> None:
    options = CribbageOptions(muggins=True, play_muggins=True)
    scene = at_table(app, CribbageTable.new(12, "easy", options))
    pilot = CribbagePilot(scene, "easy", seed=12)  # you count as Easy does: now and then a point short
    for _ in range(40 * PATIENCE):
        if scene.ended:
            break
        pilot.step()
        frames(app, 2)
    state = table_of(scene).state
    assert scene.ended and state.is_over and saved_moves(tmp_path) == list(state.log)
    assert any(m.startswith("count ") for m in state.log) and any(len(m.split()) == 3 for m in state.log)
    answers = [m for m in state.log if m in ("muggins", "no muggins")]
    assert "muggins" in answers and answers.count("no muggins") > 20  # every score said aloud was answered
    assert [(g.seed, g.opponent, g.cribbage.muggins) for g in app.keeper.past_games()] == [(12, "easy", True)]


def test_a_game_resumes_from_its_autosave_in_a_new_window(tmp_path: Path) -> None:
    app = open_app(tmp_path)
    try:
        scene = at_table(app, CribbageTable.new(1))
        post_click(card_centre(scene, "8D"))
        post_click(card_centre(scene, "9H"))
        post_key(pygame.K_RETURN)
        until(app, lambda: table_of(scene).state.phase is Phase.PLAY)
        post_click(card_centre(scene, "7S"))
        until(app, lambda: len(table_of(scene).state.log) >= 4)
        state = table_of(scene).state
    finally:
        app.close()
    again = open_app(tmp_path)
    try:
        post_key(pygame.K_k)
        frames(again)
        scene = again.scenes[-1]
        assert isinstance(scene, CribbageScene) and table_of(scene).state == state
        assert [p.number for p in scene.snapshot().pegs] == list(state.scores)
    finally:
        again.close()


def test_a_resumed_game_shows_the_back_peg_at_the_score_before_the_last_move(tmp_path: Path) -> None:
    moves = ("discard 8D 9H", "discard AD AH", "play 7S", "play 8H", "play 4C", "play 9D", "play AC", "go")
    table = drive(CribbageTable.new(1), *moves, "play 2S", "play 7D", "play 6C", "count", "count")
    app = open_app(tmp_path)
    try:
        app.keeper.save_cribbage(table)  # the bot's hand, 8 in three items, took it from 3 to 11
    finally:
        app.close()
    again = open_app(tmp_path)
    try:
        post_key(pygame.K_k)
        frames(again)
        scene = again.scenes[-1]
        assert isinstance(scene, CribbageScene)
        assert [(p.back, p.number) for p in scene.snapshot().pegs] == [(2, 4), (3, 11)]
    finally:
        again.close()


def test_a_damaged_autosave_is_set_aside_with_a_message_and_a_new_game_can_begin(app: App, tmp_path: Path) -> None:
    (tmp_path / "cribbage.json").write_text('{"format": "cribtiles cribbage table", "version": 1, "person": 0')
    post_key(pygame.K_k)
    frames(app)
    setup = app.scenes[-1]
    assert isinstance(setup, CribbageSetupScene)
    assert setup.notice.startswith("The saved cribbage game could not be used (it is not valid JSON")
    assert not (tmp_path / "cribbage.json").exists()
    assert len(list(tmp_path.glob("cribbage.damaged-*.json"))) == 1
    post_key(pygame.K_s)
    frames(app)
    assert isinstance(app.scenes[-1], CribbageScene) and (tmp_path / "cribbage.json").exists()


def test_n_offers_a_new_game_over_the_table_and_escape_returns_to_it_untouched(app: App) -> None:
    scene = at_table(app, CribbageTable.new(1))
    post_click(card_centre(scene, "8D"))
    post_key(pygame.K_n)
    frames(app)
    setup = app.scenes[-1]
    assert isinstance(setup, CribbageSetupScene) and setup.replace_table
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes[-1] is scene and [str(c) for c in scene.cards.chosen] == ["8D"]
    post_key(pygame.K_n)
    post_key(pygame.K_s)
    frames(app)
    fresh = app.scenes[-1]
    assert isinstance(fresh, CribbageScene) and fresh is not scene and table_of(fresh).state.seed != 1
    assert isinstance(app.scenes[-2], TitleScene)  # the old table is gone: Escape goes to the title


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800)])
def test_the_table_draws_at_both_sizes_and_a_frame_without_change_sends_nothing(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = open_app(tmp_path, size)
    try:
        scene = at_table(app, CribbageTable.new(3))
        frames(app)
        assert scene.draw(app.screen) == []  # nothing moved since the last frame
        assert scene.draw(app.screen, full=True) is None
        assert scene.layout.width == size[0]
        assert app.screen.get_at(centre(scene.hand_rects()[0]))[:3] != app.screen.get_at((2, 2))[:3]
    finally:
        app.close()


def test_a_card_clicked_while_the_bot_is_to_play_is_not_played_and_says_why(app: App) -> None:
    app.keeper.save_cribbage(drive(CribbageTable.new(1), "discard 8D 9H", "discard AD AH", "play 7S"))
    post_key(pygame.K_k)
    frames(app, 1)  # the table opens and asks the bot, which answers at the earliest in the next frame
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageScene) and table_of(scene).bot_to_move
    post_click(card_centre(scene, "4C"))
    frames(app, 1)
    assert scene.message == "Wait: the Medium bot is to play." and "play 4C" not in table_of(scene).state.log
    until(app, lambda: len(table_of(scene).state.log) == 4)


def test_the_window_title_carries_the_cribbage_score_while_cribbage_is_shown(app: App) -> None:
    """The title (the task bar's score) was the tile game's even at the cribbage table."""
    tiles_title = pygame.display.get_caption()[0]
    assert tiles_title.startswith("Crib Tiles — You 0")
    table = reach(3, lambda t: min(t.state.scores) > 0)
    scene = at_table(app, table)
    you, bot = table.state.scores[scene.person], table.state.scores[1 - scene.person]
    assert pygame.display.get_caption()[0] == f"Crib Tiles — Cribbage — You {you} · Medium bot {bot}"
    app.back_to_game()
    frames(app)
    you, medium = app.session.table.state.final_scores()  # the tile game's bot may have moved meanwhile
    assert pygame.display.get_caption()[0] == f"Crib Tiles — You {you} · Medium {medium}"


def test_a_game_saved_while_the_play_s_end_is_held_resumes_with_it_held(app: App) -> None:
    """The end of a play stays in sight until you go on; a game saved then (the table saves every
    move) came back straight at the show, the play's last count and points unseen."""
    moves = ("discard 8D 9H", "discard AD AH", "play 7S", "play 8H", "play 4C", "play 9D", "play AC", "go")
    table = drive(CribbageTable.new(1), *moves, "play 2S", "play 7D", "play 6C")
    assert table.state.phase is Phase.SHOW and table.state.show_step == 0  # the bot's last card laid
    scene = at_table(app, table)
    assert scene.holding and scene.mode is Mode.PLAY and scene.snapshot().count_words == "the last count"
    post_key(pygame.K_RETURN)
    frames(app)
    assert not scene.holding and scene.mode is Mode.SHOW
    fresh = at_table(app, drive(CribbageTable.new(1), "discard 8D 9H"))
    assert not fresh.holding  # nothing to hold in the middle of a deal
