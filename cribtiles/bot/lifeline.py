"""Child processes die with the game: a watchdog thread that ends the process once its parent is gone.

A bot's worker process (and each arena worker) calls `die_with_parent()` when it starts. Without it a
`kill -9` of the game, a SIGHUP or a lost X server leaves the worker, and multiprocessing's resource
tracker which waits for it, running for ever under PID 1.
"""

from __future__ import annotations

import multiprocessing
import os
import threading


def _watch(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # blocks on the parent's sentinel (a pipe or a handle): returns when it has exited
    os._exit(3)  # nothing to save in a worker; do not wait for the move being thought about


def die_with_parent() -> bool:
    """Start the watchdog in a process started by multiprocessing; False when there is no parent."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return False
    threading.Thread(target=_watch, args=(parent,), name="cribtiles-lifeline", daemon=True).start()
    return True
