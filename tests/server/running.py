"""A server in a thread of the test's process, on a free loopback port (for the tests of both sides)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cribtiles.server.forwarded import Proxies
from cribtiles.server.front import Hall, Limits, run_server
from cribtiles.server.store import MemoryStore, SqliteStore, TableStore


@contextmanager
def running_server(
    store: TableStore | None = None,
    limits: Limits | None = None,
    path: Path | None = None,
    clock: Callable[[], float] = time.time,
    any_seed: bool = True,
    proxies: Proxies | None = None,
    origins: tuple[str, ...] = (),
    download: str | None = None,
) -> Iterator[tuple[str, Hall]]:
    """A server on 127.0.0.1 (a free port) for the block: its address and its hall (whose clock, for
    the turn timers and the limits, is `clock`). Unlike `cribtiles serve`, it takes a client's seed at
    any table (`any_seed`), so that a test's game among several seats is the same every time. It reads
    forwarded addresses from `proxies`, lets web pages of `origins` in, and its invitation pages say to get
    the game at `download`, as `cribtiles serve` does."""
    store = store or (SqliteStore(path) if path is not None else MemoryStore())
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    address: list[str] = []
    bots = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    hall_box: list[Hall] = []

    async def main() -> None:
        hall = Hall(store, limits, clock=clock, bots=bots, any_seed=any_seed, proxies=proxies, download=download)
        hall_box.append(hall)
        stop = loop.create_future()
        loop_stop.append(stop)

        def up(url: str) -> None:
            address.append(url)
            ready.set()

        await run_server(hall, "127.0.0.1", 0, up, stop, origins)

    loop_stop: list[asyncio.Future[None]] = []
    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(20), "the server did not start"
    try:
        yield address[0], hall_box[0]
    finally:

        def finish() -> None:
            if not loop_stop[0].done():
                loop_stop[0].set_result(None)

        loop.call_soon_threadsafe(finish)
        thread.join(20)
        bots.shutdown(cancel_futures=True)
        store.close()
