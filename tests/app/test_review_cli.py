"""`cribtiles review FILE`, of either game (issue 45): the file's game reviews it, with its own flags
(tests/app/tiles/test_review_cli.py and tests/app/cribbage/test_review_cli.py: what each prints); its
help names every game's flags and whose they are; a missing or damaged file, or a flag the game
refuses, is said in words with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cribtiles.app.main import main as cribtiles_main
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.saves import save_table
from tests.app.test_replay_cli import a_table


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cribtiles_main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


def a_cribbage_table() -> CribbageTable:
    """A game of cribbage under way: the person's moves the first legal, the bot Medium's."""
    table = CribbageTable.new(3, "medium")
    for _ in range(12):
        if table.bot_to_move:
            table.bot_move()
        else:
            table.play(table.state.legal_actions()[0])
    return table


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(save_table(a_table()), encoding="utf-8")
    return path


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    """A game of cribbage's bare record, as the history keeps it."""
    path = tmp_path / "crib.json"
    path.write_text(json.dumps(a_cribbage_table().state.record()), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "there is no file"),
        (b"{not json", "the saved game is damaged"),
        (b"\xff\xfe\x00garbage", "is not a text file"),
        (b'{"format": "something else"}', "not a Crib Tiles game"),
        (b'{"game": "classic cribbage", "moves": 3}', "the saved game of cribbage cannot be used: "),
    ],
)
def test_a_missing_or_damaged_file_is_said_in_words(
    content: bytes | None, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, str(path))
    assert code == 2 and out == ""
    assert err.startswith("cribtiles review: ") and said in err and "Traceback" not in err


def test_the_cribtiles_command_dispatches_review_and_its_help_names_the_options(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cribtiles_main(["review", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps the help's lines
    for option in ("--json", "--budget", "--seed", "--rules", "--guesses"):
        assert option in out
    assert "Crib Tiles: rule options to review the game under" in out  # whose each game's flag is
    assert "a game of cribbage: guesses at the opponent's cards" in out
    assert cribtiles_main(["review", str(saved), "--budget", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "cribtiles-review"


def test_each_game_s_file_is_reviewed_as_its_game_does(
    saved: Path, bare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(bare), "--guesses", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "cribtiles-cribbage-review" and data["guesses"] == 2
    assert data["players"] == ["You", "Medium bot"] and data["decisions"]
    code, out, err = run(capsys, str(saved), "--budget", "0", "--seed", "4", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["format"], data["budget"], data["seed"]) == ("cribtiles-review", 0.0, 4)
    assert len(data["turns"]) == 6


def test_a_flag_the_file_s_game_does_not_take_is_said_in_words(
    saved: Path, bare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(bare), "--rules", "bonuses=off")
    assert code == 2 and out == ""
    assert err == (
        "cribtiles review: --rules is for a game of Crib Tiles; a game of cribbage is reviewed by its own rules\n"
    )
    code, out, err = run(capsys, str(saved), "--budget", "0", "--rules", "bonuses=maybe")
    assert code == 2 and out == "" and "--rules: bonuses may be on or off" in err
