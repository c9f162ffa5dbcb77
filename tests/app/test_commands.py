"""The one command line: the game's options at the top, a subcommand for every other command, one
error path, and no subcommand's module loaded for the game."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cribtiles.app.commands import COMMANDS
from cribtiles.app.main import main


def test_the_help_lists_every_subcommand_and_each_has_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    top = capsys.readouterr().out
    for command in COMMANDS:
        assert f"    {command.name} " in top
        assert main([command.name, "--help"]) == 0
        assert f"usage: cribtiles {command.name} " in capsys.readouterr().out
    for sub in ("score", "peg", "arena"):
        assert main(["cribbage", sub, "--help"]) == 0
        assert f"usage: cribtiles cribbage {sub} " in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--rules", "nonsense"], "cribtiles: 'nonsense': write options as name=value"),
        (["cribbage", "peg", "4H ZZ"], "cribtiles cribbage peg: 'ZZ' is not a card"),
        (["analyze", "--rack", "4L 5D 6L KD 9D 9L"], "cribtiles analyze: "),
        (["replay", "/nonexistent/game.json"], "cribtiles replay: "),
        (["review", "/nonexistent/game.json"], "cribtiles review: "),
    ],
)
def test_a_check_that_fails_is_one_line_naming_the_command_and_exit_2(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(line) and err.count("\n") == 1 and "usage:" not in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["history", "--colour"], "cribtiles history: error: unrecognized arguments: --colour"),
        (["cribbage"], "cribtiles cribbage: error: the following arguments are required: score|peg|discard|arena"),
        (["arena", "--bots", "easy"], "cribtiles arena: error: an arena needs 2 to 4 bots, not 1"),
        (["cribbage", "arena", "--bots", "easy,nope"], "cribtiles cribbage arena: error: there is no cribbage bot"),
        (["nonsense"], "cribtiles: error: argument COMMAND: invalid choice: 'nonsense'"),
        (["--seed", "x" * 5000], "cribtiles: error: argument --seed: invalid int value: 'xxxxx"),
    ],
)
def test_argparse_refusals_say_the_usage_and_why_bounded_and_exit_2(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ") and words in err and len(err) < 1500


def test_the_game_loads_no_subcommand_module() -> None:
    code = (
        "import sys; from cribtiles.app import main; main._parser(['--text', '--level', 'hard']); "
        "print(sorted(m for m in sys.modules if m.endswith(('_cli', '.arena', 'cribbage_arena'))))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert r.stdout.strip() == "[]"


def test_the_game_s_options_before_a_command_are_refused_not_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["--text", "history"],
        ["--data-dir", "/tmp/nowhere", "stats"],
        ["--level", "hard", "cribbage", "peg", "5H 5D"],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert f"{argv[0]} " in err and "a command's options follow its name" in err, err
