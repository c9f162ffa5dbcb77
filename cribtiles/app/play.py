"""Opening the window: settings and the saved game from the data folder, then the game loop."""

from __future__ import annotations

import sys
from pathlib import Path

from cribtiles.rules import RuleOptions

from .storage import Store


def play_window(
    data_dir: Path | None,
    level: str | None,
    seed: int | None,
    options: RuleOptions,
    new_rules: bool,
    size: tuple[int, int] | None = None,
) -> int:
    """Resume the saved game, or start one against `level` (a level, seed or rules given on the
    command line start a new game with them)."""
    try:
        import pygame  # noqa: F401
    except ImportError:
        print(
            "cribtiles: pygame-ce is not installed, so there is no window; play in the terminal with --text",
            file=sys.stderr,
        )
        return 1
    store = Store(data_dir)
    prefs, notes = store.load_preferences()
    if level is not None:
        prefs.level = level
    state = None
    if level is None and seed is None and not new_rules:
        state, game_note = store.load_game()
        notes = " ".join(n for n in (notes, game_note) if n)
    from cribtiles.ui.window import App

    try:
        app = App(state, prefs, store, options, notice=notes, size=size, seed=seed)
    except Exception as e:  # no display: say so plainly
        if e.__class__.__name__ == "error":
            print(f"cribtiles: cannot open a window ({e}); play in the terminal with --text", file=sys.stderr)
            return 1
        raise
    app.run()
    for err in store.errors[-1:]:
        print(f"cribtiles: {err}", file=sys.stderr)
    return 0
