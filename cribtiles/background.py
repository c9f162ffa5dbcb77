"""One piece of work beside the window: a function of picklable arguments run in a spawned process of its
own (or a thread, for cheap work and where no process can start), polled without waiting, ended at once,
and whatever goes wrong said in words. Also the lifeline, by which a child process dies with its parent.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar, cast

log = logging.getLogger("cribtiles.background")

T = TypeVar("T")

#: Seconds to wait for a killed process to be reaped (so that its exit code is known) before letting it go.
REAP_SECONDS = 1.0

Report = Callable[[int, int], None]


# --- what a poll finds ---


class Trouble(Enum):
    """How a piece of work can fail to give its answer."""

    RAISED = "raised"  # the function raised: `details` has its traceback
    DIED = "died"  # the process ended (killed, crashed, exited) without an answer
    SILENT = "silent"  # nothing heard for longer than the limit: the process was killed, a thread abandoned


@dataclass(frozen=True)
class Running:
    """The work is under way: the progress it last reported (0 of 0 before it says anything)."""

    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class Done(Generic[T]):
    """The function's answer."""

    value: T


@dataclass(frozen=True)
class Failed:
    """No answer: how (`trouble`), in words ('ZeroDivisionError: a bug', 'was ended by SIGKILL',
    'stopped answering (nothing for 12 s)'), and a raising function's traceback for the log."""

    trouble: Trouble
    words: str
    details: str = ""


State = Running | Done[T] | Failed | None  # None: nothing started (or cancelled)


@dataclass(frozen=True)
class _Call:
    """What the child is asked to run; `reports`: the function takes a `report(done, total)` last."""

    fn: Callable[..., object]
    args: tuple[object, ...]
    reports: bool


class _Cancelled(Exception):
    """Raised in an abandoned thread's `report`, so that work which reports stops at its next step."""


def exit_words(code: int | None) -> str:
    """How a process ended, in words.

    >>> exit_words(-9), exit_words(1), exit_words(None)
    ('was ended by SIGKILL', 'exited with code 1', 'stopped answering')
    """
    if code is None:
        return "stopped answering"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"was ended by {signal.Signals(-code).name}"
    return f"exited with code {code}"


def outcome(call: _Call, report: Report) -> Done[object] | Failed:
    """Run `call`: its answer, or what it raised in words with the traceback (in a process or a thread)."""
    try:
        value = call.fn(*call.args, report) if call.reports else call.fn(*call.args)
    except _Cancelled:
        raise
    except Exception as e:  # MemoryError too: the caller decides, nothing is printed on the terminal
        words = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        with contextlib.suppress(MemoryError):  # the traceback needs memory too
            return Failed(Trouble.RAISED, words, traceback.format_exc().rstrip())
        return Failed(Trouble.RAISED, words)
    return Done(value)


# --- the process ---


def serve(conn: multiprocessing.connection.Connection, nice: int) -> None:
    """The child process: run the calls it is sent, one at a time, until the pipe closes."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the game decides
    if nice:
        with contextlib.suppress(AttributeError, OSError):  # a busy machine serves the window's frames first
            os.nice(nice)

    def report(done: int, total: int) -> None:
        conn.send(Running(done, total))

    while True:
        try:
            call = conn.recv()
        except (EOFError, OSError):
            return
        if not isinstance(call, _Call):
            return
        try:
            conn.send(outcome(call, report))
        except (EOFError, OSError):  # the parent has gone away (or no longer listens)
            return


class Child:
    """One spawned process serving calls, and our end of its pipe."""

    def __init__(self, name: str, nice: int) -> None:
        ctx = multiprocessing.get_context("spawn")  # never fork: the window holds SDL and threads
        self.conn, theirs = ctx.Pipe()
        self.proc = ctx.Process(target=serve, args=(theirs, nice), name=name, daemon=True)
        try:
            self.proc.start()
        except BaseException:
            self.conn.close()
            raise
        finally:
            theirs.close()

    @property
    def pid(self) -> int | None:
        return self.proc.pid

    def send(self, call: _Call) -> None:
        self.conn.send(call)

    def ready(self) -> bool:
        return self.conn.poll()

    def receive(self) -> object:
        return self.conn.recv()

    def alive(self) -> bool:
        return self.proc.is_alive()

    def end_words(self) -> str:
        """How the process ended, once reaped."""
        with contextlib.suppress(OSError, ValueError):
            self.proc.join(REAP_SECONDS)
        return exit_words(self.proc.exitcode)

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.proc.kill()  # SIGKILL: it works on a stopped process too, where SIGTERM would wait
            self.proc.join(REAP_SECONDS)
        with contextlib.suppress(OSError):
            self.conn.close()


def spawn(name: str, nice: int) -> Child:
    """A new child process (tests replace this to refuse processes, or to answer in this one)."""
    return Child(name, nice)


# --- the job ---


class Background(Generic[T]):
    """One piece of work at a time: `start` it, `poll` it (never waits), `cancel` it, `close` at the end.

    `name`: the process's and thread's name, and what the log calls it. `use_process` False: threads
    only. `keep`: the process stays for the next piece of work (started ahead by `warm_up`) and one
    killed while busy is replaced at once; otherwise it ends with its work. `nice`: how much lower the
    process stands than the window. `on_no_process(why)`: told once when no process can be started
    here (threads from then on). `clock` measures silence, for tests."""

    def __init__(
        self,
        name: str,
        use_process: bool = True,
        keep: bool = False,
        nice: int = 0,
        on_no_process: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self._use_process = use_process
        self._keep = keep
        self._nice = nice
        self._told = on_no_process
        self._clock = clock
        self.no_process = ""  # why no process can be started here, once that is known
        self._child: Child | None = None
        self._state: State[T] = None
        self._progress = Running()  # the last progress reported, kept once the answer has come
        self._in_process = False
        self._ticket = 0  # the work under way; a thread's answer for an older ticket is dropped
        self._heard = 0.0  # when the work last said something (started, reported)
        self._limit: float | None = None
        self._lock = threading.Lock()
        self._exit_hook = False

    # --- the process ---

    @property
    def pid(self) -> int | None:
        """The child process's id while there is one (for the log and for fault-injection tests)."""
        return self._child.pid if self._child is not None else None

    @property
    def progress(self) -> Running:
        """The progress the work last reported (0 of 0 before it says anything), kept after its answer."""
        return self._progress

    @property
    def in_process(self) -> bool:
        """The work under way (or last done) runs in the child process, not a thread."""
        return self._in_process

    def warm_up(self) -> bool:
        """Start the process now, so that the first piece of work does not wait for it; False: none here."""
        return self._ensure_child() is not None

    def _ensure_child(self) -> Child | None:
        if self._child is not None and self._child.alive():
            return self._child
        self._drop_child()
        if not self._use_process or self.no_process:
            return None
        try:
            self._child = spawn(self.name, self._nice)
        except Exception as e:  # no processes here: no semaphores, a read-only /dev/shm, a sandbox, limits
            self.no_process = f"{type(e).__name__}: {e}"
            if self._told is not None:  # the caller says it in its own words
                self._told(self.no_process)
            else:
                log.warning("cannot start a %s process (%s); it works in a thread", self.name, self.no_process)
            return None
        if not self._exit_hook:  # ahead of multiprocessing's own exit hook, which would wait for a stopped child
            atexit.register(self.close)
            self._exit_hook = True
        return self._child

    def _drop_child(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()

    # --- the work ---

    def start(
        self,
        fn: Callable[..., T],
        args: tuple[object, ...] = (),
        reports: bool = False,
        in_thread: bool = False,
        limit: float | None = None,
    ) -> None:
        """Run `fn(*args)` (with `report(done, total)` last when `reports`), dropping any work under way.
        `in_thread`: cheap work, no process. `limit`: seconds of silence after which the work has failed."""
        self.cancel()
        call = _Call(fn, args, reports)
        self._state, self._progress, self._limit, self._heard = Running(), Running(), limit, self._clock()
        child = None if in_thread else self._ensure_child()
        if child is not None:
            try:
                child.send(call)
                self._in_process = True
                return
            except Exception as e:  # a broken pipe, an unpicklable argument: this one runs in a thread
                log.warning("the %s process could not be given its work (%s); it runs in a thread", self.name, e)
                self._drop_child()
        self._in_process = False
        with self._lock:
            self._ticket += 1
            ticket = self._ticket
        try:
            threading.Thread(target=self._run, args=(call, ticket), name=self.name, daemon=True).start()
        except RuntimeError as e:  # can't start new thread
            self._state = Failed(Trouble.RAISED, f"{type(e).__name__}: {e}")

    def _run(self, call: _Call, ticket: int) -> None:
        def report(done: int, total: int) -> None:
            with self._lock:
                if ticket != self._ticket:
                    raise _Cancelled
                self._state = self._progress = Running(done, total)
                self._heard = self._clock()

        try:
            answer = outcome(call, report)
        except _Cancelled:
            return
        with self._lock:
            if ticket == self._ticket:
                self._state = cast("Done[T] | Failed", answer)

    def poll(self) -> State[T]:
        """Where the work is: Running (with its progress), Done, Failed, or None (nothing started).
        The answer stays until the next `start` or `cancel`."""
        if self._in_process and isinstance(self._state, Running):
            self._read()
        if isinstance(self._state, Running) and self._limit is not None:
            silent = self._clock() - self._heard
            if silent > self._limit:
                self._abandon()
                self._state = Failed(Trouble.SILENT, f"stopped answering (nothing for {silent:.0f} s)")
        return self._state

    def _read(self) -> None:
        child = self._child
        if child is None:  # never so while the work runs in it; said all the same
            self._state = Failed(Trouble.DIED, "was lost")
            return
        try:
            while child.ready():
                message = child.receive()
                self._heard = self._clock()
                if isinstance(message, Running):
                    self._state = self._progress = message
                    continue
                self._state = cast("Done[T] | Failed", message)
                if not self._keep:
                    self._drop_child()  # one piece of work a process: it ends with it
                return
        except (EOFError, OSError):
            pass
        else:
            if child.alive():
                return
        words = child.end_words()
        self._replace_child()
        self._state = Failed(Trouble.DIED, words)

    def _replace_child(self) -> None:
        """The child is dead, hung, or busy with dropped work: kill it, and a kept one starts afresh now."""
        self._drop_child()
        if self._keep:
            self._ensure_child()

    def _abandon(self) -> None:
        with self._lock:
            self._ticket += 1
        if self._in_process:
            self._replace_child()

    def cancel(self) -> None:
        """Drop the work under way: a process is killed at once, a thread's answer is dropped (work that
        reports stops at its next report)."""
        if isinstance(self._state, Running):
            self._abandon()
        self._state = None
        self._in_process = False

    def close(self) -> None:
        """End everything at once, whatever it is doing (quitting never waits for a child)."""
        with self._lock:
            self._ticket += 1
        self._state = None
        self._in_process = False
        self._drop_child()
        if self._exit_hook:
            atexit.unregister(self.close)
            self._exit_hook = False


# --- the lifeline: child processes die with the game, however it ends (kill -9, SIGHUP, a lost X server) ---
#
# A child (the jobs' and each arena worker) calls `die_with_parent()` when it starts. Without it the
# child, and multiprocessing's resource tracker which waits for it, are left running for ever under
# PID 1. On Linux the kernel ends the child with SIGKILL when its parent dies (`PR_SET_PDEATHSIG`),
# which reaches a stopped (SIGSTOP) or busy child too; elsewhere, or where that cannot be had, a
# watchdog thread ends the process once its parent is gone (it cannot run while the process is stopped).
#
# The kernel's signal comes when the parent's *thread* that started the child ends: start these
# processes from the main thread, or from a thread that lives as long as they should (a pool's own).

#: prctl(2): the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: The exit code of a child whose parent is found gone.
ORPHANED = 3


def _watch(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # blocks on the parent's sentinel (a pipe or a handle): returns when it has exited
    os._exit(ORPHANED)  # nothing to save in a child; do not wait for the work under way


def _find_prctl() -> Callable[..., int] | None:
    """libc's prctl, looked up once when this module is imported: a forked child (the arenas') then
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
    It never raises: a child that cannot start its watchdog (no thread to be had under a low memory
    limit) still works, and a pool whose initializer failed would start workers for ever."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return False
    if parent.pid is not None and killed_with_parent(parent.pid):
        return True
    with contextlib.suppress(RuntimeError):  # can't start new thread
        threading.Thread(target=_watch, args=(parent,), name="cribtiles-lifeline", daemon=True).start()
    return True
