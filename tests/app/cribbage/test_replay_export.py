"""A game of cribbage exported as the tile game's are (the data folder's exports, never through a link),
read back by `cribtiles replay FILE` (the game told by the file: the window's replay, or `--text` in
words), from the History's record too; a damaged export said in words (issue 32); a game won at the
answer to a count, and one of before won at the count, each told as it was played (issue 43)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cribtiles.app.main import main as cribtiles_main
from cribtiles.app.storage import Store
from cribtiles.cribbage.moves import parse_move
from cribtiles.table.cribbage.table import CribbageTable
from tests.app.test_replay_cli import opened, refused  # noqa: F401  (a fixture, used by name)
from tests.table.cribbage.test_open_call import bots_winning_count


def finished(seed: int = 3) -> CribbageTable:
    table = CribbageTable.new(seed, "medium")
    while not table.is_over:
        if table.bot_to_move:
            table.bot_move()
        else:
            table.play(table.state.legal_actions()[0])
    return table


def exported(folder: Path, table: CribbageTable) -> Path:
    said = Store(folder).export_game(table)
    assert said.startswith("The game's record was written to ") and "cribtiles replay FILE" in said
    [path] = (folder / "exports").iterdir()
    assert path.name.startswith("cribbage-") and path.suffix == ".json"
    return path


def test_an_export_replays_in_words_deal_by_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = finished()
    table.undos = 2
    path = exported(tmp_path / "data", table)
    assert CribbageTable.from_json(path.read_text()).undos == 2  # the marks go with it
    assert cribtiles_main(["replay", str(path), "--text"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0] == "Cribbage: You against Medium bot, to 121 (seed 3)."
    assert "Deal 1: " in text and f"Deal {table.state.deal_number}: " in text
    first = lines.index(next(line for line in lines if line.startswith("Deal 1: ")))
    assert lines[first + 1].startswith("  You hold ") and lines[first + 2].startswith("  Medium bot holds ")
    summary = table.summary()
    assert summary is not None and lines[-2:] == [summary.words, summary.margin_words]
    assert sum(1 for line in lines if line.startswith("  The starter is ")) == table.state.deal_number


def test_an_export_and_a_bare_record_open_on_the_cribbage_replay(
    tmp_path: Path,
    opened: list[dict[str, Any]],  # noqa: F811
) -> None:
    table = finished(4)
    path = exported(tmp_path / "data", table)
    bare = tmp_path / "record.json"
    bare.write_text(json.dumps(table.state.record()))  # as the history keeps it
    assert cribtiles_main(["replay", str(path), "--size", "1024x700"]) == 0
    assert cribtiles_main(["replay", str(bare)]) == 0
    first, second = (call["replay"] for call in opened)
    assert isinstance(first, CribbageTable) and first.state == table.state and first.seats == table.seats
    assert isinstance(second, CribbageTable) and second.state == table.state
    assert [s.level for s in second.seats] == [None, "medium"]  # "Medium bot" is the Medium bot


def test_a_damaged_export_is_said_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = exported(tmp_path / "data", finished(5))
    good = path.read_text()
    path.write_text(good[: len(good) // 2])
    err = refused(capsys, [str(path), "--text"])
    assert "not valid JSON" in err
    data = json.loads(good)
    data["record"]["moves"][3] = "play ZZ"
    path.write_text(json.dumps(data))
    err = refused(capsys, [str(path), "--text"])
    assert "the saved game of cribbage cannot be used: it cannot be replayed: move 4 of the record" in err
    data["record"]["moves"][3] = "play 7C 7C 7C"
    data["seats"] = "everyone"
    path.write_text(json.dumps(data))
    assert "its seats are missing" in refused(capsys, [str(path)])


def test_a_linked_exports_folder_receives_no_game_of_cribbage(tmp_path: Path) -> None:
    data, outside = tmp_path / "data", tmp_path / "outside"
    data.mkdir()
    outside.mkdir()
    (data / "exports").symlink_to(outside, target_is_directory=True)
    said = Store(data).export_game(finished())
    assert "could not be written" in said and "symbolic link" in said
    assert list(outside.iterdir()) == []


def test_the_history_replays_a_game_of_cribbage_with_its_marks(tmp_path: Path) -> None:
    store = Store(tmp_path)
    table = finished(6)
    store.record_cribbage(table.state, 0, "medium", (1, 0))
    [game] = store.past_games()
    again = store.past_cribbage(game.id)
    assert again is not None and again.state == table.state and again.undos == 1
    assert [s.level for s in again.seats] == [None, "medium"]
    assert store.past_cribbage(game.id + 1) is None and store.past_table(game.id) is None


def test_a_game_won_at_the_answer_to_a_count_and_one_of_before_won_at_the_count_replay_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under muggins a count that wins is answered first (issue 43): the words end with the answer. A record
    of before (without `end_on_answer`) was won at the count itself, and is told so."""
    table = bots_winning_count()
    table.play_bot(parse_move("count 6"))
    table.play(parse_move("no muggins"))
    path = exported(tmp_path / "data", table)
    assert cribtiles_main(["replay", str(path), "--text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-6:] == [
        "  Hard bot counted the hand: 6.",
        "      +6 Hard bot: counts 6",
        "  You let the Hard bot's hand stand (6).",
        "",
        "Hard bot wins by a lurch (skunk), 61 to 29.",
        "A skunk (a lurch): you did not reach 31.",
    ]
    before = {**table.state.record(), "moves": list(table.state.log[:-1])}
    before["options"] = {"muggins": True, "play_muggins": False, "target": 61}  # as records were written then
    bare = tmp_path / "record.json"
    bare.write_text(json.dumps(before))
    assert cribtiles_main(["replay", str(bare), "--text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-5:] == [
        "  Hard bot counted the hand: 6.",
        "      +6 Hard bot: counts 6",
        "",
        "Hard bot wins by a lurch (skunk), 61 to 29.",
        "A skunk (a lurch): you did not reach 31.",
    ]
