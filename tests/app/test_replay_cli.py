"""`cribtiles replay FILE`: a saved table, a game record or a match record opens the window on its
replay; a missing, unreadable or damaged file is said in words on standard error, exit 2; `--text` tells
only a game that its game tells in words (tests/app/cribbage/test_replay_export.py: cribbage's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cribtiles.app import replay_cli
from cribtiles.app.files import shown_path
from cribtiles.app.main import main as cribtiles_main
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.record import record_of, save_match
from cribtiles.table import parse_players
from cribtiles.table.saves import save_table
from cribtiles.table.tiles.table import Table


def a_table(rules: str = "") -> Table:
    table = Table.new(parse_players("You,medium"), RuleOptions.parse(rules), 5)
    for _ in range(6):
        move = table.state.legal_actions()[0]
        if table.bot_to_move:
            table.play_bot(move)
        else:
            table.play(move)
    return table


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The calls that would have opened the window."""
    calls: list[dict[str, Any]] = []

    def play_window(*args: Any, **kwargs: Any) -> int:
        calls.append({"args": args, **kwargs})
        return 0

    from cribtiles.app import play

    monkeypatch.setattr(play, "play_window", play_window)
    return calls


def refused(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    assert cribtiles_main(["replay", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cribtiles replay: ") and "Traceback" not in err
    return err


def test_a_saved_table_a_game_record_and_a_match_record_open_on_their_replay(
    tmp_path: Path, opened: list[dict[str, Any]]
) -> None:
    table = a_table()
    saved = tmp_path / "game.json"
    saved.write_text(save_table(table))
    game = tmp_path / "record.json"
    game.write_text(record_of(table.state).to_json())
    match_table = a_table("rounds=2")
    match = tmp_path / "match.json"
    match.write_text(save_match(match_table.match))
    data = tmp_path / "data"
    assert cribtiles_main(["replay", str(saved), "--data-dir", str(data), "--size", "1024x700"]) == 0
    assert cribtiles_main(["replay", str(game)]) == 0
    assert cribtiles_main(["replay", str(match)]) == 0  # as the command dispatches it
    first, second, third = (call["replay"] for call in opened)
    assert first.state == table.state and first.seats == table.seats
    assert opened[0]["args"][0] == data and opened[0]["args"][5] == (1024, 700)
    assert opened[0]["args"][3:5] == (None, False)  # no new rules: the replay is of the table's own
    assert second.state == table.state and [s.is_bot for s in second.seats] == [False, True]
    assert third.match == match_table.match


def test_files_that_cannot_be_replayed_are_said_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opened: list[dict[str, Any]]
) -> None:
    assert "there is no file" in refused(capsys, [str(tmp_path / "nowhere.json")])
    assert "is a folder, not a game record" in refused(capsys, [str(tmp_path)])
    junk = tmp_path / "junk.json"
    junk.write_bytes(bytes(range(256)) * 4)
    assert "not a text file" in refused(capsys, [str(junk)])
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "cribtiles-table", "seats": [')
    assert "damaged (not valid JSON" in refused(capsys, [str(broken)])
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"name": "a shopping list"}))
    assert "not a Crib Tiles game" in refused(capsys, [str(other)])
    record = json.loads(record_of(a_table().state).to_json())
    record["actions"][2] = "a1=5D"  # a square the board's name covers
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(record))
    assert "breaks off at action 3 ('a1=5D')" in refused(capsys, [str(damaged)])
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert "damaged" in refused(capsys, [str(deep)])
    long_name = tmp_path / ("x" * 200 + ".json")
    err = refused(capsys, [str(long_name)])
    assert "…" in err and len(err) < 200  # a long path is cut short
    assert opened == []


def test_a_file_that_cannot_be_read_or_is_far_too_large(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, opened: list[dict[str, Any]]
) -> None:
    big = tmp_path / "big.json"
    big.write_text(save_table(a_table()))
    monkeypatch.setattr(replay_cli, "MAX_BYTES", 100)
    assert "far too large to be a game record" in refused(capsys, [str(big)])
    monkeypatch.undo()

    def denied(self: Path, *args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", denied)
    assert "cannot be read: permission denied" in refused(capsys, [str(big)])
    assert opened == []


def test_text_refuses_a_game_that_is_not_told_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opened: list[dict[str, Any]]
) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(save_table(a_table()))
    err = refused(capsys, [str(saved), "--text"])
    assert err.startswith(f"cribtiles replay: {shown_path(saved)}: ")
    assert err.endswith(": --text tells a game of Cribbage; this is a game of Kings Cribbage\n")
    assert opened == []


def test_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(save_table(a_table()))
    assert "--size 'huge'" in refused(capsys, [str(saved), "--size", "huge"])
    assert cribtiles_main(["replay"]) == 2  # argparse says which argument is missing
    assert "the following arguments are required: file" in capsys.readouterr().err
    assert cribtiles_main(["replay", "--help"]) == 0


def test_the_command_says_it_without_a_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    broken = tmp_path / "broken.json"
    broken.write_text("not json at all")
    r = subprocess.run(
        [sys.executable, "-m", "cribtiles", "replay", str(broken), "--data-dir", str(tmp_path / "data")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"cribtiles replay: {shown_path(broken)}: the saved game is damaged (not valid JSON")
    assert "Traceback" not in r.stderr and not (tmp_path / "data").exists()  # nothing was written
