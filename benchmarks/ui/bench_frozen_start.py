"""Start of the frozen program to its first frame: `python benchmarks/ui/bench_frozen_start.py [PROGRAM]`.

Runs the built program (default dist/cribtiles/cribtiles, or an installed /usr/games/cribtiles) with
CRIBTILES_EXIT_AT_FIRST_FRAME=1 (see build/launcher.py): it opens the window on a new game, draws one
frame, prints `first frame` and exits. The time is from starting the process to reading that line, so
the bootloader, Python's start and every import count. Headless (SDL's dummy driver) by default; with
`--x` it uses the X display in $DISPLAY. Target from the issue: <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

ROOT = harness.ROOT
DEFAULT = ROOT / "dist" / "cribtiles" / ("cribtiles.exe" if sys.platform == "win32" else "cribtiles")


def start_time(program: str, env: dict[str, str]) -> float:
    with tempfile.TemporaryDirectory(prefix="cribtiles-bench-") as data:
        t0 = time.perf_counter()
        p = subprocess.Popen(
            [program, "--data-dir", data, "--seed", "1", "--size", "1280x800"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert p.stdout is not None
        for line in p.stdout:
            if line.strip() == "first frame":
                elapsed = time.perf_counter() - t0
                break
        else:
            raise SystemExit(f"{program} exited ({p.wait()}) without drawing a frame")
        p.wait()
        return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("program", nargs="?", default=str(DEFAULT))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--x", action="store_true", help="use the X display in $DISPLAY instead of the dummy driver")
    args = ap.parse_args()
    env = dict(os.environ, CRIBTILES_EXIT_AT_FIRST_FRAME="1", SDL_AUDIODRIVER="dummy")
    if args.x:
        env.pop("SDL_VIDEODRIVER", None)
    else:
        env["SDL_VIDEODRIVER"] = "dummy"
    start_time(args.program, env)  # the first run reads the files from disk; the rest from the cache
    runs = sorted(start_time(args.program, env) for _ in range(args.runs))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"bench_frozen_start: {args.program}, driver {'x11' if args.x else 'dummy'}, {os.cpu_count()} CPUs, "
        f"load average {load:.1f}\n"
        f"  start to first frame: best {runs[0]:.2f} s, median {runs[len(runs) // 2]:.2f} s, "
        f"worst {runs[-1]:.2f} s of {len(runs)} (target <= 1 s)"
    )
    harness.report(
        __file__,
        program=args.program,
        driver="x11" if args.x else "dummy",
        start_seconds=harness.summary(runs),
        target_met=runs[-1] <= 1.0,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
