"""Ctrl-C, the end of input and `kill -9` against the text mode and the arena: the real program in a
subprocess of its own session, and what a player sees afterwards (the exit, the words, the save, no
traceback, no process left behind)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from cribtiles.table.tiles.saved import load_table

from .conftest import alive, children, run, session_members, start, wait_for

ARENA = ["arena", "--bots", "medium,easy", "--games", "200", "--jobs", "2"]
PROMPT = "Your move> "


@pytest.fixture(autouse=True)
def ctrl_c_reaches_the_program() -> Iterator[None]:
    """A program that starts with SIGINT ignored keeps ignoring it (so does a background job's Python);
    these tests press Ctrl-C, so the programs they start must begin with it live."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # reset to the default in a new program
    try:
        yield
    finally:
        if previous is signal.SIG_IGN:
            signal.signal(signal.SIGINT, previous)


class Collected:
    """Everything a program writes to one of its pipes, read as it comes (a prompt has no newline)."""

    def __init__(self, stream: IO[str] | None) -> None:
        assert stream is not None
        self.chunks: list[bytes] = []
        self.thread = threading.Thread(target=self._read, args=(stream.fileno(),), daemon=True)
        self.thread.start()

    def _read(self, fd: int) -> None:
        while chunk := os.read(fd, 65536):
            self.chunks.append(chunk)

    @property
    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")

    def wait_for(self, text: str, timeout: float) -> None:
        wait_for(lambda: text in self.text, timeout, f"{text!r} in the output\n--- so far:\n{self.text[-3000:]}")

    def finish(self) -> str:
        self.thread.join(5)
        return self.text


def stopped_within(proc: subprocess.Popen[str], seconds: float) -> tuple[int, float]:
    """The exit code, and the seconds it took to come, of a program just told to stop."""
    asked = time.monotonic()
    try:
        code = proc.wait(timeout=seconds + 10)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"still running {seconds + 10} s after it was told to stop") from None
    took = time.monotonic() - asked
    assert took < seconds, f"it took {took:.2f} s to stop (at most {seconds} s)"
    return code, took


def resumes(data: Path) -> str:
    return f"your game is saved; `cribtiles --text --data-dir {data}` resumes it."


def turns_played(n: int) -> str:
    return f"{n} turn{'s' if n != 1 else ''} played"


# --- the text mode ---


def test_ctrl_c_at_the_text_prompt_saves_the_game_and_a_second_run_resumes_it(
    data: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    proc = start(["--text", "--seed", "5"], data, stdin=subprocess.PIPE)  # a terminal that stays open
    reaper.append(proc)
    out, err = Collected(proc.stdout), Collected(proc.stderr)
    out.wait_for(PROMPT, 30)
    proc.send_signal(signal.SIGINT)
    code, _ = stopped_within(proc, 5)
    shown, errors = out.finish(), err.finish()
    assert code == 130
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors
    assert shown.endswith(f"{PROMPT}\nInterrupted: {resumes(data)}\n")
    table = load_table((data / "game.json").read_text(encoding="utf-8"))
    assert table.state.seed == 5 and table.state.current == 0 and not table.state.is_over

    again = run(["--text"], data)  # standard input at its end at once
    assert again.returncode == 0 and "Traceback" not in again.stderr
    first_line = again.stdout.splitlines()[0]
    assert first_line == f"Resuming your game against the medium bot (seed 5, {turns_played(len(table.state.turns))})."
    assert again.stdout.endswith(f"{PROMPT}\nEnd of input: {resumes(data)}\n")
    assert load_table((data / "game.json").read_text(encoding="utf-8")).state.log == table.state.log


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_at_the_text_prompt_save_and_say_so(
    data: Path, reaper: list[subprocess.Popen[str]], sig: signal.Signals
) -> None:
    proc = start(["--text", "--seed", "5"], data, stdin=subprocess.PIPE)
    reaper.append(proc)
    out, err = Collected(proc.stdout), Collected(proc.stderr)
    out.wait_for(PROMPT, 30)
    proc.send_signal(sig)
    code, _ = stopped_within(proc, 5)
    assert code == 128 + sig and "Traceback" not in err.finish()
    assert out.finish().endswith(f"{PROMPT}\nStopped by {sig.name}: {resumes(data)}\n")
    assert load_table((data / "game.json").read_text(encoding="utf-8")).state.seed == 5


def test_ctrl_c_while_the_program_is_still_loading_prints_no_traceback(data: Path) -> None:
    # -X importtime reports each import as it happens: Ctrl-C lands while the game's modules load
    proc = start(["--text", "--seed", "5"], data, stdin=subprocess.PIPE, PYTHONPROFILEIMPORTTIME="1")
    assert proc.stderr is not None
    seen = []
    ours = re.compile(r"\|\s+cribtiles\.\w")  # one of the game's own modules (not the install's finder)
    for line in proc.stderr:
        seen.append(line)
        if ours.search(line):
            proc.send_signal(signal.SIGINT)
            break
    _, rest = proc.communicate(timeout=30)
    err = "".join(seen) + rest
    assert any(ours.search(line) for line in seen), err[-2000:]
    assert proc.returncode == 130 and "Traceback" not in err, err[-2000:]


def test_a_reader_that_goes_away_ends_the_text_mode_quietly(data: Path) -> None:
    proc = start(["--text", "--seed", "5"], data, stdin=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdout.readline()  # the first line, then the reader goes away (`cribtiles --text | head -1`)
    proc.stdout.close()
    _, err = proc.communicate("help\nhelp\nhelp\nhelp\n", timeout=30)
    assert proc.returncode == 141 and "Traceback" not in err and "BrokenPipe" not in err


def test_the_end_of_input_saves_the_game_and_a_second_run_resumes_it(data: Path) -> None:
    first = run(["--text", "--seed", "7", "--level", "easy"], data)  # stdin is /dev/null: at its end at once
    assert first.returncode == 0 and "Traceback" not in first.stderr
    assert first.stdout.startswith("Crib Tiles: a game against the easy bot (seed 7). Type help for help.\n")
    assert first.stdout.endswith(f"{PROMPT}\nEnd of input: {resumes(data)}\n")
    table = load_table((data / "game.json").read_text(encoding="utf-8"))
    assert table.state.seed == 7 and table.seats[1].level == "easy"

    again = run(["--text"], data)
    assert again.returncode == 0 and "Traceback" not in again.stderr
    turns = turns_played(len(table.state.turns))
    assert again.stdout.startswith(f"Resuming your game against the easy bot (seed 7, {turns}).\n")


def test_a_typed_game_goes_on_after_quit(data: Path, reaper: list[subprocess.Popen[str]]) -> None:
    proc = start(["--text", "--seed", "5"], data, stdin=subprocess.PIPE)
    reaper.append(proc)
    out, _ = proc.communicate("hint\nquit\n", timeout=60)
    assert proc.returncode == 0
    assert "Best scoring play: " in out and out.endswith(f"Goodbye: {resumes(data)}\n")
    best = out.split("Best scoring play: ", 1)[1].split(" for ", 1)[0]

    proc = start(["--text"], data, stdin=subprocess.PIPE)
    reaper.append(proc)
    out, err = proc.communicate(f"{best}\nquit\n", timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err
    assert out.startswith("Resuming your game against the medium bot (seed 5, ")
    log = load_table((data / "game.json").read_text(encoding="utf-8")).state.log
    assert best in log  # your play, and the bot's answer after it, were saved


# --- the arena ---


@pytest.mark.parametrize("aim", ["process group", "arena only"])
def test_ctrl_c_stops_the_arena_at_once_with_the_figures_so_far(aim: str, reaper: list[subprocess.Popen[str]]) -> None:
    proc = start(ARENA, None)
    reaper.append(proc)
    out, err = Collected(proc.stdout), Collected(proc.stderr)
    wait_for(lambda: len(children(proc.pid)) >= 2, 30, "the arena's two worker processes")
    time.sleep(3)
    assert proc.poll() is None, "the arena ended before Ctrl-C"
    if aim == "process group":  # what Ctrl-C in a terminal does: every process of the job gets SIGINT
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    code, _ = stopped_within(proc, 3)
    shown, errors = out.finish(), err.finish()
    assert code == 130
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors
    lines = shown.splitlines()
    assert lines[0].startswith("Crib Tiles arena: medium vs easy, 200 games (100 bags x 2 seatings), seed 1")
    assert any(line.startswith("medium ") for line in lines) and any(line.startswith("easy ") for line in lines)
    done = re.fullmatch(
        r"Interrupted \(Ctrl-C\) after (\d+) of 200 games, in \d+\.\d s: the figures are for the \1 games finished\.",
        lines[-1],
    )
    assert done is not None, lines[-1]
    assert int(done[1]) % 2 == 0 and int(done[1]) < 200  # whole bags: both seatings of each
    wait_for(lambda: not session_members(proc.pid), 5, "every process of the arena to end")


def test_the_arena_s_workers_die_with_a_killed_arena(reaper: list[subprocess.Popen[str]]) -> None:
    """Expert's games take minutes: a worker left to itself would play its game to the end (and only
    then find nobody to give the result to), so only the lifeline ends it at once."""
    proc = start(["arena", "--bots", "expert,medium", "--games", "8", "--jobs", "2", "--budget", "2"], None)
    reaper.append(proc)
    wait_for(lambda: len(children(proc.pid)) >= 2, 30, "the arena's two worker processes")
    workers = children(proc.pid)
    time.sleep(1)  # both are in the middle of a game
    proc.kill()  # kill -9: no handler runs, the workers are told nothing
    proc.wait()
    wait_for(lambda: not any(alive(p) for p in workers), 3, f"the workers {workers} to end with the arena")
    assert not session_members(proc.pid)
