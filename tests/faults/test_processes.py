"""Processes and signals under fire: the text mode stopped while its bot thinks, the arenas without
semaphores, the text mode and the arenas under a memory limit too low to play, and a stopped bot
worker left behind by a killed game. The real program runs in a subprocess of its own session."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cribtiles.rules import format_move
from cribtiles.rules.movegen import scored_plays
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table

from .conftest import ROOT, alive, children, log_text, program_env, run, session_members, start, wait_for
from .test_text_and_arena import Collected, resumes, stopped_within
from .test_window import bot_starts_seed, open_expert_game, worker_pid

# --- the text mode stopped while its bot thinks ---


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_while_the_bot_thinks_stop_the_text_mode_at_once(
    data: Path, reaper: list[subprocess.Popen[str]], sig: signal.Signals
) -> None:
    """Expert thinks 1.5 s over its first move, in the text mode's own thread: the signal comes in the
    middle of its search, which must not take it for a failure of its own and play on."""
    proc = start(["--text", "--players", "You,expert", "--seed", str(bot_starts_seed())], data, stdin=subprocess.PIPE)
    reaper.append(proc)
    out, err = Collected(proc.stdout), Collected(proc.stderr)
    out.wait_for("Expert drew for the start and plays first.\n", 30)
    proc.send_signal(sig)
    code, _ = stopped_within(proc, 5)
    shown, errors = out.finish(), err.finish()
    assert code == 128 + sig and "Traceback" not in errors, errors
    assert shown.endswith(f"plays first.\n\nStopped by {sig.name}: {resumes(data)}\n"), shown[-500:]
    table = load_table((data / "game.json").read_text(encoding="utf-8"))
    assert table.seats[1].level == "expert" and not table.state.turns  # stopped before its move
    assert "failed" not in log_text(data) and "greedy" not in log_text(data)


# --- the arenas without semaphores ---

NO_WORKERS = "cribtiles: no worker processes can be started here ({}); the games are played one at a time\n"
ARENAS = {
    "tiles": ["arena", "--bots", "medium,easy", "--games", "4", "--jobs", "2"],
    "cribbage": ["cribbage", "arena", "--bots", "medium,easy", "--games", "4", "--jobs", "2"],
}


def no_semaphores(tmp_path: Path) -> str:
    """A PYTHONPATH whose sitecustomize makes every POSIX semaphore fail as a system without them
    does (where /dev/shm is missing or read-only, sem_open fails in the same place)."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(
        "import errno\n"
        "import multiprocessing.synchronize\n"
        "def _refuse(self, *args, **kwargs):\n"
        "    raise OSError(errno.ENOSYS, 'Function not implemented')\n"
        "multiprocessing.synchronize.SemLock.__init__ = _refuse\n"
    )
    return f"{hooks}{os.pathsep}{ROOT}"


def arena_played_its_games(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.stdout.splitlines()[-1].startswith("4 games in "), result.stdout


@pytest.mark.parametrize("which", sorted(ARENAS))
def test_the_arenas_without_semaphores_play_in_one_process_and_say_so(tmp_path: Path, which: str) -> None:
    result = run(ARENAS[which], None, timeout=60, PYTHONPATH=no_semaphores(tmp_path))
    arena_played_its_games(result)
    assert result.stderr == NO_WORKERS.format("OSError: [Errno 38] Function not implemented")


@pytest.mark.skipif(
    shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0,
    reason="needs unshare -m (root, or user namespaces) to mount a read-only /dev/shm for one program",
)
def test_the_arena_with_a_read_only_dev_shm_plays_in_one_process_and_says_so() -> None:
    script = 'mount -t tmpfs -o ro tmpfs /dev/shm && exec "$@"'
    cmd = ["unshare", "-m", "sh", "-c", script, "sh", sys.executable, "-m", "cribtiles", *ARENAS["tiles"]]
    result = subprocess.run(cmd, cwd=ROOT, env=program_env(), capture_output=True, text=True, timeout=60)
    arena_played_its_games(result)
    assert result.stderr == NO_WORKERS.format("OSError: [Errno 30] Read-only file system")


# --- a stopped bot worker and a killed game ---


def test_a_stopped_worker_and_the_resource_tracker_end_with_a_killed_game(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    """A stopped process runs no code, so no watchdog thread of its own can end it: the kernel does
    (PR_SET_PDEATHSIG), and multiprocessing's resource tracker ends when the last process holding
    its pipe has."""
    proc = open_expert_game(data, reaper)
    # once Expert has moved, its worker is past its start (one stopped while it still starts up has
    # not yet asked the kernel to end it with the game)
    wait_for(lambda: load_table((data / "game.json").read_text()).state.log, 30, "Expert's move in the save")
    worker = worker_pid(proc.pid)
    helpers = children(proc.pid)
    assert worker in helpers and len(helpers) >= 2  # the worker and multiprocessing's resource tracker
    os.kill(worker, signal.SIGSTOP)
    wait_for(lambda: stopped(worker), 5, "the worker to stop")
    proc.kill()  # kill -9: no handler runs, nobody is told
    proc.wait()
    wait_for(lambda: not any(alive(p) for p in helpers), 6, f"the game's helpers {helpers} to end")
    assert not session_members(proc.pid)


def stopped(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"


# --- too little memory to play ---

OUT_OF_MEMORY = "cribtiles: out of memory (a limit such as ulimit -v, or a full machine): stopped\n"


def test_the_text_mode_out_of_memory_saves_and_says_so_in_one_line(
    data: Path, tmp_path: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    """Expert's search asks for more memory than there is (simulated: a terabyte, which the system
    refuses at once; a real RLIMIT_AS runs out at a place that differs with each build, in a lazy
    import as often as in an allocation): your move is taken and kept, the game ends in one line."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(
        "import cribtiles.bot.tiles.simulate\n"
        "def _asks_a_terabyte(self, *args, **kwargs):\n"
        "    return bytearray(2**40)\n"
        "cribtiles.bot.tiles.simulate.ExpertBot.choose = _asks_a_terabyte\n"
    )
    seats = (Seat.person("You"), Seat.bot("expert"))
    seed = next(s for s in range(1, 100) if Table.new(seats, seed=s).state.starter == 0)
    state = Table.new(seats, seed=seed).state
    play, _ = max(scored_plays(state.board, state.racks[0]), key=lambda found: found[1])
    args = ["--text", "--players", "You,expert", "--seed", str(seed)]
    proc = start(args, data, stdin=subprocess.PIPE, PYTHONPATH=f"{hooks}{os.pathsep}{ROOT}")
    reaper.append(proc)
    out, err = Collected(proc.stdout), Collected(proc.stderr)
    out.wait_for("Your move> ", 30)
    assert proc.stdin is not None
    proc.stdin.write(f"{format_move(play)}\n")
    proc.stdin.flush()
    code, _ = stopped_within(proc, 15)
    shown, errors = out.finish(), err.finish()
    assert code == 1 and errors == "", errors[-2000:]
    assert shown.endswith(f"\n\nOut of memory: {resumes(data)}\n"), shown[-500:]
    assert len(load_table((data / "game.json").read_text(encoding="utf-8")).state.turns) == 1  # your move
    assert "failed" not in log_text(data)  # not the bot's failure: no greedy move played for it


def arena_imports_peak(tmp_path: Path) -> int:
    """The bytes of address space Python takes to load the arena, measured in a process of its own."""
    probe = "import cribtiles.app.main, cribtiles.table.arena, cribtiles.table.cribbage.arena, multiprocessing.pool\n"
    probe += "print(open('/proc/self/status').read().split('VmPeak:')[1].split()[0])"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=30)
    return int(done.stdout) * 1024


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_arena_out_of_memory_says_so_in_one_line(tmp_path: Path, jobs: str) -> None:
    """Enough memory to load the arena, not enough to play Expert (or, with two jobs, to start the
    pool's threads, each of which reserves its stack)."""
    limit = arena_imports_peak(tmp_path) + 6 * 2**20
    cmd = [sys.executable, "-m", "cribtiles", "arena", "--bots", "expert,medium", "--games", "2", "--jobs", jobs]
    done = subprocess.run(
        [*cmd, "--budget", "0.5"],
        cwd=ROOT,
        env=program_env(),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
        start_new_session=True,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stderr.endswith(OUT_OF_MEMORY) and len(done.stderr.splitlines()) <= 2, done.stderr
