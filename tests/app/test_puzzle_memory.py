"""Solved puzzles remembered in the history database (migration 2): a version-1 history with games is
brought up to date and keeps them, a solve is stored once with its most points, a damaged history is
set aside without losing the solve, and the Store and NoKeeper around it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cribtiles.app.history import HISTORY_FILE, MIGRATIONS, History
from cribtiles.app.storage import Store
from cribtiles.ui.config import NoKeeper
from tests.app.test_history import asides, integrity, store_as_before_unfinished, stored, summary


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()


def test_the_schema_has_the_puzzles_migration() -> None:
    assert len(MIGRATIONS) >= 2  # later ones (3: classic cribbage) come after it
    assert "CREATE TABLE puzzles" in " ".join(MIGRATIONS[1])


def test_a_version_1_history_is_migrated_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    store_as_before_unfinished(path, [summary(n) for n in range(4)], version=1)  # the Crib Tiles before puzzles
    assert _version(path) == 1 and "puzzles" not in _tables(path)

    new = History(path)
    assert new.solved_puzzles() == {}  # reading migrates it
    assert _version(path) == len(MIGRATIONS) and "puzzles" in _tables(path)
    assert new.games() == [stored(summary(n), n + 1) for n in range(4)]
    assert new.mark_solved("s7t12", 24, "2026-12-01T10:00:00")
    assert new.add(summary(4)) == 5
    new.close()
    assert History(path).solved_puzzles() == {"s7t12": 24}
    assert integrity(path) == ["ok"] and asides(tmp_path) == []


def test_the_crib_tiles_before_puzzles_sets_a_migrated_history_aside(tmp_path: Path) -> None:
    """After the migration the old Crib Tiles sees a newer history: it sets it aside, as for any newer
    schema, rather than writing into a history it does not know (the games are in the file kept)."""
    path = tmp_path / HISTORY_FILE
    History(path).mark_solved("a", 10, "2026-12-01T10:00:00")
    old = History(path, migrations=MIGRATIONS[:1])
    assert old.games() == []
    assert len(asides(tmp_path)) == 1 and "newer version" in old.messages[0]


def test_a_solve_is_kept_once_with_its_most_points(tmp_path: Path) -> None:
    h = History(tmp_path / HISTORY_FILE)
    assert h.solved_puzzles() == {}  # no file yet: nothing solved, and no file made by reading
    assert not (tmp_path / HISTORY_FILE).exists()
    assert h.mark_solved("s1t5", 20, "2026-12-01T10:00:00")
    assert h.mark_solved("s1t5", 18, "2026-12-02T10:00:00")  # fewer: the most stays
    assert h.mark_solved("s2t9", 31, "2026-12-02T10:00:00")
    assert h.mark_solved("s1t5", 22, "2026-12-03T10:00:00")
    assert h.solved_puzzles() == {"s1t5": 22, "s2t9": 31}
    conn = sqlite3.connect(tmp_path / HISTORY_FILE)
    rows = conn.execute("SELECT puzzle, points, solved_at FROM puzzles ORDER BY puzzle").fetchall()
    conn.close()
    assert rows == [("s1t5", 22, "2026-12-01T10:00:00"), ("s2t9", 31, "2026-12-02T10:00:00")]  # the first time


def test_a_damaged_history_is_set_aside_and_the_solve_kept(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    path.write_bytes(b"this is not a database" * 100)
    h = History(path)
    assert h.mark_solved("s3t3", 15, "2026-12-01T10:00:00")
    assert h.solved_puzzles() == {"s3t3": 15}
    assert len(asides(tmp_path)) == 1 and "kept as" in h.messages[0]


def test_a_row_edited_by_hand_is_left_out_and_said(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    h = History(path)
    h.mark_solved("good", 12, "2026-12-01T10:00:00")
    h.close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO puzzles VALUES ('bad', 'twelve', 'x')")
    conn.commit()
    conn.close()
    h = History(path)
    assert h.solved_puzzles() == {"good": 12}
    assert h.messages == ["A solved puzzle in the history could not be read; it is left out."]


def test_the_store_remembers_solved_puzzles_across_sessions(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.solved_puzzles() == {}
    store.mark_solved("s4t20", 28)
    store.mark_solved("s5t8", 16)
    again = Store(tmp_path)  # the next time the game is started
    assert again.solved_puzzles() == {"s4t20": 28, "s5t8": 16}
    assert store.errors == [] and again.errors == []


def test_the_store_says_when_a_solve_cannot_be_kept(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where the data folder should be")
    store = Store(tmp_path / "data")
    store.mark_solved("s4t20", 28)  # never raises
    assert store.errors and "could not be remembered" in store.errors[-1]


def test_no_keeper_remembers_in_memory() -> None:
    keeper = NoKeeper()
    keeper.mark_solved("x", 20)
    keeper.mark_solved("x", 12)
    keeper.mark_solved("y", 9)
    assert keeper.solved_puzzles() == {"x": 20, "y": 9}
