"""Several server processes on one PostgreSQL, behind HAProxy (issue 46), all real and on loopback: codes
reserved once by processes racing for them; one table asked of two processes at once is served by one;
a paused process (SIGSTOP) whose lease ran out cannot write when it is resumed; whole games of both games
through the proxy, each seat on a connection for its table (/t/CODE); and servers killed outright (kill -9)
twenty times during games, not restarted until the others carried their tables on, with no acknowledged
move lost.

No timing is asserted: every wait is a hang guard."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading
import time
import urllib.request
from typing import Any

import psycopg

from cribtiles.online.client import Link, NotConnected, Refused
from cribtiles.online.tiles_seat import tile_move
from cribtiles.server.front import ELSEWHERE
from tests.faults.test_server_kill import FreshBot, Seated, check_record, play

from .cluster import Cluster, running_cluster
from .players import WAIT, Player, connected
from .postgres import Cluster as Postgres

LEASE = 2.0  # seconds a server holds a table: short, so that a killed one's tables move on soon
KILLS = 20
BACKOFF = (0.05, 0.5)
CODES = 300


def _reserve_all(url: str, start: Any, codes: list[str], won: Any) -> None:
    from cribtiles.server.pgstore import PostgresStore

    store = PostgresStore(url)
    try:
        start.wait(60)
        won.put([code for code in codes if store.reserve(code)])
    finally:
        store.close()


def test_processes_racing_for_the_same_codes_each_reserve_a_code_once(postgres: Postgres) -> None:
    url = postgres.database()
    codes = [f"R{n:05d}" for n in range(CODES)]
    context = multiprocessing.get_context("spawn")
    start, won = context.Barrier(2), context.Queue()
    racers = [context.Process(target=_reserve_all, args=(url, start, codes, won)) for _ in range(2)]
    for racer in racers:
        racer.start()
    results = [won.get(timeout=120) for _ in racers]
    for racer in racers:
        racer.join(60)
        assert racer.exitcode == 0
    first, second = (set(r) for r in results)
    assert not first & second and first | second == set(codes)
    print(f"{len(first)} and {len(second)} of {CODES} codes")


def _table(url: str, game: str, seats: list[dict[str, Any]]) -> str:
    maker = connected(url)
    try:
        return str(maker.request("create", WAIT, game=game, seats=seats)["code"])
    finally:
        maker.close()


def test_one_table_asked_of_two_processes_at_once_is_served_by_one() -> None:
    with running_cluster(2, LEASE) as cluster:
        code = _table(cluster.url, "tiles", [{"kind": "open"}, {"kind": "open"}])
        links = [Link(f"{cluster.server_url(i)}/t/{code}", backoff=(60, 60)) for i in range(2)]
        try:
            for link in links:
                assert link.wait_connected(WAIT), link.problem
            answers: list[Any] = [None, None]

            def watch(i: int) -> None:
                try:
                    answers[i] = links[i].request("watch", WAIT, code=code)["type"]
                except (Refused, NotConnected) as e:
                    answers[i] = str(e)

            threads = [threading.Thread(target=watch, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(WAIT + 5)
            assert sorted(answers) == sorted(["watching", ELSEWHERE]), answers
        finally:
            for link in links:
                link.close()


def test_a_paused_process_whose_lease_ran_out_cannot_write_when_resumed() -> None:
    with running_cluster(2, LEASE) as cluster:
        code = _table(cluster.url, "tiles", [{"kind": "open"}, {"kind": "open"}])
        first = cluster.server_url(0) + f"/t/{code}"
        people = [Player(first, code), Player(first, code)]
        try:
            people[0].join("Ann")
            people[1].join("Ben")
            state = people[0].wait_until(lambda s: s["phase"] == "playing")
            mover = people[state["to_move"]]
            view = mover.wait_until(lambda s: s["ply"] == state["ply"])
            mover.request("act", ply=view["ply"], move=tile_move(view, "easy", random.Random(1)))
            late = people[1 - state["to_move"]]  # to move next, at the first process
            stale = late.wait_until(lambda s: s["ply"] > state["ply"] and s["to_move"] == late.seat)
            paused = cluster.pids()[0]
            os.kill(paused, signal.SIGSTOP)
            try:
                # the same seat comes back at the other process, which takes the table once the paused one's
                # lease runs out (the request waits for it), and moves there
                again = Player(cluster.server_url(1) + f"/t/{code}", code)
                try:
                    again.resume(late.link.seats[code])
                    now = again.wait_until(lambda s: s["ply"] == stale["ply"])
                    made = again.request("act", ply=now["ply"], move=tile_move(now, "easy", random.Random(2)))
                    newest = made["state"]["ply"]
                    assert newest > stale["ply"]
                finally:
                    again.close()
            finally:
                os.kill(paused, signal.SIGCONT)
            # the paused process, resumed, holds the table at the old ply in memory: a move made there is
            # refused (or its connection was closed first, its lease found lost) and nothing is written
            try:
                move = tile_move(stale, "easy", random.Random(3))
                late.link.request("act", WAIT, code=code, ply=stale["ply"], move=move)
                raise AssertionError("the paused process made a move after its lease ran out")
            except (Refused, NotConnected) as e:
                print(f"the resumed process: {e}")
            with psycopg.connect(_store(cluster)) as conn:
                row = conn.execute("SELECT ply FROM tables WHERE code = %s", (code,)).fetchone()
            assert row is not None and row[0] == newest
            log = cluster.log(0)
            assert "served by another process now" in log or "taken by another server process" in log, log
        finally:
            for person in people:
                person.close()


def _store(cluster: Cluster) -> str:
    for line in (cluster.folder / "cluster.env").read_text().splitlines():
        if line.startswith("STORE="):
            return line.partition("=")[2]
    raise AssertionError("no store in cluster.env")


def _seat_bots(cluster: Cluster, game: str, seats: list[str], seed: int) -> tuple[str, list[Seated]]:
    """A table made through the proxy, and a bot client at each open seat on a connection for that table."""
    told = [{"kind": "open"} if s == "open" else {"kind": "bot", "level": s} for s in seats]
    code = _table(cluster.url, game, told)
    seated = []
    for n in range(seats.count("open")):
        link = Link(f"{cluster.url}/t/{code}", backoff=BACKOFF)
        assert link.wait_connected(WAIT), link.problem
        bot = FreshBot(link, code, "easy", seed=seed + n)
        bot.take_seat(f"Bot {n + 1}")
        seated.append(Seated(bot, link))
    return code, seated


def test_whole_games_of_both_games_through_the_proxy() -> None:
    with running_cluster(2, LEASE) as cluster:
        tables = [
            _seat_bots(cluster, "tiles", ["open", "open"], 1),
            _seat_bots(cluster, "tiles", ["open", "easy", "open"], 3),
            _seat_bots(cluster, "cribbage", ["open", "open"], 5),
            _seat_bots(cluster, "cribbage", ["open", "easy"], 7),
        ]
        try:
            # a table's address is its invitation page over plain HTTP, through the same proxy and path as the
            # WebSocket its seats play on
            page = cluster.url.replace("ws://", "http://") + f"/t/{tables[0][0]}"
            with urllib.request.urlopen(page, timeout=WAIT) as answer:
                assert answer.status == 200 and tables[0][0] in answer.read().decode()
            threads = [threading.Thread(target=play, args=(s,), daemon=True) for _, ss in tables for s in ss]
            for t in threads:
                t.start()
            for t in threads:
                t.join(300)
                assert not t.is_alive(), "a game did not end"
            for code, seated in tables:
                assert all(s.over for s in seated), f"table {code} is not over"
                states = [s.bot.state for s in seated]
                assert all(st is not None and st["phase"] == "over" for st in states)
            print("4 tables played to their end through HAProxy")
        finally:
            for _, seated in tables:
                for s in seated:
                    s.link.close()


def ack_counts(tables: list[tuple[str, list[Seated]]]) -> dict[str, int]:
    return {code: sum(len(s.bot.acknowledged) for s in seated) for code, seated in tables}


def _all_went_on(tables: list[tuple[str, list[Seated]]], before: dict[str, int]) -> bool:
    """Whether every table not over has had a move acknowledged since `before`."""
    now = ack_counts(tables)
    over = {code for code, seated in tables if all(s.bot.state and s.bot.state.get("phase") == "over" for s in seated)}
    return all(now[code] > before[code] or code in over for code in now)


def test_servers_killed_twenty_times_lose_no_acknowledged_move() -> None:
    """Kill -9 one server in the midst of play; the tables it served go on at the other (once their lease
    runs out) before it is started again; then the other is killed, and so on, twenty times."""
    rng = random.Random(46)
    with running_cluster(2, LEASE) as cluster:
        tables: list[tuple[str, list[Seated]]] = []
        kills = 0
        batch = 0
        try:
            while kills < KILLS:
                batch_tables = [
                    _seat_bots(cluster, "tiles", ["open", "open"], 100 * batch),
                    _seat_bots(cluster, "tiles", ["open", "easy", "open"], 100 * batch + 10),
                    _seat_bots(cluster, "cribbage", ["open", "open"], 100 * batch + 20),
                ]
                tables += batch_tables
                seated = [s for _, ss in batch_tables for s in ss]
                threads = [threading.Thread(target=play, args=(s,), daemon=True) for s in seated]
                for t in threads:
                    t.start()

                def acks(seated: list[Seated] = seated) -> int:
                    return sum(len(s.bot.acknowledged) for s in seated)

                def playing(threads: list[threading.Thread] = threads) -> bool:
                    return any(t.is_alive() for t in threads)

                while playing() and kills < KILLS:
                    before = acks()
                    wanted = before + rng.randint(2, 6)
                    end = time.monotonic() + 120
                    while acks() < wanted and playing():  # play goes on, at whichever server is up
                        assert time.monotonic() < end, f"no move for 120 s after kill {kills}"
                        time.sleep(0.01)
                    if not playing():
                        break
                    counts = ack_counts(batch_tables)
                    victim = kills % 2
                    cluster.kill(victim)
                    kills += 1
                    # not restarted until the other server has carried every game on
                    end = time.monotonic() + 120
                    while not _all_went_on(batch_tables, counts):
                        assert time.monotonic() < end, f"the tables did not go on after kill {kills}"
                        time.sleep(0.01)
                    cluster.restart(victim)
                for t in threads:
                    t.join(300)
                    assert not t.is_alive(), "a bot client did not finish its game"
                for s in seated:  # each server counts 16 connections an address, and all come from here
                    s.link.close()
                batch += 1
            checked = 0
            for code, seated in tables:
                assert all(s.over for s in seated), f"table {code} is not over"
                if seated[0].bot.state and seated[0].bot.state.get("game") == "tiles":
                    checked += check_record(code, seated, sum(1 for _ in seated))
            print(f"{kills} kills, {len(tables)} tables, {checked} acknowledged tile moves checked against the records")
        finally:
            for _, seated in tables:
                for s in seated:
                    s.link.close()
