"""The bot worker: a move from a thread or a process, and every way it can fail while the game goes on."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time

import pytest

from cribtiles import background
from cribtiles.bot import worker as worker_module
from cribtiles.bot.worker import BotWorker, hang_limit
from cribtiles.rules import new_game
from cribtiles.rules.game import GameState
from cribtiles.rules.moves import Move, Pass, Play
from tests.test_background import gone

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to see the process end")


def bot_to_move() -> GameState:
    return new_game(2, seed=3, names=("You", "Expert"))


def wait_for_move(worker: BotWorker, seconds: float = 60) -> Move:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        move = worker.result()
        if move is not None:
            return move
        time.sleep(0.01)
    raise AssertionError(f"no move within {seconds} s")


def test_a_move_is_abandoned_at_three_times_its_budget_and_five_seconds() -> None:
    assert hang_limit("expert", 2.0) == 11.0
    assert hang_limit("expert", None) == 9.5  # Expert's default budget, 1.5 s
    assert hang_limit("hard", None) == 8.0


@pytest.mark.parametrize("use_process", [False, True])
def test_the_worker_returns_a_legal_move(use_process: bool) -> None:
    state = bot_to_move()
    worker = BotWorker(use_process=use_process)
    try:
        worker.start("medium", state.view(state.current), seed=1)
        move = wait_for_move(worker)
        assert isinstance(move, Play) and move in state.legal_plays()
        assert not worker.busy and worker.incidents == []
    finally:
        worker.close()


def test_a_cancelled_move_is_forgotten() -> None:
    state = bot_to_move()
    worker = BotWorker(use_process=False)
    worker.start("medium", state.view(state.current), seed=1)
    worker.cancel()
    assert worker.result() is None and not worker.busy


@linux_only
def test_a_stopped_worker_process_is_abandoned_replaced_and_told() -> None:
    state = bot_to_move()
    now = [100.0]  # the worker's clock, moved by hand: silence is timed on it, not on a busy machine's
    worker = BotWorker(use_process=True, clock=lambda: now[0], limit=lambda level, budget: 1.0)
    try:
        worker.warm_up()
        pid = worker.pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)  # hung: it will never answer
        worker.start("expert", state.view(state.current), seed=1, budget=0.2)
        for _ in range(5):  # however long the machine takes, silence within the limit is waited for
            now[0] = 101.0
            assert worker.result() is None and worker.busy and not worker.incidents
            time.sleep(0.02)
        now[0] = 101.25  # a quarter of a second past the limit of silence
        move = wait_for_move(worker, 20)
        assert move in state.legal_plays()  # the best-scoring move, played instead
        assert worker.incidents == [
            "The Expert bot took far too long to think (1 s); it played the best-scoring move instead."
        ]
        assert gone(pid)  # killed, stopped as it was
        worker.start("medium", state.view(state.current), seed=2)  # and a fresh one takes the next move
        assert wait_for_move(worker) in state.legal_plays()
        assert worker.pid not in (None, pid)
    finally:
        worker.close()


@linux_only
def test_a_killed_worker_process_is_replaced_and_told() -> None:
    state = bot_to_move()
    worker = BotWorker(use_process=True)
    try:
        worker.start("expert", state.view(state.current), seed=1, budget=5.0)
        pid = worker.pid
        assert pid is not None
        time.sleep(0.3)
        os.kill(pid, signal.SIGKILL)
        move = wait_for_move(worker, 10)
        assert move in state.legal_plays()
        assert worker.incidents == [
            "The Expert bot lost its thinking process, which was ended by SIGKILL;"
            " it played the best-scoring move instead."
        ]
    finally:
        worker.close()


def test_no_processes_here_means_a_thread_and_a_word_to_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only_shm(name: str, nice: int) -> background.Child:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(background, "spawn", read_only_shm)
    state = bot_to_move()
    # no time limit here: Hard on the pure-Python core, in a thread on a busy machine, may take 8 s
    worker = BotWorker(limit=lambda level, budget: 600.0)
    try:
        worker.warm_up()  # the game starting against Expert: no crash
        worker.start("hard", state.view(state.current), seed=1)
        assert worker.pid is None
        assert wait_for_move(worker) in state.legal_plays()
        assert len(worker.incidents) == 1 and "could not get a process of their own" in worker.incidents[0]
        worker.start("hard", state.view(state.current), seed=1)  # no second attempt, no second message
        wait_for_move(worker)
        assert len(worker.incidents) == 1
    finally:
        worker.close()


def test_a_hung_thread_is_abandoned(monkeypatch: pytest.MonkeyPatch) -> None:
    never = threading.Event()

    def stuck(*args: object) -> tuple[Move, str]:
        never.wait(30)
        return Pass(), ""

    monkeypatch.setattr(worker_module, "answer_of", stuck)
    state = bot_to_move()
    worker = BotWorker(use_process=False, limit=lambda level, budget: 0.3)
    try:
        worker.start("medium", state.view(state.current), seed=1)
        assert wait_for_move(worker, 5) in state.legal_plays()
        assert "took far too long" in worker.incidents[0]
    finally:
        never.set()
        worker.close()


@linux_only
def test_closing_never_waits_for_a_stopped_worker() -> None:
    state = bot_to_move()
    worker = BotWorker(use_process=True)
    worker.start("expert", state.view(state.current), seed=1)
    pid = worker.pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    started = time.monotonic()
    worker.close()
    assert time.monotonic() - started < 1.5
    assert gone(pid)


class _FailingBot:
    name = "hard"

    def choose(self, view: object, rng: object, budget: float | None = None) -> Move:
        raise ZeroDivisionError("a bug in the bot")


class _InlineProcess:
    """A worker process that answers at once, in this process (so that make_bot can be replaced)."""

    pid = None

    def __init__(self, name: str, nice: int) -> None:
        self.answers: list[object] = []

    def send(self, call: background._Call) -> None:
        self.answers.append(background.outcome(call, lambda done, total: None))

    def ready(self) -> bool:
        return bool(self.answers)

    def receive(self) -> object:
        return self.answers.pop(0)

    def alive(self) -> bool:
        return True

    def kill(self) -> None:
        pass


def test_a_bots_exception_in_its_process_reaches_the_games_log_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(worker_module, "make_bot", lambda level, budget: _FailingBot())
    monkeypatch.setattr(background, "spawn", _InlineProcess)
    # the game's log setup (run by other tests) stops `cribtiles` records at its own handler
    monkeypatch.setattr(logging.getLogger("cribtiles"), "propagate", True)
    state = bot_to_move()
    worker = BotWorker(use_process=True)
    try:
        worker.start("hard", state.view(state.current), seed=1)
        with caplog.at_level("ERROR", logger="cribtiles.bot.worker"):
            move = wait_for_move(worker, 5)
    finally:
        worker.close()
    assert move in state.legal_actions()  # the greedy move instead
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "the hard bot failed; it plays the greedy move instead" in logged
    assert "Traceback" in logged and "ZeroDivisionError: a bug in the bot" in logged


class _MemoryHungryBot:
    name = "hard"

    def choose(self, view: object, rng: object, budget: float | None = None) -> Move:
        return bytearray(2**40)  # type: ignore[return-value]  # refused at once: a real MemoryError


def test_a_thread_that_runs_out_of_memory_plays_the_best_scoring_move_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Out of memory is no bot failure (choose_safely lets it through), but a thread must not die
    of it with a traceback on the terminal: the window plays the best-scoring move and says so."""
    monkeypatch.setattr(worker_module, "make_bot", lambda level, budget=None: _MemoryHungryBot())
    died: list[object] = []
    monkeypatch.setattr(threading, "excepthook", died.append)  # what would print the traceback
    state = bot_to_move()
    worker = BotWorker(use_process=False)
    try:
        worker.start("hard", state.view(state.current), seed=1)
        assert isinstance(wait_for_move(worker), Play)
        assert worker.incidents == ["The Hard bot failed while thinking; it played the best-scoring move instead."]
    finally:
        worker.close()
    assert died == [] and "Traceback" not in capsys.readouterr().err
