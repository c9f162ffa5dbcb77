"""What every benchmark shares: the tree it measures, seeded generators, the two clocks, percentiles, a
mean with its 95% confidence interval, and the one JSON line each benchmark prints last (its figures, for
a script or CI to read; the lines above it are for people). Standard library only, and never imports
`cribtiles`: the benchmarks that time another commit's tree choose which one is imported."""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"

#: The clocks a benchmark may time with: wall seconds (what a player waits), or this process's CPU
#: seconds (what the figure would be on an idle machine, whatever else runs on it).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}

# Student's t at 95% (two-sided) for 1..30 degrees of freedom; beyond, the normal's 1.96 is within 2%
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131)
_T95 += (2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)

T = TypeVar("T")


def this_tree_env() -> dict[str, str]:
    """The environment for a child interpreter that must import this tree's `cribtiles` (not an
    installed copy, nor the checkout a virtual environment was made from)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def rng(seed: int, *salt: object) -> random.Random:
    """A generator from `seed` and `salt` (a position's number, a repeat...), the same in every run and
    every process: seeded from a string, which `random` hashes with SHA-512, not with `hash`."""
    return random.Random("/".join(str(s) for s in (seed, *salt)))


def timed(fn: Callable[[], T], clock: str = "wall") -> tuple[T, float]:
    """`fn()` and the seconds it took on `clock` ("wall" or "cpu")."""
    tick = CLOCKS[clock]
    started = tick()
    result = fn()
    return result, tick() - started


def percentile(values: Iterable[float], q: float) -> float:
    """The nearest-rank percentile, `q` from 0 to 1 (0.95: the value that 95% of them do not exceed).

    >>> percentile([5, 1, 4, 2, 3], 0.5), percentile(range(1, 101), 0.95), percentile([7], 0.95)
    (3, 95, 7)
    """
    ordered = sorted(values)
    if not ordered:
        raise ValueError("the percentile of no values")
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (Student's t; 0 for a single value).

    >>> mean, half = mean_ci([1.0, 2.0, 3.0])
    >>> mean, round(half, 3)
    (2.0, 2.484)
    """
    n = len(values)
    if n == 0:
        raise ValueError("the mean of no values")
    mean = statistics.fmean(values)
    if n == 1:
        return mean, 0.0
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.96
    return mean, t * statistics.stdev(values) / math.sqrt(n)


def summary(values: Sequence[float], scale: float = 1.0) -> dict[str, float | int]:
    """The figures of a sample, each times `scale` (1000: seconds shown as milliseconds): n, mean and its
    95% interval's half-width, median, p95 and max."""
    mean, half = mean_ci(values)
    return {
        "n": len(values),
        "mean": mean * scale,
        "ci95": half * scale,
        "median": statistics.median(values) * scale,
        "p95": percentile(values, 0.95) * scale,
        "max": max(values) * scale,
    }


def load() -> float | None:
    """The machine's load average over the last minute (the figures depend on it), where there is one."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


def _plain(value: object) -> object:
    """`value` as JSON holds it: floats to six significant digits (a timing's noise is larger), NaN and
    infinities as null, tuples and sets as lists, anything else by its str."""
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        return float(f"{value:.6g}") if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return str(value)


def report(script: str, **figures: object) -> dict[str, object]:
    """Print the benchmark's JSON line, its last: {"benchmark": "ui/bench_frames", "load": ..., "cpus":
    ..., then `figures`}, named by `script` (the benchmark's `__file__`). Returns what it printed."""
    name = Path(script).resolve().relative_to(BENCHMARKS).with_suffix("").as_posix()
    line = _plain({"benchmark": name, "load": load(), "cpus": os.cpu_count(), **figures})
    print(json.dumps(line, allow_nan=False), flush=True)
    assert isinstance(line, dict)
    return line


def last_json(stdout: str) -> dict[str, object]:
    """The JSON line a benchmark printed last, read back (for tests and scripts)."""
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    if not lines:
        raise ValueError("the benchmark printed nothing")
    found = json.loads(lines[-1])
    if not isinstance(found, dict) or "benchmark" not in found:
        raise ValueError(f"the benchmark's last line is not its JSON line: {lines[-1]!r}")
    return found


if __name__ == "__main__":  # pragma: no cover
    sys.exit("harness.py is imported by the benchmarks; run one of them (benchmarks/*/bench_*.py)")
