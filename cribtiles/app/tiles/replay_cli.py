"""`cribtiles replay FILE [--data-dir DIR] [--size WxH]`: a recorded game step by step in the window.

FILE is a saved table (the game file of the data folder, or one exported from the window), a game
record or a match record. A file that is missing, cannot be read or is not a record this version can
replay is said in words on standard error, and the exit code is 2.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from pathlib import Path

from cribtiles.rules.errors import RecordError
from cribtiles.table.saves import load_table
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


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles replay`'s arguments on `ap`."""
    ap.description = "Step through a recorded game on the board: a saved game, a game record or a match record."
    ap.add_argument("file", type=Path, help="the game's file (saved or exported by Crib Tiles)")
    ap.add_argument(
        "--data-dir", type=folder_named, help="the folder of settings and saves (default: the user data folder)"
    )
    ap.add_argument("--size", help="window size, like 1280x800")


def prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles replay`: its window; ValueError for a size or a file that cannot be replayed."""
    size = window_size(args.size)
    table = read_table(args.file)
    from ..play import play_window

    return functools.partial(play_window, args.data_dir, None, None, table.options, False, size, None, replay=table)
