"""Fault injection: the real program in subprocesses, stopped, killed, interrupted and fed bad files.

Each test starts `python -m cribtiles` (headless: SDL's dummy drivers) with its own data folder, does
something hostile to it, and asserts what a player would see afterwards: the program running or
exited cleanly, the message it gave, the files it kept, no process left behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("the fault-injection suite reads /proc and sends POSIX signals: Linux only", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]


def program_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def start(
    args: Sequence[str],
    data: Path | None,
    *,
    stdin: int | None = None,
    preexec: Callable[[], None] | None = None,
    **env: str,
) -> subprocess.Popen[str]:
    """Start `python -m cribtiles ARGS` (with `--data-dir DATA` when given) in its own session; `preexec`
    runs in the child before the program (a resource limit)."""
    cmd = [sys.executable, "-m", "cribtiles", *args]
    if data is not None:
        cmd += ["--data-dir", str(data)]
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=program_env(**env),
        stdin=stdin if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # signals reach only what the test aims them at
        preexec_fn=preexec,
    )


def run(args: Sequence[str], data: Path | None, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    proc = start(args, data, **env)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_tree(proc.pid)
        out, err = proc.communicate()
        raise AssertionError(f"cribtiles {' '.join(args)} did not finish in {timeout} s\n{out}\n{err}") from None
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def wait_for(predicate: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def log_text(data: Path) -> str:
    try:
        return (data / "cribtiles.log").read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return ""


def wait_for_log(data: Path, text: str, timeout: float = 30) -> None:
    wait_for(lambda: text in log_text(data), timeout, f"{text!r} in the log\n--- log:\n{log_text(data)}")


def alive(pid: int) -> bool:
    """Running or stopped, not gone and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def children(pid: int) -> list[int]:
    """Every process descended from `pid` (while `pid` lives)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except (FileNotFoundError, ProcessLookupError, ValueError):
                continue
            found += kids
            todo += kids
    return found


def session_members(sid: int) -> list[int]:
    """Every live process of the session `sid` (start() gives each program its own session), orphans too."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            members.append(int(stat.parent.name))
    return members


def kill_tree(pid: int) -> None:
    with_kids = [pid, *children(pid)]
    for p in with_kids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


@pytest.fixture
def reaper() -> Iterator[list[subprocess.Popen[str]]]:
    """Programs a test starts: whatever is left of them (their whole session) is killed afterwards."""
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        for p in session_members(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
