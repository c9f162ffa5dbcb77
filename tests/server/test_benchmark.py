"""`benchmarks/server/bench_server.py` at a tiny size: it runs its server and its clients to the end and prints
each figure the issue asks for, with the machine's load (the figures themselves are the benchmark's to
tell, not a test's to hold) (issue 31)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "server" / "bench_server.py"
TINY = ["--tables", "2", "--think", "0.05", "--seconds", "1", "--flat-seconds", "0", "--idle", "3"]
TINY += ["--hall-moves", "10", "--client-processes", "1"]


def test_the_server_benchmark_runs_and_prints_every_figure() -> None:
    done = subprocess.run([sys.executable, str(BENCH), *TINY], capture_output=True, text=True, timeout=300)
    out = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.search(r"the hall alone \(no sockets\): [\d.]+ ms of CPU a move", out), out
    assert re.search(r"idle: 3 connections back at a seat each: +[\d.]+ KB of server memory each", out), out
    assert re.search(r"paced .*: 4 connected clients \(the server counted 4\), 2 tables", out), out
    acked = re.search(r"([\d.]+) acknowledged moves a second over [\d.]+ s \((\d+) moves of (\d+) sent", out)
    assert acked is not None and int(acked.group(2)) > 0, out
    assert re.search(r"latency from a move sent to its acknowledgement: p50 +[\d.]+ ms +p99 +[\d.]+ ms", out), out
    assert re.search(r"load average [\d.]+ as the phase began, [\d.]+ as it ended", out), out
    assert " 0 moves refused" in out, out
    line = json.loads(out.splitlines()[-1])  # the harness's line, last
    assert line["benchmark"] == "server/bench_server"
    assert (line["paced"]["clients"], line["paced"]["tables"], line["paced"]["refused"]) == (4, 2, 0)
    assert line["idle_kb_a_connection"] > 0


def test_the_cluster_benchmark_runs_and_prints_its_figures() -> None:
    """`--cluster 2` (issue 46): two servers on PostgreSQL behind HAProxy, started by deploy/cluster.sh."""
    from .cluster import needs_cluster

    needs_cluster()
    tiny = ["--cluster", "2", "--tables", "2", "--think", "0.05", "--seconds", "2", "--flat-seconds", "0"]
    done = subprocess.run(
        [sys.executable, str(BENCH), *tiny, "--client-processes", "1"], capture_output=True, text=True, timeout=300
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    assert "2 server processes on PostgreSQL behind HAProxy" in out, out
    # a pair between two games holds 0 to 3 connections (the table's maker, then its seats): not always 4
    assert re.search(r"paced .*: \d+ connected clients \(the server counted \d+\), 2 tables", out), out
    acked = re.search(r"([\d.]+) acknowledged moves a second over [\d.]+ s \((\d+) moves of (\d+) sent", out)
    assert acked is not None and int(acked.group(2)) > 0, out
    assert re.search(r"PostgreSQL: [\d.]+ ms to keep a change as the servers saw it \(\d+ changes\)", out), out
    assert " 0 moves refused" in out, out
    # in one run, beside one process on SQLite and one on PostgreSQL, a line each in the table of them all
    for setup in ("1 process, SQLite", "1 process, PostgreSQL", "2 processes, PostgreSQL"):
        assert re.search(rf"^{setup} +4 +[\d.]+ +\d+ ", out, re.MULTILINE), out
    line = json.loads(out.splitlines()[-1])
    assert [(s["setup"], s["clients"]) for s in line["setups"]] == [
        ("1 process, SQLite", 4),
        ("1 process, PostgreSQL", 4),
        ("2 processes, PostgreSQL", 4),
    ]
