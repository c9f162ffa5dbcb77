"""Where the server keeps its tables: one interface (`TableStore`), so that a database server could hold
them without touching the game, and the store every server has, SQLite in its data folder
(`SqliteStore`). A table is written whole, in one transaction, before the move that changed it is
acknowledged: a server killed at any moment comes back with every acknowledged move (issue 31)."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
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


class StoreError(Exception):
    """The store cannot keep a table: the move that changed it is not acknowledged."""


class TableStore(Protocol):
    """What the server asks of where its tables are kept."""

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        """Keep the table `code` as `data`, durably, before returning; StoreError when it cannot."""
        ...

    def tables(self) -> Iterator[dict[str, Any]]:
        """Every table kept (a damaged one is left out, and said so in the log)."""
        ...

    def has(self, code: str) -> bool: ...

    def get(self, code: str) -> dict[str, Any] | None:
        """The table `code` as kept (None: none is, or it is damaged, which the log says); StoreError
        when the store cannot be read. A server reads a finished table it let go of this way."""
        ...

    def close(self) -> None: ...


class MemoryStore:
    """A store that forgets everything when the server stops (tests, and the benchmark's baseline)."""

    def __init__(self) -> None:
        self.kept: dict[str, str] = {}

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        self.kept[code] = json.dumps(data)

    def tables(self) -> Iterator[dict[str, Any]]:
        for text in self.kept.values():
            yield json.loads(text)

    def has(self, code: str) -> bool:
        return code in self.kept

    def get(self, code: str) -> dict[str, Any] | None:
        text = self.kept.get(code)
        return None if text is None else dict(json.loads(text))

    def close(self) -> None:
        pass


class SqliteStore:
    """Tables in `path`, a SQLite database in write-ahead mode: a commit is in the log before `put`
    returns, and a process killed after it loses nothing (the system still holds what it wrote)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(SCHEMA)
            self._check()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"the server's tables at {path} cannot be read ({e})") from None

    def _check(self) -> None:
        columns = [row[1] for row in self.db.execute("PRAGMA table_info(tables)")]
        if columns != ["code", "game", "phase", "updated", "data"]:
            raise sqlite3.DatabaseError("its tables are not laid out as this server keeps them")

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        try:
            self.db.execute(
                "INSERT OR REPLACE INTO tables (code, game, phase, updated, data) VALUES (?, ?, ?, ?, ?)",
                (code, game, phase, updated, json.dumps(data, separators=(",", ":"))),
            )
        except sqlite3.Error as e:
            raise StoreError(f"the table could not be kept ({e})") from None

    def tables(self) -> Iterator[dict[str, Any]]:
        for code, text in self.db.execute("SELECT code, data FROM tables ORDER BY updated"):
            try:
                data = json.loads(text)
                if not isinstance(data, dict):
                    raise ValueError("not an object")
            except ValueError:
                log.error("the kept table %r is damaged and is left out", str(code)[:12])
                continue
            yield data

    def has(self, code: str) -> bool:
        return self.db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() is not None

    def get(self, code: str) -> dict[str, Any] | None:
        try:
            row = self.db.execute("SELECT data FROM tables WHERE code = ?", (code,)).fetchone()
        except sqlite3.Error as e:
            raise StoreError(f"the table could not be read ({e})") from None
        if row is None:
            return None
        try:
            data = json.loads(row[0])
            if not isinstance(data, dict):
                raise ValueError("not an object")
        except ValueError:
            log.error("the kept table %r is damaged and is left out", code[:12])
            return None
        return data

    def close(self) -> None:
        self.db.close()
