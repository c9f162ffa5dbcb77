"""The server tests' stores (issue 46): a real PostgreSQL for the whole session, started on loopback when
the first test asks for it, and `store_kind`, over which the tests that exercise a store run twice,
against SQLite and against PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest

from cribtiles.server.store import SqliteStore, TableStore

from .postgres import Cluster, postgres_bin, running_postgres

NO_POSTGRES = "PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run installs it)"


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A PostgreSQL cluster of this test process (each xdist worker has its own)."""
    binaries = postgres_bin()
    if binaries is None:
        pytest.skip(NO_POSTGRES)
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install -e '.[test]'")
    with running_postgres(binaries) as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_store(store_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[MakeStore]:
    """Stores of `store_kind` on one place (a SQLite file, a PostgreSQL database): each call opens another
    on the same tables, as a restarted server (or another process) does; all closed after the test."""
    opened: list[TableStore] = []
    sqlite = store_kind == "sqlite"
    place = str(tmp_path / "tables.db") if sqlite else request.getfixturevalue("postgres").database()

    def make(**options: float) -> TableStore:
        store: TableStore
        if store_kind == "sqlite":
            store = SqliteStore(Path(place))
        else:
            from cribtiles.server.pgstore import PostgresStore

            store = PostgresStore(place, **options)
        opened.append(store)
        return store

    make.place = place  # type: ignore[attr-defined]
    try:
        yield make
    finally:
        for store in opened:
            store.close()


class MakeStore(Protocol):
    """The type of `make_store`: a new store on the test's tables."""

    place: str

    def __call__(self, **options: float) -> TableStore: ...
