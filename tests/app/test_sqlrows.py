"""The history's careful rows: a change is all or nothing, and values read back are checked by kind."""

from __future__ import annotations

import sqlite3

import pytest

from cribtiles.app.sqlrows import each_understood, flag, rows_and_children, stored_id, text, whole, writing


def database() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, key TEXT UNIQUE, score)")
    conn.execute("CREATE TABLE seats (game_id INTEGER, seat INTEGER, name)")
    return conn


def test_a_change_that_fails_half_way_leaves_nothing_behind() -> None:
    conn = database()
    with pytest.raises(KeyboardInterrupt), writing(conn):
        conn.execute("INSERT INTO games (key, score) VALUES ('a', 1)")
        raise KeyboardInterrupt  # Ctrl-C between two writes
    assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)
    with writing(conn):
        conn.execute("INSERT INTO games (key, score) VALUES ('a', 1)")
    assert stored_id(conn, "games", "a") == 1 and stored_id(conn, "games", "b") is None
    assert not conn.in_transaction


def test_rows_come_with_their_children_and_a_row_not_understood_is_left_out_and_said() -> None:
    conn = database()
    with writing(conn):
        conn.execute("INSERT INTO games (key, score) VALUES ('a', 5), ('b', 'five'), ('c', 7)")
        conn.executemany("INSERT INTO seats VALUES (?, ?, ?)", [(1, 0, "Ann"), (1, 1, "Bo"), (3, 0, "Cy")])
    rows, kids = rows_and_children(
        conn,
        "SELECT id, key, score FROM games ORDER BY id",
        {"seats": "SELECT game_id, seat, name FROM seats ORDER BY 1, 2"},
        (),
    )
    said: list[str] = []
    games = each_understood(
        rows,
        kids,
        lambda row, kids: (text(row[1], "key"), whole(row[2], "score"), [s[1] for s in kids["seats"]]),
        "Game",
        said.append,
    )
    assert games == [("a", 5, ["Ann", "Bo"]), ("c", 7, ["Cy"])]
    assert said == ["Game 2 of the history could not be read (its score is not a whole number); it is left out."]


def test_values_are_checked_by_kind() -> None:
    assert whole(3, "score") == 3 and text("x", "name") == "x" and flag(1, "mark") is True
    with pytest.raises(TypeError, match="its score is not a whole number"):
        whole(True, "score")
    with pytest.raises(TypeError, match="its name is not text"):
        text(b"x", "name")
    with pytest.raises(ValueError, match="its mark is neither 0 nor 1"):
        flag(2, "mark")
