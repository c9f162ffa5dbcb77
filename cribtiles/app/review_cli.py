"""`cribtiles review FILE [--json] [--seed N] [--rules R] [the game's own flags]`: a recorded game of
either game (the file says which) against the best found, as its game reviews it: every turn of the
tile game (every round of a match) against the best move of Expert analysis, or every discard and card
laid of a game of cribbage; the biggest misses, and each player's totals.

FILE is what `cribtiles replay` reads (`replay_cli.read_game`): a saved table of either game, a game or
match record, a bare record of a game of cribbage. Each game adds its own flags (its `REVIEW_FLAGS`
part: the tile game's `--budget`, cribbage's `--guesses`) and makes the run from the table (its
`REVIEW_RUN`, which checks them, and `--rules`: rule options to review the game under instead of its
record's, which the tile game takes and cribbage refuses): `cribtiles.app.tiles.review_cli` and
`cribtiles.app.cribbage.review_cli` say what each prints, and their JSON documents. A file that is
missing, cannot be read or is not a record that can be replayed, or a flag or a game the review
refuses, is said in words on standard error, and the exit code is 2 (as for bad arguments). While the
review runs, its progress is written to standard error when that is a terminal.

No game's own module is imported here: the file's game is its table's, and its review is asked of it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from cribtiles.games import GAMES, REVIEW_FLAGS, REVIEW_RUN, game_named

from .replay_cli import read_game


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles review`'s arguments on `ap`: the file, `--json`, `--seed`, and each game's own flags
    (one command takes either game's file)."""
    ap.description = (
        "Review a recorded game: every turn of every player against the best move found by Expert "
        "analysis (in cribbage, every discard and card laid against the best found), the biggest misses, "
        "and each player's totals."
    )
    ap.add_argument(
        "file", type=Path, help="the game's file: a saved game, a game record or a match record, of either game"
    )
    ap.add_argument("--json", action="store_true", help="print a JSON document (see the module's notes)")
    for kind in GAMES.values():
        if kind.has(REVIEW_FLAGS):
            kind.part(REVIEW_FLAGS)(ap)
    ap.add_argument("--seed", type=int, default=0, help="the seed of the analysis's guesses (default 0)")
    ap.add_argument(
        "--rules",
        default="",
        help="Crib Tiles: rule options to review the game under instead of its record's, as the game takes "
        "them (bonuses=off: the same moves weighed without bonuses)",
    )


def prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles review`: its run, of the file's game; ValueError for a file, a flag or a game that
    cannot be reviewed."""
    table = read_game(args.file)
    run: Callable[[], int] = game_named(table.game).part(REVIEW_RUN)(table, args, sys.stderr)
    return run
