"""Where the server keeps its tables: one interface (`TableStore`), which a database server shared by
several server processes also answers (`pgstore`, PostgreSQL), and the store every server has, SQLite in
its data folder (`SqliteStore`). A table's change is written, in one transaction, before the move that made it is
acknowledged: a server killed at any moment comes back with every acknowledged move (issue 31).

`SqliteStore` writes a table whole now and then (its snapshot) and, in between, only what changed since
the last write (a change: the fields that changed, and the tail of a long text such as the game's record,
which grows at its end): a move writes a row of a few hundred bytes rather than the whole table."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger("cribtiles.server")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    phase TEXT NOT NULL,
    updated REAL NOT NULL,
    data TEXT NOT NULL
)
"""
#: The changes of each table since its snapshot in `tables`, in order (`seq`); `phase` and `updated`
#: are the table's as of that change (the snapshot's row keeps its own).
CHANGES = """
CREATE TABLE IF NOT EXISTS changes (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    phase TEXT NOT NULL,
    updated REAL NOT NULL,
    change TEXT NOT NULL,
    PRIMARY KEY (code, seq)
) WITHOUT ROWID
"""
#: A table is written whole again after this many changes, or once its changes outweigh it.
SNAPSHOT_EVERY = 64
#: Texts longer than this are written as the tail that differs from their last value.
LONG_TEXT = 256
#: The log's pages past which the server's own thread copies it into the database (every commit checks)
#: when the store's checkpointing thread has not kept up; that thread looks every CHECKPOINT_EVERY seconds.
LOG_PAGES_MOST = 10_000
CHECKPOINT_EVERY = 0.5
#: Tables whose last write is remembered (the base of their next change); one forgotten is written whole.
REMEMBERED = 4096


class StoreError(Exception):
    """The store cannot keep a table: the move that changed it is not acknowledged."""


class TableElsewhere(StoreError):
    """Another server process serves the table (a shared store's lease): this one neither reads nor
    writes it, and a change it made is not acknowledged."""


class TableStore(Protocol):
    """What the server asks of where its tables are kept. A `shared` store (PostgreSQL) is used by several
    server processes at once: a process reads a table when it is first asked for it (`get`, which takes
    its lease), renews the leases of the tables it serves (`renew`) and lets go of those no one is at
    (`release`); a store of one process takes every call as granted."""

    shared: bool

    def reserve(self, code: str) -> bool:
        """Take `code` for a new table if no table has it (atomically, in a shared store)."""
        ...

    def renew(self, codes: set[str]) -> set[str]:
        """Go on serving `codes`; those this process may serve no more."""
        ...

    def release(self, code: str) -> None:
        """This process stops serving `code` (kept as last written)."""
        ...

    def waiting(self, game: str | None, most: int) -> list[dict[str, Any]]:
        """A shared store's tables anyone may join that wait for players (of `game`, when given), the
        newest first, `most` at most, as kept: whichever process serves them (a store of one process
        answers [], its server knows its own)."""
        ...

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        """Keep the table `code` as `data`, durably, before returning; StoreError when it cannot."""
        ...

    def tables(self) -> Iterator[dict[str, Any]]:
        """Every table kept (a damaged one is left out, and said so in the log)."""
        ...

    def has(self, code: str) -> bool: ...

    def get(self, code: str, claim: bool = True) -> dict[str, Any] | None:
        """The table `code` as kept (None: none is, or it is damaged, which the log says); StoreError
        when the store cannot be read. A server reads a finished table it let go of this way, and a shared
        store's server every table; `claim`: to serve it (TableElsewhere: another process does), else only
        to show it."""
        ...

    def close(self) -> None: ...


def json_object(text: object) -> dict[str, Any] | None:
    """`text` (a kept table's JSON) read as an object; None if it is not one: damaged, or not text at all
    (a hand-edited database's column may hold anything)."""
    if not isinstance(text, (str, bytes, bytearray)):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def kept_table(code: object, text: object) -> dict[str, Any] | None:
    """The table `code` kept as `text`; None, and a line in the log, if it is damaged."""
    data = json_object(text)
    if data is None:
        left_out(code)
    return data


def left_out(code: object) -> None:
    log.error("the kept table %r is damaged and is left out", str(code)[:12])


#: JSON without spaces (`json.dumps` with separators makes an encoder at every call: this one is made once).
compact = json.JSONEncoder(separators=(",", ":")).encode


class OneProcess:
    """What a store of one server process answers of the calls a shared store needs."""

    shared = False

    def has(self, code: str) -> bool:
        raise NotImplementedError

    def reserve(self, code: str) -> bool:
        return not self.has(code)

    def renew(self, codes: set[str]) -> set[str]:
        return set()

    def release(self, code: str) -> None:
        pass

    def waiting(self, game: str | None, most: int) -> list[dict[str, Any]]:
        return []


class MemoryStore(OneProcess):
    """A store that forgets everything when the server stops (tests, and the benchmark's baseline)."""

    def __init__(self) -> None:
        self.kept: dict[str, str] = {}

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        self.kept[code] = compact(data)

    def tables(self) -> Iterator[dict[str, Any]]:
        for text in self.kept.values():
            yield json.loads(text)

    def has(self, code: str) -> bool:
        return code in self.kept

    def get(self, code: str, claim: bool = True) -> dict[str, Any] | None:
        text = self.kept.get(code)
        return None if text is None else dict(json.loads(text))

    def close(self) -> None:
        pass


def common_prefix(a: str, b: str) -> int:
    """How many characters `a` and `b` begin with alike (compared a stretch at a time, not by the
    character).

    >>> common_prefix("abcdef", "abcxyz"), common_prefix("abc", "abc"), common_prefix("", "a")
    (3, 3, 0)
    """
    low, high = 0, min(len(a), len(b))
    while low < high:  # a[:low] == b[:low], and they differ before high + 1
        middle = (low + high + 1) // 2
        if a.startswith(b[low:middle], low):
            low = middle
        else:
            high = middle - 1
    return low


@dataclass
class Written:
    """What the store last wrote of a table: the JSON text of each field but its long texts, those
    texts themselves, and how much has been written as changes since its snapshot."""

    fields: dict[str, str]
    texts: dict[str, str]
    changes: int = 0
    changed_chars: int = 0
    snapshot_chars: int = 0


def written(data: dict[str, Any]) -> Written:
    fields, texts = {}, {}
    for key, value in data.items():
        if isinstance(value, str) and len(value) > LONG_TEXT:
            texts[key] = value
        else:
            fields[key] = compact(value)
    return Written(fields, texts)


def change_text(before: Written, now: Written) -> str | None:
    """The change from what was written `before` to what is `now`: {"set": fields given anew, "grow":
    {field: [characters kept, tail]} for a long text that was long before, "drop": fields gone}; None
    when nothing changed."""
    set_parts, grow = [], {}
    for key, text in now.fields.items():
        if before.fields.get(key) != text:
            set_parts.append(f"{compact(key)}:{text}")
    for key, text in now.texts.items():
        old = before.texts.get(key)
        if old == text:
            continue
        if old is None:
            set_parts.append(f"{compact(key)}:{compact(text)}")
        else:
            kept = common_prefix(old, text)
            grow[key] = [kept, text[kept:]]
    drop = [k for k in (*before.fields, *before.texts) if k not in now.fields and k not in now.texts]
    if not set_parts and not grow and not drop:
        return None
    return f'{{"set":{{{",".join(set_parts)}}},"grow":{compact(grow)},"drop":{compact(drop)}}}'


def apply_change(data: dict[str, Any], text: str) -> None:
    """`data` as a change (`change_text`) left it; ValueError when the change does not fit it."""
    change = json.loads(text)
    if not isinstance(change, dict):
        raise ValueError("a change is an object")
    data.update(change["set"])
    for key, (kept, tail) in change["grow"].items():
        old = data.get(key)
        if not isinstance(old, str) or not isinstance(kept, int) or not 0 <= kept <= len(old):
            raise ValueError(f"the change of {str(key)[:20]!r} does not fit what it changes")
        data[key] = old[:kept] + tail
    for key in change["drop"]:
        data.pop(key, None)


class SqliteStore(OneProcess):
    """Tables in `path`, a SQLite database in write-ahead mode: a commit is in the log before `put`
    returns, so a server process killed after it (kill -9) loses nothing, for the system still holds what
    it wrote. With `synchronous=NORMAL` the log is not flushed to the disk at every commit: a power loss
    or a crash of the whole system may lose the last moments' moves (the database stays whole), which
    FULL would keep at the price of a flush (milliseconds) before every acknowledgement."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.written: OrderedDict[str, Written] = OrderedDict()
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(f"PRAGMA wal_autocheckpoint={LOG_PAGES_MOST}")
            self.db.execute(SCHEMA)
            self.db.execute(CHANGES)
            self._check()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"the server's tables at {path} cannot be read ({e})") from None
        self.stop = threading.Event()
        self.checkpointing = threading.Thread(target=self._checkpoint, name="tables-checkpoint", daemon=True)
        self.checkpointing.start()

    def _check(self) -> None:
        columns = [row[1] for row in self.db.execute("PRAGMA table_info(tables)")]
        if columns != ["code", "game", "phase", "updated", "data"]:
            raise sqlite3.DatabaseError("its tables are not laid out as this server keeps them")
        columns = [row[1] for row in self.db.execute("PRAGMA table_info(changes)")]
        if columns != ["code", "seq", "phase", "updated", "change"]:
            raise sqlite3.DatabaseError("its changes are not laid out as this server keeps them")

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        now = written(data)
        last = self.written.get(code)
        try:
            if last is None or last.changes >= SNAPSHOT_EVERY or last.changed_chars > last.snapshot_chars:
                self._snapshot(code, game, phase, updated, data, now)
                return
            text = change_text(last, now)
            if text is None:
                return
            self.db.execute(
                "INSERT INTO changes (code, seq, phase, updated, change) VALUES (?, ?, ?, ?, ?)",
                (code, last.changes + 1, phase, updated, text),
            )
        except sqlite3.Error as e:
            self.written.pop(code, None)  # what is kept is unsure: the next write is whole
            raise StoreError(f"the table could not be kept ({e})") from None
        now.changes, now.changed_chars, now.snapshot_chars = (
            last.changes + 1,
            last.changed_chars + len(text),
            last.snapshot_chars,
        )
        self.written[code] = now
        self.written.move_to_end(code)

    def _snapshot(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any], now: Written) -> None:
        text = compact(data)
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute(
                "INSERT OR REPLACE INTO tables (code, game, phase, updated, data) VALUES (?, ?, ?, ?, ?)",
                (code, game, phase, updated, text),
            )
            self.db.execute("DELETE FROM changes WHERE code = ?", (code,))
            self.db.execute("COMMIT")
        except sqlite3.Error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        now.snapshot_chars = len(text)
        self.written[code] = now
        self.written.move_to_end(code)
        while len(self.written) > REMEMBERED:
            self.written.popitem(last=False)

    def tables(self) -> Iterator[dict[str, Any]]:
        changes = self.db.execute("SELECT code, change FROM changes ORDER BY code, seq")
        pending = next(changes, None)
        for code, text in self.db.execute("SELECT code, data FROM tables ORDER BY code"):
            data = json_object(text)
            while pending is not None and pending[0] < code:  # changes of no table: nothing to apply them to
                pending = next(changes, None)
            while pending is not None and pending[0] == code:
                if data is not None:
                    try:
                        apply_change(data, pending[1])
                    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
                        data = None
                pending = next(changes, None)
            if data is None:
                left_out(code)
                continue
            yield data

    def has(self, code: str) -> bool:
        return self.db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() is not None

    def get(self, code: str, claim: bool = True) -> dict[str, Any] | None:
        try:
            row = self.db.execute("SELECT data FROM tables WHERE code = ?", (code,)).fetchone()
        except sqlite3.Error as e:
            raise StoreError(f"the table could not be read ({e})") from None
        return None if row is None else kept_table(code, row[0])

    def close(self) -> None:
        self.stop.set()
        self.checkpointing.join(timeout=10)
        self.db.close()

    def _checkpoint(self) -> None:
        """Copy the log into the database now and then, in a thread of its own: the copy ends with a
        flush to the disk (milliseconds, tens on a busy disk) that would otherwise hold up the server's
        loop, and every move waiting on it, about once a second under load. The server's own
        connection does it only when this thread falls far behind (LOG_PAGES_MOST)."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as e:
            log.warning("the tables' log will be copied by the server's loop itself: %s", e)
            return
        try:
            db.execute("PRAGMA synchronous=NORMAL")
            while not self.stop.wait(CHECKPOINT_EVERY):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as e:  # the next look tries again
                    log.warning("the tables' log could not be copied: %s", e)
        finally:
            db.close()
