"""The `cribtiles` command line: one parser, the game's options at its top and a subcommand for each of
the other commands, and one error path for all of them.

Each command is a row of `COMMANDS`: its name, its line in `cribtiles --help`, and the module that
gives two functions, one adding its arguments to a parser (its description too) and one preparing
its run from the parsed arguments:

    add_arguments(ap: argparse.ArgumentParser) -> None
    prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]

`prepare` checks the arguments (reads the files they name) and returns the run, whose result is the
exit code. A check that fails raises ValueError (NotationError, CardError, ...): `run` says
"cribtiles <command>: <why>" on standard error and the exit code is 2. argparse's own refusals (and
`ap.error`, which the arenas' checks use) say the usage and why, exit code 2; `--help` exits with 0.

A command's module is imported only when its name is on the command line: the game starts without
loading the others (`python -X importtime -m cribtiles --version`).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cribtiles.terminal import say

Run = Callable[[], int]
Prepare = Callable[[argparse.ArgumentParser, argparse.Namespace], Run]

_PARSER, _PREPARE = "command_parser", "command_prepare"  # where a parsed command line keeps its command


@dataclass(frozen=True)
class Command:
    """A subcommand: `cribtiles NAME ...`, its arguments added by `MODULE.<add>` and run by `MODULE.<prepare>`."""

    name: str
    help: str
    module: str
    add: str = "add_arguments"
    prepare: str = "prepare"


COMMANDS = (
    Command("history", "list the finished games, oldest first", "cribtiles.app.history_cli", "add_history_arguments"),
    Command("stats", "statistics of the finished games", "cribtiles.app.history_cli", "add_stats_arguments"),
    Command("replay", "step through a recorded game on the board", "cribtiles.app.replay_cli"),
    Command("analyze", "the best plays for a rack on a board", "cribtiles.app.tiles.analyze_cli"),
    Command("review", "every turn of a recorded game against the best move", "cribtiles.app.review_cli"),
    Command("arena", "measure bots of either game against each other over paired games", "cribtiles.table.arena"),
    Command(
        "cribbage",
        "classic cribbage: score a hand or the play, advise a discard, its bots' arena",
        "cribtiles.app.cribbage.cli",
    ),
    Command(
        "serve", "run a server for online play", "cribtiles.app.online_cli", "add_serve_arguments", "prepare_serve"
    ),
    Command(
        "online",
        "online tables: create one, list the open ones, seat a bot, see how one stands, sit at one in the window",
        "cribtiles.app.online_cli",
    ),
)


def runs(ap: argparse.ArgumentParser, prepare: Prepare) -> None:
    """`ap` (the top parser, or a subcommand's) runs as `prepare` says when the command line names it."""
    ap.set_defaults(**{_PARSER: ap, _PREPARE: prepare})


def add_commands(ap: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """The subcommands on `ap`, each listed in its help; the arguments of those named in `argv` only."""
    subcommands = ap.add_subparsers(title="commands", metavar="COMMAND", help="(each with --help)")
    named = set(argv)
    for command in COMMANDS:
        sub = subcommands.add_parser(command.name, help=command.help, description=command.help)
        if command.name in named:
            module = importlib.import_module(command.module)
            getattr(module, command.add)(sub)
            runs(sub, getattr(module, command.prepare))


def _game_options_given(where: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """The game's options given before a command's name (`cribtiles --text history`): a command takes its
    options after its name, and would drop these without a word."""
    words = where.prog.split()
    if len(words) < 2 or words[1] not in argv:
        return []
    return [word for word in argv[: list(argv).index(words[1])] if word.startswith("-")]


def run(ap: argparse.ArgumentParser, argv: Sequence[str]) -> int:
    """Parse `argv` with `ap` (see `add_commands` and `runs`), check it and run what it asks for; the
    exit code. The one place where every command's bad arguments become words and exit code 2."""
    try:
        args, unknown = ap.parse_known_args(list(argv))
        where: argparse.ArgumentParser = getattr(args, _PARSER)
        if unknown:  # said by the command's own parser, with its usage (parse_args would give the top's)
            where.error(f"unrecognized arguments: {' '.join(unknown)}")
        stray = _game_options_given(where, argv)
        if stray:  # `cribtiles --text history`: the game's options mean nothing to a command
            name = where.prog.split()[1]
            where.error(
                f"{' '.join(stray)} before {name!r}: a command's options follow its name (cribtiles {name} --help)"
            )
        try:
            job = getattr(args, _PREPARE)(where, args)
        except ValueError as e:
            say(f"{where.prog}: {e}")
            return 2
    except SystemExit as e:  # --help or --version (0), or arguments refused (2): argparse has said why
        return e.code if isinstance(e.code, int) else 2
    result: int = job()
    return result
