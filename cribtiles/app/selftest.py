"""`cribtiles --selftest`: render every scene headless, play a game through the UI, check the save.

Exits 0 when all is well, 1 with the reason otherwise; the installers run it on the built program.
"""

from __future__ import annotations

import os
import tempfile
import time
import traceback
from pathlib import Path

from cribtiles.terminal import say


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise AssertionError(what)


def selftest(data_dir: Path | None = None) -> int:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="cribtiles-selftest-") as tmp:
            _run(Path(data_dir) if data_dir is not None else Path(tmp))
    except Exception as e:
        say(f"cribtiles selftest: FAILED: {e}")
        traceback.print_exc()
        return 1
    print(f"cribtiles selftest: ok ({time.perf_counter() - started:.1f} s)")
    return 0


def _run(folder: Path) -> None:
    import pygame

    from cribtiles.rules import parse_move
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.saved import load_table
    from cribtiles.ui.geometry import centre
    from cribtiles.ui.tiles.autopilot import past_the_result, play_through, post_drag, post_key
    from cribtiles.ui.tiles.game_scene import table_of
    from cribtiles.ui.window import App

    from .storage import Store

    store = Store(folder)
    prefs = Preferences(speed="instant", sound=True)
    for size in ((960, 640), (1920, 1080), (1280, 800)):
        app = App(None, prefs, store, size=size, seed=11)
        app.frame(1 / 60)
        _check(app.screen.get_size() == size, f"the window is {app.screen.get_size()}, not {size}")
        app.close()
    print("  opening scene drawn at 960x640, 1920x1080, 1280x800")
    app = App(None, prefs, store, size=(1280, 800), seed=11)
    game = table_of(app)
    # the player to move: wait for the bot if it starts
    deadline = time.perf_counter() + 30
    while not game.my_turn and time.perf_counter() < deadline:
        app.frame(1 / 60)
    _check(game.my_turn, "the bot did not finish its first turn")
    # an illegal drop and a preview: lay one tile on an empty board (the first play needs two)
    lay = app.layout
    if game.state.board.is_empty():
        post_drag(centre(lay.slot_rect(0)), centre(lay.square_rect(parse_move("g7=AL").squares[0])))  # type: ignore[union-attr]
        app.frame(1 / 60)
        _check(game.live is not None and not game.live.is_legal, "one tile on an empty board was not refused")
        post_key(pygame.K_r)
        app.frame(1 / 60)
        _check(not game.draft.placed, "recall left tiles on the board")
    print("  preview, illegal play and recall drawn")
    post_key(pygame.K_x)
    app.frame(1 / 60)
    post_key(pygame.K_ESCAPE)  # leaves the exchange, if X began one; else opens the title screen
    app.frame(1 / 60)
    if app.scenes[-1] is not game:
        post_key(pygame.K_ESCAPE)  # and back from it
        app.frame(1 / 60)
    _check(app.scenes == [game] and not game.hand.exchanging, "Escape did not lead back to the table")
    frames = play_through(app, frames_per_step=1, max_seconds=180)
    _check(game.state.is_over, "the game did not end")
    _check(type(app.scenes[-1]).__name__ == "EndScene", "the end of the game was not shown")
    print(f"  a whole game played through the UI in {frames} frames: {game.state.outcome}")
    saved = load_table(store.game_path.read_text(encoding="utf-8")).state
    _check(saved.log == game.session.record().state.log, "the saved game differs from the game played")
    print(f"  the saved game replays ({len(saved.log)} actions)")
    post_key(pygame.K_g)  # the end card's way to the New game screen: three seats, Solitaire, Cancel
    app.frame(1 / 60)
    _check(type(app.scenes[-1]).__name__ == "NewGameScene", "G on the end card did not open the New game screen")
    _new_game_screen(app)
    _screens_around_the_game(app)
    past_the_result(app)  # the end card takes Enter once its result has been in view a moment
    post_key(pygame.K_RETURN)
    app.frame(1 / 60)
    _check(not table_of(app).state.turns or table_of(app) is not game, "New game did not start a game")
    app.close()
    _every_mode(store, prefs)
    _online_parts()


#: Every way to play at the window: (players, rules, rounds to play through).
MODES = (
    ("Ann,Ben,easy,beginner", "", "two people in turn (the curtain between them) and two bots"),
    ("You,medium", "joker=on", "the Joker rule: you count your plays, the bot calls"),
    ("You,beginner", "rounds=3", "a match of three rounds with the Servant"),
    ("Dark,easy", "mode=solitaire", "Solitaire, a person's dark against a bot's light"),
    ("Dark,Light", "mode=solitaire,exchange=any-time", "Solitaire, one person playing both sides"),
)


def play_mode(store: object, prefs: object, players: str, rules: str, what: str) -> object:
    """Play one way to play through the window to the end of its match; returns the App, closed."""
    import pygame

    from cribtiles.rules import RuleOptions
    from cribtiles.table import parse_players
    from cribtiles.table.tiles.saved import load_table
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.tiles.autopilot import past_the_result, play_through, post_key
    from cribtiles.ui.tiles.game_scene import table_of
    from cribtiles.ui.window import App

    from .storage import Store

    assert isinstance(store, Store)
    options = RuleOptions.parse(rules)
    app = App(Table.new(parse_players(players), options, seed=7), prefs, store, size=(1280, 800))  # type: ignore[arg-type]
    for _ in range(options.rounds):
        play_through(app, frames_per_step=1, max_seconds=180)
        _check(table_of(app).state.is_over, f"{what}: the round did not end")
        if app.next_is_round:
            past_the_result(app)
            post_key(pygame.K_RETURN)
            app.frame(1 / 60)
    _check(table_of(app).session.match.is_over, f"{what}: the match did not end")
    saved = load_table(store.game_path.read_text(encoding="utf-8"))
    _check(
        saved.match == table_of(app).session.record().match and saved.seats == app.session.seats,
        f"{what}: the save differs",
    )
    app.close()
    return app


def _every_mode(store: object, prefs: object) -> None:
    from cribtiles.ui.tiles.game_scene import table_of

    for players, rules, what in MODES:
        app = play_mode(store, prefs, players, rules, what)
        outcome = table_of(app).state.outcome
        print(f"  {what}: played to the end, {outcome and outcome.final_scores}")


def _screens_around_the_game(app: object) -> None:
    """From the title screen, each screen by its letter, drawn and left with Escape: the rules (a page
    turned), the tutorial, the history (the game just played is there, and replays), the statistics
    (which count it), the settings (the volume changed)."""
    import pygame

    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.window import App

    assert isinstance(app, App)
    app.open_title()
    app.frame(1 / 60)
    title = app.scenes[-1]
    _check(type(title).__name__ == "TitleScene", "the title screen did not open")
    for letter, name, keys in (
        (pygame.K_r, "RulesScene", (pygame.K_RIGHT,)),
        (pygame.K_t, "TutorialScene", ()),
        (pygame.K_p, "PuzzleScene", (pygame.K_RETURN,)),
        (pygame.K_h, "HistoryScene", (pygame.K_RETURN,)),
        (pygame.K_s, "StatisticsScene", ()),
        (pygame.K_e, "SettingsScene", (pygame.K_DOWN, pygame.K_LEFT)),
        (pygame.K_k, "CribbageSetupScene", (pygame.K_s, pygame.K_RIGHT, pygame.K_SPACE)),  # deals, picks a card
    ):
        post_key(letter)
        app.frame(1 / 60)
        _check(type(app.scenes[-1]).__name__ == name, f"{pygame.key.name(letter).upper()} did not open the {name}")
        for key in keys:
            post_key(key)
            app.frame(1 / 60)
            app.frame(1 / 60)
        left = type(app.scenes[-1]).__name__
        for _ in range(4):  # a replay over the history, a puzzle over the puzzles' list: Escape each
            if app.scenes[-1] is title:
                break
            post_key(pygame.K_ESCAPE)
            app.frame(1 / 60)
        _check(app.scenes[-1] is title, f"Escape did not lead back from the {left} to the title screen")
    _check(len(app.keeper.past_games()) >= 1, "the finished game is not in the history")
    _check(app.prefs.volume == 70, "the volume was not turned down on the Settings screen")
    _check(app.keeper.load_cribbage()[0] is not None, "the cribbage game dealt was not saved")
    post_key(pygame.K_ESCAPE)
    app.frame(1 / 60)
    print(
        "  the title screen, the rules, the tutorial, a puzzle, the history (a replay), the statistics, the settings"
        " and a cribbage table"
    )


def _new_game_screen(app: object) -> None:
    """Draw the New game screen with three seats and in Solitaire, then go back with Escape."""
    import pygame

    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.tiles.newgame_form import Control, Part, rule
    from cribtiles.ui.window import App

    assert isinstance(app, App)
    scene = app.scenes[-1]
    form = scene.form  # type: ignore[attr-defined]
    form.press(Control(Part.ADD))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Ann"))
    app.frame(1 / 60)
    _check(form.seats[-1].name == "Ann", "a name typed on the New game screen was not taken")
    form.press(rule("mode"))
    app.frame(1 / 60)
    _check([s.name for s in form.table_seats()][:1] == ["Dark"], "Solitaire did not seat the Dark side")
    post_key(pygame.K_ESCAPE)
    app.frame(1 / 60)
    _check(app.scenes[-1] is not scene, "Escape did not leave the New game screen")
    print("  the New game screen drawn (three seats, Solitaire) and left with Escape")


def _online_parts() -> None:
    """The online modules load with the libraries they stand on, compiled parts and all (a bundle that
    missed one would fail only when a player hosts or joins): the client, the server and the network
    finder. CI plays a table online with the installed program too (.ci/online_smoke)."""
    import importlib
    import importlib.metadata

    for name in ("cribtiles.online.client", "cribtiles.online.lan", "cribtiles.server.front", "cribtiles.app.hosting"):
        importlib.import_module(name)
    versions = []
    for package in ("websockets", "zeroconf"):
        try:
            versions.append(f"{package} {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:  # a bundle keeps the code, not always its metadata
            versions.append(package)
    print(f"  the online parts load ({', '.join(versions)})")
