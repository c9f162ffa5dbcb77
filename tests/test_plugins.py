"""A game is a plugin (issue 45): no layer outside a game's own package (and the registry,
`cribtiles/games.py`) chooses its code by comparing a game's name, `== "tiles"` or `is Game.CRIBBAGE`; it
asks the game, through the registry's parts. The places that still do are listed here with their count,
to go one by one: a new one fails, and so does one fixed but still listed (the list only shrinks)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

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


# --- the window is game-neutral (issue 45): it holds the scene stack and a session, and asks the registry ---

WINDOW = PACKAGE / "ui" / "window.py"
#: Besides the window, what holds its own game only as the registry's part made it.
NEUTRAL_SCREENS = (
    PACKAGE / "ui" / "home_game.py",
    PACKAGE / "ui" / "menus.py",
    PACKAGE / "ui" / "online" / "side.py",
    PACKAGE / "ui" / "rules_scene.py",
)
#: Module names (absolute, within `cribtiles`) that are one game's own: its engine, or a package named for it.
ONE_GAMES = re.compile(
    r"^cribtiles\.(rules|cribbage)(\.|$)"  # an engine
    r"|^cribtiles\.\w+\.(tiles|cribbage)(\.|$)"  # a layer's package of one game
)


def imports_in(source: str, path: Path) -> set[str]:
    """Every module `source`, the text of the file at `path`, imports, by its absolute name: at its top,
    type-only and inside functions alike (`from . import tiles` names the module `tiles` too)."""
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return found


def one_games(source: str, path: Path = WINDOW) -> set[str]:
    """The modules of one game's own that `source`, read as the file at `path`'s (the window's unless
    told), imports (a name imported from such a module is not told apart: its module is)."""
    found = {name for name in imports_in(source, path) if ONE_GAMES.search(name)}
    return {name for name in found if name.rpartition(".")[0] not in found}


@pytest.mark.parametrize("path", [WINDOW, *NEUTRAL_SCREENS], ids=lambda p: p.name)
def test_the_window_and_its_own_games_screens_import_no_games_own_module(path: Path) -> None:
    """The window, the protocols of its own game and the online side hold the game at the table only as the
    registry's part (`HOME`) made it: not even a type of one game."""
    found = one_games(path.read_text(encoding="utf-8"), path)
    assert not found, f"{path.name} imports a game's own module (ask the registry's parts, HOME, instead): {found}"


def test_the_window_check_finds_an_import_of_each_kind() -> None:
    for line in (
        "from .tiles.game_scene import GameScene",
        "from .cribbage import setup",
        "from . import tiles",
        "from cribtiles.table.tiles.table import Table",
        "import cribtiles.table.cribbage.table",
        "from cribtiles.rules.tiles import Tile",
        "from cribtiles.rules import errors",
        "from cribtiles.cribbage.cards import Card",
        "from cribtiles.table.tiles.session import LocalSession",
        "from cribtiles.bot.tiles.levels import LEVELS",
    ):
        assert one_games(line), line
    for line in (
        "from cribtiles.games import HOME",
        "from .scene import Scene",
        "from cribtiles.table.again import NextTable",
        "from cribtiles.table.session import GameSession",
    ):
        assert not one_games(line), line
    # a relative import is read from the file's own package: two dots from ui/online/ is ui/
    side = PACKAGE / "ui" / "online" / "side.py"
    assert one_games("from ..tiles.end_scene import EndScene", side) == {"cribtiles.ui.tiles.end_scene"}
    assert not one_games("from ..home_game import OwnGame", side)


# --- the replay and review commands are game-neutral (issue 45): each game's own is its `REVIEW_RUN`, `TOLD` ---

#: The commands that take either game's file, and ask its game for what differs.
NEUTRAL_COMMANDS = (PACKAGE / "app" / "replay_cli.py", PACKAGE / "app" / "review_cli.py")


@pytest.mark.parametrize("path", NEUTRAL_COMMANDS, ids=lambda p: p.name)
def test_the_replay_and_review_commands_import_no_games_own_module(path: Path) -> None:
    found = one_games(path.read_text(encoding="utf-8"), path)
    assert not found, f"app/{path.name} imports a game's own module (ask the registry's parts instead): {found}"


def test_the_commands_check_reads_their_relative_imports_from_the_app_package() -> None:
    replay_cli = NEUTRAL_COMMANDS[0]
    for line in (
        "from .tiles.review_cli import review_run",
        "from .cribbage import review_cli",
        "from cribtiles.table.cribbage.replay import replay_words",
        "from cribtiles.rules.errors import RecordError",
    ):
        assert one_games(line, replay_cli), line
    for line in ("from .files import shown_path", "from cribtiles.table.saves import load_saved"):
        assert not one_games(line, replay_cli), line


# --- the online seat bot is game-neutral (issue 45): each game's own is its `SEAT_BOT` part ---

BOT_CLIENT = PACKAGE / "online" / "botclient.py"


def named_for_a_game(module: str) -> bool:
    """`module` is one game's own by its name within the package (`online.tiles_seat`,
    `server.cribbage_room`) or a module of its own (`ONE_GAMES`)."""
    inner = module.split(".")[1:]  # past `cribtiles`, which names no game
    return bool(ONE_GAMES.search(module)) or any(w in part for part in inner for w in ("tiles", "cribbage"))


def test_the_bot_client_imports_no_games_own_module() -> None:
    found = {m for m in imports_in(BOT_CLIENT.read_text(encoding="utf-8"), BOT_CLIENT) if named_for_a_game(m)}
    assert not found, f"online/botclient.py imports a game's own code (its SeatPlay belongs to the game): {found}"


def test_the_bot_client_check_finds_an_import_of_each_kind() -> None:
    for line in (
        "from .tiles_seat import TILE_PLAY",
        "from cribtiles.online.cribbage_seat import bot_move",
        "from cribtiles.rules.moves import format_move",
        "from cribtiles.bot.tiles.levels import make_bot",
    ):
        assert any(named_for_a_game(m) for m in imports_in(line, BOT_CLIENT)), line
    for line in ("from cribtiles.games import SEAT_BOT", "from .client import Link"):
        assert not any(named_for_a_game(m) for m in imports_in(line, BOT_CLIENT)), line
