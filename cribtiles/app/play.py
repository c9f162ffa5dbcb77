"""Opening the window: settings and the saved game from the data folder, then the game loop."""

from __future__ import annotations

import logging
import signal
from collections.abc import Sequence
from pathlib import Path

from cribtiles.rules import RuleOptions
from cribtiles.table.saves import SavedTable
from cribtiles.table.seats import Seat, lone_bot
from cribtiles.terminal import say

from .handoff import hand_over
from .logs import LOG_FILE, setup_logging
from .storage import FolderInUse, Store

log = logging.getLogger("cribtiles.app")


def play_window(
    data_dir: Path | None,
    level: str | None,
    seed: int | None,
    options: RuleOptions | None,
    new_rules: bool,
    size: tuple[int, int] | None = None,
    seats: Sequence[Seat] | None = None,
    replay: SavedTable | None = None,
    title: bool = True,
    online_table: tuple[str, str, str | None] | None = None,
) -> int:
    """Open on the title screen over the saved game (straight onto the game when `title` is False:
    `--continue`), or start a new one: a level, players (`seats`), seed or rules given on the command
    line start a new game with them at once; what they leave out is what was chosen last on the New
    game screen (the rules, the players with their lone bot at the remembered level), and the table
    shows the rules in force. An unfinished saved game that such a new game replaces is kept in the
    history, marked unfinished, and the terminal and the window say so. `replay`: open straight onto
    that game's replay (closing it quits). `online_table` (server, code, name): sit down at that table
    online, as the Online screen's Join with a code does (`cribtiles online play`)."""
    try:
        import pygame  # noqa: F401
    except ImportError:
        say("cribtiles: pygame-ce is not installed, so there is no window; play in the terminal with --text")
        return 1
    store = Store(data_dir)
    log_path = setup_logging(store.folder) or store.folder / LOG_FILE
    try:
        folder_note = store.lock()
    except FolderInUse as e:  # never two windows on one saved game: the second would overwrite the first's
        if online_table is not None and hand_over(store.folder, online_table):
            say(f"cribtiles: Crib Tiles is already open; the table {online_table[1]} opens in its window.")
            return 0
        log.warning("refused to start: %s", e)
        say(f"cribtiles: {e}")
        tell_in_a_window("Crib Tiles is already open", str(e))
        return 1
    try:
        new_options = options if new_rules else None
        return _play(store, level, seed, new_options, size, folder_note, seats, replay, title, online_table)
    except Exception as e:  # a bug: say so, where the details are, and that the game is safe
        return _crashed(e, log_path, store.unsaved)
    finally:
        store.unlock()


def _crashed(e: Exception, log_path: Path, unsaved: str | None = None) -> int:
    """An unexpected error ended the window: log it with its traceback, and tell the player in words,
    on standard error and in a small window, with the log's path for a bug report. `unsaved`: why the
    game's latest save failed (then it is not said to be saved)."""
    log.exception("the game stopped on an unexpected error")
    what = f"{type(e).__name__}: {e}"
    what = what if len(what) <= 160 else what[:159] + "…"
    kept = (
        "Your game was saved after its last turn and goes on when you start again."
        if unsaved is None
        else unsaved_words(unsaved).capitalize()
    )
    text = (
        f"Crib Tiles stopped on an unexpected error ({what}). {kept} "
        f"The details are in {log_path}; please send that file with a bug report."
    )
    say(f"cribtiles: {text}")
    tell_in_a_window("Crib Tiles stopped", text)
    return 1


def _play(
    store: Store,
    level: str | None,
    seed: int | None,
    options: RuleOptions | None,
    size: tuple[int, int] | None,
    folder_note: str,
    seats: Sequence[Seat] | None,
    replay: SavedTable | None = None,
    title: bool = True,
    online_table: tuple[str, str, str | None] | None = None,
) -> int:
    prefs, notes = store.load_preferences()
    notes = " ".join(n for n in (folder_note, notes) if n)
    chosen = level if level is not None else lone_bot(seats or ())
    if chosen is not None:  # `--players You,easy` chooses the bot as `--level easy` does (and L, and New game)
        prefs.level = chosen
    saved = None
    asked_new = not (level is None and seed is None and options is None and seats is None)
    if not asked_new:
        saved, game_note = store.load_table(finished=True)
        notes = " ".join(n for n in (notes, game_note) if n)
    else:  # the game this one replaces: an unfinished one is kept in the history, and that is said
        kept = store.keep_unfinished()
        if kept:
            say(f"cribtiles: {kept}")
        notes = " ".join(n for n in (notes, kept) if n)
    if notes:
        log.warning("%s", notes)
    from cribtiles.ui.window import App

    from .online_games import online_services

    try:
        title = title and not asked_new and replay is None
        online = online_services(store.folder)
        app = App(
            saved, prefs, store, options, notice=notes, size=size, seed=seed, seats=seats, title=title, online=online
        )
    except Exception as e:  # no display: say so plainly
        if e.__class__.__name__ == "error":
            log.error("cannot open a window: %s", e)
            say(f"cribtiles: cannot open a window ({e}); play in the terminal with --text")
            return 1
        raise
    if online_table is not None:
        app.open_online_table(*online_table)
    if replay is not None:  # by its game's own replay scene, whichever game it is
        app.open_replay(replay, quit_on_close=True)
    width, height = app.screen.get_size()
    # said once Ctrl-C and SIGTERM are the window's to handle: from then on they stop it properly
    app.run(ready=lambda: log.info("window open at %dx%d", width, height))
    for err in store.errors[-1:]:
        say(f"cribtiles: {err}")
    stopped = f"stopped by {app.stopped_by}; " if app.stopped_by is not None else ""
    if store.unsaved is not None:  # never "saved" when it was not
        say(f"cribtiles: {stopped}{unsaved_words(store.unsaved)}")
    elif stopped:
        say(f"cribtiles: {stopped}your game is saved and goes on when you start again.")
    return 0 if app.stopped_by is None else 128 + int(getattr(signal, app.stopped_by))


def unsaved_words(why: str) -> str:
    """What quitting lost, when the game's latest save failed (`why`: the system's words)."""
    return f"your game could not be saved ({why}), so the turns played since it was last saved are lost."


def tell_in_a_window(title: str, text: str) -> None:
    """Show a message in a small window of its own (a game started from a menu has no terminal)."""
    try:
        from cribtiles.ui.message import show_message

        show_message(title, text)
    except Exception:  # no display, no pygame: the message went to standard error already
        log.info("the message could not be shown in a window", exc_info=True)
