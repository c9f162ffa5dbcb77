"""A server hosted by this computer: `cribtiles serve` started as a process of its own (the bundle's own
executable when frozen), bound to the loopback address, or to every address and advertised on the
local network by mDNS when the player lets others join. Its output goes to a file in its folder, and it
runs in a session of its own, so that it may outlive the window: quitting while hosting asks whether to
stop it or keep it running in the background (`keep_running`); a window started later finds one still
running by the record it left (`hosting.json`) and takes it back. Its tables are kept in its data
folder and go on the next time this computer hosts (issues 31, 44)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from cribtiles.online.lan import Advertiser, lan_address

DEFAULT_PORT = 8765
#: The line `cribtiles serve` prints once it listens.
READY = re.compile(r"^Crib Tiles server on (wss?://\S+)")
STOP_WAIT = 5.0  # seconds a server has to stop before it is killed
OUTPUT = "serve.log"  # what the server says, in its folder
RECORD = "hosting.json"  # the server running: its process, address and whether it is shared
LOOPBACK = ("127.0.0.1", "localhost", "::1")
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
        self._process: subprocess.Popen[bytes] | None = None
        self._pid: int | None = None  # a server an earlier window left running, taken back
        self._url: str | None = None
        self._problem = ""
        self._shared = False
        self._advert: Advert | None = None
        self._lan: str | None = None  # this computer's address on its network, found once it listens
        self._kept = False  # left running in the background when the window quits
        self._adopt()

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
        if self._process is not None:
            return self._process.poll() is None
        return self._pid is not None and _alive(self._pid)

    def is_ours(self, url: str) -> bool:
        """Whether `url` is the address of a server this computer hosts (running or not): this port, at
        the loopback address or at this computer's address on its network."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return False
        if port is None or port != (port_of(self._url) if self._url else self.port):
            return False
        if self._lan is None:
            self._lan = lan_address()  # once: it is asked of every row of Your online games
        return parts.hostname in (*LOOPBACK, self._lan or "")

    def start(self, shared: bool) -> None:
        """Start hosting (a server running for the other choice of `shared` is restarted for this one)."""
        if self.running and self._shared == shared:
            return
        self.stop()
        host = "0.0.0.0" if shared else "127.0.0.1"
        args = [*self.command, "--host", host, "--port", str(self.port), "--data-dir", str(self.folder)]
        with self._lock:
            self._url, self._problem, self._shared, self._kept = None, "", shared, False
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                with open(self.folder / OUTPUT, "wb") as output:  # the child keeps its own handle
                    process = subprocess.Popen(
                        args,
                        stdin=subprocess.DEVNULL,
                        stdout=output,
                        stderr=subprocess.STDOUT,
                        # a session (Windows: a process group) of its own, without a console: it may
                        # outlive the window, and the terminal's Ctrl-C is not its
                        start_new_session=os.name != "nt",
                        creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0)
                        | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0),
                    )
            except OSError as e:
                self._problem = f"the server could not be started ({e.strerror or e})"
                return
            self._process = process
        threading.Thread(target=self._watch, args=(process,), name="cribtiles-host", daemon=True).start()

    def _watch(self, process: subprocess.Popen[bytes]) -> None:
        """Read what the server says in its file: its address once it listens; the last lines, to say
        why it stopped."""
        said: deque[str] = deque(maxlen=3)
        with open(self.folder / OUTPUT, "rb") as output:
            while True:
                line = output.readline()
                if not line:
                    if process.poll() is not None:
                        break
                    time.sleep(0.05)
                    continue
                text = line.decode("utf-8", "replace").strip()
                found = READY.match(text)
                if found and self._url is None and process is self._process:
                    self._listening(local_url(found.group(1)), process.pid)
                elif text:
                    said.append(text[:200])
        code = process.wait()
        with self._lock:
            if process is not self._process:
                return  # stopped on purpose, or replaced
            self._url = None
            last = said[-1] if said else f"it ended with code {code}"
            self._problem = f"the server stopped: {last.removeprefix('cribtiles serve: ')}"
            self._close_advert()
            self._forget_record()
        log.warning("%s", self._problem)

    def _listening(self, url: str, pid: int) -> None:
        self._url = url
        log.info("hosting at %s%s", url, " for the local network" if self._shared else "")
        if self._shared:
            self._lan = lan_address()
            try:
                self._advert = self.advertise(port_of(url), f"Crib Tiles on {socket.gethostname()}")
            except (OSError, ValueError) as e:
                self._problem = f"others on the network will not see it listed ({e}); they can type its address"
        self._write_record(pid)

    # --- the record a window leaves of the server it hosts ---

    def _write_record(self, pid: int) -> None:
        record = {"pid": pid, "url": self._url, "lan": self._lan, "shared": self._shared}
        try:
            (self.folder / RECORD).write_text(json.dumps(record), encoding="utf-8")
        except OSError as e:
            log.warning("the hosted server's record could not be written: %s", e)

    def _forget_record(self) -> None:
        with contextlib.suppress(OSError):
            (self.folder / RECORD).unlink()

    def _adopt(self) -> None:
        """Take back a server an earlier window left running (its record says which, and it still
        answers at its address); a record of one gone is forgotten."""
        try:
            record: Any = json.loads((self.folder / RECORD).read_text(encoding="utf-8"))
            pid, url = int(record["pid"]), str(record["url"])
            shared, lan = bool(record.get("shared")), record.get("lan")
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            self._forget_record()
            return
        if not (_alive(pid) and _answers(url)):
            self._forget_record()
            return
        self._pid, self._url, self._shared = pid, url, shared
        self._lan = lan if isinstance(lan, str) else None
        log.info("hosting at %s: the server left running by an earlier window (process %d)", url, pid)

    def keep_running(self) -> None:
        """The window quits and the server goes on in the background (not listed on the network any
        more: this window listed it); the next window takes it back."""
        with self._lock:
            self._kept = True
            self._close_advert()

    def _close_advert(self) -> None:
        advert, self._advert = self._advert, None
        if advert is not None:
            with contextlib.suppress(Exception):
                advert.close()

    def stop(self) -> None:
        """Stop the server (killed if it has not stopped within a few seconds); nothing when none runs,
        or when the player chose to keep it running in the background."""
        if self._kept:
            return
        with self._lock:
            process, self._process = self._process, None
            pid, self._pid = self._pid, None
            self._url = None
            self._close_advert()
            if process is not None or pid is not None:
                self._forget_record()
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_WAIT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_WAIT)
        elif pid is not None:
            _end(pid)


def _alive(pid: int) -> bool:
    """Whether the process `pid` runs (not a zombie of this process: a taken-back server is not its child)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError, OSError):
        return False
    return True


def _answers(url: str) -> bool:
    """Whether something listens at `url`'s address."""
    try:
        parts = urlsplit(url)
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or DEFAULT_PORT), timeout=1.0):
            return True
    except (OSError, ValueError):
        return False


def _end(pid: int) -> None:
    """Stop a server this window did not start (an earlier window's): asked to stop, then killed."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + STOP_WAIT
    while _alive(pid) and time.monotonic() < end:
        time.sleep(0.05)
    if _alive(pid) and hasattr(signal, "SIGKILL"):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
