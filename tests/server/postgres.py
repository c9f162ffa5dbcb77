"""A real PostgreSQL for the tests (issue 46): the distribution's, a fresh cluster in a temporary folder,
listening on 127.0.0.1 only (a free port; its socket in that folder), trusting local connections, run as
the `postgres` user when the tests run as root (PostgreSQL refuses root). Each test that needs one gets a
database of its own. Without the binaries (Debian: apt-get install postgresql, which .ci/run does) the
tests that need it are skipped, saying so."""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Seconds PostgreSQL may take to start or stop on a loaded machine.
PATIENCE = 60


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (Debian keeps them apart from the PATH), newest first."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda f: int(f.split("/")[-2]), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(command: list[str]) -> list[str]:
    """`command` run as `postgres` when this process is root (PostgreSQL will not run as root)."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Cluster:
    """A running PostgreSQL: `url(name)` is the address of its database `name`, made by `database()`."""

    def __init__(self, folder: Path, port: int, binaries: Path) -> None:
        self.folder, self.port, self.binaries = folder, port, binaries

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def database(self) -> str:
        """A new, empty database; its address."""
        import psycopg

        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}".encode())
        return self.url(name)


@contextmanager
def running_postgres(binaries: Path) -> Iterator[Cluster]:
    """A fresh cluster for the block, stopped (immediately) and removed after it."""
    folder = Path(tempfile.mkdtemp(prefix="cribtiles-pg-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        data = folder / "data"
        subprocess.run(
            _as_owner([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8"]),
            check=True,
            capture_output=True,
            timeout=PATIENCE,
        )
        port = free_port()
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=on -c max_connections=200"
        subprocess.run(
            _as_owner(
                [
                    str(binaries / "pg_ctl"),
                    "-D",
                    str(data),
                    "-l",
                    str(folder / "log"),
                    "-o",
                    options,
                    "-w",
                    "-t",
                    str(PATIENCE),
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
            timeout=PATIENCE + 10,
        )
        try:
            yield Cluster(folder, port, binaries)
        finally:
            subprocess.run(
                _as_owner([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                capture_output=True,
                timeout=PATIENCE,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
