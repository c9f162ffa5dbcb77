"""The tables in a real PostgreSQL (issue 46): the schema's migrations applied once, however many processes
start at once, and a newer schema refused; a code reserved by one store only; a table served by the
store that holds its lease, whose writes are compare-and-set on its version, so that a store whose lease
was taken can never write over the newer state; and, through a server, a move acknowledged only once it
is in the database, its commit made off the server's loop: a slow one holds up its own table's answer
only, not the other tables'."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest

from cribtiles.online.tiles_seat import tile_move
from cribtiles.server.pgstore import MIGRATIONS, PostgresStore
from cribtiles.server.store import StoreError, TableElsewhere

from .players import WAIT, Player, connected, new_table
from .postgres import Cluster
from .running import running_server

ROOT = Path(__file__).resolve().parents[2]


def one(url: str, sql: str, *args: Any) -> Any:
    """The first column of the first row of `sql` on the database at `url`, on a connection of its own."""
    with psycopg.connect(url) as conn:
        row = conn.execute(sql.encode(), args).fetchone()
    return None if row is None else row[0]


def table(code: str, ply: int) -> dict[str, Any]:
    return {"code": code, "ply": ply, "table": "t" * (300 + ply)}


def test_the_migrations_are_applied_once_by_stores_opened_at_once(postgres: Cluster) -> None:
    url = postgres.database()
    stores: list[PostgresStore] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def open_one() -> None:
        start.wait(WAIT)
        try:
            stores.append(PostgresStore(url))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    try:
        assert not errors and len(stores) == 4
        assert one(url, "SELECT version FROM schema_version") == len(MIGRATIONS) == 1
        assert one(url, "SELECT COUNT(*) FROM schema_version") == 1
    finally:
        for store in stores:
            store.close()


def test_a_database_of_a_newer_schema_is_refused_in_words(postgres: Cluster) -> None:
    url = postgres.database()
    PostgresStore(url).close()
    with psycopg.connect(url) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="schema 99, newer than this server's 1"):
        PostgresStore(url)


def test_a_database_that_cannot_be_reached_is_refused_in_words(postgres: Cluster) -> None:
    with pytest.raises(StoreError, match="cannot be used"):
        PostgresStore(postgres.url("no_such_database"))


def test_a_code_is_reserved_by_one_store_only(postgres: Cluster) -> None:
    url = postgres.database()
    a, b = PostgresStore(url), PostgresStore(url)
    try:
        assert a.reserve("AAAAAA")
        assert not b.reserve("AAAAAA") and not a.reserve("AAAAAA")
        assert a.has("AAAAAA") and b.has("AAAAAA")
        assert b.get("AAAAAA") is None  # reserved, not yet written: no table to show
    finally:
        a.close()
        b.close()


def test_a_table_is_served_by_the_store_holding_its_lease_and_a_lost_lease_writes_nothing(postgres: Cluster) -> None:
    url = postgres.database()
    a, b = PostgresStore(url, lease=30), PostgresStore(url, lease=30)
    try:
        assert a.reserve("AAAAAA")
        for ply in range(3):
            a.put("AAAAAA", "tiles", "playing", 1.0, table("AAAAAA", ply))
        with pytest.raises(TableElsewhere):
            b.get("AAAAAA")
        with pytest.raises(TableElsewhere):  # nor may it write a table it never read
            b.put("AAAAAA", "tiles", "playing", 1.0, table("AAAAAA", 99))
        assert b.get("AAAAAA", claim=False) == table("AAAAAA", 2)  # shown, not served
        # a's lease runs out (as if it were paused for longer than it): b takes the table and writes
        with psycopg.connect(url) as conn:
            conn.execute("UPDATE leases SET until = clock_timestamp() - interval '1 second'")
        assert b.get("AAAAAA") == table("AAAAAA", 2)
        b.put("AAAAAA", "tiles", "playing", 2.0, table("AAAAAA", 3))
        with pytest.raises(TableElsewhere):
            a.put("AAAAAA", "tiles", "playing", 1.0, table("AAAAAA", 3))
        assert a.renew({"AAAAAA"}) == {"AAAAAA"} and b.renew({"AAAAAA"}) == set()
        assert one(url, "SELECT ply FROM tables WHERE code = 'AAAAAA'") == 3
        assert one(url, "SELECT version FROM tables WHERE code = 'AAAAAA'") == 4
        assert [t["ply"] for t in PostgresStore(url).tables()] == [3]
        # even holding the lease again, a store whose version is stale writes nothing
        b.release("AAAAAA")
        a.versions["AAAAAA"] = 3
        with psycopg.connect(url) as conn:
            conn.execute(
                "INSERT INTO leases VALUES ('AAAAAA', %s, clock_timestamp() + interval '1 minute')", (a.holder,)
            )
        with pytest.raises(TableElsewhere):
            a.put("AAAAAA", "tiles", "playing", 1.0, table("AAAAAA", 4))
        assert one(url, "SELECT ply FROM tables WHERE code = 'AAAAAA'") == 3
    finally:
        a.close()
        b.close()


def test_a_closed_store_lets_go_of_its_tables_at_once(postgres: Cluster) -> None:
    url = postgres.database()
    a, b = PostgresStore(url, lease=600), PostgresStore(url, lease=600)
    try:
        assert a.reserve("AAAAAA")
        a.put("AAAAAA", "tiles", "playing", 1.0, table("AAAAAA", 1))
        a.close()
        assert b.get("AAAAAA") == table("AAAAAA", 1)
    finally:
        b.close()


def test_every_acknowledged_move_is_in_the_database(postgres: Cluster) -> None:
    """A move is acknowledged only once its transaction has committed: read on a connection of its own
    right after each acknowledgement, the database has the table at the ply the answer shows."""
    url = postgres.database()
    with running_server(store=PostgresStore(url)) as (server, _hall):
        maker = connected(server)
        code = new_table(maker, [{"kind": "open"}, {"kind": "bot", "level": "easy"}], seed=4)["code"]
        maker.close()
        ann = Player(server, code)
        try:
            ann.join("Ann")
            for _ in range(3):
                state = ann.wait_until(lambda s: s["phase"] == "playing" and s["to_move"] == 0)
                answer = ann.request("act", ply=state["ply"], move=tile_move(state, "easy", random.Random(1)))
                shown = answer["state"]["ply"]
                assert one(url, "SELECT ply FROM tables WHERE code = %s", code) >= shown > state["ply"]
        finally:
            ann.close()


def test_a_table_anyone_may_join_is_listed_by_every_process(postgres: Cluster) -> None:
    """Made at one process, listed by another (read from the store), until its seats are taken."""
    url = postgres.database()
    with running_server(store=PostgresStore(url)) as (one, _), running_server(store=PostgresStore(url)) as (two, _):
        maker, looker = connected(one), connected(two)
        try:
            made = [
                maker.request("create", WAIT, game=game, seats=[{"kind": "open"}] * 2, public=True)["code"]
                for game in ("tiles", "cribbage", "tiles")
            ]
            maker.request("create", WAIT, game="tiles", seats=[{"kind": "open"}] * 2)  # not public: not listed
            listed = looker.request("open_tables", WAIT)["tables"]
            assert [t["code"] for t in listed] == made[::-1]
            assert listed[0]["open"] == 2 and "token" not in str(listed)
            tiles = looker.request("open_tables", WAIT, game="tiles")["tables"]
            assert [t["code"] for t in tiles] == [made[2], made[0]]
            people = [Player(two, made[2]), Player(two, made[2])]
            people[0].join("Ann")
            people[1].join("Ben")
            assert [t["code"] for t in maker.request("open_tables", WAIT)["tables"]] == [made[1], made[0]]
            for person in people:
                person.close()
        finally:
            maker.close()
            looker.close()


def test_serve_says_in_words_when_its_database_cannot_be_used(tmp_path: Path, postgres: Cluster) -> None:
    """`cribtiles serve --store` of a database that is not there: exit 2, one line saying why."""
    store = ["--store", postgres.url("no_such_database")]
    done = subprocess.run(
        [sys.executable, "-m", "cribtiles", "serve", "--port", "0", "--data-dir", str(tmp_path / "server"), *store],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert done.returncode == 2, done.stderr
    assert "cribtiles serve: the tables' database at" in done.stderr
    assert 'database "no_such_database" does not exist' in done.stderr
    wrong = subprocess.run(
        [sys.executable, "-m", "cribtiles", "serve", "--store", "mysql://x"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert wrong.returncode == 2 and "give a PostgreSQL address" in wrong.stderr


class SlowStore(PostgresStore):
    """A store whose writes of table `slow` wait for `go` (a commit that takes long: a busy disk)."""

    slow = ""
    go = threading.Event()

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        if code == self.slow:
            assert self.go.wait(WAIT), "the test never let the slow write go"
        super().put(code, game, phase, updated, data)


def test_a_slow_commit_holds_up_its_own_tables_answer_and_no_other(postgres: Cluster) -> None:
    url = postgres.database()
    store = SlowStore(url)
    store.go = threading.Event()
    with running_server(store=store) as (server, _hall):
        maker = connected(server)
        codes = [new_table(maker, [{"kind": "open"}, {"kind": "open"}])["code"] for _ in range(2)]
        maker.close()
        ann, ben = Player(server, codes[0]), Player(server, codes[1])
        try:
            ann.join("Ann")
            ben.join("Ben")
            store.slow = codes[0]
            answers: list[Any] = []
            asking = threading.Thread(target=lambda: answers.append(ann.request("chat", text="slow")))
            asking.start()
            # the other table is answered, its change committed, while the first table's commit waits
            assert ben.request("chat", text="at once")["type"] == "ok"
            assert "at once" in one(url, "SELECT data FROM tables WHERE code = %s", codes[1])
            asking.join(0.5)
            assert not answers  # not acknowledged: not committed
            assert "slow" not in one(url, "SELECT data FROM tables WHERE code = %s", codes[0])
            store.go.set()
            asking.join(WAIT)
            assert answers and answers[0]["type"] == "ok"
            assert "slow" in one(url, "SELECT data FROM tables WHERE code = %s", codes[0])
        finally:
            store.go.set()
            ann.close()
            ben.close()
