"""The server's tables in PostgreSQL (`cribtiles serve --store postgresql://…`, issue 46): the same
`TableStore` as SQLite's, shared by several server processes. A table is served by one process at a time:
the one that holds its lease (a row of `leases`, renewed while it serves the table); every write is a
compare-and-set on the table's version (its count of writes), made only while the lease is held, so a
process that lost its lease (paused, cut off) can never write over a newer state. A move is acknowledged
only once its transaction has committed (PostgreSQL's `synchronous_commit`, on by default); the server
calls `put` from writer threads, never two of one table at once, so its loop goes on during a commit.

psycopg 3 and its pool are the optional extra `cribtiles[server]`: only this module imports them."""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from .store import StoreError, TableElsewhere, compact, kept_table

log = logging.getLogger("cribtiles.server")

#: Seconds a process holds a table after its last renewal: a process killed outright leaves its tables to
#: the others this long after; it renews every LEASE / 3 seconds.
LEASE = 10.0
#: Connections to PostgreSQL a process keeps: one for each of its writer threads (the server's `WRITERS`,
#: which commit different tables' changes at once), and two for its loop's reads and leases.
POOL_MIN, POOL_MAX = 1, 6
#: Seconds a process waits for PostgreSQL to give it a connection before the move is refused.
POOL_TIMEOUT = 5.0

# The schema is a list of migrations, each applied in a transaction of its own under an advisory lock (two
# processes starting at once apply each migration once); `schema_version` says how many are applied. A
# migration, once released, never changes: a new one is added at the end.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        # data NULL: a code reserved (by `reserve`) whose table is not written yet
        """CREATE TABLE tables (
            code TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            phase TEXT NOT NULL,
            updated DOUBLE PRECISION NOT NULL,
            ply INTEGER NOT NULL,
            version BIGINT NOT NULL,
            data TEXT
        )""",
        "CREATE INDEX tables_phase ON tables (phase)",
        """CREATE TABLE leases (
            code TEXT PRIMARY KEY REFERENCES tables (code) ON DELETE CASCADE,
            holder TEXT NOT NULL,
            until TIMESTAMPTZ NOT NULL
        )""",
        "CREATE INDEX leases_holder ON leases (holder)",
    ),
)
#: The advisory lock taken while migrating (any number the other users of the database do not take).
MIGRATION_LOCK = 0x43524942


def migrate(conn: psycopg.Connection[Any], migrations: Sequence[Sequence[str]] = MIGRATIONS) -> int:
    """Apply the migrations the database at `conn` lacks; the schema version it is at. StoreError for
    a database written by a newer Crib Tiles (more migrations than this one knows)."""
    while True:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            # under the lock: two processes creating it at once would collide even with IF NOT EXISTS
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else int(row[0])
            if version > len(migrations):
                raise StoreError(
                    f"the tables' database is at schema {version}, newer than this server's {len(migrations)}: "
                    "run a newer Crib Tiles"
                )
            if version == len(migrations):
                return version
            for sql in migrations[version]:
                conn.execute(sql.encode())
            if row is None:
                conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (version + 1,))
            else:
                conn.execute("UPDATE schema_version SET version = %s", (version + 1,))
            log.info("the tables' database migrated to schema %d", version + 1)


def holder_name() -> str:
    """This process's name on its leases: host, process id and a random part (a PID comes back)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


class PostgresStore:
    """Tables in the PostgreSQL database at `url`, shared with other server processes (`shared`)."""

    shared = True

    def __init__(self, url: str, lease: float = LEASE, holder: str | None = None, pool_max: int = POOL_MAX) -> None:
        self.url = url
        self.lease = lease
        self.holder = holder or holder_name()
        self.versions: dict[str, int] = {}  # code -> the version last written or read, of the tables held
        self.pool: ConnectionPool[Any] = ConnectionPool(
            url,
            min_size=POOL_MIN,
            max_size=max(POOL_MIN, pool_max),
            timeout=POOL_TIMEOUT,
            kwargs={"autocommit": True},
            open=False,
            name="tables",
        )
        try:
            self.pool.open(wait=True, timeout=POOL_TIMEOUT)
            with self.pool.connection() as conn:
                migrate(conn)
        except (psycopg.Error, OSError) as e:
            self.pool.close()
            raise StoreError(f"the tables' database at {_shown(url)} cannot be used ({_words(e)})") from None
        except BaseException:
            self.pool.close()
            raise

    # --- codes and leases ---

    def reserve(self, code: str) -> bool:
        """Take `code` for a new table, with its lease, if no process has it: atomic across processes."""
        with self._db("reserve a code") as conn, conn.transaction():
            taken = conn.execute(
                "INSERT INTO tables (code, game, phase, updated, ply, version, data)"
                " VALUES (%s, '', 'reserved', 0, 0, 0, NULL) ON CONFLICT (code) DO NOTHING RETURNING code",
                (code,),
            ).fetchone()
            if taken is None:
                return False
            conn.execute(
                "INSERT INTO leases (code, holder, until)"
                " VALUES (%s, %s, clock_timestamp() + make_interval(secs => %s))",
                (code, self.holder, self.lease),
            )
        self.versions[code] = 0
        return True

    def get(self, code: str, claim: bool = True) -> dict[str, Any] | None:
        """The table `code`, its lease taken for this process (`claim`: none other holds it, or its holder's
        ran out); TableElsewhere when another process holds it; None when no table has the code."""
        with self._db("read a table") as conn, conn.transaction():
            if claim:
                held = conn.execute(
                    "INSERT INTO leases (code, holder, until)"
                    " SELECT code, %s, clock_timestamp() + make_interval(secs => %s) FROM tables"
                    " WHERE code = %s AND data IS NOT NULL"
                    " ON CONFLICT (code) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until"
                    " WHERE leases.until < clock_timestamp() OR leases.holder = EXCLUDED.holder"
                    " RETURNING code",
                    (self.holder, self.lease, code),
                ).fetchone()
            row = conn.execute("SELECT version, data FROM tables WHERE code = %s", (code,)).fetchone()
        if row is None or row[1] is None:
            return None
        if claim and held is None:
            raise TableElsewhere(f"table {code} is served by another server process")
        data = kept_table(code, row[1])
        if data is None:
            return None
        if claim:
            self.versions[code] = int(row[0])
        return data

    def renew(self, codes: set[str]) -> set[str]:
        """Renew this process's leases of `codes`; those it holds no more (another process took them
        while this one was paused, or they ran out), which it must stop serving."""
        asked = sorted(codes & set(self.versions))
        if not asked:
            return set(codes) - set(self.versions)
        with self._db("renew the leases") as conn:
            rows = conn.execute(
                "UPDATE leases SET until = clock_timestamp() + make_interval(secs => %s)"
                " WHERE holder = %s AND code = ANY(%s) AND until > clock_timestamp() RETURNING code",
                (self.lease, self.holder, asked),
            ).fetchall()
        kept = {str(r[0]) for r in rows}
        lost = set(codes) - kept
        for code in lost:
            self.versions.pop(code, None)
        return lost

    def release(self, code: str) -> None:
        """Let go of `code`'s lease (its table kept as last written): another process may take it at once."""
        self.versions.pop(code, None)
        try:
            with self._db("let go of a table") as conn:
                conn.execute("DELETE FROM leases WHERE code = %s AND holder = %s", (code, self.holder))
        except StoreError as e:  # it runs out by itself
            log.warning("%s", e)

    def waiting(self, game: str | None, most: int) -> list[dict[str, Any]]:
        with self._db("list the open tables") as conn:
            rows = conn.execute(
                "SELECT code, data FROM tables WHERE phase = 'waiting' AND data IS NOT NULL"
                " AND (%s::text IS NULL OR game = %s) AND (data::jsonb #>> '{settings,public}') = 'true'"
                " ORDER BY (data::jsonb ->> 'created')::float8 DESC LIMIT %s",
                (game, game, most),
            ).fetchall()
        return [data for code, text in rows if (data := kept_table(code, text)) is not None]

    # --- TableStore ---

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        expected = self.versions.get(code)
        if expected is None:  # a table this process neither made nor read: only a new code is written
            if not self.reserve(code):
                raise TableElsewhere(f"table {code} is another process's to write")
            expected = 0
        ply = data.get("ply")
        with self._db("keep a table") as conn:
            row = conn.execute(
                "UPDATE tables AS t SET game = %s, phase = %s, updated = %s, ply = %s, data = %s,"
                " version = t.version + 1"
                " FROM leases AS l WHERE t.code = %s AND t.version = %s AND l.code = t.code"
                " AND l.holder = %s AND l.until > clock_timestamp() RETURNING t.version",
                (game, phase, updated, ply if isinstance(ply, int) else 0, compact(data), code, expected, self.holder),
            ).fetchone()
        if row is None:
            self.versions.pop(code, None)
            raise TableElsewhere(f"table {code} was taken by another server process: this change is not kept")
        self.versions[code] = int(row[0])

    def tables(self) -> Iterator[dict[str, Any]]:
        """Every table written (none is claimed: a shared store's server loads a table when it is asked for)."""
        with self._db("read the tables") as conn:
            rows = conn.execute("SELECT code, data FROM tables WHERE data IS NOT NULL ORDER BY code").fetchall()
        for code, text in rows:
            if (data := kept_table(code, text)) is not None:
                yield data

    def has(self, code: str) -> bool:
        with self._db("look for a code") as conn:
            return conn.execute("SELECT 1 FROM tables WHERE code = %s", (code,)).fetchone() is not None

    def close(self) -> None:
        """Let go of every lease this process holds (the others take its tables at once) and close."""
        if self.pool.closed:
            return
        try:
            with self._db("let go of the tables") as conn:
                conn.execute("DELETE FROM leases WHERE holder = %s", (self.holder,))
        except StoreError as e:
            log.warning("%s", e)
        self.versions.clear()
        self.pool.close()

    def _db(self, doing: str) -> _Connection:
        return _Connection(self.pool, doing)


class _Connection:
    """A connection from the pool for a `with` block; any failure of the database a StoreError in words."""

    def __init__(self, pool: ConnectionPool[Any], doing: str) -> None:
        self.pool, self.doing = pool, doing
        self.held: Any = None

    def __enter__(self) -> psycopg.Connection[Any]:
        self.held = self.pool.connection()
        try:
            conn: psycopg.Connection[Any] = self.held.__enter__()
        except Exception as e:
            raise StoreError(f"could not {self.doing}: no connection to the tables' database ({_words(e)})") from None
        return conn

    def __exit__(self, kind: Any, error: Any, tb: Any) -> None:
        try:
            self.held.__exit__(kind, error, tb)
        except psycopg.Error as e:
            raise StoreError(f"could not {self.doing} ({_words(e)})") from None
        if isinstance(error, psycopg.Error):
            raise StoreError(f"could not {self.doing} ({_words(error)})") from None


def _shown(url: str) -> str:
    """`url` without its password, for words and the log."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "(an address that cannot be read)"
    info.pop("password", None)
    return psycopg.conninfo.make_conninfo("", **info)


def _words(e: BaseException) -> str:
    return " ".join(str(e).split())[:300] or type(e).__name__
