"""`cribtiles replay FILE [--data-dir DIR] [--size WxH]`: a recorded game step by step in the window.

FILE is a saved table (the game file of the data folder, or one exported from the window), a game
record or a match record. A file that is missing, cannot be read or is not a record this version can
replay is said in words on standard error, and the exit code is 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from cribtiles.rules.errors import RecordError
from cribtiles.table.model import Table
from cribtiles.table.saves import load_table
from cribtiles.terminal import Parser, say
from cribtiles.ui.geometry import window_size  # pure arithmetic: no pygame is imported

from .files import folder_named, read_named_file, shown_path

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


def _parser() -> argparse.ArgumentParser:
    ap = Parser(
        prog="cribtiles replay",
        description="Step through a recorded game on the board: a saved game, a game record or a match record.",
    )
    ap.add_argument("file", type=Path, help="the game's file (saved or exported by Crib Tiles)")
    ap.add_argument(
        "--data-dir", type=folder_named, help="the folder of settings and saves (default: the user data folder)"
    )
    ap.add_argument("--size", help="window size, like 1280x800")
    return ap


def main(args: Sequence[str]) -> int:
    """The `cribtiles replay` command; its exit code (2: bad arguments or a file that cannot be replayed)."""
    try:
        ns = _parser().parse_args(list(args))
    except SystemExit as e:  # argparse has said what was wrong (or printed the help)
        return e.code if isinstance(e.code, int) else 2
    try:
        size = window_size(ns.size)
        table = read_table(ns.file)
    except ValueError as e:
        say(f"cribtiles replay: {e}")
        return 2
    from .play import play_window

    return play_window(ns.data_dir, None, None, table.options, False, size, None, replay=table)
