"""The `cribtiles` command: the game window (the default), `--text` for the terminal, `arena`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from cribtiles import __version__
from cribtiles.bot import LEVELS
from cribtiles.rules import NotationError, RuleOptions


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


def _size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    w, _, h = text.lower().partition("x")
    if not (w.isdigit() and h.isdigit()):
        raise ValueError(f"--size {text!r}: write it like 1280x800")
    return int(w), int(h)


def main(argv: Sequence[str] | None = None) -> int:
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen bundle's bot worker process starts here
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "arena":
        from cribtiles.bot.arena import main as arena_main

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

        play_text_game(args.level or "medium", args.seed, options)
        return 0
    from .play import play_window

    return play_window(args.data_dir, args.level, args.seed, options, bool(args.rules), size)
