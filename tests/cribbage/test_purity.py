"""Tests that cribtiles.cribbage imports nothing outside the standard library and, of this program, only
itself and the tile game's rules (for the shared hand scorer): no pygame, no bots, table, window or app."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.rules.test_purity import modules_loaded_by, outside_the_standard_library

PACKAGE = Path(__file__).resolve().parents[2] / "cribtiles" / "cribbage"

USE_THE_ENGINE = """
import random
import cribtiles.cribbage as cribbage
state = cribbage.new_game(3)
rng = random.Random(3)
for _ in range(60):
    state = state.apply(rng.choice(state.legal_actions()))
state.view(0)
cribbage.replay(state.record())
cribbage.describe_show(cribbage.score_show(cribbage.parse_cards("5H 5D 5S JC"), cribbage.parse_card("5C")))
cribbage.peg_points(cribbage.parse_cards("4H 7D 4S"))
"""


def test_the_engine_imports_only_the_standard_library() -> None:
    loaded = modules_loaded_by(USE_THE_ENGINE)
    assert "cribtiles.cribbage.game" in loaded
    assert outside_the_standard_library(loaded) == []


def test_the_engine_imports_neither_the_tile_game_nor_a_layer_above() -> None:
    loaded = modules_loaded_by(USE_THE_ENGINE)
    ours = {m for m in loaded if m.split(".")[0] == "cribtiles"}
    allowed = ("cribtiles.cribbage", "cribtiles.counting", "cribtiles.quoting", "cribtiles.names")
    assert sorted(m for m in ours if m != "cribtiles" and not m.startswith(allowed)) == []
    assert "cribtiles.counting" in ours  # the counting both games share, not a second one


def test_no_module_of_the_engine_imports_one_that_imports_it_back() -> None:
    names = {f.stem for f in PACKAGE.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for f in PACKAGE.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                targets = [node.module] if node.module else [a.name for a in node.names]
                found.update(t.split(".")[0] for t in targets if t.split(".")[0] in names)
        graph[f.stem] = found - {f.stem, "__init__"}
    assert graph["cards"] == set() and graph["game"] >= {"cards", "show", "peg", "view"}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph[start])

    assert [m for m in sorted(graph) if m != "__init__" and reaches(m, m, set())] == []
