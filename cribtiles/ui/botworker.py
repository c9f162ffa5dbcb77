"""The bot thinks outside the window's thread so that frames never wait for it.

Cheap levels think in a thread; the expensive ones (hard, expert) in a separate process, so that
their pure-Python search does not take the interpreter lock from the frame loop. Either way the
scene polls `result()` each frame. This module must not import pygame: the process imports it.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import random
import threading

from cribtiles.bot import choose_safely, make_bot
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move

PROCESS_LEVELS = ("hard", "expert")


def think(level: str, view: PlayerView, seed: int, budget: float | None = None) -> Move:
    """The bot's move (run in the worker thread or process)."""
    return choose_safely(make_bot(level, budget), view, random.Random(seed), budget)


class BotWorker:
    """One move at a time; `start` a move, poll `result`, `close` at the end."""

    def __init__(self, use_process: bool | None = None) -> None:
        self._use_process = use_process
        self._pool: cf.ProcessPoolExecutor | None = None
        self._future: cf.Future[Move] | None = None
        self._thread_result: list[Move] = []
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def _process_pool(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the window's process holds SDL and threads that must not be forked
            self._pool = cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def warm_up(self) -> None:
        """Start the worker process now, so the first expert move does not wait for it."""
        self._process_pool().submit(int, 0)

    @property
    def busy(self) -> bool:
        return self._future is not None or self._thread is not None

    def start(self, level: str, view: PlayerView, seed: int, budget: float | None = None) -> None:
        self.cancel()
        use_process = level in PROCESS_LEVELS if self._use_process is None else self._use_process
        if use_process:
            try:
                self._future = self._process_pool().submit(think, level, view, seed, budget)
                return
            except (OSError, RuntimeError):  # no processes here (a sandbox, a frozen bundle gone wrong)
                self._future = None
        self._thread_result = []
        result = self._thread_result

        def run() -> None:
            result.append(think(level, view, seed, budget))

        self._thread = threading.Thread(target=run, name="cribtiles-bot", daemon=True)
        self._thread.start()

    def result(self) -> Move | None:
        """The move, once the bot has chosen it (then the worker is free again)."""
        if self._future is not None:
            if not self._future.done():
                return None
            future, self._future = self._future, None
            try:
                return future.result()
            except Exception:  # the process died: think here rather than stop the game
                self._error = future.exception()
                return None
        if self._thread is not None and not self._thread.is_alive():
            self._thread = None
            return self._thread_result[0] if self._thread_result else None
        return None

    @property
    def failed(self) -> bool:
        return self._error is not None

    def cancel(self) -> None:
        """Forget the move being thought about (a new game); a thread finishes on its own."""
        if self._future is not None:
            self._future.cancel()
        self._future = None
        self._thread = None
        self._error = None

    def close(self) -> None:
        self.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
