"""The history of finished games: a SQLite database, `history.sqlite3`, in the data folder.

Its schema is a list of migrations, each applied in a transaction of its own, and `PRAGMA user_version`
says how many have been applied: migration N+1 is added at the end of `MIGRATIONS` and every older
history is brought up to date when it is next opened. A game is stored in one transaction, once: a game
already there (the same `key`) is not stored again.

Journal: a rollback journal (`journal_mode=TRUNCATE`, `synchronous=FULL`), not WAL. A game is written
once, at its end, so WAL's readers-beside-a-writer gain nothing that matters here, and the rollback
journal keeps the history one file that can be read from a read-only folder (WAL's readers need to write
its `-shm` file), on network and FAT folders (no shared memory), and set aside whole. TRUNCATE, not
DELETE: a commit empties the journal through its open handle rather than deleting it by name, so a
process still holding a history that was set aside cannot delete the journal of the fresh one.

Nothing here raises to the caller. What went wrong is said in `messages`, in plain words, and logged to
`cribtiles.history`; what is done about it depends on whether the history itself is at fault:

- A history that is damaged is moved aside with its journal (`history.damaged-YYYYMMDD-HHMMSS.sqlite3`)
  and a fresh one begun; the game being recorded goes into the fresh one. Damaged means: not a database,
  failing `quick_check`, not a plain file (a folder, a FIFO), a `user_version` no Crib Tiles writes
  (negative, or beyond this version's: a newer Crib Tiles'), or a schema that is not the one its version
  has (checked on every open against the schema the migrations make: the same tables, as tables and not
  views, with the same columns, the same indexes, and no trigger or view we did not make). A write that
  fails for a reason not foreseen (no such table, a constraint) makes it look again, once, the same way.
- A history that is only in trouble for the moment is never moved: a full disk, `ulimit -f`, a read-only
  file or folder, an I/O error, another process holding its lock past the timeout, or the history being a
  symbolic link (never written through: a link out of the data folder is refused in words). The game,
  cribbage game or solved puzzle that could not be stored is kept, in memory and in a file of its own
  beside the history (`history_pending`), and stored at the next write or read that can write, in this
  process or the next one, then its file deleted. Nothing is lost while either can be written.
- A read never reports a history it could not see as empty: `read_ok` is False, and `messages` says why
  (locked just now: a read loses nothing by waiting, and the writer may be a game that is only slow).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TypeVar

from cribtiles.games import STORED, game_named
from cribtiles.table.game_summary import GameSummary
from cribtiles.table.ledger import Stats, statistics

from . import history_pending, history_rows
from .files import aside_names, brief, move_to_free_name, why
from .history_pending import FINISHED, Pending
from .sqlrows import text, whole, writing

HISTORY_FILE = "history.sqlite3"
TIMEOUT = 3.0  # seconds a read or write waits for another process's write to end
COMPANIONS = ("-journal", "-wal", "-shm")  # SQLite's files beside the database, set aside with it

log = logging.getLogger("cribtiles.history")

Migration = Sequence[str]  # SQL statements, run in order in one transaction

# A migration, once released, never changes (a new one is added instead): every history is checked, when it
# is opened, against the schema that the migrations up to its version make (`schema_problem`).

MIGRATIONS: tuple[Migration, ...] = (
    # 1: the games and their seats. A seed is text: a seed may be any whole number, SQLite's at most 64 bits.
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            finished_at TEXT NOT NULL,
            mode TEXT NOT NULL,
            options TEXT NOT NULL,
            seed TEXT NOT NULL,
            rounds INTEGER NOT NULL,
            turns INTEGER NOT NULL,
            undos INTEGER NOT NULL,
            hints INTEGER NOT NULL,
            best_play INTEGER NOT NULL,
            highest_line INTEGER NOT NULL,
            record TEXT NOT NULL
        )""",
        """CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            level TEXT,
            score INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID""",
        "CREATE INDEX games_by_time ON games (finished_at)",
    ),
    # 2: the puzzles solved ("find the best play"), by the puzzle's id, with the points found and when
    (
        """CREATE TABLE puzzles (
            puzzle TEXT PRIMARY KEY,
            points INTEGER NOT NULL,
            solved_at TEXT NOT NULL
        ) WITHOUT ROWID""",
    ),
    # 3: the games of classic cribbage, a row each with both seats in it, and the counts of their shows apart
    (
        """CREATE TABLE cribbage_games (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            finished_at TEXT NOT NULL,
            seed TEXT NOT NULL,
            level TEXT NOT NULL,
            muggins INTEGER NOT NULL,
            target INTEGER NOT NULL,
            person INTEGER NOT NULL,
            name_0 TEXT NOT NULL,
            name_1 TEXT NOT NULL,
            score_0 INTEGER NOT NULL,
            score_1 INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            margin TEXT NOT NULL,
            deals INTEGER NOT NULL,
            pegged_0 INTEGER NOT NULL,
            pegged_1 INTEGER NOT NULL,
            record TEXT NOT NULL
        )""",
        """CREATE TABLE cribbage_shows (
            game_id INTEGER NOT NULL REFERENCES cribbage_games (id) ON DELETE CASCADE,
            deal INTEGER NOT NULL,
            step INTEGER NOT NULL,
            owner INTEGER NOT NULL,
            crib INTEGER NOT NULL,
            cards TEXT NOT NULL,
            starter TEXT NOT NULL,
            points INTEGER NOT NULL,
            declared INTEGER NOT NULL,
            PRIMARY KEY (game_id, deal, step)
        ) WITHOUT ROWID""",
        "CREATE INDEX cribbage_games_by_time ON cribbage_games (finished_at)",
    ),
    # 4: a game kept unfinished, as it stood when a new one was started over it (not counted in statistics)
    ("ALTER TABLE games ADD COLUMN unfinished INTEGER NOT NULL DEFAULT 0",),
    # 5: both games in one table of games (by their `game`) and one of seats, each game's own figures in a
    # table of its own keyed by the game's id (cribtiles.app.history_rows). The tile games keep their ids;
    # the games of cribbage are moved over after them, in the order they were stored, and their tables dropped.
    (
        """CREATE TABLE new_games (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            game TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            seed TEXT NOT NULL,
            record TEXT NOT NULL,
            unfinished INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE new_seats (
            game_id INTEGER NOT NULL REFERENCES new_games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            level TEXT,
            score INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID""",
        """CREATE TABLE tile_details (
            game_id INTEGER PRIMARY KEY REFERENCES new_games (id) ON DELETE CASCADE,
            mode TEXT NOT NULL,
            options TEXT NOT NULL,
            rounds INTEGER NOT NULL,
            turns INTEGER NOT NULL,
            undos INTEGER NOT NULL,
            hints INTEGER NOT NULL,
            best_play INTEGER NOT NULL,
            highest_line INTEGER NOT NULL
        )""",
        """CREATE TABLE cribbage_details (
            game_id INTEGER PRIMARY KEY REFERENCES new_games (id) ON DELETE CASCADE,
            muggins INTEGER NOT NULL,
            target INTEGER NOT NULL,
            margin TEXT NOT NULL,
            deals INTEGER NOT NULL,
            pegged_0 INTEGER NOT NULL,
            pegged_1 INTEGER NOT NULL
        )""",
        """CREATE TABLE cribbage_counts (
            game_id INTEGER NOT NULL REFERENCES new_games (id) ON DELETE CASCADE,
            deal INTEGER NOT NULL,
            step INTEGER NOT NULL,
            owner INTEGER NOT NULL,
            crib INTEGER NOT NULL,
            cards TEXT NOT NULL,
            starter TEXT NOT NULL,
            points INTEGER NOT NULL,
            declared INTEGER NOT NULL,
            PRIMARY KEY (game_id, deal, step)
        ) WITHOUT ROWID""",
        "INSERT INTO new_games (id, key, game, finished_at, seed, record, unfinished) "
        "SELECT id, key, 'tiles', finished_at, seed, record, unfinished FROM games ORDER BY id",
        "INSERT INTO new_seats (game_id, seat, name, level, score, winner) "
        "SELECT game_id, seat, name, level, score, winner FROM seats",
        "INSERT INTO tile_details (game_id, mode, options, rounds, turns, undos, hints, best_play, highest_line) "
        "SELECT id, mode, options, rounds, turns, undos, hints, best_play, highest_line FROM games",
        "INSERT INTO new_games (key, game, finished_at, seed, record, unfinished) "
        "SELECT key, 'cribbage', finished_at, seed, record, 0 FROM cribbage_games ORDER BY id",
        # a game of cribbage's seats: the person's without a level, the bot's with it
        "INSERT INTO new_seats (game_id, seat, name, level, score, winner) "
        "SELECT g.id, s.seat, CASE s.seat WHEN 0 THEN c.name_0 ELSE c.name_1 END, "
        "CASE WHEN c.person = s.seat THEN NULL ELSE c.level END, "
        "CASE s.seat WHEN 0 THEN c.score_0 ELSE c.score_1 END, c.winner = s.seat "
        "FROM cribbage_games c JOIN new_games g ON g.key = c.key AND g.game = 'cribbage' "
        "JOIN (SELECT 0 AS seat UNION ALL SELECT 1) s",
        "INSERT INTO cribbage_details (game_id, muggins, target, margin, deals, pegged_0, pegged_1) "
        "SELECT g.id, c.muggins, c.target, c.margin, c.deals, c.pegged_0, c.pegged_1 "
        "FROM cribbage_games c JOIN new_games g ON g.key = c.key AND g.game = 'cribbage'",
        "INSERT INTO cribbage_counts (game_id, deal, step, owner, crib, cards, starter, points, declared) "
        "SELECT g.id, s.deal, s.step, s.owner, s.crib, s.cards, s.starter, s.points, s.declared "
        "FROM cribbage_shows s JOIN cribbage_games c ON c.id = s.game_id "
        "JOIN new_games g ON g.key = c.key AND g.game = 'cribbage'",
        # children before their parents: dropping a parent deletes its rows first, and so its children's
        "DROP TABLE cribbage_shows",
        "DROP TABLE cribbage_games",
        "DROP TABLE seats",
        "DROP TABLE games",
        "ALTER TABLE new_games RENAME TO games",  # the new tables' references follow it
        "ALTER TABLE new_seats RENAME TO seats",
        "CREATE INDEX games_by_time ON games (finished_at)",
    ),
    # 6: a game of cribbage's marks, as the tile game's: the moves taken back and the hints asked for
    (
        "ALTER TABLE cribbage_details ADD COLUMN undos INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE cribbage_details ADD COLUMN hints INTEGER NOT NULL DEFAULT 0",
    ),
    # 7: a game of cribbage's statistics beside its details: how its show was counted (auto, manual,
    # muggins) and the points each seat took by calling muggins. A game stored before has no row: its
    # counting is known from its muggins mark, its calls are not (the statistics say over how many games).
    (
        """CREATE TABLE cribbage_figures (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            counting TEXT NOT NULL,
            muggins_0 INTEGER NOT NULL,
            muggins_1 INTEGER NOT NULL
        )""",
    ),
    # 8: the variants of cribbage (issue 32): a game of another than six-card cribbage of two has a row
    # saying which, with the points its third and fourth seats pegged and took by muggins (three players,
    # four in partnerships; empty for two). A six-card game has none, as every game stored before.
    (
        """CREATE TABLE cribbage_variants (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            variant TEXT NOT NULL,
            pegged_2 INTEGER,
            pegged_3 INTEGER,
            muggins_2 INTEGER,
            muggins_3 INTEGER
        )""",
    ),
)

# SQLite's primary result codes (https://sqlite.org/rescode.html) that say what kind of trouble it is
_BUSY, _LOCKED = 5, 6
_DAMAGED = {11: "it is damaged", 26: "it is not a database"}  # SQLITE_CORRUPT, SQLITE_NOTADB
_UNOPENED = {3, 14, 23}  # PERM, CANTOPEN, AUTH
_UNWRITTEN = {8, 10, 13}  # READONLY, IOERR (`ulimit -f` too), FULL
_T = TypeVar("_T")


class Trouble(StrEnum):
    """What kind of trouble the history is in, which says what to do about it."""

    DAMAGED = "damaged"  # not a database, failing quick_check or its schema check: set aside
    NEWER = "newer"  # written by a newer Crib Tiles: set aside
    MOMENT = "moment"  # cannot be opened or written just now (a full disk, read-only): said, the game kept
    LOCKED = "locked"  # another process held its lock past the timeout: said, the game kept
    LINKED = "linked"  # a symbolic link: never used, the game kept
    OUTDATED = "outdated"  # a migration failed: said (it would fail on a fresh history as well)
    OTHER = "other"  # nothing foreseen: looked at again once (its schema may have changed), then said


class _Unusable(Exception):
    """The history cannot be used as it is; `kind` says what to do about it, the message says why."""

    def __init__(self, kind: Trouble, words: str) -> None:
        super().__init__(words)
        self.kind = kind
        self.words = words


SET_ASIDE = frozenset({Trouble.DAMAGED, Trouble.NEWER})  # whenever they are met; nothing else ever is
MOMENTARY = frozenset({Trouble.MOMENT, Trouble.LOCKED, Trouble.LINKED})  # a write that fails so is kept


def history_path(folder: Path) -> Path:
    return Path(folder) / HISTORY_FILE


class History:
    """The finished games in the database at `path`. Every method returns plainly and never raises;
    what went wrong is in `messages` (and the log), and `read_ok` is False after a read that could not see
    the history (locked just then, a link, unreadable, or damaged and impossible to move). A connection
    stays open between calls, and is opened again when the file at `path` is no longer the one it had open."""

    def __init__(
        self, path: Path, *, timeout: float | None = None, migrations: Sequence[Migration] = MIGRATIONS
    ) -> None:
        self.path = Path(path)
        self.timeout = TIMEOUT if timeout is None else timeout
        self.migrations = tuple(migrations)
        self.messages: list[str] = []
        self._conn: sqlite3.Connection | None = None
        self._file: tuple[int, int] | None = None  # (device, inode) of the database it has open
        self._mutex = threading.Lock()
        self._kept: dict[str, Pending] = {}  # writes that could not be made, by their file's name
        self.read_ok = True  # whether the last read saw the whole history (False: locked, or could not be set aside)

    @property
    def version(self) -> int:
        """The schema version this code writes: the number of migrations."""
        return len(self.migrations)

    def take_messages(self) -> list[str]:
        """The messages said since the last call (and forget them)."""
        out, self.messages = self.messages, []
        return out

    def close(self) -> None:
        with self._mutex:
            self._close()

    # --- the games ---

    def add(self, summary: GameSummary) -> int:
        """Store a finished game of either game, in one transaction; its id (the stored one when the same
        game, by its key, is there already), or 0 when it could not be stored (then `messages` says why)."""
        game: str = game_named(summary.game).part(STORED).words  # "This game of cribbage"
        failed = f"{game} could not be added to the history of your games"
        return self._write(lambda conn: history_rows.insert(conn, summary), failed, 0, _kept_game(summary))

    def games(self) -> list[GameSummary]:
        """Every stored game of both games, the newest last; [] when there are none (or the history cannot
        be read)."""
        none: list[GameSummary] = []
        return self._read(lambda conn: history_rows.read(conn, "", (), self._say), none)

    def game(self, game_id: int) -> GameSummary | None:
        """The stored game `game_id`, or None."""
        none: list[GameSummary] = []
        found = self._read(lambda conn: history_rows.read(conn, "WHERE id = ?", (game_id,), self._say), none)
        return found[0] if found else None

    def stats(self) -> Stats:
        """The statistics of both games."""
        return statistics(self.games())

    # --- the puzzles ---

    def mark_solved(self, puzzle_id: str, points: int, solved_at: str) -> bool:
        """Remember that puzzle `puzzle_id` was solved with `points` (a puzzle solved again keeps its
        most points and its first time); whether it was stored (else `messages` says why)."""

        def solve(conn: sqlite3.Connection) -> bool:
            _solve(conn, puzzle_id, points, solved_at)
            return True

        kept = Pending("puzzle", f"puzzle {puzzle_id}", (puzzle_id, int(points), solved_at))
        return self._write(solve, "The solved puzzle could not be remembered", False, kept)

    def solved_puzzles(self) -> dict[str, int]:
        """The puzzles solved, each with the points found; {} when none (or the history cannot be read)."""
        none: dict[str, int] = {}
        return self._read(lambda conn: _solved(conn, self._say), none)

    # --- the database ---

    def _write(
        self, write: Callable[[sqlite3.Connection], _T], failed: str, nothing: _T, kept: Pending | None = None
    ) -> _T:
        """Run `write` on the database (made if need be), after the writes kept earlier. A damaged history
        is set aside and the write made in a fresh one; when it cannot be made, `failed` and the reason are
        said, and `kept` (the write as rows) is kept to be made later."""
        with self._mutex:
            self._store_kept()
            try:
                return self._run(write, create=True)
            except Exception as e:
                trouble = _trouble(e, self.timeout)
                keep = kept is not None and trouble.kind in MOMENTARY  # else it would fail again, as it did
                self._failed(f"{failed} ({trouble.words}){self._keep(kept) if keep and kept else ''}.", e)
                return nothing

    def _read(self, read: Callable[[sqlite3.Connection], _T], nothing: _T) -> _T:
        with self._mutex:
            waited = self._store_kept()
            self.read_ok = True
            try:
                if waited is not None:  # the kept writes waited the whole timeout for it: not twice
                    raise waited
                return self._run(read, create=False, nothing=nothing)
            except Exception as e:
                trouble = _trouble(e, self.timeout)
                if trouble.kind is Trouble.LOCKED:
                    self._failed(f"The history of your games cannot be read just now ({trouble.words}).", e)
                elif trouble.kind not in SET_ASIDE:  # set aside, it has said why it could not be
                    self._failed(f"The history of your games could not be read ({trouble.words}).", e)
                self.read_ok = False
                return nothing

    def _run(self, use: Callable[[sqlite3.Connection], _T], create: bool, nothing: _T | None = None) -> _T:
        """`use(connection)` on the history as it is now (None: `nothing`, when there is none and `create`
        is false). A damaged one is set aside, once, and `use` run on a fresh one; a failure not foreseen
        makes it look at the history again, once, as when it is opened (a table dropped under an open
        connection shows then). Raises what stopped it."""
        looked_again = set_aside = False
        while True:
            try:
                conn = self._open(create=create)
                if conn is None:
                    return nothing  # type: ignore[return-value]  # a read with no history: `nothing`
                return use(conn)
            except Exception as e:
                trouble = _trouble(e, self.timeout)
                if trouble.kind in SET_ASIDE and not set_aside:
                    set_aside = True
                    if self._set_aside(trouble):
                        continue  # into a fresh history (a read finds it empty)
                elif trouble.kind is Trouble.OTHER and not looked_again:
                    looked_again = True
                    log.info("the history is looked at again after %s", why(e))
                    self._close()
                    continue
                raise

    # --- the writes kept for later ---

    def _keep(self, kept: Pending) -> str:
        """Keep a write that could not be made, in memory and in its file; the end of the message saying so."""
        self._kept[kept.name] = kept
        try:
            history_pending.keep(self.path.parent, kept)
        except OSError as e:
            log.warning("the write that failed could not be kept in %s either (%s)", kept.name, why(e))
            return "; it is kept until Crib Tiles is closed, and added as soon as the history can be written"
        log.warning("the write that failed is kept in %s", kept.name)
        return "; it is kept, and added as soon as the history can be written"

    def _store_kept(self) -> _Unusable | None:
        """Make the writes kept earlier (in memory, and in files by this or another process); one that
        still cannot be made stops the others, and they all stay kept. A file that is not a kept write
        is set aside. The lock that stopped them (held past the timeout), if one did."""
        todo: dict[str, tuple[Path | None, Pending]] = {name: (None, p) for name, p in self._kept.items()}
        for found, p in history_pending.kept(self.path.parent):
            todo[p.name] = (found, p)
        stored = games = 0
        locked = None
        for name, (file, p) in todo.items():
            try:
                write = _kept_write(p)
            except (TypeError, ValueError) as e:
                self._kept.pop(name, None)
                if file is not None:
                    history_pending.reject(file, why(e))
                continue
            try:
                self._run(write, create=True)
            except Exception as e:
                trouble = _trouble(e, self.timeout)
                if trouble.kind in MOMENTARY:  # the others would fail alike: they wait
                    log.warning("%d writes kept for the history wait still (%s)", len(todo) - stored, why(e))
                    locked = trouble if trouble.kind is Trouble.LOCKED else None
                    break
                self._kept.pop(name, None)  # it fails for a reason of its own: it would block the others
                if file is not None:
                    history_pending.reject(file, why(e))
                continue
            self._kept.pop(name, None)
            if file is not None:
                history_pending.forget(file)
            stored, games = stored + 1, games + (p.kind != "puzzle")
        if stored:
            log.info("%d writes kept for the history were made", stored)
        if games:
            are = "is" if games == 1 else "are"
            kept = _plural(games, "game")
            self._say(f"The history of your games can be written again: {kept} kept for it {are} in it now.")
        return locked

    # --- the database ---

    def _open(self, create: bool) -> sqlite3.Connection | None:
        """The connection to the database as it is on disk now, checked and brought up to date; None when
        there is none and `create` is false."""
        if self._conn is not None:
            if self._file == _identity(self.path):
                return self._conn
            self._close()  # set aside (or replaced) by another process: open what is there now
        if not self._plain_file() and not create:
            return None
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(self.path), timeout=self.timeout, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA journal_mode = TRUNCATE")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            version = self._check(conn)
            if version < self.version:
                self._migrate(conn)
        except BaseException:
            conn.close()
            raise
        self._conn, self._file = conn, _identity(self.path)
        return conn

    def _plain_file(self) -> bool:
        """Whether the history is there; _Unusable when it, or its journal, is a link (never written through)
        or when it is not a plain file (a folder, a FIFO that would block every read)."""
        for suffix in ("", *COMPANIONS):
            name = Path(f"{self.path}{suffix}")
            if os.path.islink(name):
                folder = os.path.realpath(self.path.parent)
                out = os.path.dirname(os.path.realpath(name)) != folder
                what = "the history" if not suffix else f"the history's {suffix.lstrip('-')} file"
                where = " out of the data folder" if out else ""
                raise _Unusable(Trouble.LINKED, f"{what} is a link{where}; not used")
        try:
            mode = os.stat(self.path).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return False
        if not stat.S_ISREG(mode):
            raise _Unusable(Trouble.DAMAGED, "it is a folder, not a file" if stat.S_ISDIR(mode) else "it is not a file")
        return True

    def _check(self, conn: sqlite3.Connection) -> int:
        """The version of the database, once it is known to be whole and to hold the schema of that version
        (read in one transaction: another process may be migrating it); _Unusable otherwise."""
        conn.execute("BEGIN")
        try:
            version = _user_version(conn)
            if version < 0:
                raise _Unusable(Trouble.DAMAGED, f"its schema version is {version}, which no Crib Tiles writes")
            if version > self.version:
                raise _Unusable(Trouble.NEWER, f"it was written by a newer version of Crib Tiles (schema {version})")
            problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise _Unusable(Trouble.DAMAGED, f"it is damaged: {brief(problems[0])}")
            wrong = schema_problem(conn, self.migrations[:version])
            if wrong:
                raise _Unusable(Trouble.DAMAGED, f"its tables are not those of a history: {wrong}")
        finally:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("COMMIT")
        return version

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Apply the migrations the database lacks, each in a transaction of its own (another process
        may be migrating it too: the version is read again inside each transaction)."""
        while True:
            conn.execute("BEGIN IMMEDIATE")
            try:
                version = _user_version(conn)
                if version >= self.version:
                    conn.execute("COMMIT")
                    return
                try:
                    for sql in self.migrations[version]:
                        conn.execute(sql)
                except sqlite3.Error as e:
                    if e.sqlite_errorcode & 0xFF in (_BUSY, _LOCKED, *_DAMAGED, *_UNOPENED, *_UNWRITTEN):
                        raise
                    raise _Unusable(Trouble.OUTDATED, f"it could not be brought up to date: {brief(str(e))}") from e
                conn.execute(f"PRAGMA user_version = {version + 1:d}")
                conn.execute("COMMIT")
                log.info("history %s migrated to schema %d", self.path, version + 1)
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise

    def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._conn, self._file = None, None

    def _set_aside(self, trouble: _Unusable) -> bool:
        """Move the database and its journal out of the way under a name of their own; whether they went."""
        self._close()
        if not os.path.lexists(self.path):  # nothing to set aside: the trouble is the folder's
            self._failed(f"The history of your games could not be used ({trouble.words}).", trouble)
            return False
        try:
            kept = move_to_free_name(self.path, aside_names(self.path))
        except OSError as e:
            self._failed(
                f"The history of your games could not be used ({trouble.words}); it could not be set aside "
                f"({why(e)}), so it was left where it is.",
                e,
            )
            return False
        for suffix in COMPANIONS:
            companion = Path(f"{self.path}{suffix}")
            if os.path.lexists(companion):
                try:
                    os.replace(companion, Path(f"{kept}{suffix}"))
                except OSError as e:
                    log.warning("the history's %s could not be set aside (%s)", companion.name, why(e))
        log.warning("the history %s could not be used (%s); it was set aside as %s", self.path, trouble.words, kept)
        self._say(
            f"The history of your games could not be used ({trouble.words}); it was kept as {kept.name}, "
            "and a new history begins."
        )
        return True

    def _say(self, message: str) -> None:
        if message not in self.messages:
            self.messages.append(message)

    def _failed(self, message: str, e: BaseException) -> None:
        if isinstance(e, (sqlite3.Error, OSError, _Unusable)):
            log.warning("%s", message)
        else:  # nothing foreseen: the traceback is for the bug report
            log.error("%s", message, exc_info=e)
        self._say(message)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _trouble(e: BaseException, timeout: float) -> _Unusable:
    """What kind of trouble `e` is, in words."""
    if isinstance(e, _Unusable):
        return e
    if isinstance(e, sqlite3.Error):
        code = (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF
        if code in (_BUSY, _LOCKED):
            return _Unusable(Trouble.LOCKED, f"another program has kept it locked for more than {timeout:g} seconds")
        if code in _DAMAGED:
            return _Unusable(Trouble.DAMAGED, _DAMAGED[code])
        if code in _UNOPENED:
            return _Unusable(Trouble.MOMENT, f"it could not be opened: {brief(str(e))}")
        if code in _UNWRITTEN:
            return _Unusable(Trouble.MOMENT, f"it could not be written: {brief(str(e))}")
        return _Unusable(Trouble.OTHER, brief(str(e)))
    if isinstance(e, OSError):  # the folder could not be made, and the like
        return _Unusable(Trouble.MOMENT, why(e))
    return _Unusable(Trouble.OTHER, why(e))


# --- the schema each version has ---

#: What a schema holds, by name: (type, its table, its columns or its SQL); SQLite's own objects left out.
Schema = dict[str, tuple[str, str, tuple[tuple[object, ...], ...] | str]]


def schema_problem(conn: sqlite3.Connection, migrations: Sequence[Migration]) -> str:
    """What is wrong with the schema of the database at `conn` for a history that `migrations` made, in
    words ("its table games is missing"); "" when it is the one they make. Tables are compared by their
    columns (name, type, NOT NULL, default, key), indexes by their SQL; any object they do not make (a
    trigger that refuses inserts, a view in a table's place, an index) is wrong."""
    expected, there = _expected(tuple(tuple(m) for m in migrations)), _schema(conn)
    for name, (kind, _, shape) in expected.items():
        if name not in there:
            return f"its {kind} {name} is missing"
        if there[name][0] != kind:
            return f"its {kind} {name} is a {there[name][0]}"
        if there[name][2] != shape:
            return f"its {kind} {name} is not the one Crib Tiles makes" + (
                " (its columns differ)" if kind == "table" else ""
            )
    extra = sorted((kind, name) for name, (kind, _, _) in there.items() if name not in expected)
    if extra:
        return f"it holds {_plural(len(extra), extra[0][0])} that Crib Tiles did not make"
    return ""


@functools.lru_cache(maxsize=8)
def _expected(migrations: tuple[tuple[str, ...], ...]) -> Schema:
    """The schema `migrations` make, made in memory (once: they never change)."""
    conn = sqlite3.connect(":memory:")
    try:
        for migration in migrations:
            for sql in migration:
                conn.execute(sql)
        return _schema(conn)
    finally:
        conn.close()


def _schema(conn: sqlite3.Connection) -> Schema:
    out: Schema = {}
    rows = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!'"
    )
    for kind, name, table, sql in rows.fetchall():
        if kind == "table":
            columns = 'SELECT name, upper(type), "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid'
            shape: tuple[tuple[object, ...], ...] | str = tuple(conn.execute(columns, (name,)).fetchall())
        else:
            shape = " ".join(str(sql).split())
        out[str(name)] = (str(kind), str(table), shape)
    return out


# --- rows ---


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _kept_game(s: GameSummary) -> Pending:
    row, children = history_rows.rows_of(s)
    return Pending(FINISHED, s.key, row, history_rows.tagged(children))


def _kept_write(p: Pending) -> Callable[[sqlite3.Connection], object]:
    """The write a kept one makes, its rows checked by kind first (TypeError or ValueError in words); a
    game kept by a Crib Tiles before schema 5 is read in the rows it wrote then."""
    if p.kind == FINISHED:
        summary = history_rows.summary_of(p.row, history_rows.untagged(p.children))
        return lambda conn: history_rows.insert(conn, summary)
    if p.kind in ("game", "cribbage"):
        old = history_rows.legacy_summary(p.kind, p.row, p.children)
        return lambda conn: history_rows.insert(conn, old)
    if len(p.row) != 3:
        raise ValueError("it is not a solved puzzle")
    puzzle, points, solved_at = p.row
    puzzle_id, most, when = text(puzzle, "puzzle"), whole(points, "points"), text(solved_at, "time")
    return lambda conn: _solve(conn, puzzle_id, most, when)


def _solve(conn: sqlite3.Connection, puzzle_id: str, points: int, solved_at: str) -> None:
    with writing(conn):
        conn.execute(
            "INSERT INTO puzzles (puzzle, points, solved_at) VALUES (?, ?, ?) "
            "ON CONFLICT (puzzle) DO UPDATE SET points = max(points, excluded.points)",
            (puzzle_id, int(points), solved_at),
        )


def _solved(conn: sqlite3.Connection, say: Callable[[str], None]) -> dict[str, int]:
    """The solved puzzles; rows that cannot be understood (edited by hand) are left out, and said once."""
    out: dict[str, int] = {}
    bad = 0
    for puzzle, points in conn.execute("SELECT puzzle, points FROM puzzles ORDER BY puzzle").fetchall():
        if isinstance(puzzle, str) and isinstance(points, int) and not isinstance(points, bool):
            out[puzzle] = points
        else:
            bad += 1
    if bad:
        log.warning("%d solved puzzles of the history could not be read", bad)
        if bad == 1:
            say("A solved puzzle in the history could not be read; it is left out.")
        else:
            say(f"{bad:,} solved puzzles in the history could not be read; they are left out.")
    return out
