"""The `cribtiles` command: the game window (the default), `--text` for the terminal, `arena`."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from cribtiles import __version__
from cribtiles.bot import LEVELS
from cribtiles.rules import NotationError, RuleOptions
from cribtiles.ui.geometry import MAX_SIDE  # pure arithmetic: no pygame is imported


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="cribtiles",
        description="Crib Tiles: Kings Cribbage, the crossword tile game scored like cribbage.",
        epilog="Measure the bots: cribtiles arena --help",
    )
    ap.add_argument("--version", action="version", version=f"Crib Tiles {__version__}")
    ap.add_argument("--text", action="store_true", help="play in the terminal")
    ap.add_argument("--level", choices=LEVELS, help="the computer opponent (default: your last choice, or medium)")
    ap.add_argument("--seed", type=int, help="seed of the game's shuffles (a seed replays a game)")
    ap.add_argument("--rules", default="", help="rule options, like start=high,exchange=any-time,joker=on")
    ap.add_argument(
        "--data-dir", type=Path, help="keep saves and settings in this folder (default: the user data folder)"
    )
    ap.add_argument("--size", help="window size, like 1280x800")
    ap.add_argument(
        "--selftest", action="store_true", help="render every scene headless, play a game through the UI, exit"
    )
    return ap


_SIZE = re.compile(r"\s*([0-9]{1,6})\s*[x×]\s*([0-9]{1,6})\s*", re.IGNORECASE)  # ASCII digits: not '²'


def _size(text: str | None) -> tuple[int, int] | None:
    """The window size asked for with `--size`, like 1280x800; a ValueError in words otherwise.

    >>> _size("1280x800"), _size(None)
    ((1280, 800), None)
    """
    if not text:
        return None
    shown = text if len(text) <= 20 else text[:19] + "…"
    m = _SIZE.fullmatch(text)
    if m is None:
        raise ValueError(f"--size {shown!r}: write the width and height in pixels, like 1280x800")
    w, h = int(m[1]), int(m[2])
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise ValueError(
            f"--size {shown}: a window can be 1 to {MAX_SIDE} pixels on a side (it opens no larger than the screen)"
        )
    return w, h


def main(argv: Sequence[str] | None = None) -> int:
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen bundle's bot worker process starts here
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "arena":
        from cribtiles.table.arena import main as arena_main

        return arena_main(args_list[1:])
    args = _parser().parse_args(args_list)
    try:
        options = RuleOptions.parse(args.rules)
        size = _size(args.size)
    except (NotationError, ValueError) as e:
        print(f"cribtiles: {e}", file=sys.stderr)
        return 2
    if args.selftest:
        from .selftest import selftest

        return selftest(args.data_dir)
    if args.text:
        from .textgame import play_text_game

        asked_new = args.level is not None or args.seed is not None or bool(args.rules)
        return play_text_game(args.level, args.seed, options, data_dir=args.data_dir, new=asked_new)
    from .play import play_window

    return play_window(args.data_dir, args.level, args.seed, options, bool(args.rules), size)
