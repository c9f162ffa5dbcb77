"""The background job itself: a function run in a spawned process or a thread, polled without waiting,
cancelled and closed at once, and every way it can fail said in words; the child dies with its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cribtiles import background
from cribtiles.background import Background, Done, Failed, Running, State, Trouble

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to see the process end")

#: Seconds a test waits for something a process does before calling it a failure (never reached when
#: all is well: no assertion is about speed).
PATIENCE = 60.0


# --- what the jobs run (module functions: a spawned process imports them by name) ---


def add(a: int, b: int) -> int:
    return a + b


def divide(a: int, b: int) -> float:
    return a / b


def exit_with(code: int) -> None:
    os._exit(code)


def report_then_sleep(done: int, total: int, report: Callable[[int, int], None]) -> str:
    report(done, total)
    time.sleep(PATIENCE)
    return "woke"


def count_for_ever(report: Callable[[int, int], None]) -> None:
    done = 0
    while True:  # only a cancelled report ends it
        done += 1
        report(done, 0)
        time.sleep(0.01)


# --- helpers ---


def gone(pid: int) -> bool:
    """The process has ended (a zombie counts: it no longer runs)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")


def settle(job: Background[object], seconds: float = PATIENCE) -> State[object]:
    """Poll until the job is no longer running."""
    deadline = time.monotonic() + seconds
    while True:
        state = job.poll()
        if not isinstance(state, Running) or time.monotonic() > deadline:
            return state
        time.sleep(0.01)


def wait_for(condition: Callable[[], bool], what: str, seconds: float = PATIENCE) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        time.sleep(0.01)


def busy_child(job: Background[object], done: int, total: int, limit: float | None = None) -> int:
    """Start work in a process that reports `done` of `total`, then sleeps; its pid once it has reported."""
    job.start(report_then_sleep, (done, total), reports=True, limit=limit)
    pid = job.pid
    assert pid is not None
    wait_for(lambda: job.poll() == Running(done, total), "progress")
    return pid


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def job() -> Iterator[Background[object]]:
    made: Background[object] = Background("cribtiles-test")
    yield made
    made.close()


# --- answers ---


def test_a_function_runs_in_a_process_of_its_own_which_ends_with_its_work(job: Background[object]) -> None:
    assert job.poll() is None and job.pid is None  # nothing started
    job.start(add, (2, 3))
    pid = job.pid
    assert pid is not None and pid != os.getpid() and job.in_process
    assert settle(job) == Done(5)
    assert job.poll() == Done(5)  # the answer stays until the next start
    assert job.pid is None and gone(pid)  # one piece of work a process


def test_a_kept_process_serves_the_next_piece_of_work_too() -> None:
    job: Background[object] = Background("cribtiles-test", keep=True)
    try:
        assert job.warm_up()
        pid = job.pid
        job.start(add, (1, 1))
        assert settle(job) == Done(2)
        job.start(add, (2, 2))
        assert settle(job) == Done(4)
        assert job.pid == pid
    finally:
        job.close()
    assert pid is not None and gone(pid)


def test_cheap_work_and_a_job_without_processes_run_in_a_thread(job: Background[object]) -> None:
    job.start(add, (4, 5), in_thread=True)
    assert job.pid is None and not job.in_process
    assert settle(job) == Done(9)
    threads: Background[object] = Background("cribtiles-test", use_process=False)
    assert not threads.warm_up()
    threads.start(add, (1, 2))
    assert threads.pid is None and settle(threads) == Done(3)


@pytest.mark.parametrize("in_thread", [False, True])
def test_a_raising_function_is_a_failure_in_words_with_its_traceback(job: Background[object], in_thread: bool) -> None:
    job.start(divide, (1, 0), in_thread=in_thread)
    failed = settle(job)
    assert isinstance(failed, Failed)
    assert (failed.trouble, failed.words) == (Trouble.RAISED, "ZeroDivisionError: division by zero")
    assert failed.details.startswith("Traceback") and "in divide" in failed.details


def test_progress_is_reported_and_cancel_kills_the_process_at_once(job: Background[object]) -> None:
    pid = busy_child(job, 1, 4)
    job.cancel()
    assert gone(pid) and job.pid is None  # killed and reaped, not waited for
    assert job.poll() is None


# --- children that die or stop answering ---


@linux_only
def test_a_child_that_exits_or_is_killed_is_a_failure_in_words(job: Background[object]) -> None:
    job.start(exit_with, (7,))
    assert settle(job) == Failed(Trouble.DIED, "exited with code 7")
    pid = busy_child(job, 1, 1)
    os.kill(pid, signal.SIGKILL)
    assert settle(job) == Failed(Trouble.DIED, "was ended by SIGKILL")


@linux_only
def test_a_stopped_child_is_killed_past_the_limit_and_a_kept_one_replaced() -> None:
    clock = FakeClock()
    job: Background[object] = Background("cribtiles-test", keep=True, clock=clock)
    try:
        pid = busy_child(job, 1, 2, limit=10.0)
        os.kill(pid, signal.SIGSTOP)
        clock.now = 9.5
        assert job.poll() == Running(1, 2)  # silent, but not yet for long
        clock.now = 12.0
        assert job.poll() == Failed(Trouble.SILENT, "stopped answering (nothing for 12 s)")
        assert gone(pid)  # killed, stopped as it was
        assert job.pid not in (None, pid)  # the fresh one is there at once
    finally:
        job.close()


def test_a_hung_thread_is_abandoned_past_the_limit() -> None:
    clock = FakeClock()
    never = threading.Event()
    job: Background[object] = Background("cribtiles-test", use_process=False, clock=clock)
    try:
        job.start(never.wait, (PATIENCE,), limit=1.0)
        clock.now = 2.0
        state = job.poll()
        assert isinstance(state, Failed) and state.trouble is Trouble.SILENT
        never.set()  # it answers after all: too late, the answer is dropped
        time.sleep(0.1)
        assert job.poll() == state
    finally:
        never.set()
        job.close()


# --- no processes here ---


def test_where_no_process_can_start_the_work_runs_in_a_thread_and_the_caller_is_told_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tried: list[str] = []

    def no_semaphores(name: str, nice: int) -> background.Child:
        tried.append(name)
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(background, "spawn", no_semaphores)
    told: list[str] = []
    job: Background[object] = Background("cribtiles-test", keep=True, on_no_process=told.append)
    try:
        assert not job.warm_up()
        job.start(add, (3, 4))
        assert job.pid is None and not job.in_process and settle(job) == Done(7)
        job.start(add, (5, 6))
        assert settle(job) == Done(11)
    finally:
        job.close()
    assert tried == ["cribtiles-test"]  # no second attempt
    assert told == ["OSError: [Errno 38] Function not implemented"] and job.no_process == told[0]


# --- ending ---


def test_nothing_is_left_running_after_close(job: Background[object]) -> None:
    pid = busy_child(job, 1, 1)
    job.close()
    assert gone(pid) and job.poll() is None

    threads: Background[object] = Background("cribtiles-test-thread", use_process=False)
    threads.start(count_for_ever, reports=True)
    wait_for(lambda: threads.poll() not in (None, Running()), "a count")
    threads.close()  # its next report ends it
    wait_for(lambda: "cribtiles-test-thread" not in {t.name for t in threading.enumerate()}, "the thread to end", 5)
    assert threads.poll() is None


def test_a_cancelled_threads_answer_is_dropped() -> None:
    release = threading.Event()
    job: Background[object] = Background("cribtiles-test", use_process=False)
    job.start(release.wait, (PATIENCE,))
    job.cancel()
    release.set()
    time.sleep(0.1)
    assert job.poll() is None
    job.start(add, (1, 2))  # and the next one is answered
    assert settle(job) == Done(3)


def test_words_for_how_a_process_ended() -> None:
    assert background.exit_words(-signal.SIGKILL) == "was ended by SIGKILL"
    assert background.exit_words(3) == "exited with code 3"
    assert background.exit_words(None) == "stopped answering"


# --- the lifeline ---


def test_outside_a_child_there_is_no_parent_to_die_with() -> None:
    assert background.die_with_parent() is False


KEPT_CHILD = """
import time
from cribtiles.background import Background
job = Background("cribtiles-test", keep=True)
job.warm_up()
print(job.pid, flush=True)
time.sleep(60)
"""


@linux_only
def test_the_child_dies_with_a_killed_parent() -> None:
    """kill -9 of the parent: no exit hook runs; the kernel's PR_SET_PDEATHSIG (or the watchdog) ends the child."""
    parent = subprocess.Popen([sys.executable, "-c", KEPT_CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert not gone(child)
        parent.kill()
        parent.wait(10)
        wait_for(lambda: gone(child), "the child to die with its parent", 10)
    finally:
        parent.kill()
        parent.wait(10)
