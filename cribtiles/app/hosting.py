"""A server hosted by this computer: `cribtiles serve` started as a child process (the bundle's own
executable when frozen), bound to the loopback address, or to every address and advertised on the
local network by mDNS when the player lets others join. It stops when the window quits; its tables are
kept in its data folder and go on the next time this computer hosts (issue 31)."""

from __future__ import annotations

import contextlib
import logging
import re
import socket
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Protocol

from cribtiles.online.lan import Advertiser, lan_address

DEFAULT_PORT = 8765
#: The line `cribtiles serve` prints once it listens.
READY = re.compile(r"^Crib Tiles server on (wss?://\S+)")
STOP_WAIT = 5.0  # seconds a server has to stop before it is killed
log = logging.getLogger("cribtiles.hosting")


class Advert(Protocol):
    def close(self) -> None: ...


def serve_command() -> list[str]:
    """How to run `cribtiles serve`: the bundle's executable when frozen, else this Python and the package."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "serve"]
    return [sys.executable, "-m", "cribtiles", "serve"]


def local_url(url: str) -> str:
    """The address by which this computer reaches a server that said `url` (0.0.0.0 is every address)."""
    return re.sub(r"^(wss?://)(0\.0\.0\.0|\[::\])(?=:)", r"\g<1>127.0.0.1", url)


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].rstrip("/"))


class HostedServer:
    """The server this computer hosts; `start` returns at once, a thread of its own waits for the
    server to say it listens (`url`), or says why it stopped (`problem`)."""

    def __init__(
        self,
        folder: Path,
        port: int = DEFAULT_PORT,
        command: Sequence[str] | None = None,
        advertise: Callable[[int, str], Advert] | None = None,
    ) -> None:
        self.folder = folder
        self.port = port
        self.command = list(command) if command is not None else serve_command()
        self.advertise = advertise or (lambda port, label: Advertiser(port, label))
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._url: str | None = None
        self._problem = ""
        self._shared = False
        self._advert: Advert | None = None
        self._lan: str | None = None  # this computer's address on its network, found once it listens

    @property
    def url(self) -> str | None:
        return self._url

    @property
    def problem(self) -> str:
        return self._problem

    @property
    def shared(self) -> bool:
        return self._shared

    @property
    def lan_url(self) -> str | None:
        """The address others on the local network type, while it is shared with them."""
        url, address = self._url, self._lan
        return None if url is None or address is None or not self._shared else f"ws://{address}:{port_of(url)}"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, shared: bool) -> None:
        """Start hosting (a server running for the other choice of `shared` is restarted for this one)."""
        if self.running and self._shared == shared:
            return
        self.stop()
        host = "0.0.0.0" if shared else "127.0.0.1"
        args = [*self.command, "--host", host, "--port", str(self.port), "--data-dir", str(self.folder)]
        with self._lock:
            self._url, self._problem, self._shared = None, "", shared
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                process = subprocess.Popen(
                    args,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    encoding="utf-8",
                    errors="replace",
                    creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),  # Windows: no console for it
                )
            except OSError as e:
                self._problem = f"the server could not be started ({e.strerror or e})"
                return
            self._process = process
        threading.Thread(target=self._watch, args=(process,), name="cribtiles-host", daemon=True).start()

    def _watch(self, process: subprocess.Popen[str]) -> None:
        """Read what the server says: its address once it listens; the last lines, to say why it stopped."""
        said: deque[str] = deque(maxlen=3)
        stream: IO[str] | None = process.stdout
        for line in stream if stream is not None else ():
            found = READY.match(line.strip())
            if found and self._url is None and process is self._process:
                self._listening(local_url(found.group(1)))
            elif line.strip():
                said.append(line.strip()[:200])
        code = process.wait()
        with self._lock:
            if process is not self._process:
                return  # stopped on purpose, or replaced
            self._url = None
            last = said[-1] if said else f"it ended with code {code}"
            self._problem = f"the server stopped: {last.removeprefix('cribtiles serve: ')}"
            self._close_advert()
        log.warning("%s", self._problem)

    def _listening(self, url: str) -> None:
        self._url = url
        log.info("hosting at %s%s", url, " for the local network" if self._shared else "")
        if self._shared:
            self._lan = lan_address()
            try:
                self._advert = self.advertise(port_of(url), f"Crib Tiles on {socket.gethostname()}")
            except (OSError, ValueError) as e:
                self._problem = f"others on the network will not see it listed ({e}); they can type its address"

    def _close_advert(self) -> None:
        advert, self._advert = self._advert, None
        if advert is not None:
            with contextlib.suppress(Exception):
                advert.close()

    def stop(self) -> None:
        """Stop the server (killed if it has not stopped within a few seconds); nothing when none runs."""
        with self._lock:
            process, self._process = self._process, None
            self._url = None
            self._close_advert()
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_WAIT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_WAIT)
