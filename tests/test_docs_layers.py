"""The picture of the layers in docs/architecture.md is the code's: every package and top-level module of
`cribtiles` is drawn in it, and each imports only those drawn below it (never one beside it or above it),
counting every import, type-only and inside functions too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cribtiles"
NOT_LAYERS = {"__init__", "__main__"}  # the package itself, and `python -m cribtiles`, which only calls app


def picture() -> dict[str, int]:
    """Each layer drawn under "## The layers", by its row in the drawing (0 at the top)."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("\n## The layers\n", 1)[1]
    drawing = re.search(r"```\n(.*?)```", section, re.DOTALL)
    assert drawing is not None, "no drawing under ## The layers"
    rows: dict[str, int] = {}
    for row, line in enumerate(drawing[1].splitlines()):
        for name in re.findall(r"[A-Za-z_][\w.]*", line):
            rows[name.removesuffix(".py")] = row
    return rows


def layers() -> set[str]:
    """The top-level parts of the package: its subpackages and its modules."""
    parts = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    return parts | {p.stem for p in PACKAGE.glob("*.py")} - NOT_LAYERS


def imports() -> set[tuple[str, str]]:
    """(importer, imported) for every import from one top-level part of the package into another."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        here = parts[1] if len(parts) > 1 else parts[0]
        package = parts[:-1]  # a module's package; an __init__'s parts end in "__init__", so its own
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = list(package[: len(package) - node.level + 1]) if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                names = [module] + [f"{module}.{a.name}" for a in node.names]
            for name in names:
                bits = name.split(".")
                if bits[0] == "cribtiles" and len(bits) > 1 and bits[1] in layers() and bits[1] != here:
                    found.add((here, bits[1]))
    return found - {(a, b) for a, b in found if a in NOT_LAYERS}


def test_every_layer_is_drawn() -> None:
    missing = layers() - picture().keys()
    assert not missing, f"docs/architecture.md's picture of the layers leaves out {sorted(missing)}"


def test_each_layer_imports_only_those_drawn_below_it() -> None:
    rows = picture()
    wrong = sorted(f"{a} imports {b}" for a, b in imports() if a in rows and b in rows and rows[a] >= rows[b])
    assert not wrong, "against the picture in docs/architecture.md: " + "; ".join(wrong)


def test_the_check_sees_the_imports_it_should() -> None:
    """The reading of imports is not vacuous: edges known from the code are among those found."""
    found = imports()
    assert {("app", "ui"), ("ui", "table"), ("server", "online"), ("rules", "counting"), ("table", "bot")} <= found
    assert ("rules", "cribbage") not in found and ("cribbage", "rules") not in found
