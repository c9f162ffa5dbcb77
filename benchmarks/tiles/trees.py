"""Another commit's `cribtiles` beside this tree's, for the benchmarks that compare two trees."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def old_tree(rev: str, into: Path, who: str) -> str:
    """`rev`'s cribtiles in `into`, its compiled core built if it can be; which core it has, in words.
    `who` names the benchmark in the message of a failed `git archive`."""
    archive = subprocess.run(
        ["git", "archive", rev, "cribtiles", "setup.py", "pyproject.toml", "README.md"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise SystemExit(f"{who}: git archive {rev} failed: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    if shutil.which("cc") or shutil.which("gcc"):
        built = subprocess.run(
            [sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into, capture_output=True, check=False
        )
        if built.returncode == 0 and list((into / "cribtiles" / "rules").glob("_movegen*")):
            return "its compiled core"
    return "no compiled core"
