"""A cluster for the tests (issue 46), started by deploy/cluster.sh as a host would start one: a fresh
PostgreSQL, N `cribtiles serve --store` processes of this checkout (each holding a table `lease` seconds)
and HAProxy in front, all on loopback in a folder of the test's; stopped by `cluster.sh stop` after the
block. Without PostgreSQL or HAProxy (Debian: apt-get install postgresql haproxy; .ci/run installs both)
the test is skipped, saying which."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from .postgres import postgres_bin

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "cluster.sh"
PATIENCE = 120  # seconds the script may take to start or stop everything on a loaded machine


@dataclass
class Cluster:
    folder: Path
    url: str  # HAProxy's address
    restarts: list[int]  # the index of each server started again, in order

    def ports(self) -> list[int]:
        return [int(line) for line in (self.folder / "ports").read_text().split()]

    def server_url(self, index: int) -> str:
        """Server `index`'s own address (0: the first), not through the proxy."""
        return f"ws://127.0.0.1:{self.ports()[index]}"

    def pids(self) -> list[int]:
        """The PID of each server, the newest started at each index."""
        started = [int(line) for line in (self.folder / "servers.pids").read_text().split()]
        count = len(self.ports())
        newest: list[int] = started[:count]
        for n, pid in enumerate(started[count:]):  # restarts since, in the order of `restarted`
            newest[self.restarts[n]] = pid
        return newest

    def kill(self, index: int) -> None:
        """kill -9 server `index`: no handler, no clean-up, no lease let go of."""
        pid = self.pids()[index]
        os.kill(pid, signal.SIGKILL)
        _reap(pid)

    def restart(self, index: int) -> None:
        """Server `index` started again on its port (after `kill`)."""
        self.restarts.append(index)
        _run("server", str(self.folder), str(index + 1))

    def log(self, index: int) -> str:
        path = self.folder / f"server-{index + 1}" / "cribtiles.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _run(*args: str) -> str:
    env = dict(
        os.environ,
        CRIBTILES=f"env PYTHONPATH={shlex.quote(str(ROOT))} {shlex.quote(sys.executable)} -m cribtiles",
    )
    done = subprocess.run(
        ["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=PATIENCE, check=False
    )
    assert done.returncode == 0, f"cluster.sh {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def _reap(pid: int) -> None:
    """Wait for `pid`, a grandchild (the script started it), to be gone: it is reaped by init."""
    import time

    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return
        if stat.rsplit(")", 1)[1].split()[0] in ("Z", "X"):
            return
        time.sleep(0.02)
    raise AssertionError(f"process {pid} did not end")


def needs_cluster() -> None:
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run installs it)")
    if shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists():
        pytest.skip("HAProxy is not installed (Debian: apt-get install haproxy; .ci/run installs it)")
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install -e '.[test]'")


@contextmanager
def running_cluster(servers: int = 2, lease: float = 2.0) -> Iterator[Cluster]:
    """A cluster in a temporary folder the postgres user can reach (pytest's own are closed to others)."""
    needs_cluster()
    top = Path(tempfile.mkdtemp(prefix="cribtiles-cluster-"))
    top.chmod(0o755)
    try:
        with _cluster(top / "cluster", servers, lease) as cluster:
            yield cluster
    finally:
        shutil.rmtree(top, ignore_errors=True)


@contextmanager
def _cluster(folder: Path, servers: int, lease: float) -> Iterator[Cluster]:
    os.environ["CRIBTILES_LEASE"] = str(lease)
    try:
        out = _run("start", str(folder), str(servers))
    finally:
        del os.environ["CRIBTILES_LEASE"]
    lines = out.strip().splitlines()
    assert lines and lines[-1].startswith("ws://127.0.0.1:"), out
    try:
        yield Cluster(folder, lines[-1], [])
    finally:
        _run("stop", str(folder))
