"""The server's SQLite store: a table written as its changes between snapshots reads back as it was last
put, after any number of changes, with fields come and gone and long texts grown, cut or replaced; a
damaged change leaves only its own table out; a store written before there were changes still reads; a
real table played move by move comes back as it was (issue 31)."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.rules.moves import format_move
from cribtiles.server.rooms import Room, Settings, read_places
from cribtiles.server.store import LONG_TEXT, SNAPSHOT_EVERY, MemoryStore, SqliteStore, common_prefix

from .conftest import MakeStore


def read_back(path: Path) -> dict[str, dict[str, Any]]:
    """Every table in the store at `path`, as a server started on it would read them."""
    other = SqliteStore(path)
    try:
        return {data["code"]: data for data in other.tables()}
    finally:
        other.close()


def rows(path: Path, table: str) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        db.close()


def test_common_prefix_counts_the_characters_both_begin_with() -> None:
    rng = random.Random(3)
    for _ in range(300):
        a = "".join(rng.choice("ab") for _ in range(rng.randrange(40)))
        b = a[: rng.randrange(len(a) + 1)] + "".join(rng.choice("ab") for _ in range(rng.randrange(5)))
        expected = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        assert common_prefix(a, b) == expected


def test_every_put_reads_back_as_it_was_through_changes_and_snapshots(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    store = SqliteStore(path)
    rng = random.Random(11)
    record = "{" + "x" * (LONG_TEXT + 10)
    data: dict[str, Any] = {"code": "ABCDEF", "ply": 0, "table": record, "chat": [], "note": "short"}
    try:
        for ply in range(1, 3 * SNAPSHOT_EVERY):
            data = dict(data, ply=ply)
            what = rng.random()
            if what < 0.6:  # a move: the record grows at its end, sometimes just before its last brackets
                record = record[:-2] + f'"m{ply}\\u00e9"' + record[-2:] if ply % 3 else record + f",{ply}"
            elif what < 0.7:  # taken back: the record is cut
                record = record[: max(LONG_TEXT + 1, len(record) - rng.randrange(30))]
            elif what < 0.75:  # a new game: another record altogether
                record = "[" + "y" * (LONG_TEXT + rng.randrange(50))
            elif what < 0.8:
                data["chat"] = [*data["chat"], {"text": f"hello {ply}", "seat": None}]
            elif what < 0.85:  # a field goes, and comes back
                data.pop("note", None) if "note" in data else data.update(note="back")
            elif what < 0.9:  # a short text grows long, and a long one gets short
                data["note"] = "n" * (LONG_TEXT + 5) if len(str(data.get("note"))) < LONG_TEXT else "short"
            data["table"] = record
            store.put("ABCDEF", "tiles", "playing", float(ply), data)
            assert read_back(path) == {"ABCDEF": data}, f"after put {ply}"
        assert rows(path, "changes") < SNAPSHOT_EVERY + 1  # snapshots came, and took their changes away
    finally:
        store.close()


def test_a_restarted_store_writes_each_table_whole_first(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    store = SqliteStore(path)
    for ply in range(5):
        store.put("AAAAAA", "tiles", "playing", 1.0, {"code": "AAAAAA", "ply": ply, "table": "t" * (300 + ply)})
    store.close()
    assert rows(path, "changes") == 4
    store = SqliteStore(path)
    try:
        store.put("AAAAAA", "tiles", "playing", 2.0, {"code": "AAAAAA", "ply": 5, "table": "t" * 305})
        assert rows(path, "changes") == 0
        assert read_back(path)["AAAAAA"]["ply"] == 5
    finally:
        store.close()


def test_a_damaged_change_leaves_only_its_table_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "tables.sqlite"
    store = SqliteStore(path)
    for code in ("AAAAAA", "BBBBBB", "CCCCCC"):
        for ply in range(3):
            store.put(code, "tiles", "playing", 1.0, {"code": code, "ply": ply, "table": "t" * (300 + ply)})
    store.close()
    db = sqlite3.connect(path)
    db.execute(
        'UPDATE changes SET change = \'{"set":{},"grow":{"table":[99999,"x"]},"drop":[]}\' WHERE code = \'BBBBBB\''
    )
    db.execute("UPDATE changes SET change = ? WHERE code = 'CCCCCC' AND seq = 1", ("[" * 100_000,))  # too deep
    db.execute("INSERT INTO changes VALUES ('ZZZZZZ', 1, 'playing', 1.0, 'not json')")  # of no table
    db.commit()
    db.close()
    with caplog.at_level(logging.ERROR, logger="cribtiles.server"):
        kept = read_back(path)
    assert sorted(kept) == ["AAAAAA"]
    assert "'BBBBBB' is damaged" in caplog.text and "'CCCCCC' is damaged" in caplog.text


@pytest.mark.parametrize(
    "damage", ["'not json'", "'[1, 2]'", "'\"text\"'", "X'FFFE0041'", "12", "'" + "[" * 100_000 + "'"]
)
def test_a_damaged_snapshot_is_left_out_and_said(tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str) -> None:
    """Whatever a damaged or hand-edited database holds in place of a table's JSON object, the table is
    left out of the tables a server starts with and read as none, each time with a line in the log."""
    path = tmp_path / "tables.sqlite"
    store = SqliteStore(path)
    for code in ("AAAAAA", "BBBBBB"):
        store.put(code, "tiles", "playing", 1.0, {"code": code, "ply": 1})
    store.close()
    db = sqlite3.connect(path)
    db.execute(f"UPDATE tables SET data = {damage} WHERE code = 'BBBBBB'")
    db.commit()
    db.close()
    with caplog.at_level(logging.ERROR, logger="cribtiles.server"):
        assert sorted(read_back(path)) == ["AAAAAA"]
        assert caplog.text.count("'BBBBBB' is damaged") == 1
        other = SqliteStore(path)
        try:
            assert other.get("BBBBBB") is None and other.get("AAAAAA") == {"code": "AAAAAA", "ply": 1}
        finally:
            other.close()
    assert caplog.text.count("'BBBBBB' is damaged") == 2


def test_a_store_written_before_changes_were_kept_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE tables (code TEXT PRIMARY KEY, game TEXT NOT NULL, phase TEXT NOT NULL,"
        " updated REAL NOT NULL, data TEXT NOT NULL)"
    )
    old = {"code": "OLDONE", "ply": 9, "table": '{\n "format": "cribtiles table"\n}'}
    db.execute("INSERT INTO tables VALUES ('OLDONE', 'tiles', 'playing', 1.0, ?)", (json.dumps(old, indent=1),))
    db.commit()
    db.close()
    assert read_back(path) == {"OLDONE": old}


def test_a_table_played_move_by_move_comes_back_as_it_was(make_store: MakeStore) -> None:
    """In SQLite and in PostgreSQL alike (issue 46), read by another store on the same tables."""
    store = make_store()
    room, _ = Room.new("PLAYED", "tiles", read_places("tiles", [{"kind": "open"}] * 2), Settings(), 5, 1000.0)
    room.take("Ann", 1000.0)
    room.take("Ben", 1000.0)
    memory = MemoryStore()
    try:
        for turn in range(40):
            game = room.game
            assert game is not None
            if game.over or game.to_move is None:
                break
            seat = game.to_move
            view = game.table.view(seat)  # type: ignore[attr-defined]
            move = format_move(choose_safely(make_bot("easy"), view, random.Random(turn)))
            room.act(seat, {"type": "act", "ply": room.ply, "move": move}, 1000.0 + turn)
            store.put(room.code, "tiles", room.phase, room.last_change, room.data())
            memory.put(room.code, "tiles", room.phase, room.last_change, room.data())
        kept = {data["code"]: data for data in make_store().tables()}["PLAYED"]
        assert kept == json.loads(memory.kept["PLAYED"]) == json.loads(json.dumps(room.data()))
        again = Room.from_data(kept, 2000.0)
        assert again.ply == room.ply and again.game is not None and room.game is not None
        assert again.game.shown(0) == room.game.shown(0)
    finally:
        store.close()


def test_the_log_is_copied_into_the_database_by_a_thread_of_its_own(tmp_path: Path) -> None:
    """So that the flush to the disk at the end of a copy holds up no move; the thread ends with the store."""
    path = tmp_path / "tables.sqlite"
    store = SqliteStore(path)
    try:
        before = path.stat().st_size
        for ply in range(200):
            store.put(f"T{ply % 20:05d}", "tiles", "playing", 1.0, {"code": "x", "ply": ply, "table": "t" * 3000})
        end = time.monotonic() + 30
        while path.stat().st_size <= before and time.monotonic() < end:
            time.sleep(0.05)
        assert path.stat().st_size > before  # the database itself holds the tables, not just the log
        assert store.checkpointing.is_alive()
    finally:
        store.close()
    assert not store.checkpointing.is_alive()
