"""`cribtiles replay FILE [--data-dir DIR] [--size WxH] [--text]`: a recorded game step by step in the
window, of either game (the file says which).

FILE is a saved table of either game (the game file of the data folder, or one exported from the
window), a game record or a match record of the tile game, or a bare record of a game of cribbage (as
the history keeps it). `--text` tells the game in words instead of opening the window, for a game that
is told (its `TOLD` part: cribbage, deal by deal). A file that is missing, cannot be read or is not a
record this version can replay is said in words on standard error, and the exit code is 2.

No game's own module is imported here: the file's game is its table's, and what differs is asked of it.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from pathlib import Path

from cribtiles.games import GAMES, TOLD, game_named
from cribtiles.table.saves import SavedTable, load_saved, unusable
from cribtiles.ui.geometry import window_size  # pure arithmetic: no pygame is imported

from .files import folder_named, read_named_file, shown_path

#: No record is near this size (a long match is tens of kilobytes): a larger file is not one.
MAX_BYTES = 8 * 1024 * 1024


def read_game(path: Path) -> SavedTable:
    """The table of a file, of either game: what `load_saved` reads (a saved table, a game or match
    record, a bare record of a game of cribbage). ValueError, in words that name the file, when it is
    missing, cannot be read, or is not a game that can be replayed."""
    name = shown_path(path)
    text = read_named_file(path, MAX_BYTES, name, "a game record")
    try:
        return load_saved(text)
    except ValueError as e:  # either game's refusal of the save, in words
        raise ValueError(f"{name}: {unusable(e)}") from None
    except (RecursionError, MemoryError):
        raise ValueError(f"{name}: the saved game is damaged (its data is nested too deeply)") from None


def told_games() -> list[str]:
    """The games `--text` tells, by their titles.

    >>> told_games()
    ['Cribbage']
    """
    return [kind.title for kind in GAMES.values() if kind.has(TOLD)]


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles replay`'s arguments on `ap`."""
    ap.description = (
        "Step through a recorded game on the board: a saved game, a game record or a match record, "
        "or a saved or exported game of cribbage."
    )
    ap.add_argument("file", type=Path, help="the game's file (saved or exported by Crib Tiles)")
    ap.add_argument(
        "--data-dir", type=folder_named, help="the folder of settings and saves (default: the user data folder)"
    )
    ap.add_argument("--size", help="window size, like 1280x800")
    ap.add_argument("--text", action="store_true", help="print a game of cribbage in words instead of opening a window")


def prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles replay`: its window, or its words (`--text`); ValueError for a size or a file that
    cannot be replayed, or a game that is not told in words."""
    size = window_size(args.size)
    table = read_game(args.file)
    if args.text:
        kind = game_named(table.game)
        if not kind.has(TOLD):
            told = " or ".join(f"a game of {title}" for title in told_games())
            raise ValueError(f"{shown_path(args.file)}: --text tells {told}; this is a game of {kind.title}")
        words: str = kind.part(TOLD)(table)
        return lambda: _told(words)
    from .play import play_window

    # no new rules: the replay is of the table's own
    return functools.partial(play_window, args.data_dir, None, None, None, False, size, None, replay=table)


def _told(words: str) -> int:
    print(words)  # a record's names and cards only: the engine refused any control character in a name
    return 0
