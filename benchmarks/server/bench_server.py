"""The online server under load: `python benchmarks/server/bench_server.py` prints connected clients, tables,
acknowledged moves a second, the latency from a move sent to its acknowledgement (p50, p99) and the
server's memory per idle connection, against the targets of issue 31.

The server runs in a process of its own, as `cribtiles serve` would, with a SqliteStore in a temporary
folder: every move is acknowledged only once it is kept. Its Limits let one address open many
connections and tables (every client here comes from 127.0.0.1).

The clients are cheap so that the server gets the machine: asyncio WebSocket connections (not a thread
each) in `--client-processes` processes. Two connections play each table, each a seat, and choose from
what their seat is sent: the play that scores the most now, from the rules' compiled move generator (a
Medium bot without its bot machinery: `top_plays`, which makes no object for the plays it passes over),
or a pass when stuck. A table that ends starts another on the same two connections.

Three phases:
1. idle: `--idle` tables of two named seats are made, the server's RSS is read, then `--idle`
   connections each come back to one seat with its token (the player who waits for a friend's move),
   and the RSS is read again: the difference over the count is the memory of an idle connection;
2. paced: every seat thinks `--think` seconds (on average) before each move, as people do, so that
   250 tables offer about 350 moves a second (250 / 0.7, less the time each move waits for its answer):
   a server that keeps up acknowledges at least the 300 a second of the target. The moves acknowledged a
   second (each answered only once it is stored) and the latency from a move sent to the frame that
   acknowledges it reaching its client are the figures held to the targets;
3. flat out (`--flat-seconds`, 0 to skip): no thinking, the most moves a second the server acknowledges
   (its latency then is mostly waiting in line, and is printed only for scale).

`--cluster N` (issue 46) runs instead, in one run and one after the other, for each number of clients
in `--clients` (as `500,2000`): one server on SQLite as above, then `deploy/cluster.sh start DIR 1` and
`deploy/cluster.sh start DIR N` (one and N `cribtiles serve --store postgresql://…` processes behind
HAProxy, each on a fresh PostgreSQL); only the paced and flat phases run, and a table sets the setups'
figures side by side. Each
game's table is made on a connection at `/` and its two seats play on connections at `/t/CODE`, as
clients of a cluster do (HAProxy routes by the code); each pair of seats comes from a loopback address of
its own (127.0.1.x), as people do, so that the servers' limits per address (16 connections each) hold
as they are. The servers' counts are read from their `/metrics`: the time the store took to keep each
change is PostgreSQL's time a move as the server sees it (its round trip included), and PostgreSQL's own
CPU is read from its processes.

`--quick` is a short run (50 tables, so about 70 moves a second paced; a few seconds a phase).
`--profile FILE` keeps the server's cProfile (read it with `python -m pstats FILE`). `--store memory`
keeps nothing (the cost of storing, by difference). The latency is measured in the client processes,
from a move sent to its answer read off the connection (before the answer is parsed), so it includes
their own waiting. Every phase prints the machine's load average as it began and ended: the figures of a
machine busy with other work say so.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cribtiles.online.protocol import VERSION
from cribtiles.rules import Board, Pass, Placement, Play, format_move, parse_move, parse_rack
from cribtiles.rules.movegen import top_plays

HERE = Path(__file__).resolve()
#: The key under which a client notes when a frame came (not a field of the protocol: it never leaves).
ARRIVED = " arrived"
TARGETS = {"clients": 500, "tables": 250, "moves": 300.0, "p99_ms": 100.0, "idle_kb": 50.0}


# --- the server's process ---


class Stalls:
    """How late the server's loop ran a timer set for every 10 ms, and how long its garbage collections
    took, since the last time they were told: a long stall with little CPU used is the machine's."""

    def __init__(self) -> None:
        self.late = 0.0
        self.late_running = 0.0  # of the longest lateness, the time the server's process ran
        self.collections = 0
        self.longest_collection = 0.0
        self.began = 0.0

    async def watch(self) -> None:
        while True:
            due, ran = time.perf_counter() + 0.01, time.process_time()
            await asyncio.sleep(0.01)
            late = time.perf_counter() - due
            if late > self.late:
                self.late, self.late_running = late, time.process_time() - ran

    def collected(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.began = time.perf_counter()
        elif info["generation"] == 2:
            self.collections += 1
            self.longest_collection = max(self.longest_collection, time.perf_counter() - self.began)

    def told(self) -> dict[str, float]:
        told = {
            "late": self.late,
            "late_running": self.late_running,
            "full_collections": self.collections,
            "longest_collection": self.longest_collection,
        }
        self.late, self.late_running, self.collections, self.longest_collection = 0.0, 0.0, 0, 0.0
        return told


def serve(folder: Path, store_kind: str, profile: str | None) -> int:
    """Run a server on a free loopback port; print its address, then answer `stats` lines on stdin."""
    from cribtiles.server.front import Hall, Limits, run_server
    from cribtiles.server.store import MemoryStore, SqliteStore, TableStore

    store: TableStore = SqliteStore(folder / "tables.sqlite") if store_kind == "sqlite" else MemoryStore()
    # every client comes from 127.0.0.1, and one connection makes the idle phase's tables
    limits = Limits(connections_per_address=100_000, tables_per_address=100_000, per_second=1000.0, burst=1000)
    hall = Hall(store, limits)
    stalls = Stalls()
    gc.callbacks.append(stalls.collected)

    def stats() -> None:
        playing = sum(1 for code, here in hall.clients.items() if here and hall.rooms[code].phase == "playing")
        connections = sum(hall.doors.by_address.values())
        told = {"moves": hall.moves, "connections": connections, "playing": playing, **stalls.told()}
        print(json.dumps(told), flush=True)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop: asyncio.Future[None] = loop.create_future()

        def end() -> None:
            if not stop.done():
                stop.set_result(None)

        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, end)

        def command() -> None:
            line = sys.stdin.readline()
            if not line:  # the benchmark has gone
                end()
                loop.remove_reader(sys.stdin)
            elif line.strip() == "stats":
                stats()

        loop.add_reader(sys.stdin, command)
        watching = loop.create_task(stalls.watch())
        await run_server(hall, "127.0.0.1", 0, lambda url: print(url, flush=True), stop)
        watching.cancel()

    profiler = cProfile.Profile() if profile else None
    if profiler is not None:
        profiler.enable()
    try:
        asyncio.run(main())
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile or "")
        store.close()
    return 0


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system) process `pid` has had so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """The server's process, seen from the benchmark."""

    def __init__(self, store_kind: str, profile: str | None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-server-"))
        command = [sys.executable, str(HERE), "--serve", str(self.folder), "--store", store_kind]
        if profile:
            command += ["--profile", profile]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("ws://"):
            raise SystemExit("bench_server: the server did not start")

    def rss(self) -> int:
        """The server's resident memory in bytes."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise SystemExit("bench_server: no VmRSS for the server")

    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid)

    def stats(self) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("stats\n")
        self.proc.stdin.flush()
        told: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return told

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for path in sorted(self.folder.iterdir()):
            path.unlink()
        self.folder.rmdir()


class ClusterServers:
    """`deploy/cluster.sh start DIR N`: N server processes on PostgreSQL behind HAProxy, seen from the
    benchmark through their /metrics and /proc."""

    def __init__(self, count: int) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
        self.folder.chmod(0o755)  # PostgreSQL runs as its own user under root
        root = HERE.parents[2]  # the repository (the benchmark is in benchmarks/server/)
        env = dict(os.environ, CRIBTILES=f"env PYTHONPATH={root} {sys.executable} -m cribtiles")
        self.script = [str(root / "deploy" / "cluster.sh")]
        done = subprocess.run(
            ["bash", *self.script, "start", str(self.folder / "c"), str(count)], env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SystemExit(f"bench_server: the cluster did not start: {done.stderr[-2000:]}")
        self.url = done.stdout.strip().splitlines()[-1]
        cluster = self.folder / "c"
        self.ports = [int(p) for p in (cluster / "ports").read_text().split()]
        self.pids = [int(p) for p in (cluster / "servers.pids").read_text().split()]
        self.postmaster = int((cluster / "pg" / "data" / "postmaster.pid").read_text().split()[0])
        self.proc = subprocess.Popen(["true"])  # stands for the server's process where one is asked of
        self.proc.wait()

    def metrics(self) -> list[dict[str, float]]:
        import urllib.request

        found = []
        for port in self.ports:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
                samples = {}
                for line in answer.read().decode().splitlines():
                    if line and not line.startswith("#"):
                        name, _, value = line.rpartition(" ")
                        samples[name] = float(value)
                found.append(samples)
        return found

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def postgres_cpu(self) -> float:
        """CPU seconds of PostgreSQL: its postmaster and every process it started (a connection's backend,
        the WAL writer, the checkpointer)."""
        total = cpu_seconds(self.postmaster)
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    if int(fields[1]) == self.postmaster:
                        total += cpu_seconds(int(entry.name))
                except (OSError, ValueError):
                    continue
        return total

    def stats(self) -> dict[str, Any]:
        every = self.metrics()
        return {
            "moves": sum(m["cribtiles_moves_total"] for m in every),
            "connections": int(sum(m["cribtiles_connections"] for m in every)),
            "playing": int(sum(m.get('cribtiles_tables{phase="playing"}', 0) for m in every)),
            "store_seconds": sum(m["cribtiles_store_write_seconds_sum"] for m in every),
            "store_writes": sum(m["cribtiles_store_write_seconds_count"] for m in every),
            "postgres_cpu": self.postgres_cpu(),
            "late": 0.0,
            "late_running": 0.0,
            "longest_collection": 0.0,
        }

    def stop(self) -> None:
        subprocess.run(["bash", *self.script, "stop", str(self.folder / "c")], capture_output=True)
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)


# --- a client connection ---


def message(kind: str, **fields: Any) -> str:
    return json.dumps({"v": VERSION, "type": kind, **fields}, separators=(",", ":"))


class Conn:
    """One client connection: requests answered by `re`, the rest handed to `on_push`."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 0
        self.on_push: Any = None
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, url: str, address: str | None = None) -> Conn:
        local = {"local_addr": (address, 0)} if address else {}
        ws = await connect(url, compression=None, max_size=1 << 20, open_timeout=60, ping_interval=None, **local)
        conn = cls(ws)
        return conn

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.ws:
                arrived = time.perf_counter()  # before reading it: its own parsing is the client's, not the wait
                told = json.loads(frame)
                told[ARRIVED] = arrived
                future = self.waiting.pop(told.get("re", -1), None)
                if future is not None and not future.done():
                    future.set_result(told)
                elif self.on_push is not None:
                    self.on_push(told)

    def send(self, kind: str, **fields: Any) -> tuple[int, asyncio.Future[dict[str, Any]]]:
        self.next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        asyncio.get_running_loop().create_task(self._send(message(kind, id=self.next_id, **fields)))
        return self.next_id, future

    async def _send(self, text: str) -> None:
        with contextlib.suppress(ConnectionClosed):  # a table's last moves as the phase ends
            await self.ws.send(text)

    async def ask(self, kind: str, timeout: float = 60.0, **fields: Any) -> dict[str, Any]:
        _, future = self.send(kind, **fields)
        return await asyncio.wait_for(future, timeout)

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


async def open_many(url: str, count: int) -> list[Conn]:
    """`count` connections, a few handshakes at a time."""
    gate = asyncio.Semaphore(32)

    async def one() -> Conn:
        async with gate:
            return await Conn.open(url)

    return list(await asyncio.gather(*(one() for _ in range(count))))


#: Each placement's text read once ("f7=4L"): a client reads the whole board from every state it is sent.
_placements: dict[str, Placement] = {}


def _placement(word: str) -> Placement:
    found = _placements.get(word)
    if found is None:
        play = parse_move(word)
        assert isinstance(play, Play) and len(play.placements) == 1
        found = _placements[word] = play.placements[0]
    return found


def best_move(state: dict[str, Any]) -> str:
    """The play that scores the most now from what the seat was sent, or a pass when there is none."""
    board = Board.empty().place(_placement(word) for word in state["match"]["game"]["board"].split())
    best = top_plays(board, tuple(parse_rack(state["rack"])), 1)  # the first of the best scored_plays gives
    return format_move(best[0][0] if best else Pass())


# --- the players ---


@dataclass
class Tally:
    """What the players of one process saw while counting."""

    counting: bool = False
    began: float = float("inf")  # when counting began: a move sent before it has no latency counted
    sent: int = 0
    acked: int = 0
    refused: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)


class Pair:
    """Two connections playing one table after another, each a seat."""

    def __init__(self, conns: tuple[Conn, Conn], tally: Tally, think: float, rng: random.Random) -> None:
        self.conns = conns
        self.tally = tally
        self.think = think
        self.rng = rng
        self.code = ""
        self.tokens: dict[int, str] = {}
        self.running = True

    async def new_table(self) -> None:
        first, second = self.conns
        if self.code:
            for conn in self.conns:
                conn.send("leave", code=self.code)  # answered by nothing
        made = await first.ask(
            "create", game="tiles", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}], sit=0
        )
        self.code = made["code"]
        self.tokens[0] = made["token"]
        joined = await second.ask("join", code=self.code, name="Bob")
        self.tokens[1] = joined["token"]

    def start(self) -> None:
        for seat, conn in enumerate(self.conns):
            conn.on_push = lambda told, seat=seat: self.seen(seat, told)
        for seat, conn in enumerate(self.conns):
            # the latest state each seat was sent: ask for it again by coming back to the seat
            conn.send("resume", code=self.code, token=self.tokens[seat])

    def seen(self, seat: int, told: dict[str, Any]) -> None:
        if not self.running or told.get("type") != "state" or told.get("code") != self.code:
            return
        state = told["state"]
        if state["phase"] == "over":
            if seat == 0:
                self.tally.games += self.tally.counting
                asyncio.get_running_loop().create_task(self.again())
            return
        if state["phase"] != "playing":
            return
        if state.get("to_move") == seat:
            delay = self.rng.uniform(0.5, 1.5) * self.think if self.think else 0.0
            asyncio.get_running_loop().call_later(delay, self.move, seat, state, self.code)
        elif state.get("record") is not None and state.get("to_move") is None and seat == 0:
            self.conns[0].send("next_round", code=self.code, ply=state["ply"])

    def move(self, seat: int, state: dict[str, Any], code: str) -> None:
        if not self.running or code != self.code:  # that table is over: this move is not wanted
            return
        conn = self.conns[seat]
        move = best_move(state)
        sent = time.perf_counter()
        _, future = conn.send("act", code=self.code, ply=state["ply"], move=move)
        self.tally.sent += self.tally.counting
        future.add_done_callback(lambda f: self.answered(seat, sent, f))

    def answered(self, seat: int, sent: float, future: asyncio.Future[dict[str, Any]]) -> None:
        if future.cancelled():
            return
        told = future.result()
        counting = self.tally.counting
        if told["type"] == "state":
            if counting:
                self.tally.acked += 1
                if sent >= self.tally.began:  # not the first moves' rush, answered late
                    self.tally.latencies.append(told[ARRIVED] - sent)
            self.seen(seat, told)
        else:
            self.tally.refused += counting
            self.conns[seat].send("resume", code=self.code, token=self.tokens[seat])

    async def again(self) -> None:
        if self.running:
            await self.new_table()


def loopback(n: int) -> str:
    """The `n`th loopback address of the clients (127.1.1.1, 127.1.2.1, …)."""
    return f"127.{1 + n // 250}.{1 + n % 250}.1"


class ClusterPair(Pair):
    """A pair of seats of a cluster's client: each table made at `/`, its seats on connections of their own
    at `/t/CODE` (HAProxy routes by the code), from loopback address `address`, opened for each game."""

    def __init__(self, url: str, address: str, tally: Tally, think: float, rng: random.Random) -> None:
        super().__init__((), tally, think, rng)  # type: ignore[arg-type]
        self.url, self.address = url, address
        self.started = False

    async def new_table(self) -> None:
        old, self.conns = self.conns, ()  # type: ignore[assignment]
        await asyncio.gather(*(conn.close() for conn in old), return_exceptions=True)
        maker = await Conn.open(self.url, self.address)
        made = await maker.ask("create", game="tiles", seats=[{"kind": "open"}, {"kind": "open"}])
        await maker.close()
        code = made["code"]
        conns = tuple([await Conn.open(f"{self.url}/t/{code}", self.address) for _ in range(2)])
        self.code, self.conns = code, conns  # type: ignore[assignment]
        if self.started:
            for seat, conn in enumerate(conns):
                conn.on_push = lambda told, seat=seat: self.seen(seat, told)
        for seat, conn in enumerate(conns):
            joined = await conn.ask("join", code=code, name=("Ann", "Bob")[seat], seat=seat)
            self.tokens[seat] = joined["token"]

    def start(self) -> None:
        self.started = True
        super().start()


async def players(
    url: str, tables: int, think: float, seconds: float, seed: int, cluster: bool = False
) -> dict[str, Any]:
    """Play `tables` tables for `seconds` once told to go (a line on stdin); what was counted."""
    tally = Tally()
    rng = random.Random(seed)
    pairs: list[Pair]
    if cluster:  # a loopback address for every 4 pairs (8 connections, and 4 more as a game is made again)
        first = 300 * (seed % 16)  # each client process addresses of its own
        pairs = [ClusterPair(url, loopback(first + i // 4), tally, think, rng) for i in range(tables)]
    else:
        conns = await open_many(url, 2 * tables)
        pairs = [
            Pair((conns[2 * i], conns[2 * i + 1]), tally, think, random.Random(rng.random())) for i in range(tables)
        ]
    gate = asyncio.Semaphore(16)

    async def ready(pair: Pair) -> None:
        async with gate:
            await pair.new_table()

    await asyncio.gather(*(ready(pair) for pair in pairs))
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for pair in pairs:
        pair.start()
    await asyncio.sleep(min(2.0, seconds / 4))  # the first moves of every table, not counted
    stalls = Stalls()
    watching = asyncio.get_running_loop().create_task(stalls.watch())
    tally.counting = True
    began = tally.began = time.perf_counter()
    await asyncio.sleep(seconds)
    tally.counting = False
    watching.cancel()
    spent = time.perf_counter() - began
    conns = [conn for pair in pairs for conn in pair.conns]
    open_now = sum(1 for conn in conns if conn.ws.state.name == "OPEN")
    for pair in pairs:
        pair.running = False
    await asyncio.gather(*(conn.close() for conn in conns), return_exceptions=True)
    return {
        "sent": tally.sent,
        "acked": tally.acked,
        "refused": tally.refused,
        "games": tally.games,
        "seconds": spent,
        "open": open_now,
        "latencies": tally.latencies,
        "late": stalls.late,
        "late_running": stalls.late_running,
    }


def play_process(url: str, tables: int, think: float, seconds: float, seed: int, cluster: bool = False) -> int:
    told = asyncio.run(players(url, tables, think, seconds, seed, cluster))
    print(json.dumps(told), flush=True)
    return 0


# --- the phases ---


def hall_phase(tables: int, moves: int, store_kind: str) -> tuple[float, float, int]:
    """The server's own CPU a move, without sockets or any other process: a Hall judges `moves` moves of
    `tables` tables played in turn, each answered with the mover's state and the other seat's, the table
    kept first. (CPU ms a move in all, CPU ms of it in the store, moves)."""
    from cribtiles.server.front import Client, Hall, Limits, collect_rarely
    from cribtiles.server.store import MemoryStore, SqliteStore, TableStore

    collect_rarely()  # as run_server does
    folder = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    store: TableStore = SqliteStore(folder / "tables.sqlite") if store_kind == "sqlite" else MemoryStore()
    hall = Hall(store, Limits(tables_per_address=100_000, per_second=1e9, burst=10**9))
    put, in_store = store.put, [0.0]

    def timed_put(*args: Any) -> None:
        began = time.process_time()
        put(*args)
        in_store[0] += time.process_time() - began

    store.put = timed_put  # type: ignore[method-assign,assignment]

    def client() -> Client:
        return Client(ws=None, address="127.0.0.1", allowance=1e9, checked=hall.clock())  # type: ignore[arg-type]

    def drained(conn: Client) -> list[dict[str, Any]]:
        told = []
        while not conn.outbox.empty():
            told.append(json.loads(conn.outbox.get_nowait() or "{}"))
        return told

    async def new_table(pair: tuple[Client, Client]) -> str:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
        await hall._receive(pair[0], message("create", game="tiles", seats=seats, sit=0))
        code = str(drained(pair[0])[0]["code"])
        await hall._receive(pair[1], message("join", code=code, name="Bob"))
        drained(pair[0]), drained(pair[1])
        return code

    async def run() -> tuple[float, int]:
        pairs = [(client(), client()) for _ in range(tables)]
        codes = [await new_table(pair) for pair in pairs]
        spent, made = 0.0, 0
        while made < moves:
            for i, pair in enumerate(pairs):
                room = hall.rooms[codes[i]]
                seat = room.game.to_move if room.game is not None else None
                if room.phase != "playing" or seat is None:
                    codes[i] = await new_table(pair)
                    continue
                state = room.shown(seat, hall.clock())  # what the seat was sent last
                frame = message("act", code=codes[i], ply=state["ply"], move=best_move(state))
                began = time.process_time()
                await hall._receive(pair[seat], frame)
                spent += time.process_time() - began
                answer = drained(pair[seat])[-1]
                assert answer.get("type") == "state", answer
                drained(pair[1 - seat])
                made += 1
        return spent, made

    try:
        spent, made = asyncio.run(run())
    finally:
        store.close()
        for path in sorted(folder.iterdir()):
            path.unlink()
        folder.rmdir()
    return spent / made * 1000, in_store[0] / made * 1000, made


def idle_phase(server: Server, count: int) -> float:
    """Bytes of server memory per idle connection that came back to a seat."""

    async def run() -> float:
        maker = await Conn.open(server.url)
        seats = []
        for _ in range(count):
            made = await maker.ask(
                "create", game="tiles", seats=[{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]
            )
            joined = await maker.ask("join", code=made["code"], name="Ann")
            seats.append((made["code"], joined["token"]))
            maker.send("leave", code=made["code"])
        await asyncio.sleep(1.0)
        before = server.rss()
        conns = await open_many(server.url, count)
        answers = [conn.ask("resume", code=code, token=token) for conn, (code, token) in zip(conns, seats, strict=True)]
        for answer in await asyncio.gather(*answers):
            assert answer["type"] == "joined", answer
        await asyncio.sleep(1.0)
        after = server.rss()
        await asyncio.gather(*(conn.close() for conn in conns), maker.close())
        return (after - before) / count

    return asyncio.run(run())


@dataclass
class Played:
    """One phase of play, every client process's counts together."""

    tables: int
    clients: int
    server_connections: int
    server_playing: int
    sent: int
    acked: int
    refused: int
    games: int
    seconds: float
    latencies: list[float]
    server_cpu: float  # the server's CPU seconds a second while counted (1.0: one core all the time)
    clients_cpu: float  # the same of the client processes together
    server_late: float  # the longest the server's loop was late for a timer (seconds)
    server_late_running: float  # the server's CPU seconds meanwhile (much less: the machine held it up)
    clients_late: float  # the longest a client process's loop was late for its timer
    clients_late_running: float  # and the CPU seconds that process ran meanwhile
    longest_collection: float  # the server's longest full garbage collection (seconds)
    load_before: float  # the machine's load average (one minute) as the phase began
    load: float  # and as it ended
    store: dict[str, float] = field(default_factory=dict)  # a cluster's: its store's time and PostgreSQL's CPU

    @property
    def rate(self) -> float:
        return self.acked / self.seconds

    @property
    def offered(self) -> float:
        return self.sent / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")


def play_phase(
    server: Server | ClusterServers, tables: int, processes: int, think: float, seconds: float, seed: int
) -> Played:
    cluster = ["--cluster", "1"] if isinstance(server, ClusterServers) else []
    load_before = os.getloadavg()[0]
    shares = [tables // processes + (i < tables % processes) for i in range(processes)]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                str(HERE),
                "--play",
                server.url,
                "--tables",
                str(share),
                "--think",
                str(think),
                "--seconds",
                str(seconds),
                "--seed",
                str(seed + i),
                *cluster,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i, share in enumerate(shares)
        if share
    ]
    for proc in procs:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise SystemExit("bench_server: a client process could not set up its tables")
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    time.sleep(min(2.0, seconds / 4))
    first = server.stats()  # from now on
    cpu_began, began = server.cpu(), time.perf_counter()
    clients_began = sum(cpu_seconds(proc.pid) for proc in procs)
    time.sleep(seconds / 2)
    seen = server.stats()
    time.sleep(seconds / 2)  # the whole of the clients' count (they began as this did, give or take)
    spent = time.perf_counter() - began
    later = server.stats()
    store = {k: later[k] - first[k] for k in ("store_seconds", "store_writes", "postgres_cpu", "moves") if k in later}
    if later["late"] > seen["late"]:  # the longest lateness, with what the server ran meanwhile
        seen["late"], seen["late_running"] = later["late"], later["late_running"]
    seen.update((k, max(seen[k], later[k])) for k in ("connections", "playing", "longest_collection"))
    server_cpu = (server.cpu() - cpu_began) / spent
    clients_cpu = (sum(cpu_seconds(proc.pid) for proc in procs) - clients_began) / spent
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=seconds + 120)
        results.append(json.loads(out.strip().splitlines()[-1]))
    return Played(
        tables=tables,
        clients=sum(r["open"] for r in results),
        server_connections=seen["connections"],
        server_playing=seen["playing"],
        sent=sum(r["sent"] for r in results),
        acked=sum(r["acked"] for r in results),
        refused=sum(r["refused"] for r in results),
        games=sum(r["games"] for r in results),
        seconds=statistics.mean(r["seconds"] for r in results),
        latencies=[x for r in results for x in r["latencies"]],
        server_cpu=server_cpu,
        clients_cpu=clients_cpu,
        server_late=seen["late"],
        server_late_running=seen["late_running"],
        clients_late=max(r["late"] for r in results),
        clients_late_running=max(results, key=lambda r: r["late"])["late_running"],
        longest_collection=seen["longest_collection"],
        load_before=load_before,
        load=os.getloadavg()[0],
        store=store,
    )


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def show(name: str, played: Played, held: bool) -> dict[str, float | int]:
    """Print a phase's figures; returns them for the JSON line."""
    p50, p99 = played.percentile(0.5), played.percentile(0.99)
    print(
        f"{name}: {played.clients} connected clients (the server counted {played.server_connections}),"
        f" {played.tables} tables ({played.server_playing} with someone at them), {played.games} games finished,"
        f" {played.refused} moves refused"
    )
    line = (
        f"  {played.rate:7.1f} acknowledged moves a second over {played.seconds:.1f} s ({played.acked} moves of"
        f" {played.sent} sent: {played.offered:.1f} a second);"
        f" the server busy {played.server_cpu:.0%} of a core,"
        f" {played.server_cpu / max(played.rate, 1e-9) * 1000:.2f} ms a move"
        f" (the clients {played.clients_cpu:.0%})"
    )
    if held:
        line += f"  target >= {TARGETS['moves']:g}: {verdict(played.rate >= TARGETS['moves'])}"
    print(line)
    line = f"  latency from a move sent to its acknowledgement: p50 {p50:6.1f} ms  p99 {p99:6.1f} ms"
    if held:
        line += f"  target p99 <= {TARGETS['p99_ms']:g} ms: {verdict(p99 <= TARGETS['p99_ms'])}"
    print(line)
    if played.store.get("store_writes"):
        writes, moves = played.store["store_writes"], max(1.0, played.store["moves"])
        print(
            f"  PostgreSQL: {played.store['store_seconds'] / writes * 1000:.2f} ms to keep a change as the servers"
            f" saw it ({writes:.0f} changes), its own CPU {played.store['postgres_cpu'] / moves * 1000:.2f} ms a"
            f" move ({played.store['postgres_cpu'] / played.seconds:.0%} of a core)"
        )
    print(
        f"  the server's loop was at most {played.server_late * 1000:.0f} ms late (running"
        f" {played.server_late_running * 1000:.0f} ms of it; the clients' {played.clients_late * 1000:.0f} ms,"
        f" running {played.clients_late_running * 1000:.0f}; the server's longest full garbage collection"
        f" {played.longest_collection * 1000:.0f} ms); the machine's load average {played.load_before:.1f} as the"
        f" phase began, {played.load:.1f} as it ended, on {os.cpu_count()} cores"
    )
    return {
        "clients": played.clients,
        "tables": played.tables,
        "games": played.games,
        "refused": played.refused,
        "acked": played.acked,
        "moves_a_second": played.rate,
        "latency_ms": {"p50": p50, "p99": p99},
        "server_cpu": played.server_cpu,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=250, help="tables played at once (two connections each)")
    ap.add_argument("--think", type=float, default=0.7, help="a seat's mean seconds before each move (paced)")
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds counted paced (0: skip)")
    ap.add_argument("--flat-seconds", type=float, default=10.0, help="seconds counted flat out (0: skip)")
    ap.add_argument("--idle", type=int, default=500, help="idle connections for the memory figure (0: skip)")
    ap.add_argument("--hall-moves", type=int, default=3000, help="moves of the in-process phase (0: skip)")
    ap.add_argument("--client-processes", type=int, default=2)
    ap.add_argument("--store", choices=("sqlite", "memory"), default="sqlite")
    ap.add_argument("--profile", metavar="FILE", help="keep the server's cProfile in FILE")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="50 tables, a few seconds a phase")
    ap.add_argument("--serve", metavar="FOLDER", help=argparse.SUPPRESS)
    ap.add_argument("--play", metavar="URL", help=argparse.SUPPRESS)
    ap.add_argument(
        "--cluster",
        type=int,
        metavar="N",
        help="N server processes on PostgreSQL behind HAProxy (deploy/cluster.sh), beside one process on SQLite"
        " and one on PostgreSQL, in one run",
    )
    ap.add_argument(
        "--clients",
        metavar="LIST",
        help="with --cluster: the numbers of clients to run each setup with, as 500,2000 (default: 2 a --tables)",
    )
    args = ap.parse_args()
    if args.serve:
        return serve(Path(args.serve), args.store, args.profile)
    if args.play:
        return play_process(args.play, args.tables, args.think, args.seconds, args.seed, bool(args.cluster))
    if args.cluster:
        return cluster_main(args)
    if args.quick:
        args.tables, args.seconds, args.flat_seconds, args.idle, args.hall_moves = 50, 5.0, 3.0, 100, 500
    server = Server(args.store, args.profile)
    figures: dict[str, object] = {"store": args.store, "tables": args.tables, "seed": args.seed}
    try:
        print(
            f"Crib Tiles server benchmark: {args.store} store, {args.tables} tables, {args.client_processes}"
            f" client processes, {os.cpu_count()} cores (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())});"
            f" seats choose the highest-scoring play (compiled move generator)"
        )
        if args.hall_moves:
            each, stored, made = hall_phase(50, args.hall_moves, args.store)
            figures["hall"] = {"cpu_ms_a_move": each, "storing_ms": stored, "moves": made}
            print(
                f"the hall alone (no sockets): {each:.3f} ms of CPU a move, {stored:.3f} ms of it storing"
                f" ({made} moves of 50 tables: judged, kept, the mover's state and the other seat's made)"
            )
        if args.idle:
            per = idle_phase(server, args.idle)
            figures["idle_kb_a_connection"] = per / 1024
            print(
                f"idle: {args.idle} connections back at a seat each: {per / 1024:6.1f} KB of server memory each"
                f"  target <= {TARGETS['idle_kb']:g} KB: {verdict(per / 1024 <= TARGETS['idle_kb'])}"
            )
        if args.seconds:
            paced = play_phase(server, args.tables, args.client_processes, args.think, args.seconds, args.seed)
            figures["paced"] = show(f"paced (a seat thinks {args.think:g} s on average)", paced, held=not args.quick)
        if args.seconds and not args.quick:
            enough = paced.clients >= TARGETS["clients"] and paced.tables >= TARGETS["tables"]
            print(f"  {TARGETS['clients']} clients on {TARGETS['tables']} tables: {verdict(enough)}")
        if args.flat_seconds:
            flat = play_phase(server, args.tables, args.client_processes, 0.0, args.flat_seconds, args.seed + 100)
            figures["flat_out"] = show("flat out (no thinking: the server's capacity)", flat, held=False)
    finally:
        server.stop()
    harness.report(__file__, **figures)
    return 0


def cluster_setups(n: int) -> list[tuple[str, Any]]:
    """What `--cluster N` sets beside each other: one `cribtiles serve` on SQLite (a single machine's server
    as it ships), and one and N processes on PostgreSQL behind HAProxy; each a label and its maker."""
    setups: list[tuple[str, Any]] = [("1 process, SQLite", lambda: Server("sqlite", None))]
    for count in sorted({1, n}):
        plural = "processes" if count > 1 else "process"
        setups.append((f"{count} {plural}, PostgreSQL", lambda count=count: ClusterServers(count)))
    return setups


def cluster_main(args: argparse.Namespace) -> int:
    """In one run, for each number of clients in `--clients`: the paced and flat phases against one server
    on SQLite, one on PostgreSQL behind HAProxy and `args.cluster` there, one after the other (so each has
    the machine to itself, and all of them the same machine within minutes)."""
    if args.quick:
        args.clients, args.seconds, args.flat_seconds = "100", 5.0, 3.0
    sizes = [int(c) for c in args.clients.split(",")] if args.clients else [2 * args.tables]
    print(
        f"Crib Tiles cluster benchmark: {args.cluster} server processes on PostgreSQL behind HAProxy, beside one"
        f" process on SQLite and one on PostgreSQL; {', '.join(map(str, sizes))} clients (two a table),"
        f" {args.client_processes} client processes, {os.cpu_count()} cores (load average"
        f" {' '.join(f'{x:.2f}' for x in os.getloadavg())}); servers, PostgreSQL, HAProxy and the clients share"
        f" these cores"
    )
    figures: dict[str, object] = {"cluster": args.cluster, "clients": sizes, "setups": []}
    rows: list[dict[str, Any]] = []
    for clients in sizes:
        tables = max(1, clients // 2)
        for label, make in cluster_setups(args.cluster):
            print(f"--- {label}, {2 * tables} clients on {tables} tables")
            servers = make()
            row: dict[str, Any] = {"setup": label, "clients": 2 * tables}
            try:
                if args.seconds:
                    paced = play_phase(servers, tables, args.client_processes, args.think, args.seconds, args.seed)
                    row["paced"] = show(f"paced (a seat thinks {args.think:g} s on average)", paced, held=False)
                    row["paced"]["clients_cpu"] = paced.clients_cpu
                    row["paced"]["store"] = paced.store
                if args.flat_seconds:
                    flat = play_phase(servers, tables, args.client_processes, 0.0, args.flat_seconds, args.seed + 100)
                    row["flat_out"] = show("flat out (no thinking: the capacity)", flat, held=False)
            finally:
                servers.stop()
            rows.append(row)
    print(summary(rows))
    figures["setups"] = rows
    harness.report(__file__, **figures)
    return 0


def summary(rows: list[dict[str, Any]]) -> str:
    """The run's figures side by side: a line a setup and number of clients."""
    lines = [
        "setup                     clients   paced moves/s   p99 ms   flat moves/s   p99 ms   server ms CPU a move",
    ]
    for row in rows:
        paced, flat = row.get("paced", {}), row.get("flat_out", {})

        def rate(f: dict[str, Any]) -> str:
            return f"{f['moves_a_second']:8.1f}" if f else "       -"

        def p99(f: dict[str, Any]) -> str:
            return f"{f['latency_ms']['p99']:7.0f}" if f else "      -"

        basis = paced or flat
        cpu = basis["server_cpu"] / max(basis["moves_a_second"], 1e-9) * 1000 if basis else float("nan")
        lines.append(
            f"{row['setup']:<24} {row['clients']:>8}   {rate(paced)}        {p99(paced)}   {rate(flat)}      "
            f" {p99(flat)}   {cpu:8.2f}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
