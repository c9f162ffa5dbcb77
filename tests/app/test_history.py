"""The history database: games stored once each and read back whole, migrations from older schemas,
damaged, locked, newer and unreadable databases set aside without losing the game being recorded, a
writer killed with SIGKILL in the middle of its transactions, and the Store and NoKeeper around it."""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
import signal
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from cribtiles.app.history import HISTORY_FILE, MIGRATIONS, History
from cribtiles.app.storage import Store
from cribtiles.rules import RuleOptions
from cribtiles.table.game_summary import Game, TileDetails
from cribtiles.table.ledger import GameSummary, statistics
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from tests.table.test_ledger import played

LEVELS = ("beginner", "easy", "medium", "hard", "expert")


def summary(n: int) -> GameSummary:
    """Game number `n`: every value drawn from `n`, so a stored copy can be checked whole. Its record is a
    few kilobytes, like a real game's (a real match is 2-3 KB)."""
    rng = random.Random(n)
    players = 2 + n % 3
    seats = (("You", None), *((f"Bot {i}", LEVELS[(n + i) % len(LEVELS)]) for i in range(1, players)))
    scores = tuple(rng.randrange(-20, 400) for _ in range(players))
    best = max(scores)
    details = TileDetails(
        mode="standard" if n % 4 else "solitaire" if players == 2 else "standard",
        options=f"rounds={1 + n % 2}",
        rounds=1 + n % 2,
        turns=30 + n % 17,
        undos=int(n % 5 == 0),
        hints=int(n % 7 == 0),
        best_play=rng.randrange(60),
        highest_line=rng.randrange(40),
    )
    return GameSummary(
        id=0,
        key=f"game-{n}",
        game=Game.TILES,
        finished_at=f"2026-11-{1 + n % 28:02d}T12:{n % 60:02d}:00",
        seed=n * 1_000_003,
        seats=seats,
        scores=scores,
        winners=tuple(i for i, s in enumerate(scores) if s == best),
        record=f"record of game {n} " + "x" * rng.randrange(1000, 4000),
        details=details,
    )


def stored(s: GameSummary, game_id: int) -> GameSummary:
    return replace(s, id=game_id)


def integrity(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()


def asides(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("history.damaged-*.sqlite3"))


@pytest.fixture
def history_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """What the history logs, even when the app's log set-up has stopped `cribtiles` propagating."""
    logger = logging.getLogger("cribtiles.history")
    logger.addHandler(caplog.handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield caplog
    finally:
        logger.removeHandler(caplog.handler)
        logger.setLevel(old)


# --- storing and reading ---


def test_games_are_stored_once_and_read_back_whole_newest_last(tmp_path: Path) -> None:
    h = History(tmp_path / HISTORY_FILE)
    games = [summary(n) for n in range(12)]
    assert [h.add(g) for g in games] == list(range(1, 13))
    assert h.add(games[3]) == 4  # the same game again (its key): the stored one's id, nothing added
    assert h.add(replace(games[5], finished_at="2027-01-01T00:00:00")) == 6
    assert h.games() == [stored(g, i) for i, g in enumerate(games, 1)]
    assert h.game(7) == stored(games[6], 7)
    assert h.game(13) is None and h.game(-1) is None
    assert h.stats() == statistics(h.games())
    assert h.messages == [] and h.read_ok
    assert integrity(tmp_path / HISTORY_FILE) == ["ok"]


def test_a_new_history_reads_empty_and_makes_no_file(tmp_path: Path) -> None:
    h = History(tmp_path / "no folder" / HISTORY_FILE)
    assert h.games() == [] and h.game(1) is None and h.stats().games == 0
    assert h.messages == [] and h.read_ok
    assert not (tmp_path / "no folder").exists()


def test_a_seed_of_any_size_is_kept(tmp_path: Path) -> None:
    h = History(tmp_path / HISTORY_FILE)
    big = replace(summary(1), seed=-(10**40))
    assert h.add(big) == 1 and h.games() == [stored(big, 1)]


def test_a_game_written_wrong_by_hand_is_left_out_and_said(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    h = History(path)
    for n in range(3):
        h.add(summary(n))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE seats SET score = 'lots' WHERE game_id = 2 AND seat = 1")
    conn.execute("UPDATE games SET seed = 'x' WHERE id = 3")
    conn.commit()
    conn.close()
    assert h.games() == [stored(summary(0), 1)]
    assert h.messages == [
        "Game 2 of the history could not be read (its score is not a whole number); it is left out.",
        "Game 3 of the history could not be read (its seed is not a whole number); it is left out.",
    ]
    assert h.read_ok and asides(tmp_path) == []  # the rest of the history is good: nothing is moved


# --- migrations ---

NOTE = ("ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT ''", "UPDATE games SET note = 'from 1'")


def test_a_version_1_history_with_games_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    old = History(path)
    for n in range(5):
        old.add(summary(n))
    old.close()
    assert _version(path) == len(MIGRATIONS)

    new = History(path, migrations=(*MIGRATIONS, NOTE))  # the next version of Crib Tiles
    assert new.games() == [stored(summary(n), n + 1) for n in range(5)]
    assert new.add(summary(5)) == 6
    new.close()
    assert _version(path) == len(MIGRATIONS) + 1
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT note FROM games ORDER BY id")] == ["from 1"] * 5 + [""]
    conn.close()
    assert integrity(path) == ["ok"]


def store_as_before_unfinished(path: Path, games: list[GameSummary], version: int = 3) -> None:
    """A history at schema `version` (1 to 4) holding `games`, stored as Crib Tiles did before both games
    shared one table (migration 5), and before games could be kept unfinished (migration 4: at version 4
    they are finished): in the columns it had then, numbered from 1."""
    conn = sqlite3.connect(path)
    with conn:  # the schema as that version made it: its migrations, one after another
        for sql in (s for migration in MIGRATIONS[:version] for s in migration):
            conn.execute(sql)
        conn.execute(f"PRAGMA user_version = {version:d}")
        for game_id, s in enumerate(games, 1):
            d = s.tiles
            conn.execute(
                "INSERT INTO games (id, key, finished_at, mode, options, seed, rounds, turns, undos, hints, "
                "best_play, highest_line, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, s.key, s.finished_at, d.mode, d.options, str(s.seed), d.rounds, d.turns, d.undos,
                 d.hints, d.best_play, d.highest_line, s.record),
            )  # fmt: skip
            conn.executemany(
                "INSERT INTO seats (game_id, seat, name, level, score, winner) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, i, n, lv, s.scores[i], int(i in s.winners)) for i, (n, lv) in enumerate(s.seats)],
            )
    conn.close()


def test_a_version_3_history_gains_the_unfinished_mark_and_keeps_its_games_finished(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    store_as_before_unfinished(path, [summary(1)])  # before games could be kept unfinished
    old = History(path, migrations=MIGRATIONS[:3])
    assert old.mark_solved("p1", 20, "2026-12-01T10:00:00")
    old.close()
    assert _version(path) == 3
    new = History(path)
    assert new.games() == [stored(summary(1), 1)] and not new.games()[0].unfinished
    assert new.add(replace(summary(2), unfinished=True)) == 2
    assert [g.unfinished for g in new.games()] == [False, True]
    new.close()
    assert _version(path) == len(MIGRATIONS) == 8 and integrity(path) == ["ok"]


def test_a_migration_that_fails_changes_nothing_and_moves_nothing(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    _three_games(path)
    broken = ("ALTER TABLE games ADD COLUMN note TEXT", "UPDATE no_such_table SET x = 1")
    new = History(path, migrations=(*MIGRATIONS, broken))
    assert new.add(summary(9)) == 0  # a fresh history would fail the same way: it is said, nothing is moved
    assert new.messages == [
        "This game could not be added to the history of your games "
        "(it could not be brought up to date: no such table: no_such_table)."
    ]
    assert asides(tmp_path) == [] and _version(path) == len(MIGRATIONS)  # its one transaction was rolled back whole
    conn = sqlite3.connect(path)
    assert "note" not in [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    conn.close()
    assert History(path).games() == [stored(summary(n), n + 1) for n in range(3)]


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


# --- damaged, newer, unreadable, locked ---


def _three_games(path: Path) -> None:
    h = History(path)
    for n in range(3):
        h.add(summary(n))
    h.close()


def _truncate_half(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _truncate_short(path: Path) -> None:
    os.truncate(path, 50)  # not even the 100 bytes of the database header


def _junk_page(path: Path) -> None:
    conn = sqlite3.connect(path)
    root, size = (conn.execute(sql).fetchone()[0] for sql in (GAMES_ROOT, "PRAGMA page_size"))
    conn.close()
    with open(path, "r+b") as f:  # the b-tree page of the games table, its header first
        f.seek((root - 1) * size)
        f.write(b"\xff" * 512)


GAMES_ROOT = "SELECT rootpage FROM sqlite_master WHERE name = 'games'"


def _not_a_database(path: Path) -> None:
    path.write_bytes(b"this is not a database, only some text that someone wrote here\n" * 100)


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (_truncate_half, "it is damaged"),
        (_truncate_short, "it is damaged"),
        (_junk_page, "it is damaged"),
        (_not_a_database, "it is not a database"),
    ],
)
def test_a_damaged_history_is_set_aside_and_the_game_kept(
    tmp_path: Path, history_log: pytest.LogCaptureFixture, damage, words: str
) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / HISTORY_FILE
    _three_games(path)
    damage(path)
    damaged = path.read_bytes()
    h = History(path)
    assert h.add(summary(7)) == 1  # the game being recorded goes into a fresh history
    assert h.games() == [stored(summary(7), 1)]
    (kept,) = asides(tmp_path)
    assert (tmp_path / kept).read_bytes() == damaged  # kept as it was, for a bug report
    assert h.messages == [
        f"The history of your games could not be used ({words}); it was kept as {kept}, and a new history begins."
    ]
    assert any(kept in r.getMessage() and r.name == "cribtiles.history" for r in history_log.records)
    assert integrity(path) == ["ok"]


def test_reading_a_damaged_history_sets_it_aside(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    _three_games(path)
    _truncate_half(path)
    h = History(path)
    assert h.games() == [] and h.read_ok  # empty now, and usable
    (kept,) = asides(tmp_path)
    assert h.messages == [
        f"The history of your games could not be used (it is damaged); it was kept as {kept}, and a new history begins."
    ]
    assert not path.exists()  # a read makes no new file; the next game does
    assert h.add(summary(1)) == 1


def test_a_history_from_a_newer_version_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    _three_games(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    h = History(path)
    assert h.add(summary(4)) == 1
    (kept,) = asides(tmp_path)
    assert h.messages[0].startswith(
        "The history of your games could not be used (it was written by a newer version of Crib Tiles (schema 99))"
    )
    assert _version(tmp_path / kept) == 99 and _version(path) == len(MIGRATIONS)


def test_a_folder_in_the_history_s_place_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    path.mkdir()  # a folder where the file should be: it cannot be opened (and root can read any file)
    (path / "inside").write_text("kept")
    h = History(path)
    assert h.add(summary(2)) == 1
    (kept,) = asides(tmp_path)
    assert (tmp_path / kept / "inside").read_text() == "kept"
    assert "could not be used (it is a folder, not a file)" in h.messages[0]
    assert h.games() == [stored(summary(2), 1)]


def test_a_history_that_cannot_be_written_anywhere_says_so_and_never_raises(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a file, not a folder")
    h = History(tmp_path / "file" / HISTORY_FILE)
    assert h.add(summary(1)) == 0
    assert h.messages[-1].startswith("This game could not be added to the history of your games (")
    assert h.games() == [] and h.read_ok


def test_a_locked_history_is_left_alone_and_the_game_kept_until_it_can_be_written(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    _three_games(path)
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")  # another process holds the write lock, and keeps it
    try:
        h = History(path, timeout=0.2)
        # a read only says so: nothing is lost by waiting, and nothing is moved
        assert h.games() == [] and not h.read_ok
        assert h.take_messages() == [
            "The history of your games cannot be read just now "
            "(another program has kept it locked for more than 0.2 seconds)."
        ]
        # a game to be stored: the history is kept as it is (a lock is a thing of the moment), the game too
        assert h.add(summary(5)) == 0
        assert h.take_messages() == [
            "This game could not be added to the history of your games (another program has kept it locked for "
            "more than 0.2 seconds); it is kept, and added as soon as the history can be written."
        ]
        assert asides(tmp_path) == [] and len(list(tmp_path.glob("history.pending-finished-*.json"))) == 1
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert h.games() == [stored(summary(n), n + 1) for n in range(3)] + [stored(summary(5), 4)] and h.read_ok
    assert h.messages == ["The history of your games can be written again: 1 game kept for it is in it now."]
    assert list(tmp_path.glob("history.pending-*")) == [] and integrity(path) == ["ok"]


def test_a_history_set_aside_by_another_process_is_not_written_into(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    window = History(path)
    assert window.add(summary(1)) == 1
    _not_a_database(path.with_name("junk"))
    os.replace(path, tmp_path / "history.damaged-x.sqlite3")  # as `cribtiles history` would set it aside
    assert window.add(summary(2)) == 1  # into the history now at the path, not the one it had open
    assert window.games() == [stored(summary(2), 1)]


# --- a writer killed with SIGKILL ---


def _writer(path: str, fd: int, first: int, pause: bool) -> None:
    """Store games first, first + 1, ... for ever, telling each one stored; with `pause`, stop for good in
    the middle of the first transaction that inserts a game (its game row written, its seats not), after
    saying 'in N'."""
    h = History(Path(path))
    n = first
    if pause:
        conn = h._open(create=True)
        assert conn is not None

        def trace(sql: str) -> None:
            if sql.startswith("INSERT INTO seats"):
                os.write(fd, f"in {n}\n".encode())
                time.sleep(60)

        conn.set_trace_callback(trace)
    while True:
        assert h.add(summary(n)) > 0, h.messages
        os.write(fd, f"{n}\n".encode())
        n += 1


def test_a_writer_killed_at_any_moment_loses_no_stored_game(tmp_path: Path) -> None:
    """30 writers killed with SIGKILL: 20 at a random moment while they store games, 10 in the middle of a
    transaction for certain. Every game a writer said it stored is there, whole; a game cut off in its
    transaction is not there at all; the database passes integrity_check every time."""
    path = tmp_path / HISTORY_FILE
    fork = multiprocessing.get_context("fork")
    rng = random.Random(30)
    told: set[int] = set()
    first = 0
    hot_journals = 0
    for kill in range(30):
        pause = kill % 3 == 2
        read, write = os.pipe()
        child = fork.Process(target=_writer, args=(str(path), write, first, pause), daemon=True)
        child.start()
        os.close(write)
        said: list[str] = []
        cut = None
        with os.fdopen(read, "rb") as pipe:
            if pause:  # wait until it is inside the transaction
                while (line := pipe.readline().decode()) and not line.startswith("in "):
                    said.append(line)
                cut = int(line.split()[1])
            else:
                time.sleep(rng.uniform(0.0, 0.12))
            os.kill(child.pid or 0, signal.SIGKILL)
            child.join()
            said += pipe.read().decode().split("\n")
        told |= {int(word) for word in said if word.strip().isdigit()}
        first = max(told, default=-1) + 1
        journal = Path(f"{path}-journal")
        hot_journals += journal.exists() and journal.stat().st_size > 0
        if path.exists():
            assert integrity(path) == ["ok"], f"after kill {kill + 1}"
        if cut is not None:
            conn = sqlite3.connect(path)
            there = conn.execute("SELECT count(*) FROM games WHERE key = ?", (f"game-{cut}",)).fetchone()[0]
            conn.close()
            assert there == 0, "a game cut off in its transaction is not there at all"
    h = History(path)
    games = h.games()
    assert h.messages == []
    assert {g.key for g in games} >= {f"game-{n}" for n in told}  # every game it said it stored
    for g in games:  # each whole, and once
        assert g == stored(summary(int(g.key.removeprefix("game-"))), g.id)
    assert len({g.key for g in games}) == len(games)
    assert integrity(path) == ["ok"]
    assert hot_journals >= 10  # at least the 10 kills inside a transaction left a journal to roll back
    print(f"{len(told)} games stored, {hot_journals} of 30 kills left a hot journal")


# --- the Store and NoKeeper ---


def test_the_store_records_a_finished_game_once_and_rebuilds_it(tmp_path: Path) -> None:
    table = played([Seat.person("You"), Seat.bot("medium")], RuleOptions(), 3)
    store = Store(tmp_path)
    store.record_game(table)
    store.record_game(table)  # resumed at its end and recorded again: still one game
    (game,) = store.past_games()
    assert game.id == 1 and game.scores == table.state.outcome.final_scores  # type: ignore[union-attr]
    assert store.statistics().games == 1 and store.errors == []
    again = store.past_table(1)
    assert again is not None and again.state.log == table.state.log and again.seats == table.seats
    assert store.past_table(2) is None
    assert (tmp_path / HISTORY_FILE).exists() and not store.locked  # no folder lock was needed


def test_the_store_says_what_went_wrong_and_never_raises(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.record_game(Table.new([Seat.person("You"), Seat.bot("easy")], RuleOptions(), 1))  # not over
    assert store.errors == ["This game could not be added to the history of your games (the game is not over yet)."]
    (tmp_path / HISTORY_FILE).write_bytes(b"junk" * 300)
    assert store.past_games() == []
    assert store.errors[-1].startswith("The history of your games could not be used (it is not a database)")
    game_id = History(tmp_path / HISTORY_FILE).add(replace(summary(1), record="not a game"))
    assert store.past_table(game_id) is None
    assert store.errors[-1].startswith(f"Game {game_id} of the history cannot be replayed (")


def test_no_keeper_keeps_the_history_in_memory() -> None:
    keeper = NoKeeper()
    table = played([Seat.person("Ann"), Seat.bot("easy")], RuleOptions(), 4)
    keeper.record_game(Table.new([Seat.person("You"), Seat.bot("easy")], RuleOptions(), 1))  # not over: nothing
    keeper.record_game(table)
    keeper.record_game(table)
    (game,) = keeper.past_games()
    assert game.id == 1 and game.seats == (("Ann", None), ("Easy", "easy"))
    assert keeper.statistics().total is not None and keeper.statistics().games == 1
    again = keeper.past_table(1)
    assert again is not None and again.state.log == table.state.log
    assert keeper.past_table(2) is None
