"""Processes and signals under fire: the text mode stopped while its bot thinks, the arenas without
semaphores, the text mode and the arenas under a memory limit too low to play, and a stopped bot
worker left behind by a killed game. The real program runs in a subprocess of its own session."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest

from cribtiles.rules import new_game
from cribtiles.table.saves import load_table

from .conftest import log_text, start
from .test_text_and_arena import Collected, resumes, stopped_within


def expert_starts_seed() -> int:
    """A seed whose game the bot (seat 1) starts, so that it thinks as soon as the game begins."""
    return next(s for s in range(1, 100) if new_game(2, seed=s, names=("You", "Expert")).starter == 1)


# --- the text mode stopped while its bot thinks ---


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_while_the_bot_thinks_stop_the_text_mode_at_once(
    data: Path, reaper: list[subprocess.Popen[str]], sig: signal.Signals
) -> None:
    """Expert thinks 1.5 s over its first move, in the text mode's own thread: the signal comes in the
    middle of its search, which must not take it for a failure of its own and play on."""
    proc = start(
        ["--text", "--players", "You,expert", "--seed", str(expert_starts_seed())], data, stdin=subprocess.PIPE
    )
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
