"""What the table always shows: the rules in force and a match's round and running totals (a strip under
the status line, at every window size), the match totals on the peg board at a click, the help that says
what this game's options allow, who starts beside (never over) the first breakdown, disabled buttons that
look disabled, Ctrl+N offering the game at the table, and an end card that Enter does not skip unread."""

from __future__ import annotations

import pygame
import pytest

from cribtiles.rules import new_game
from cribtiles.rules.options import RuleOptions
from cribtiles.table import Seat, parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui import art
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import Layout, centre
from cribtiles.ui.paint import CREAM, DISABLED_FILL, DISABLED_TEXT, _button_surface
from cribtiles.ui.tiles import endcard
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.end_scene import RESULT_GUARD, EndScene
from cribtiles.ui.tiles.help_text import with_opening
from cribtiles.ui.tiles.newgame import NewGameScene
from cribtiles.ui.tiles.panel import info_rows, peg_number, peg_offsets
from cribtiles.ui.tiles.table import TableView
from cribtiles.ui.tiles.table_line import match_words, rules_line, rules_words, text_size
from cribtiles.ui.window import App
from tests.ui.test_match_end import play_round


def frames(app: App, n: int = 3, dt: float = 1 / 60) -> None:
    for _ in range(n):
        app.frame(dt)


def panel_text(app: App) -> str:
    return " ".join(r.left for r in info_rows(app.game.snapshot()))


def round_two() -> Table:
    """A match of three rounds (you, Hard, Easy; Joker, exchanges at any time) in its second round."""
    options = RuleOptions.parse("rounds=3,joker=on,exchange=any-time")
    table = Table.new(parse_players("You,hard,easy"), options, seed=5)
    play_round(table)
    table.next_round()
    return table


@pytest.mark.parametrize("size", [(960, 640), (1024, 640), (1280, 800), (1920, 1200)])
def test_the_rules_strip_sits_between_the_status_and_the_panel_and_its_words_fit(size: tuple[int, int]) -> None:
    pygame.font.init()
    lay = Layout.of(*size)
    sx, sy, sw, sh = lay.status
    x, y, w, h = lay.rules_line
    assert (x, w) == (sx, sw) and y >= sy + sh and y + h <= lay.info[1]  # nothing overlaps it
    from cribtiles.ui.tiles.declare import joker_rect

    assert joker_rect(lay)[1] + joker_rect(lay)[3] <= y  # nor the Joker button in the status row
    size_px = max(12, round(lay.height * 0.0185))
    every = RuleOptions.parse("joker=on,exchange=any-time,start=high,mode=solitaire")
    line = rules_line(every, size_px, w)
    assert art.font(size_px).size(line)[0] <= w and "Solitaire" in line and "any time" in line
    assert 2 * round(size_px * 1.0) <= h + 4  # two lines of text have room


def test_a_match_in_round_two_shows_the_round_the_running_totals_and_the_rules() -> None:
    table = round_two()
    totals = table.match.totals
    assert totals != (0, 0, 0)
    app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        frames(app)
        snap = app.game.snapshot()
        now = tuple(t + s for t, s in zip(totals, snap.state.scores, strict=True))
        assert match_words(snap) == f"Round 2 of 3 · match totals: You {now[0]} · Hard {now[1]} · Easy {now[2]}"
        assert rules_words(snap.state.options) == ("Joker rule", "exchange any time", "lowest tile starts")
        assert rules_line(snap.state.options, text_size(snap), snap.layout.rules_line[2]) == (
            "Rules: Joker rule · exchange any time · lowest tile starts"
        )
        surf = pygame.Surface(app.screen.get_size())
        TableView().draw(surf, snap, full=True)
        x, y, w, h = snap.layout.rules_line
        cream = sum(1 for px in range(x, x + w) for py in range(y, y + h) if tuple(surf.get_at((px, py)))[:3] == CREAM)
        assert cream > 100  # the round and the totals are written there
    finally:
        app.close()


def test_a_click_on_the_peg_board_shows_the_match_totals_and_another_the_round() -> None:
    table = round_two()
    app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        frames(app)
        game = app.game
        post_click(centre(app.layout.pegboard))
        frames(app)
        snap = game.snapshot()
        assert game.peg_totals and peg_offsets(snap) == table.match.totals
        assert "match totals (on the pegs)" in match_words(snap)
        post_click(centre(app.layout.pegboard))
        frames(app)
        assert not game.peg_totals and peg_offsets(game.snapshot()) == (0, 0, 0)
        assert [peg_number(game.snapshot(), p) for p in range(3)] == list(game.state.scores)
    finally:
        app.close()


def test_a_single_game_has_no_match_words_and_the_peg_board_stays_on_the_game() -> None:
    app = App(new_game(2, seed=1, names=("You", "Medium")), Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        post_click(centre(app.layout.pegboard))
        frames(app)
        snap = app.game.snapshot()
        assert not app.game.peg_totals and match_words(snap) == ""
        assert rules_words(snap.state.options) == ("exchange only when stuck", "lowest tile starts")
    finally:
        app.close()


@pytest.mark.parametrize(
    ("rules", "said", "not_said"),
    [
        ("exchange=any-time", "you may pass or exchange at any time", "only when you cannot play"),
        ("", "only when you cannot play", "at any time"),
        ("joker=on,rounds=3,start=high", "Joker rule: you count your own play", "at any time"),
    ],
)
def test_help_says_what_the_options_of_this_game_allow(rules: str, said: str, not_said: str) -> None:
    state = new_game(2, RuleOptions.parse(rules), seed=1, names=("You", "Medium"))
    app = App(state, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        post_key(pygame.K_h)
        frames(app, 1)
        text = panel_text(app)
        assert text.startswith("How to play") and said in text and not_said not in text
        if "rounds=3" in rules:
            assert "A match of 3 rounds" in text and "The highest tile drawn started." in text
    finally:
        app.close()


def test_who_starts_is_in_the_panel_before_the_first_turn_and_beside_the_first_breakdown() -> None:
    seed = next(s for s in range(40) if new_game(2, seed=s, names=("You", "Medium")).current == 1)  # the bot starts
    state = new_game(2, seed=seed, names=("You", "Medium"))
    app = App(state, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        words = game.draw_words()
        assert words.endswith("Medium starts: the lowest tile plays first.")
        assert words not in [t.text for t in game.anims.toasts]  # not a message at the foot of the panel
        assert words.split(".")[0] in panel_text(app)
        for _ in range(400):  # the bot's first play
            app.frame(1 / 60)
            if game.state.turns and game.anims.breakdown is not None:
                break
        frames(app, 5)
        rows = info_rows(game.snapshot())
        text = " ".join(r.left for r in rows)
        assert rows[0].left == "Medium scored" and not any(r.left.startswith("... and ") for r in rows)
        assert words.split(",")[0] in text and not game.anims.toasts  # under the breakdown, whole, and nothing over it
    finally:
        app.close()


def test_who_starts_gives_way_when_the_breakdown_needs_the_room() -> None:
    spec = [(f"row {i}", "2", CREAM, 0, (), 0) for i in range(6)]
    roomy = with_opening(list(spec), "You drew a light 7, Hard drew a dark 6.", (0, 0, 400, 400), 18, 8)
    assert roomy[: len(spec)] == spec and roomy[-1][0].startswith("You drew")
    tight = with_opening(list(spec), "You drew a light 7, Hard drew a dark 6.", (0, 0, 400, 150), 18, 8)
    assert tight == spec  # the breakdown is never shrunk or cut for it


def test_a_disabled_button_is_a_flat_dark_slot_with_faint_words() -> None:
    pygame.font.init()
    off = _button_surface(200, 44, "Play", False, False, True)
    on = _button_surface(200, 44, "Play", True, False, True)
    assert tuple(off.get_at((14, 14))) == DISABLED_FILL  # no wood grain anywhere in it
    assert tuple(on.get_at((14, 14)))[:3] != DISABLED_FILL[:3]
    faint = sum(
        1 for x in range(off.get_width()) for y in range(off.get_height()) if off.get_at((x, y))[:3] == DISABLED_TEXT
    )
    assert faint > 20


def test_ctrl_n_offers_the_seats_and_rules_of_the_game_at_the_table() -> None:
    table = Table.new((Seat("Ann"), Seat("Hard", "hard"), Seat("Ben")), RuleOptions(joker=True), seed=3)
    prefs = Preferences(speed="instant", level="hard", seats=(("You", None), ("Player 2", "easy")), rules="rounds=5")
    app = App(table, prefs, NoKeeper(), size=(1280, 800))
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=pygame.KMOD_CTRL, unicode=""))
        frames(app, 1)
        screen = app.scenes[-1]
        assert isinstance(screen, NewGameScene)
        form = screen.form
        assert [(s.name, s.level if s.bot else None) for s in form.seats] == [
            ("Ann", None),
            ("Player 2", "hard"),
            ("Ben", None),
        ]
        assert form.table_seats() == table.seats and form.options == RuleOptions(joker=True)
    finally:
        app.close()


def finished(seed: int = 12) -> Table:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=seed)
    play_round(table)
    return table


def test_enter_on_the_end_card_first_shows_the_result_and_goes_on_only_after_a_moment() -> None:
    table = finished()
    app = App(table, Preferences(speed="normal"), NoKeeper(), size=(1280, 800))
    try:
        for _ in range(200):
            app.frame(1 / 30)
            if isinstance(app.scenes[-1], EndScene):
                break
        end = app.scenes[-1]
        assert isinstance(end, EndScene) and not endcard.all_counted(app.game.snapshot(), end.elapsed)
        post_key(pygame.K_RETURN)  # during the count: the result is shown at once, nothing skipped
        frames(app, 1)
        assert app.scenes[-1] is end and app.session.table is table and end.result_at is not None
        assert endcard.all_counted(app.game.snapshot(), end.elapsed) and app.game.anims.racks_counted
        post_key(pygame.K_RETURN)  # pressed again at once: the result stays
        frames(app, 1)
        assert app.scenes[-1] is end and not end.ready
        app.frame(RESULT_GUARD / 2)
        post_key(pygame.K_RETURN)
        frames(app, 1)
        assert app.scenes[-1] is end and app.session.table is table  # still within the moment
        app.frame(RESULT_GUARD / 2 + 0.05)
        assert end.ready
        post_key(pygame.K_RETURN)
        frames(app, 1)
        assert app.session.table is not table and not app.game.state.is_over  # the same table again, a new game
    finally:
        app.close()


def test_a_click_on_the_end_cards_button_waits_for_the_result_too() -> None:
    app = App(finished(), Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        frames(app, 3)
        end = app.scenes[-1]
        assert isinstance(end, EndScene) and end.result_at is not None and not end.ready
        _, button = endcard.end_rects(app.game.snapshot())
        post_click(centre(button))
        frames(app, 1)
        assert app.scenes[-1] is end
        app.frame(RESULT_GUARD)
        post_click(centre(button))
        frames(app, 1)
        assert not isinstance(app.scenes[-1], EndScene)
    finally:
        app.close()


def test_ctrl_n_over_solitaire_offers_its_sides_with_the_remembered_names() -> None:
    table = Table.new(parse_players("Dark,easy"), RuleOptions.parse("mode=solitaire"), seed=3)
    prefs = Preferences(speed="instant", level="expert", seats=(("Ann", None), ("Bo", "hard"), ("Cy", None)))
    app = App(table, prefs, NoKeeper(), size=(1280, 800))
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=pygame.KMOD_CTRL, unicode=""))
        frames(app, 1)
        screen = app.scenes[-1]
        assert isinstance(screen, NewGameScene)
        form = screen.form
        assert form.solitaire and [(s.name, s.bot, s.level) for s in form.seats[:2]] == [
            ("Ann", False, form.seats[0].level),
            ("Bo", True, "expert"),  # the side's lone bot at the level L chose, under the seat's remembered name
        ]
        assert form.seats[2].name == "Cy" and [s.level for s in form.table_seats()] == [None, "expert"]
    finally:
        app.close()
