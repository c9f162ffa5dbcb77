"""`cribtiles replay FILE [--data-dir DIR] [--size WxH] [--text]`: a recorded game step by step in the
window, of either game (the file says which).

FILE is a saved table (the game file of the data folder, or one exported from the window), a game
record or a match record of the tile game, or a saved or exported game of cribbage, or a bare record
of one. `--text` prints a game of cribbage in words, deal by deal, instead of opening the window. A
file that is missing, cannot be read or is not a record this version can replay is said in words on
standard error, and the exit code is 2.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable
from pathlib import Path

from cribtiles.cribbage.game import RECORD_GAME
from cribtiles.rules.errors import RecordError
from cribtiles.table.cribbage.replay import replay_words
from cribtiles.table.cribbage.table import CribbageSaveError, CribbageTable
from cribtiles.table.saves import load_saved, load_table
from cribtiles.table.tiles.table import Table
from cribtiles.ui.geometry import window_size  # pure arithmetic: no pygame is imported

from ..files import folder_named, read_named_file, shown_path

#: No record is near this size (a long match is tens of kilobytes): a larger file is not one.
MAX_BYTES = 8 * 1024 * 1024


def read_table(path: Path) -> Table:
    """The game of a file: a saved table, a game record or a match record. ValueError, in words that
    name the file, when it is missing, cannot be read, or is not a record that can be replayed."""
    name = shown_path(path)
    text = read_named_file(path, MAX_BYTES, name, "a game record")
    try:
        return load_table(text)
    except RecordError as e:
        raise ValueError(f"{name}: {e}") from None
    except (RecursionError, MemoryError):
        raise ValueError(f"{name}: the saved game is damaged (its data is nested too deeply)") from None


def read_game(path: Path) -> Table | CribbageTable:
    """The game of a file, of either game: what `read_table` reads, a saved or exported game of
    cribbage, or a bare record of one (as the history keeps it). ValueError, in words that name the
    file, when it is missing, cannot be read, or is not a game that can be replayed."""
    name = shown_path(path)
    text = read_named_file(path, MAX_BYTES, name, "a game record")
    try:
        bare = _bare_cribbage(text)
        if bare is not None:
            return CribbageTable.from_record(bare)
        return load_saved(text)
    except (RecordError, CribbageSaveError) as e:
        what = "the saved game of cribbage cannot be used: " if isinstance(e, CribbageSaveError) else ""
        raise ValueError(f"{name}: {what}{e}") from None
    except (RecursionError, MemoryError):
        raise ValueError(f"{name}: the saved game is damaged (its data is nested too deeply)") from None


def _bare_cribbage(text: str) -> dict[str, object] | None:
    """The record of a game of cribbage the file barely holds (the engine's, without seats); None when
    it holds something else."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    bare = isinstance(data, dict) and data.get("game") == RECORD_GAME and "format" not in data
    return data if bare else None


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
    """`cribtiles replay`: its window; ValueError for a size or a file that cannot be replayed."""
    size = window_size(args.size)
    table = read_game(args.file)
    if args.text:
        if not isinstance(table, CribbageTable):
            raise ValueError(f"{shown_path(args.file)}: --text tells a game of cribbage; this is a game of Crib Tiles")
        words = replay_words(table)
        return lambda: _told(words)
    from ..play import play_window

    options = table.options if isinstance(table, Table) else None
    return functools.partial(play_window, args.data_dir, None, None, options, False, size, None, replay=table)


def _told(words: str) -> int:
    print(words)  # a record's names and cards only: the engine refused any control character in a name
    return 0
