"""Child processes die with the game, however it ends: `kill -9`, a SIGHUP, a lost X server.

A bot's worker process (and each arena worker) calls `die_with_parent()` when it starts. Without it
the worker, and multiprocessing's resource tracker which waits for it, are left running for ever
under PID 1. On Linux the kernel ends the child with SIGKILL when its parent dies (`PR_SET_PDEATHSIG`),
which reaches a stopped (SIGSTOP) or busy child too; elsewhere, or where that cannot be had, a watchdog
thread ends the process once its parent is gone (it cannot run while the process is stopped).

The kernel's signal comes when the parent's *thread* that started the child ends: start these
processes from the main thread, or from a thread that lives as long as they should (a pool's own).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import cast

#: prctl(2): the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: The exit code of a worker whose parent is found gone.
ORPHANED = 3


def _watch(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # blocks on the parent's sentinel (a pipe or a handle): returns when it has exited
    os._exit(ORPHANED)  # nothing to save in a worker; do not wait for the move being thought about


def _find_prctl() -> Callable[..., int] | None:
    """libc's prctl, looked up once when this module is imported: a forked worker (the arenas') then
    has it already, even under a memory limit that would refuse to load ctypes."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return cast(Callable[..., int], ctypes.CDLL(None, use_errno=True).prctl)
    except Exception:  # no ctypes, no libc to be found, no prctl in it, no memory: the watchdog does it
        return None


_prctl = _find_prctl()


def killed_with_parent(parent_pid: int) -> bool:
    """Ask Linux for SIGKILL when the parent dies; True when that is in place. A parent gone already
    (before the request was made) ends this process at once."""
    if _prctl is None:
        return False
    try:
        if _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except Exception:  # no memory for the call's arguments
        return False
    if os.getppid() != parent_pid:  # the parent died before it was asked (we were re-parented)
        os._exit(ORPHANED)
    return True


def die_with_parent() -> bool:
    """In a process started by multiprocessing: end with the parent; False when there is no parent.
    It never raises: a worker that cannot start its watchdog (no thread to be had under a low memory
    limit) still works, and a pool whose initializer failed would start workers for ever."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return False
    if parent.pid is not None and killed_with_parent(parent.pid):
        return True
    with contextlib.suppress(RuntimeError):  # can't start new thread
        threading.Thread(target=_watch, args=(parent,), name="cribtiles-lifeline", daemon=True).start()
    return True
