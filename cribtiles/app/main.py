"""The `cribtiles` command: the game window (the default), `--text` for the terminal, the other commands
(`cribtiles --help` lists them; `commands` parses and runs them all), and a table's `cribtiles://` address,
which opens the window seated there (a desktop's URL handler runs `cribtiles %u`)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cribtiles import __version__
from cribtiles.bot import LEVELS
from cribtiles.rules import RuleOptions
from cribtiles.rules.movegen import CORE_DESCRIPTION
from cribtiles.table.seats import Seat, parse_players
from cribtiles.terminal import Parser, say
from cribtiles.ui.geometry import window_size  # pure arithmetic: no pygame is imported

from . import commands
from .files import folder_named

if TYPE_CHECKING:
    from sys import UnraisableHookArgs

OUT_OF_MEMORY = "cribtiles: out of memory (a limit such as ulimit -v, or a full machine): stopped"


def _parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The command line: the game's options, and the subcommands (the arguments of those named in `argv`)."""
    ap = Parser(
        prog="cribtiles",
        description="Crib Tiles: Kings Cribbage, the crossword tile game scored like cribbage.",
        epilog="cribtiles cribtiles://HOST:PORT/t/CODE opens the window seated at that online table, as "
        "cribtiles online play does (it is what a desktop runs for an invitation's Open in Crib Tiles).",
    )
    ap.add_argument("--version", action="version", version=f"Crib Tiles {__version__} ({CORE_DESCRIPTION})")
    ap.add_argument("--text", action="store_true", help="play in the terminal")
    ap.add_argument(
        "--continue",
        dest="resume",
        action="store_true",
        help="go straight to the game you left, without the title screen",
    )
    ap.add_argument("--level", choices=LEVELS, help="the computer opponent (default: your last choice, or medium)")
    ap.add_argument(
        "--players", help="who plays, 2 to 4, each a bot level or a person's name: Ann,Ben,hard (--level X is You,X)"
    )
    ap.add_argument("--seed", type=int, help="seed of the game's shuffles (a seed replays a game)")
    ap.add_argument("--rules", default="", help="rule options, like start=high,exchange=any-time,joker=on")
    ap.add_argument(
        "--data-dir", type=folder_named, help="keep saves and settings in this folder (default: the user data folder)"
    )
    ap.add_argument("--size", help="window size, like 1280x800")
    ap.add_argument(
        "--selftest", action="store_true", help="render every scene headless, play a game through the UI, exit"
    )
    commands.runs(ap, _prepare_game)
    commands.add_commands(ap, argv)
    return ap


def _seats(players: str | None, level: str | None, options: RuleOptions) -> tuple[Seat, ...] | None:
    """The seats asked for on the command line (None: none were); a ValueError in words otherwise.

    >>> [(s.name, s.level) for s in _seats(None, "hard", RuleOptions()) or ()]
    [('You', None), ('Hard', 'hard')]
    """
    if players is not None and level is not None:
        raise ValueError("--players and --level: give one of them (--level hard is --players You,hard)")
    if level is not None:
        return (Seat.person("You"), Seat.bot(level))
    if players is None:
        return None
    seats = parse_players(players)
    if options.solitaire and len(seats) != 2:
        raise ValueError(
            f"--players: Solitaire is played by two sides, Dark and Light, not {len(seats)} players "
            "(one person may play both: You,You)"
        )
    return seats


def main(argv: Sequence[str] | None = None) -> int:
    """The `cribtiles` command; its exit code. Ctrl-C in any mode ends it with 130 and no traceback,
    a reader of its output that goes away (`cribtiles --text | head`) ends it quietly, and running
    out of memory (a low `ulimit -v`) ends it with one line and 1."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # the modes catch it themselves; this is Ctrl-C between them (loading)
        say("\ncribtiles: interrupted")
        return 130
    except BrokenPipeError:
        with contextlib.suppress(OSError):  # say nothing more to the closed pipe, also at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a program ended by SIGPIPE
    except MemoryError:  # the modes that keep a game save it first; this is the rest (loading, the arenas)
        pass
    print(OUT_OF_MEMORY, file=sys.stderr)  # once the traceback, and the memory it holds, is let go
    return 1


def _quiet_when_out_of_memory(unraisable: UnraisableHookArgs) -> None:
    """sys.unraisablehook: out of memory, the generators and finalizers closed on the way out fail
    too, each with its own "Exception ignored in" block; they say nothing that the one line does not.
    Any other such exception is printed as Python does."""
    if not issubclass(unraisable.exc_type, MemoryError):
        sys.__unraisablehook__(unraisable)


def _main(argv: Sequence[str] | None) -> int:
    import multiprocessing

    sys.unraisablehook = _quiet_when_out_of_memory

    multiprocessing.freeze_support()  # a frozen bundle's bot worker process starts here
    args_list = opened_by_link(list(sys.argv[1:] if argv is None else argv))
    return commands.run(_parser(args_list), args_list)


def opened_by_link(argv: list[str]) -> list[str]:
    """`cribtiles cribtiles://HOST:PORT/t/CODE` (what a desktop runs for a link of the game's scheme: the
    installers register `cribtiles %u`) is `cribtiles online play cribtiles://…`: the window, seated at that
    table. The options with it stay with it (`--data-dir`); a command's own arguments are left alone.

    >>> opened_by_link(["--data-dir", "d", "cribtiles://h:1/t/KXQMWD"])
    ['online', 'play', 'cribtiles://h:1/t/KXQMWD', '--data-dir', 'd']
    >>> opened_by_link(["online", "play", "cribtiles://h:1/t/KXQMWD"]), opened_by_link(["--level", "hard"])
    (['online', 'play', 'cribtiles://h:1/t/KXQMWD'], ['--level', 'hard'])
    """
    at = [i for i, word in enumerate(argv) if word.lower().startswith("cribtiles://")]
    if len(at) != 1 or any(word in {c.name for c in commands.COMMANDS} for word in argv[: at[0]]):
        return argv
    return ["online", "play", argv[at[0]], *argv[: at[0]], *argv[at[0] + 1 :]]


def _prepare_game(ap: argparse.ArgumentParser, args: argparse.Namespace) -> commands.Run:
    """The game (no subcommand): in the window, in the terminal (`--text`) or the self-test."""
    options = RuleOptions.parse(args.rules)
    size = window_size(args.size)
    seats = _seats(args.players, args.level, options)
    if args.selftest:
        from .selftest import selftest

        return functools.partial(selftest, args.data_dir)
    if args.text:
        from .tiles.textgame import play_text_game

        asked_new = args.level is not None or args.seed is not None or bool(args.rules)
        asked_new = asked_new or args.players is not None
        return functools.partial(
            play_text_game, args.level, args.seed, options, data_dir=args.data_dir, new=asked_new, seats=seats
        )
    from .play import play_window

    return functools.partial(
        play_window, args.data_dir, args.level, args.seed, options, bool(args.rules), size, seats, title=not args.resume
    )
