"""Tests that cribtiles.rules imports nothing outside the standard library (no pygame, no other layers)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Runs in a fresh interpreter. Modules loaded at start-up (site hooks, .pth files) are not counted: only
# what the import (and a little use) brings in.
PROBE = """
import json, sys
before = set(sys.modules)
{code}
print(json.dumps(sorted(set(sys.modules) - before)))
"""

USE_THE_RULES = """
import cribtiles.rules as rules
rules.legal_plays(rules.Board.empty(), rules.parse_rack("5D TL"))
rules.score_play(rules.Board.empty(), rules.parse_move("f7=5D g7=TD"))
rules.Board.from_text(rules.Board.empty().to_text())
"""


def modules_loaded_by(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def outside_the_standard_library(modules: list[str]) -> list[str]:
    return sorted({m.split(".")[0] for m in modules} - set(sys.stdlib_module_names) - {"cribtiles"})


def test_rules_import_only_the_standard_library() -> None:
    loaded = modules_loaded_by(USE_THE_RULES)
    assert "cribtiles.rules" in loaded
    assert outside_the_standard_library(loaded) == []


def test_rules_import_no_other_layer_of_the_app() -> None:
    """Beneath the rules lie only what both games share (counting, quoting, names); never classic cribbage or a
    layer above."""
    loaded = modules_loaded_by(USE_THE_RULES)
    ours = [m for m in loaded if m.split(".")[0] == "cribtiles"]
    allowed = ("cribtiles.rules", "cribtiles.counting", "cribtiles.quoting", "cribtiles.names")
    assert [m for m in ours if m != "cribtiles" and not m.startswith(allowed)] == []


def test_the_probe_sees_a_third_party_import() -> None:
    """The check above can fail: a module from outside the standard library is reported."""
    assert "hypothesis" in outside_the_standard_library(modules_loaded_by("import hypothesis"))


def _rules_imports() -> dict[str, set[str]]:
    """Which modules of cribtiles.rules each one imports (relative imports, type-only ones included)."""
    package = ROOT / "cribtiles" / "rules"
    names = {f.stem for f in package.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for f in package.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                targets = [node.module] if node.module else [a.name for a in node.names]
                found.update(t.split(".")[0] for t in targets if t.split(".")[0] in names)
        graph[f.stem] = found - {f.stem, "__init__"}
    return graph


def test_no_module_of_the_rules_imports_one_that_imports_it_back() -> None:
    graph = _rules_imports()
    assert graph["errors"] == {"squares"} and graph["squares"] == set()

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph[start])

    assert [m for m in sorted(graph) if m != "__init__" and reaches(m, m, set())] == []
