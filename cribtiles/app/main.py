"""The `cribtiles` command: play (the default), `arena` to measure bots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

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
    ap.add_argument("--level", choices=LEVELS, default="medium", help="the computer opponent (default medium)")
    ap.add_argument("--seed", type=int, help="seed of the game's shuffles (a seed replays a game)")
    ap.add_argument("--rules", default="", help="rule options, like start=high,exchange=any-time,joker=on")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "arena":
        from cribtiles.bot.arena import main as arena_main

        return arena_main(args_list[1:])
    args = _parser().parse_args(args_list)
    try:
        options = RuleOptions.parse(args.rules)
    except NotationError as e:
        print(f"cribtiles: {e}", file=sys.stderr)
        return 2
    from .textgame import play_text_game

    play_text_game(args.level, args.seed, options)
    return 0
