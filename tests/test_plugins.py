"""A game is a plugin (issue 45): no layer outside a game's own package (and the registry,
`cribtiles/games.py`) chooses its code by comparing a game's name, `== "tiles"` or `is Game.CRIBBAGE`; it
asks the game, through the registry's parts. The places that still do are listed here with their count,
to go one by one: a new one fails, and so does one fixed but still listed (the list only shrinks)."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "cribtiles"

#: A comparison of a game's name: a literal name, or the history's `Game` member.
COMPARED = re.compile(
    r"""(==|!=)\s*["'](tiles|cribbage)["']|["'](tiles|cribbage)["']\s*(==|!=)"""
    r"""|(==|!=|\bis\b(\s+not\b)?)\s*Game\.(TILES|CRIBBAGE)\b|\bGame\.(TILES|CRIBBAGE)\s*(==|!=|\bis\b)"""
)

#: Those still to go, with their count: none since the history and the Create screen ask the games too (the
#: ratchet now forbids any).
STILL: dict[str, int] = {}


def a_games_own(path: Path) -> bool:
    """A file of one game's own: in a package named for it (`ui/cribbage/`, `table/tiles/`), or named for
    it (`server/cribbage_room.py`, `online/cribbage_remote.py`), or the registry itself."""
    parts = path.relative_to(PACKAGE).parts
    return (
        path.name == "games.py"
        or any(p in ("tiles", "cribbage", "rules") for p in parts[:-1])
        or any(word in path.stem for word in ("tiles", "cribbage"))
    )


def compared() -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if a_games_own(path):
            continue
        n = len(COMPARED.findall(path.read_text(encoding="utf-8")))
        if n:
            found[path.relative_to(PACKAGE).as_posix()] = n
    return found


def test_no_layer_compares_a_games_name_beyond_those_still_listed() -> None:
    found = compared()
    new = {f: n for f, n in found.items() if n > STILL.get(f, 0)}
    assert not new, f"a game's name compared outside its own package (ask the registry's parts instead): {new}"
    fixed = {f: n for f, n in STILL.items() if found.get(f, 0) < n}
    assert not fixed, f"fewer comparisons than listed (take them off STILL): {fixed}"


def test_the_check_finds_a_comparison_of_each_kind() -> None:
    for line in ('if game == "cribbage":', "if 'tiles' != kind:", "if g.game is Game.TILES:", "x is not Game.CRIBBAGE"):
        assert COMPARED.search(line), line
    assert not COMPARED.search('TABS = (("tiles", "Kings Cribbage"),)')
