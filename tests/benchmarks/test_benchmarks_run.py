"""Every benchmark runs once at a tiny size, so that none rots unseen (two had: issue 45): each is run as
a subprocess with its smallest options and must exit 0 and print its JSON line last. The figures are the
benchmark's to tell, not a test's to hold; where a benchmark has a built-in check (a candidate compared
with itself differs nowhere), the check is held here."""

from __future__ import annotations

import doctest
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"

#: Each benchmark's smallest run (a few seconds at most).
TINY: dict[str, list[str]] = {
    "tiles/bench_bots": ["--levels", "easy,medium,hard", "--positions", "3"],
    "tiles/bench_endgame": ["--positions", "2"],
    "tiles/bench_late_game": ["--positions", "1", "--bag", "0", "--budget", "0.05", "--jobs", "1"],
    "tiles/bench_movegen": ["--positions", "2"],
    "tiles/bench_opens": ["--games", "1"],
    "tiles/bench_review": ["--players", "medium,easy", "--budget", "0.01"],
    "tiles/bench_rollouts": ["--guesses", "1", "--repeat", "1"],
    "tiles/bench_seer": ["--games", "2", "--budget", "0.02", "--bots", "seer,kept"],
    "tiles/bench_value_choice": ["--positions", "3", "--guesses", "2", "--candidates", "3"],
    "tiles/bench_value_fit": ["--games", "2"],
    "tiles/bench_value_speed": ["--games", "1", "--repeat", "1"],
    "cribbage/bench_advisor": ["--deals", "5", "--games", "1"],
    "cribbage/bench_bots": ["--games", "1"],
    "cribbage/bench_end": ["hard", "--positions", "1", "--within", "20"],
    "cribbage/bench_mid": ["hard", "--deals", "2", "--jobs", "1"],
    "cribbage/bench_predict": ["--deals", "2"],
    "cribbage/bench_review": ["--games", "1", "--guesses", "2"],
    "cribbage/bench_seer": ["--games", "2", "--bots", "hands,seer"],
    "ui/bench_frames": ["--frames", "30", "--starts", "1", "--think", "3"],
    "ui/bench_cribbage_frames": ["--frames", "60"],
    "ui/bench_dirty_frames": ["--frames", "10"],
    "ui/bench_review_window": ["--budget", "0.01"],
}

#: Benchmarks not run here, and why.
ELSEWHERE: dict[str, str] = {
    "ui/bench_frozen_start": "times a built program (PyInstaller's bundle or the installed .deb): CI runs it on "
    "the installed copy after building the installers (.ci/run)",
    "server/bench_server": "runs at its tiny size in tests/server/test_benchmark.py, which reads its every figure",
}


def benchmark_names() -> set[str]:
    return {p.relative_to(BENCHMARKS).with_suffix("").as_posix() for p in BENCHMARKS.glob("*/bench_*.py")}


def harness() -> Any:
    spec = importlib.util.spec_from_file_location("harness", BENCHMARKS / "harness.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(name: str) -> dict[str, Any]:
    """Run benchmark `name` at its tiny size on this tree; its JSON line."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    script = BENCHMARKS / f"{name}.py"
    done = subprocess.run(
        [sys.executable, str(script), *TINY[name]],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=script.parent,
        env=env,
        check=False,
    )
    assert done.returncode == 0, f"{name} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    line: dict[str, Any] = harness().last_json(done.stdout)
    return line


def test_every_benchmark_is_run_here_or_says_where() -> None:
    assert benchmark_names() == set(TINY) | set(ELSEWHERE)
    assert not set(TINY) & set(ELSEWHERE)


def test_the_harness_examples_hold() -> None:
    failed, tried = doctest.testmod(harness())
    assert (failed, tried) == (0, 3)


def differs_nowhere(line: dict[str, Any]) -> None:
    # a candidate as its own base: every decision's generator is derived from the deal, the player and the
    # moves before, so both copies of a deal are the same and every paired difference is exactly 0
    assert line["differ"] == 0
    for figure in ("net_per_deal", "games_won", "spread"):
        if figure in line:
            assert line[figure] == {"mean": 0.0, "se": 0.0, "ci95": 0.0}, figure


def features_agree(line: dict[str, Any]) -> None:
    # the compiled core's features are the plain-Python reference's to the bit, on every position
    assert line["features_agree"] == [line["positions"], line["positions"]]


def review_window_finished(line: dict[str, Any]) -> None:
    # the review came back while the window drew, one reviewed turn for every turn of the game
    assert line["turns"] == line["game_turns"]


def seers_played(line: dict[str, Any]) -> None:
    # every candidate played its pair of games against Hard without a failure (a seer whose truth was not the
    # game's would raise, and its moves be replaced)
    assert list(line["bots"]) in (["seer:0.02", "kept:0.02"], ["hands", "seer"])
    for figures in line["bots"].values():
        assert figures["games"] == 2 and figures["failures"] == 0
        assert sum(figures["pairs"].values()) == 1


#: The benchmarks' own checks, held on their tiny runs.
CHECKS = {
    "cribbage/bench_mid": differs_nowhere,
    "cribbage/bench_end": differs_nowhere,
    "tiles/bench_value_speed": features_agree,
    "tiles/bench_seer": seers_played,
    "cribbage/bench_seer": seers_played,
    "ui/bench_review_window": review_window_finished,
}


@pytest.mark.parametrize("name", sorted(TINY))
def test_the_benchmark_runs_at_a_tiny_size_and_prints_its_json_line(name: str) -> None:
    line = run(name)
    assert line["benchmark"] == name
    assert line["cpus"] == os.cpu_count()
    CHECKS.get(name, lambda _: None)(line)
