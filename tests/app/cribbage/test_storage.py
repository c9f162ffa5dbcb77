"""The cribbage game's save in the data folder: written whole after a move, read back, a damaged one set
aside with a message in words (never raised), a failed write recorded, not raised."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from cribtiles.app.storage import CRIBBAGE_CAP, Store
from cribtiles.cribbage import parse_move
from cribtiles.table.cribbage.table import CribbageTable


def started() -> CribbageTable:
    table = CribbageTable.new(1, "easy")
    table.play(parse_move("discard 8D 9H"))
    return table


def test_a_saved_game_is_read_back_as_it_was(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.load_cribbage() == (None, "")  # none yet: nothing to say
    table = started()
    store.save_cribbage(table)
    assert [p.name for p in tmp_path.iterdir()] == ["cribbage.json"]
    loaded, note = Store(tmp_path).load_cribbage()
    assert note == "" and loaded is not None
    assert loaded.state == table.state and loaded.level == "easy" and loaded.person == 0


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\xff\xfe not text", "it is not text"),
        (b"[1, 2", "it is not valid JSON"),
        (b'{"format": "cribtiles game"}', "it is not a saved cribbage game"),
        (b"x" * (CRIBBAGE_CAP + 1), "it is larger than 1 MB"),
    ],
)
def test_a_damaged_save_is_set_aside_with_its_reason(tmp_path: Path, content: bytes, reason: str) -> None:
    (tmp_path / "cribbage.json").write_bytes(content)
    table, note = Store(tmp_path).load_cribbage()
    assert table is None
    assert note.startswith(f"The saved cribbage game could not be used ({reason}")
    kept = list(tmp_path.glob("cribbage.damaged-*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == content and kept[0].name in note
    assert not (tmp_path / "cribbage.json").exists()


def test_a_failed_write_keeps_the_old_save_and_is_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)
    first = started()
    store.save_cribbage(first)
    later = started()
    later.bot_move()

    def fail(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", fail)
    store.save_cribbage(later)
    monkeypatch.undo()
    assert store.errors == [f"could not save the cribbage game in {tmp_path} ({os.strerror(errno.ENOSPC)})"]
    loaded, _ = store.load_cribbage()
    assert loaded is not None and loaded.state == first.state


DATA = Path(__file__).parents[2] / "table" / "data"


def test_a_save_of_before_is_resumed_and_saved_again_in_the_one_format(tmp_path: Path) -> None:
    (tmp_path / "cribbage.json").write_bytes((DATA / "cribbage_table_v1.json").read_bytes())
    store = Store(tmp_path)
    table, note = store.load_cribbage()
    assert note == "" and table is not None and (table.ply, table.person, table.level) == (30, 1, "hard")
    assert store.save_cribbage(table)
    assert json.loads((tmp_path / "cribbage.json").read_text())["format"] == "cribtiles table"
    again, _ = Store(tmp_path).load_cribbage()
    assert again is not None and again.state == table.state


def test_each_file_holds_its_own_game(tmp_path: Path) -> None:
    """A tile game's save found in cribbage.json (or a cribbage game's in game.json) is set aside."""
    (tmp_path / "cribbage.json").write_bytes((DATA / "tiles_table_v1.json").read_bytes())
    (tmp_path / "game.json").write_bytes((DATA / "cribbage_table_v1.json").read_bytes())
    store = Store(tmp_path)
    cribbage, note = store.load_cribbage()
    assert cribbage is None and "it is not a saved cribbage game" in note
    tiles, note = store.load_table()
    assert tiles is None and note.startswith("This file is a saved game of cribbage, not of Crib Tiles.")
    assert len(list(tmp_path.glob("*.damaged-*.json"))) == 2
