"""The New game screen: the form's logic without pygame, its geometry, and the screen driven by real
pygame events over a game (Ctrl+N, the end card's G, Start, Escape, remembered choices, Solitaire)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.app.storage import Store
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.options import OPTIONS, RuleOptions
from cribtiles.table import Seat
from cribtiles.table.seats import lone_bot
from cribtiles.table.settings import DEFAULT_SEATS, Preferences, good_seats
from cribtiles.table.tiles.table import Table
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import past_the_result
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.newgame import NewGameScene
from cribtiles.ui.tiles.newgame_form import (
    Action,
    Control,
    NewGameForm,
    Part,
    SeatChoice,
    again,
    arrow_step,
    control_at,
    form_layout,
    options_of,
    remembered_seats,
    rule,
    rule_label,
    with_level,
)
from cribtiles.ui.window import App

KIND, WHO, REMOVE = Part.KIND, Part.WHO, Part.REMOVE
RULES = [*(rule(n) for n in ("mode", "joker", "exchange", "start", "rounds", "bonuses")), Control(Part.SEED)]
BUTTONS = [Control(Part.START), Control(Part.CANCEL)]


def fresh() -> NewGameForm:
    return NewGameForm.offered(DEFAULT_SEATS, RuleOptions())


# --- the form, without pygame ---


def test_the_form_first_offers_you_against_the_medium_bot_with_the_focus_on_start() -> None:
    form = fresh()
    assert form.seats == [SeatChoice("You", "medium", False), SeatChoice("Player 2", "medium", True)]
    assert form.focus == Control(Part.START) and form.problem() == "" and form.warning == ""
    assert form.controls() == [
        Control(KIND, 0),
        Control(WHO, 0),
        Control(KIND, 1),
        Control(WHO, 1),
        Control(Part.ADD),
        *RULES,
        *BUTTONS,
    ]
    assert form.table_seats() == (Seat("You"), Seat("Medium", "medium"))
    assert form.enter() is Action.START and form.seed_value() is None


def test_tab_and_shift_tab_go_round_the_controls() -> None:
    form = fresh()
    form.tab()
    assert form.focus == Control(Part.CANCEL)
    form.tab()
    assert form.focus == Control(KIND, 0)
    form.tab()
    assert form.focus == Control(WHO, 0) and form.selected  # a name is selected on arrival: typing replaces it
    form.tab(-1)
    form.tab(-1)
    assert form.focus == Control(Part.CANCEL) and not form.selected
    assert form.enter() is Action.CANCEL


def test_typing_a_name_replaces_the_selected_one_then_adds_to_it() -> None:
    form = fresh()
    form.focus_on(Control(WHO, 0))
    form.type("Ann")
    assert form.seats[0].name == "Ann" and not form.selected
    form.type("ie\n\t")  # control characters are never part of a name
    assert form.seats[0].name == "Annie"
    form.backspace()
    assert form.seats[0].name == "Anni"
    form.type("x" * 50)
    assert len(form.seats[0].name) == 40  # a name has at most 40 characters
    form.backspace(whole=True)
    assert form.seats[0].name == "" and form.problem() == "Player 1 needs a name."
    with pytest.raises(ValueError, match="needs a name"):
        form.table_seats()
    form.focus_on(rule("joker"))
    assert form.press(Control(Part.START)) is None  # Start refuses, and the empty name takes the focus
    assert form.focus == Control(WHO, 0)
    form.type("  Bo ")
    assert form.table_seats()[0] == Seat("Bo")
    assert form.remembered()[0] == ("Bo", None)


def test_a_seat_turns_bot_and_its_level_cycles_both_ways() -> None:
    form = fresh()
    form.focus_on(Control(WHO, 1))
    form.step(1)
    assert form.seats[1].level == "hard" and form.value(Control(WHO, 1)) == "Hard"
    form.step(1)
    form.step(1)
    assert form.seats[1].level == "beginner"  # round the end
    form.step(-1)
    assert form.seats[1].level == "expert"
    form.press(Control(KIND, 0))  # You become a bot of the same level as the other, and back
    assert form.seats[0] == SeatChoice("You", "medium", True) and form.value(Control(KIND, 0)) == "Bot"
    assert form.table_seats() == (Seat("Medium", "medium"), Seat("Expert", "expert"))
    assert form.remembered() == (("You", "medium"), ("Player 2", "expert"))
    form.step(1, Control(KIND, 0))
    assert form.table_seats() == (Seat("You"), Seat("Expert", "expert"))


def test_seats_are_added_up_to_four_and_removed_down_to_two() -> None:
    form = fresh()
    form.press(Control(Part.ADD))
    assert form.seats[2] == SeatChoice("Player 3", "medium", False)
    assert form.focus == Control(WHO, 2) and form.selected
    form.type("Cy")
    form.add_seat()
    assert len(form.seats) == 4 and Control(Part.ADD) not in form.controls()
    assert Control(REMOVE, 3) in form.controls()
    form.add_seat()
    assert len(form.seats) == 4
    form.press(Control(REMOVE, 0))
    assert [s.name for s in form.seats] == ["Player 2", "Cy", "Player 4"]
    assert form.focus == Control(REMOVE, 0)  # the next seat's button took the place of the one pressed
    form.press(Control(REMOVE, 0))
    assert [s.name for s in form.seats] == ["Cy", "Player 4"]
    assert Control(REMOVE, 0) not in form.controls() and form.focus == Control(KIND, 1)
    form.remove_seat(0)
    assert len(form.seats) == 2
    assert form.table_seats() == (Seat("Cy"), Seat("Player 4"))


def test_rule_options_change_with_arrows_and_space() -> None:
    form = fresh()
    for name in ("start", "exchange", "joker"):
        form.press(rule(name))
    assert form.options == RuleOptions(start="high", exchange="any-time", joker=True)
    assert form.value(rule("start")) == "Highest tile" and form.value(rule("joker")) == "On"
    form.focus_on(rule("rounds"))
    form.step(-1)
    assert form.options.rounds == 1
    form.step(1)
    form.step(1)
    assert form.options.rounds == 3 and form.value(rule("rounds")) == "3-round match"
    form.step(200)
    assert form.options.rounds == 99
    form.press(rule("joker"))
    assert form.options == RuleOptions(start="high", exchange="any-time", rounds=99)


def test_the_seed_takes_digits_only() -> None:
    form = fresh()
    form.focus_on(Control(Part.SEED))
    form.type("4a2-²")
    assert form.seed == "42" and form.seed_value() == 42
    form.type("123456789012")
    assert form.seed == "4212345678"  # ten digits at most
    form.tab(-1)
    form.tab()
    form.type("7")  # selected on arrival: replaced
    assert form.seed_value() == 7
    form.backspace()
    assert form.seed_value() is None


def test_solitaire_has_two_sides_and_keeps_the_other_seats_for_later() -> None:
    form = fresh()
    form.add_seat()
    form.press(rule("mode"))
    assert form.solitaire and len(form.shown) == 2 and len(form.seats) == 3
    assert form.controls() == [Control(KIND, 0), Control(KIND, 1), Control(WHO, 1), *RULES, *BUTTONS]
    assert [form.seat_label(i) for i in (0, 1)] == ["Dark", "Light"]
    assert form.blank_words(0) == "a person plays this side"
    form.seats[0] = SeatChoice("", "medium", False)  # no name needed for a side
    assert form.problem() == ""
    assert form.table_seats() == (Seat("Dark"), Seat("Medium", "medium"))
    form.press(Control(KIND, 1))
    assert form.blank_words(0) == "one person plays both sides" and form.blank_words(1) == ""
    assert form.table_seats() == (Seat("Dark"), Seat("Light"))
    form.press(rule("mode"))
    assert len(form.shown) == 3


def test_remembered_seats_and_rules() -> None:
    assert good_seats([["Ann", None], ["Ben", "hard"]]) and good_seats((("A", None), ("B", None), ("C", None)))
    for bad in (
        [["Ann", None]],
        [["Ann", None]] * 5,
        [["Ann", None], ["", "hard"]],
        [["Ann", None], ["  ", None]],
        [["Ann", None], ["x" * 41, None]],
        [["Ann", None], ["Ben\n", None]],
        [["Ann", None], ["Ben", "godlike"]],
        [["Ann", None], ["Ben"]],
        [["Ann", None], "Ben"],
        "Ann,Ben",
        None,
    ):
        assert not good_seats(bad), bad
    form = NewGameForm.offered((("Ann", None), ("Ben", "hard"), ("Cy", None)), options_of("joker=on"), True)
    assert form.seats[2] == SeatChoice("Cy", "hard", False)  # a person's seat turned bot would be Hard
    assert form.warning == "A game is in progress: starting a new one throws it away."
    assert NewGameForm.offered((("Ann", None),), RuleOptions()).seats == fresh().seats  # unusable: defaults
    assert options_of("joker=on,rounds=3") == RuleOptions(joker=True, rounds=3) and options_of("x") == RuleOptions()
    assert with_level((("You", None), ("P", "easy")), "expert") == (("You", None), ("P", "expert"))
    two_bots = (("A", "easy"), ("B", "hard"))
    assert with_level(two_bots, "expert") == two_bots
    assert remembered_seats((*two_bots, ("C", None)), RuleOptions(mode="solitaire")) == (
        Seat("Easy", "easy"),
        Seat("Hard", "hard"),
    )
    assert again((Seat("Ann"), Seat("Hard", "hard"), Seat("Ben")), "easy") == (
        Seat("Ann"),
        Seat("Easy", "easy"),
        Seat("Ben"),
    )
    assert again((Seat("Hard", "hard"), Seat("Hard 2", "hard")), "easy") == (
        Seat("Hard", "hard"),
        Seat("Hard 2", "hard"),
    )
    assert lone_bot((Seat("Ann"), Seat("Hard", "hard"))) == "hard" and lone_bot((Seat("Ann"), Seat("Ben"))) is None


# --- where everything sits ---


@pytest.mark.parametrize("size", [(960, 640), (1280, 800), (1920, 1080)])
def test_the_card_fits_the_window_and_no_controls_overlap(size: tuple[int, int]) -> None:
    forms = [fresh()]
    four = fresh()
    four.add_seat()
    four.add_seat()
    solitaire = fresh()
    solitaire.press(rule("mode"))
    forms += [four, solitaire]
    for form in forms:
        lay = form_layout(*size, form)
        cx, cy, cw, ch = lay.card
        assert cx >= 0 and cy >= 0 and cx + cw <= size[0] and cy + ch <= size[1]
        assert set(lay.controls) == set(form.controls())
        rects = list(lay.controls.values()) + list(lay.labels.values())
        for r in rects:
            assert cx <= r[0] and cy <= r[1] and r[0] + r[2] <= cx + cw and r[1] + r[3] <= cy + ch
        for i, a in enumerate(rects):
            for b in rects[i + 1 :]:
                overlap = a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]
                assert not overlap, (a, b)
        _, ny, _ = lay.notes
        assert ny + 3 * round(lay.size * 1.35) <= lay.controls[Control(Part.START)][1]  # three lines of notes
        for c, r in lay.controls.items():
            assert control_at(lay, centre(r)) == c


def test_the_layout_at_1280_by_800() -> None:
    lay = form_layout(1280, 800, fresh())
    assert lay.size == 22 and lay.row == 42
    assert lay.card == (123, 50, 1034, 699)  # a row taller since the rule option bonuses
    assert lay.controls[Control(Part.START)] == (463, 670, 165, 50)
    assert arrow_step((100, 0, 90, 30), 129) == -1 and arrow_step((100, 0, 90, 30), 130) == 1


# --- the screen, driven by pygame events over a real game ---


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = App(None, Preferences(speed="instant"), Store(tmp_path), size=(1280, 800), seed=3)
    yield a
    a.close()


def frames(app: App, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def key(k: int, mod: int = 0, text: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=text, scancode=0))
    if text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))


def click(pos: tuple[float, float]) -> None:
    p = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=1))


def screen(app: App) -> NewGameScene:
    top = app.scenes[-1]
    assert isinstance(top, NewGameScene)
    return top


def click_on(app: App, control: Control, right: bool = False) -> None:
    scene = screen(app)
    x, y, w, h = form_layout(*app.screen.get_size(), scene.form).controls[control]
    click((x + w - 4 if right else x + w // 2, y + h // 2))
    frames(app, 1)


def ctrl_n(app: App) -> NewGameScene:
    key(pygame.K_n, pygame.KMOD_CTRL)
    frames(app)
    return screen(app)


def test_ctrl_n_opens_the_screen_and_start_begins_the_chosen_game(app: App, tmp_path: Path) -> None:
    frames(app)
    old_table, sound = app.session.table, app.prefs.sound
    scene = ctrl_n(app)
    assert scene.form.warning == "A game is in progress: starting a new one throws it away."
    click_on(app, Control(Part.ADD))
    for letter in "Mal":  # the letters of the window's shortcuts (M sound, A speed, L bot) are typed here
        key(getattr(pygame, f"K_{letter.lower()}"), text=letter)
    frames(app)
    assert scene.form.seats[2].name == "Mal" and app.prefs.sound is sound and app.prefs.speed == "instant"
    click_on(app, Control(WHO, 1), right=True)  # Medium -> Hard
    click_on(app, rule("joker"))
    for _ in range(3):  # by Exchanges and Who starts to Rounds
        key(pygame.K_DOWN)
    key(pygame.K_RIGHT)
    key(pygame.K_RIGHT)
    key(pygame.K_TAB)  # by Bonuses ...
    key(pygame.K_TAB)  # ... to the seed
    for d in "4242":
        key(getattr(pygame, f"K_{d}"), text=d)
    frames(app)
    assert scene.form.options == RuleOptions(joker=True, rounds=3) and scene.form.seed == "4242"
    key(pygame.K_RETURN)
    app.frame(1 / 60)
    assert app.session.table is not old_table and app.scenes == [app.game]
    assert app.session.table.seats == (Seat("You"), Seat("Hard", "hard"), Seat("Mal"))
    assert app.session.table.options == RuleOptions(joker=True, rounds=3)
    assert app.session.table.match.seed == 4242 and app.session.table.state.players == 3
    fresh_table = Table.new(app.session.table.seats, app.session.table.options, 4242)
    assert app.session.table.state.start_draws == fresh_table.state.start_draws and app.session.table.state.turns == ()
    assert app.prefs.seats == (("You", None), ("Player 2", "hard"), ("Mal", None))
    assert app.prefs.rules == "start=low,exchange=when-stuck,joker=on,rounds=3,mode=standard"
    assert app.prefs.level == "hard"
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["seats"] == [["You", None], ["Player 2", "hard"], ["Mal", None]]
    assert Store(tmp_path).load_preferences() == (app.prefs, "")
    # next time: the same choices are offered, and a window started afresh seats them
    frames(app)
    again_ = ctrl_n(app)
    assert again_.form.remembered() == app.prefs.seats and again_.form.options == RuleOptions(joker=True, rounds=3)
    assert again_.form.seed == ""  # a seed replays one shuffle: it is not carried into the next game
    key(pygame.K_ESCAPE)
    frames(app)
    prefs, _ = Store(tmp_path).load_preferences()
    (tmp_path / "game.json").unlink()
    later = App(None, prefs, Store(tmp_path), size=(960, 640))
    try:
        assert later.session.table.seats == (Seat("You"), Seat("Hard", "hard"), Seat("Mal"))
        assert later.session.table.options == RuleOptions(joker=True, rounds=3)
    finally:
        later.close()


def test_escape_goes_back_to_the_same_game_untouched(app: App, tmp_path: Path) -> None:
    deadline = time.monotonic() + 30
    while not app.game.my_turn and time.monotonic() < deadline:  # the bot starts: let it move first
        frames(app, 1)
        time.sleep(0.005)
    game, table, state = app.game, app.session.table, app.session.table.state
    assert game.my_turn
    settings = (tmp_path / "settings.json").read_text() if (tmp_path / "settings.json").exists() else None
    scene = ctrl_n(app)
    click_on(app, rule("joker"))
    click_on(app, Control(KIND, 0))
    assert scene.form.options.joker
    key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes == [game] and app.game is game and app.session.table is table and app.session.table.state is state
    assert app.prefs.rules == "" and app.prefs.seats == DEFAULT_SEATS  # cancelled choices are not remembered
    after = (tmp_path / "settings.json").read_text() if (tmp_path / "settings.json").exists() else None
    assert after == settings
    click_on_cancel = ctrl_n(app)
    assert click_on_cancel.form.options == RuleOptions()  # offered afresh
    click_on(app, Control(Part.CANCEL))
    assert app.scenes == [game]


def test_solitaire_seats_the_two_sides(app: App) -> None:
    frames(app)
    scene = ctrl_n(app)
    click_on(app, rule("mode"))
    click_on(app, Control(KIND, 1))  # Light: the bot becomes a person, who plays both sides
    assert scene.form.blank_words(0) == "one person plays both sides"
    click_on(app, Control(KIND, 1))  # and back: a person against the Medium bot
    click_on(app, Control(Part.START))
    assert app.session.table.options.solitaire
    assert app.session.table.seats == (Seat("Dark"), Seat("Light", "medium"))
    assert app.session.table.state.names == ("Dark", "Light")


def finished_table(seats: tuple[Seat, ...]) -> Table:
    table = Table.new(seats, RuleOptions(joker=True), seed=12)
    while not table.round_over:
        move = greedy_move(table.view(table.state.current), random.Random(0))
        if table.person_to_move:
            table.play(move)
        else:
            table.play_bot(move)
    return table


def test_the_end_card_starts_the_same_table_with_enter_and_opens_the_screen_with_g(tmp_path: Path) -> None:
    seats = (Seat("Ann"), Seat("Hard", "hard"), Seat("Ben"))
    a = App(finished_table(seats), Preferences(speed="instant", level="easy"), Store(tmp_path), size=(1280, 800))
    try:
        frames(a, 3)
        end = a.scenes[-1]
        assert isinstance(end, EndScene)
        key(pygame.K_g)
        frames(a)
        assert screen(a).form.warning == ""  # the game is over: nothing is thrown away
        key(pygame.K_ESCAPE)
        frames(a)
        assert a.scenes[-1] is end
        past_the_result(a)
        key(pygame.K_RETURN)
        frames(a, 1)
        # the same people and rules; the lone bot is the one L chose for the next game
        assert a.session.table.seats == (Seat("Ann"), Seat("Easy", "easy"), Seat("Ben"))
        assert a.session.table.options == RuleOptions(joker=True) and not a.session.table.round_over
    finally:
        a.close()


def test_the_whole_screen_works_from_the_keyboard(app: App) -> None:
    frames(app)
    scene = ctrl_n(app)
    for _ in range(4):  # from Start: Cancel, Player 1's kind, Player 1's name, Player 2's kind
        key(pygame.K_TAB)
    key(pygame.K_SPACE)  # the Medium bot's seat becomes a person's
    key(pygame.K_TAB)
    for ch in "Bea":
        key(pygame.K_b, text=ch)
    key(pygame.K_TAB)  # Add a player
    key(pygame.K_SPACE)
    key(pygame.K_TAB, pygame.KMOD_SHIFT)  # back to the new seat's kind
    key(pygame.K_RIGHT)  # a bot
    key(pygame.K_TAB)
    key(pygame.K_RIGHT)  # Medium -> Hard
    key(pygame.K_DOWN)  # its remove button
    key(pygame.K_DOWN)  # Add a player (a fourth seat is still free)
    key(pygame.K_DOWN)  # Mode
    key(pygame.K_DOWN)  # Joker rule
    key(pygame.K_DOWN)  # Exchanges
    key(pygame.K_SPACE)
    key(pygame.K_DOWN)  # Who starts
    key(pygame.K_LEFT)
    frames(app)
    assert [(s.name, s.bot, s.level) for s in scene.form.seats] == [
        ("You", False, "medium"),
        ("Bea", False, "medium"),
        ("Player 3", True, "hard"),
    ]
    assert scene.form.options == RuleOptions(start="high", exchange="any-time")
    key(pygame.K_KP_ENTER)
    frames(app, 1)
    assert app.session.table.seats == (Seat("You"), Seat("Bea"), Seat("Hard", "hard"))
    assert app.session.table.options == RuleOptions(start="high", exchange="any-time")


def test_the_form_has_a_control_for_every_row_of_the_options_table_and_shows_each_value() -> None:
    """Adding a row to `OPTIONS` is all the form needs: its control, label, words, line and steps come from it."""
    form = fresh()
    assert [c.option for c in form.controls() if c.part is Part.RULE] == [row.name for row in OPTIONS]
    lay = form_layout(1280, 800, form)
    for row in OPTIONS:
        c = rule(row.name)
        assert c in lay.controls and c in lay.labels and rule_label(c) == row.label
        seen = []
        for _ in range(len(row.choices) or 3):
            value = form.options.value(row.name)
            assert form.value(c) == row.words(value) and form.about(c) == row.about(value) != ""
            seen.append(value)
            form.step(1, c)
        if row.choices:  # round every choice and back to the first
            assert seen == [choice.value for choice in row.choices] and form.options.value(row.name) == seen[0]
        else:
            assert seen == [1, 2, 3]
        assert RuleOptions.parse(form.options.to_text()) == form.options


def test_the_form_offers_the_bonuses_and_writes_them_off_only() -> None:
    """The rule option bonuses is a row of the form like the others (issue 45): On by default, Off chosen
    with a press, and written in the options' text only when off."""
    form = fresh()
    assert form.options.bonuses is True and rule("bonuses") in form.controls()
    form.press(rule("bonuses"))
    assert form.options == RuleOptions(bonuses=False)
    assert form.options.to_text() == "start=low,exchange=when-stuck,joker=off,rounds=1,mode=standard,bonuses=off"
