"""`cribtiles serve`: a server for online play kept in a data folder of its own (locked for one server,
its tables in `tables.db`, or in a PostgreSQL database shared with other server processes (`--store`),
its log beside them), its bots in processes beside it, stopped cleanly by
SIGINT or SIGTERM. Every failure to start is a `CannotServe` in plain words (issue 31)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import errno
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import ParamSpec, TypeVar

from cribtiles.server.forwarded import Proxies
from cribtiles.server.front import Hall, Limits, run_server
from cribtiles.server.store import SqliteStore, StoreError, TableStore
from cribtiles.terminal import say

from .confined import NotOurs, check_entry
from .files import shown_path, why
from .folder_lock import FolderLock, InUse, folder_lock

log = logging.getLogger("cribtiles.server")

SERVER_FOLDER = "server"  # inside the user data folder: the server's files apart from the game's
LOCK_FILE = "cribtiles.lock"  # the game's name: a folder holds one running Crib Tiles, game or server
TABLES_FILE = "tables.db"
#: SQLite writes beside its database: none of them may be a link out of the folder either
TABLES_FILES = (TABLES_FILE, f"{TABLES_FILE}-wal", f"{TABLES_FILE}-shm", f"{TABLES_FILE}-journal")

WARM_UP = 60.0  # seconds the bots' processes may take to start on a loaded machine
P = ParamSpec("P")
T = TypeVar("T")


class CannotServe(Exception):
    """The server cannot start; its words say why, for the person who started it."""


def default_server_folder() -> Path:
    from .storage import default_data_dir

    return default_data_dir() / SERVER_FOLDER


def bot_workers() -> int:
    """Processes for the server's bots: one a core but one left for the connections, at least one."""
    return max(1, min(8, (os.cpu_count() or 2) - 1))


# --- the bots' processes ---


def _worker_starts(stop: multiprocessing.connection.Connection) -> None:
    """In each bot process: Ctrl-C is the server's to handle, and a server killed outright (`kill -9`)
    takes its bot processes with it rather than leave them waiting for work that never comes. A server
    that stops closes the other end of `stop`: the process ends at once, in the middle of a bot's
    thinking too (the server's loop is gone, so no one waits for the move), rather than keep the
    stopped server from exiting until the move is found."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel, stop])
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class BotPool(concurrent.futures.Executor):
    """Spawned processes for the bots' thinking (their pure-Python search would hold the loop's
    interpreter lock). A bot process that dies breaks a process pool for good; this one starts new
    processes at the next move asked for, and the server's clock asks again every second."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        # each process watches the reading end; closing the writing end (`stop`) ends them all at once
        self._stop_read, self._stop_write = multiprocessing.get_context("spawn").Pipe(duplex=False)
        self._pool = self._new()

    def _new(self) -> concurrent.futures.ProcessPoolExecutor:
        return concurrent.futures.ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_starts,
            initargs=(self._stop_read,),
        )

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> concurrent.futures.Future[T]:
        with self._lock:
            try:
                return self._pool.submit(fn, *args, **kwargs)
            except BrokenProcessPool:
                log.error("a bot process ended unexpectedly; new ones are started")
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new()
                return self._pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def stop(self) -> None:
        """End every bot process now, a move being found too (its answer would go nowhere), and wait for
        them to be gone."""
        with self._lock:
            self._stop_write.close()
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._stop_read.close()

    def warm_up(self, timeout: float) -> None:
        """Start every process now, before the server listens: the first bot's move waits for none, and
        a server killed once it listens never leaves a process half started."""
        calls = [self.submit(os.getpid) for _ in range(self.workers)]
        for call in calls:
            call.result(timeout)


def start_bots(workers: int) -> concurrent.futures.Executor:
    """Processes for the bots, or threads where none can be started (a system without semaphores): then
    one line on standard error says so, and the log says why."""
    pool = BotPool(workers)
    try:
        pool.warm_up(WARM_UP)
    except (OSError, ImportError, NotImplementedError, BrokenProcessPool, concurrent.futures.TimeoutError) as e:
        pool.shutdown(wait=False, cancel_futures=True)
        log.warning("no bot processes could be started (%s); the bots think in threads", why(e))
        say(f"cribtiles serve: no worker processes can be started here ({why(e)}); the bots think in threads")
        return concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="bots")
    return pool


# --- the folder ---


def claim_folder(folder: Path) -> FolderLock:
    """Make `folder` if need be and lock it for this server; CannotServe in words."""
    shown = shown_path(folder)
    try:
        if folder.exists() and not folder.is_dir():
            raise CannotServe(f"the data folder {shown} is not a folder")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CannotServe(f"the data folder {shown} cannot be made ({why(e)})") from None
    lock = folder_lock(folder / LOCK_FILE)
    try:
        lock.acquire()
    except InUse:
        raise CannotServe(
            f"another Crib Tiles (a server or the game) is using the data folder {shown}: "
            "stop it first, or give this server a folder of its own with --data-dir"
        ) from None
    except NotOurs as e:
        raise CannotServe(f"the data folder {shown} cannot be used: its lock file {e.strerror}") from None
    except OSError as e:
        raise CannotServe(f"the data folder {shown} cannot be used ({why(e)})") from None
    return lock


def open_tables(folder: Path) -> SqliteStore:
    """The SQLite store of the server's tables in `folder`; CannotServe in words for a link or anything
    but a regular file where its files go, or a file that is not such a store."""
    for name in TABLES_FILES:
        try:
            check_entry(folder / name)
        except NotOurs as e:
            raise CannotServe(f"the tables cannot be kept in {shown_path(folder)}: {e.strerror}") from None
    try:
        return SqliteStore(folder / TABLES_FILE)
    except StoreError as e:
        raise CannotServe(str(e)) from None


def open_shared_tables(url: str, lease: float | None) -> TableStore:
    """The tables in the PostgreSQL database at `url` (issue 46); CannotServe in words when psycopg is not
    installed or the database cannot be used."""
    try:
        from cribtiles.server.pgstore import LEASE, PostgresStore
    except ImportError as e:
        raise CannotServe(
            f"keeping the tables in PostgreSQL needs psycopg ({why(e)}): pip install 'cribtiles[server]'"
        ) from None
    try:
        return PostgresStore(url, lease=LEASE if lease is None else lease)
    except StoreError as e:
        raise CannotServe(str(e)) from None


def _listen_words(e: OSError, host: str, port: int) -> str:
    where = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
    if e.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is in use (another server?): choose another with --port"
    if e.errno in (errno.EACCES, errno.EPERM):
        return f"this user may not listen on {where} (ports below 1024 need more rights): choose another with --port"
    if e.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this computer: give one of its own with --host"
    return f"cannot listen on {where} ({why(e)})"


# --- running ---


def serve(
    folder: Path,
    host: str,
    port: int,
    say_ready: Callable[[str], None],
    proxies: Proxies | None = None,
    origins: tuple[str, ...] = (),
    download: str | None = None,
    store_url: str | None = None,
    lease: float | None = None,
) -> None:
    """Run a server on `host`:`port` for the tables kept in `folder` (or, `store_url`, in that PostgreSQL
    database, shared with other server processes, each holding a table `lease` seconds) until SIGINT or SIGTERM; tell
    `say_ready` its line once it listens. The client's address is read from the forwarded headers of
    `proxies` only; web pages of `origins` only may connect; a table's invitation page says to get the
    game at `download` (None: from whoever sent the link). CannotServe in words when it cannot start."""
    from .logs import setup_logging

    lock = claim_folder(folder)
    try:
        setup_logging(folder)
        _quiet_library_logs()
        store = open_tables(folder) if store_url is None else open_shared_tables(store_url, lease)
        pool = start_bots(bot_workers())
        try:
            # a message for a table another process lets go of waits a little longer than a lease
            held = getattr(store, "lease", None)  # a shared store's
            limits = Limits(lease_wait=held + 2) if isinstance(held, float) else None
            hall = Hall(store, limits, bots=pool, proxies=proxies, download=download)

            def ready(url: str) -> None:
                tables = len(hall.rooms)
                log.info("serving %d tables on %s", tables, url)
                trusted = ", ".join(str(n) for n in hall.doors.proxies.networks) or "none"
                log.info("forwarded client addresses are read from these proxies only: %s", trusted)
                log.info("web pages that may connect: %s", ", ".join(origins) or "none")
                say_ready(f"Crib Tiles server on {url} ({tables} {'table' if tables == 1 else 'tables'})")

            try:
                asyncio.run(_run(hall, host, port, ready, origins))
            except OSError as e:
                log.error("could not listen on %s port %d: %s", host, port, why(e))
                raise CannotServe(_listen_words(e, host, port)) from None
            log.info("stopped")
        finally:
            _stop_bots(pool)
            store.close()
    finally:
        lock.release()


def _stop_bots(pool: concurrent.futures.Executor) -> None:
    """The bots' processes ended at once (threads cannot be: their moves are waited for)."""
    if isinstance(pool, BotPool):
        pool.stop()
    else:
        pool.shutdown(wait=True, cancel_futures=True)


async def _run(hall: Hall, host: str, port: int, ready: Callable[[str], None], origins: tuple[str, ...]) -> None:
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[int] = loop.create_future()

    def stop_by(sig: signal.Signals) -> None:
        if not stop.done():
            log.info("stopping: %s", sig.name)
            stop.set_result(int(sig))

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows: Ctrl-C is KeyboardInterrupt
            loop.add_signal_handler(sig, stop_by, sig)
    await run_server(hall, host, port, ready, stop, origins)


def _quiet_library_logs() -> None:
    """The WebSocket library's warnings (a failed handshake, a handler's error) go to the server's log
    file, not to the terminal; never its debug lines, which would carry messages' content."""
    library = logging.getLogger("websockets")
    library.setLevel(logging.WARNING)
    library.propagate = False
    for handler in logging.getLogger("cribtiles").handlers:
        library.addHandler(handler)
