"""The history database under attack (issue 29): a damaged schema is set aside and the game just finished
stored in a fresh history; a locked history is never reported as empty; a healthy history is never set
aside for an error of the moment (`ulimit -f`, a read-only file or folder, a lock past its timeout): the
game is kept and stored later; 20,000 unreadable rows are one line; a history that is a link out of the
data folder is never written through.

The program runs for real: `cribtiles --text` over a saved game left at its end records it as it starts
(then quits), and `cribtiles history`/`stats` read what is there."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cribtiles.app.history import HISTORY_FILE, History
from cribtiles.app.storage import Store
from cribtiles.rules import RuleOptions
from cribtiles.table.seats import Seat
from tests.app.test_history import store_as_before_unfinished, summary
from tests.faults.conftest import ROOT, program_env, run
from tests.table.test_ledger import played

pytestmark = pytest.mark.filterwarnings("ignore:the bots' leave table")

GAMES = 3  # in the history before the attack


def history_with_games(data: Path) -> Path:
    path = data / HISTORY_FILE
    h = History(path)
    for n in range(GAMES):
        assert h.add(summary(n)) == n + 1
    assert h.mark_solved("p1", 12, "2026-12-01T10:00:00")
    h.close()
    return path


def game_left_at_its_end(data: Path, seed: int = 5) -> None:
    """A finished game saved, not yet recorded: the next `cribtiles --text` records it as it starts."""
    Store(data).save_game(played([Seat.person("You"), Seat.bot("easy")], RuleOptions(), seed))


def text_mode(
    data: Path, preexec: Callable[[], None] | None = None, prefix: list[str] | None = None
) -> tuple[int, str]:
    """`cribtiles --text` that records the game left at its end, then quits; its exit code and everything said."""
    cmd = [*(prefix or []), sys.executable, "-m", "cribtiles", "--text", "--data-dir", str(data)]
    done = subprocess.run(
        cmd,
        cwd=ROOT,
        env=program_env(),
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=preexec,
    )
    return done.returncode, done.stdout + done.stderr


def listed(data: Path) -> tuple[list[str], list[str]]:
    """The keys of the tile games and of the cribbage games `cribtiles history --json` lists (exit 0)."""
    done = run(["history", "--json"], data)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    return [g["key"] for g in doc["games"]], [g["key"] for g in doc["cribbage_games"]]


def asides(data: Path) -> list[str]:
    return sorted(p.name for p in data.glob("history.damaged-*.sqlite3"))


def sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for s in statements:
            conn.execute(s)
    finally:
        conn.close()


# --- 1. a damaged schema ---

DAMAGES = {
    "games dropped": ("DROP TABLE seats", "DROP TABLE games"),
    "games a view": ("DROP TABLE seats", "DROP TABLE games", "CREATE VIEW games AS SELECT 1 AS id"),
    "user_version 999": ("PRAGMA user_version = 999",),
    "user_version -3": ("PRAGMA user_version = -3",),
    "a trigger refusing inserts": (
        "CREATE TRIGGER no_more BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no more games'); END",
    ),
    "cribbage_counts dropped": ("DROP TABLE cribbage_counts",),
    "tile_details a view": ("DROP TABLE tile_details", "CREATE VIEW tile_details AS SELECT 1 AS game_id"),
    "a column missing": ("ALTER TABLE games DROP COLUMN unfinished",),
    "a column too many": ("ALTER TABLE seats ADD COLUMN note TEXT NOT NULL DEFAULT 'x'",),
    "puzzles dropped": ("DROP TABLE puzzles",),
    "an index it did not make": ("CREATE UNIQUE INDEX one_more_game ON games (unfinished < 100) WHERE id >= 3",),
}


@pytest.mark.parametrize("damage", list(DAMAGES), ids=list(DAMAGES))
def test_a_damaged_schema_is_set_aside_and_the_game_just_finished_stored_in_a_fresh_history(
    data: Path, damage: str
) -> None:
    path = history_with_games(data)
    sql(path, *DAMAGES[damage])
    damaged = path.read_bytes()
    game_left_at_its_end(data)
    code, said = text_mode(data)
    assert code == 0, said
    (kept,) = asides(data)
    assert "The history of your games could not be used (" in said and f"it was kept as {kept}" in said, said
    assert (data / kept).read_bytes() == damaged  # kept as it was, for a bug report
    games, cribbage = listed(data)
    assert len(games) == 1 and cribbage == []  # the game just finished, in the fresh history
    stats = run(["stats", "--json"], data)
    assert stats.returncode == 0 and json.loads(stats.stdout)["games"] == 1 and stats.stderr == ""
    assert run(["history"], data).stdout.startswith("1 game, the newest last:")


@pytest.mark.parametrize("damage", list(DAMAGES), ids=list(DAMAGES))
def test_the_puzzles_progress_in_a_damaged_schema_is_set_aside_and_a_puzzle_solved_is_kept(
    tmp_path: Path, damage: str
) -> None:
    path = history_with_games(tmp_path)
    sql(path, *DAMAGES[damage])
    h = History(path)
    assert h.mark_solved("p2", 20, "2026-12-02T10:00:00")
    assert h.solved_puzzles() == {"p2": 20}
    assert len(asides(tmp_path)) == 1 and h.read_ok
    assert h.messages[0].startswith("The history of your games could not be used (")


def test_a_read_sets_a_damaged_schema_aside_and_history_says_so_once(data: Path) -> None:
    path = history_with_games(data)
    sql(path, "DROP TABLE cribbage_counts")
    done = run(["history"], data)
    (kept,) = asides(data)
    assert done.returncode == 0 and done.stdout.startswith("No games yet")
    assert done.stderr == (
        "cribtiles: The history of your games could not be used (its tables are not those of a history: its "
        f"table cribbage_counts is missing); it was kept as {kept}, and a new history begins.\n"
    )


def test_a_schema_damaged_under_an_open_history_is_found_at_the_next_write(tmp_path: Path) -> None:
    path = history_with_games(tmp_path)
    h = History(path)
    assert len(h.games()) == GAMES  # open, and checked
    sql(path, "DROP TABLE seats", "DROP TABLE games")  # by another program, while the window is open
    assert h.add(summary(7)) == 1  # looked at again: set aside, and the game in a fresh history
    assert [g.key for g in h.games()] == ["game-7"] and len(asides(tmp_path)) == 1


def test_a_healthy_history_of_every_version_passes_the_schema_check(tmp_path: Path) -> None:
    from cribtiles.app.history import MIGRATIONS

    for version in range(len(MIGRATIONS) + 1):
        path = tmp_path / f"v{version}" / HISTORY_FILE
        path.parent.mkdir()
        if version == len(MIGRATIONS):
            assert History(path).add(summary(1)) == 1
        elif version >= 5:  # both games in one table: stored as that version's migrations left it
            old = History(path, migrations=MIGRATIONS[:version])
            assert old.add(summary(1)) == 1
            old.close()
        elif version:  # an older history with a game, in the tables it had then
            store_as_before_unfinished(path, [summary(1)], version=version)
        new = History(path)
        assert new.add(summary(2)) == (2 if version else 1) and new.messages == [], (version, new.messages)
        assert [g.key for g in new.games()] == (["game-1"] if version else []) + ["game-2"]
        assert list(path.parent.glob("history.damaged-*")) == []


# --- 2. a locked history is never reported as empty ---


@pytest.fixture
def locked(data: Path) -> Iterator[bytes]:
    """The history with games, its write lock held (as a program stuck in its transaction would); its
    bytes before. (Not read while locked: closing any handle on the file drops this process's locks.)"""
    path = history_with_games(data)
    before = path.read_bytes()
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        yield before
    finally:
        locker.execute("ROLLBACK")
        locker.close()


@pytest.mark.parametrize("args", [["history"], ["history", "--json"], ["stats"], ["stats", "--json"]])
def test_a_locked_history_is_said_in_words_and_no_figure_is_printed(locked: bytes, data: Path, args: list[str]) -> None:
    done = run(args, data, timeout=30)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "cribtiles: The history of your games cannot be read just now "
        "(another program has kept it locked for more than 3 seconds).\n"
    )
    assert asides(data) == []


def test_a_game_finished_while_the_history_is_locked_is_kept_and_stored_later(locked: bytes, data: Path) -> None:
    game_left_at_its_end(data)
    code, said = text_mode(data)
    assert code == 0
    assert "This game could not be added to the history of your games (another program has kept it locked" in said
    assert "it is kept, and added as soon as the history can be written" in said
    assert len(list(data.glob("history.pending-finished-*.json"))) == 1 and asides(data) == []


def test_the_locked_history_is_left_as_it_was(locked: bytes, data: Path) -> None:
    game_left_at_its_end(data)
    text_mode(data)
    done = run(["history"], data)  # the kept game waits for the lock, and the read does not wait again
    assert done.returncode == 1 and done.stdout == "" and "cannot be read just now" in done.stderr
    assert (data / HISTORY_FILE).read_bytes() == locked  # read at the end: this drops the lock


def test_the_kept_game_is_stored_once_the_lock_is_gone(data: Path) -> None:
    path = history_with_games(data)
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    game_left_at_its_end(data)
    try:
        text_mode(data)
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    games, _ = listed(data)  # the read stores the kept game first
    assert len(games) == GAMES + 1 and list(data.glob("history.pending-*")) == []
    assert len(listed(data)[0]) == GAMES + 1  # once


# --- 3. errors of the moment never set a healthy history aside ---


def file_size_limit(limit: int) -> Callable[[], None]:
    """For preexec_fn: files can grow to `limit` bytes; past it a write fails with EFBIG (SIGXFSZ ignored)."""

    def limit_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_files


def test_ulimit_f_keeps_the_history_as_it_is_and_the_game_for_later(data: Path) -> None:
    path = history_with_games(data)
    sql(path, "VACUUM")  # no free page left by the migrations' dropped tables: a game needs the file to grow
    before = path.read_bytes()
    game_left_at_its_end(data)
    code, said = text_mode(data, preexec=file_size_limit(len(before)))  # the history cannot grow
    assert code == 0
    assert "This game could not be added to the history of your games (it could not be written: " in said, said
    assert "it is kept, and added as soon as the history can be written" in said
    assert path.read_bytes() == before and asides(data) == []
    assert len(list(data.glob("history.pending-finished-*.json"))) == 1
    games, _ = listed(data)  # without the limit: the kept game goes in
    assert games == [f"game-{n}" for n in range(GAMES)] + [games[-1]] and len(games) == GAMES + 1
    assert list(data.glob("history.pending-*")) == []


def read_only_mount(target: Path) -> list[str]:
    """A prefix that runs a command with `target` (a file or a folder) mounted read-only, as root can
    write through permissions; skipped where there are no mount namespaces."""
    import shutil

    if os.geteuid() != 0:
        pytest.skip("not root: a bind mount needs a mount namespace")  # chmod would do, see test_files
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True) if shutil.which("unshare") else None
    if probe is None or probe.returncode != 0:
        pytest.skip("no unshare(1) and mount namespaces here: no way to make a file read-only for root")
    mount = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@"'
    return ["unshare", "-rm", "sh", "-c", mount, "sh", str(target)]


@pytest.mark.parametrize("what", ["the file", "the folder"])
def test_a_read_only_history_is_kept_as_it_is_and_the_game_not_lost(data: Path, what: str) -> None:
    path = history_with_games(data)
    before = path.read_bytes()
    game_left_at_its_end(data)
    code, said = text_mode(data, prefix=read_only_mount(path if what == "the file" else data))
    assert code == 0
    assert "This game could not be added to the history of your games (it could not be " in said, said
    assert path.read_bytes() == before and asides(data) == []
    if what == "the folder":  # nothing could be written there: the game is still the saved one, at its end
        assert list(data.glob("history.pending-*")) == []
        assert "it is kept until Crib Tiles is closed" in said
        assert text_mode(data)[0] == 0  # the next start records it
    assert len(listed(data)[0]) == GAMES + 1  # kept (in its file, or in the saved game) and stored now


# --- 4. 20,000 unreadable rows: one line ---


def test_twenty_thousand_unreadable_rows_are_one_line(data: Path) -> None:
    path = history_with_games(data)
    conn = sqlite3.connect(path)
    conn.executemany(
        "INSERT INTO games (key, game, finished_at, seed, record) VALUES (?, 'tiles', '2026-12-01T10:00:00', 'x', '')",
        [(f"bad-{n}",) for n in range(20_000)],
    )
    conn.execute("UPDATE puzzles SET points = 'many'")
    conn.commit()
    conn.close()
    for args in (["history"], ["stats", "--json"]):
        done = run(args, data)
        assert done.returncode == 0
        lines = done.stderr.splitlines()
        assert lines == [
            "cribtiles: 20,000 games of the history could not be read "
            f"(game {GAMES + 1}: its seed is not a whole number, …); they are left out."
        ]
    store = Store(data)  # the window's messages
    assert len(store.past_games()) == GAMES
    assert store.solved_puzzles() == {}
    assert len(store.errors) == 2 and store.errors[0].startswith("20,000 games of the history could not be read")
    assert store.errors[1] == "A solved puzzle in the history could not be read; it is left out."


# --- 5. a history that is a link out of the data folder ---


@pytest.mark.parametrize("linked", ["", "-journal"])
def test_a_history_linked_out_of_the_data_folder_is_never_written_through(
    tmp_path: Path, data: Path, linked: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    elsewhere = history_with_games(outside)
    if linked:
        history_with_games(data)
        (data / f"{HISTORY_FILE}{linked}").unlink()  # the empty journal TRUNCATE leaves
        elsewhere = outside / f"victim{linked}"
        elsewhere.write_bytes(b"someone else's file\n")
    (data / f"{HISTORY_FILE}{linked}").symlink_to(elsewhere)
    before, there = elsewhere.read_bytes(), sorted(outside.iterdir())
    game_left_at_its_end(data)
    code, said = text_mode(data)
    assert code == 0
    what = "the history" if not linked else "the history's journal file"
    assert f"{what} is a link out of the data folder; not used" in said, said
    assert elsewhere.read_bytes() == before and sorted(outside.iterdir()) == there
    done = run(["history"], data)
    assert done.returncode == 1 and done.stdout == ""
    words = f"{what} is a link out of the data folder; not used"
    assert done.stderr == f"cribtiles: The history of your games could not be read ({words}).\n"
    assert run(["stats", "--json"], data).stdout == ""


def test_a_full_disk_keeps_the_history_and_the_game_for_later(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLITE_FULL, which a real full disk gives (made here: a loop-mounted small disk needs privileges)."""
    from cribtiles.app import history_rows

    path = history_with_games(tmp_path)
    real_insert = history_rows.insert

    def full(conn: sqlite3.Connection, s: object) -> int:
        e = sqlite3.OperationalError("database or disk is full")
        e.sqlite_errorcode = 13  # type: ignore[attr-defined]  # SQLITE_FULL
        raise e

    monkeypatch.setattr(history_rows, "insert", full)
    h = History(path)
    assert h.add(summary(8)) == 0
    assert h.take_messages() == [
        "This game could not be added to the history of your games (it could not be written: database or disk "
        "is full); it is kept, and added as soon as the history can be written."
    ]
    assert asides(tmp_path) == []
    monkeypatch.setattr(history_rows, "insert", real_insert)  # room again
    assert [g.key for g in h.games()] == [f"game-{n}" for n in (0, 1, 2, 8)]
    assert list(tmp_path.glob("history.pending-*")) == []


def test_a_kept_file_that_is_not_one_is_set_aside_and_blocks_nothing(tmp_path: Path) -> None:
    path = history_with_games(tmp_path)
    junk = tmp_path / "history.pending-game-0123.json"
    junk.write_text('{"kind": "game", "key": "k", "row": [1, 2], "children": []}')
    h = History(path)
    assert h.add(summary(9)) == GAMES + 1 and h.messages == []
    assert not junk.exists() and len(list(tmp_path.glob("history.pending-game-0123.damaged-*.json"))) == 1
