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

#: A comparison of a game's name: a literal name, the history's `Game` member, or a game's class's own
#: (`CribbageTable.game`).
COMPARED = re.compile(
    r"""(==|!=)\s*["'](tiles|cribbage)["']|["'](tiles|cribbage)["']\s*(==|!=)"""
    r"""|(==|!=|\bis\b(\s+not\b)?)\s*Game\.(TILES|CRIBBAGE)\b|\bGame\.(TILES|CRIBBAGE)\s*(==|!=|\bis\b)"""
    r"""|(==|!=)\s*[A-Z]\w*\.game\b|\b[A-Z]\w*\.game\s*(==|!=)"""
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
    for line in (
        'if game == "cribbage":',
        "if 'tiles' != kind:",
        "if g.game is Game.TILES:",
        "x is not Game.CRIBBAGE",
        'if data.get("game") == CribbageTable.game:',
        "if Table.game != name:",
    ):
        assert COMPARED.search(line), line
    assert not COMPARED.search('TABS = (("tiles", "Kings Cribbage"),)')
    assert not COMPARED.search("if table.game == other.game:")


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


# --- the data folder's keepers are game-neutral (issue 45): each game's own is its `KEPT` part ---

#: The keepers of both games' saves and history: the app's store, and the window's in memory.
KEEPERS = (PACKAGE / "app" / "storage.py", PACKAGE / "ui" / "config.py")


def game_of(module: str) -> str | None:
    """Whose own `module` is (absolute, within `cribtiles`): "tiles" for the tile game's engine (`rules`) or
    a package of it, "cribbage" for cribbage's, None for a module of every game's."""
    if not ONE_GAMES.search(module):
        return None
    return "cribbage" if "cribbage" in module.split(".") else "tiles"


#: The names of a table of any game: a verb taking one takes either game's, as a union of both games' own.
ANY_GAMES_TABLE = {("cribtiles.table.saves", "SavedTable"), ("cribtiles.table.core", "GameTable")}


def games_named(source: str, path: Path) -> dict[str, str]:
    """The names in `source` (the text of the file at `path`) that stand for one game's own: each name imported
    from a module of that game's, and each alias made at the module's top of such names (`AnyTable`), with the
    game it is of ("cribbage" beside the alias's other games: an alias of both is of "both", as is a table
    of any game, `ANY_GAMES_TABLE`)."""
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    tree = ast.parse(source)
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            game = game_of(module)
            if game is not None:
                names.update((a.asname or a.name, game) for a in node.names)
            names.update((a.asname or a.name, "both") for a in node.names if (module, a.name) in ANY_GAMES_TABLE)
    for node in tree.body:
        target = (
            node.target
            if isinstance(node, ast.AnnAssign)
            else node.targets[0]
            if isinstance(node, ast.Assign)
            else None
        )
        value = node.value if isinstance(node, (ast.AnnAssign, ast.Assign)) else None
        if isinstance(target, ast.Name) and value is not None:
            games = {names[n.id] for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in names}
            if games:
                names[target.id] = games.pop() if len(games) == 1 else "both"
    return names


def told_apart_by_type(source: str, path: Path) -> dict[str, list[str]]:
    """The functions in `source` that take a game of either game (an argument whose type names both games'
    own types), each with the types it tests its arguments against (`isinstance(table, CribbageTable)`):
    a game's own verbs (`save_game`, for the tile game's table, match or bare game) may test their own types;
    a verb of either game asks the game (`kept_by`)."""
    names = games_named(source, path)
    found: dict[str, list[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        for arg in args:
            games = {
                names[n.id] for n in ast.walk(arg.annotation or ast.Pass()) if isinstance(n, ast.Name) and n.id in names
            }
            if len(games) > 1 or "both" in games:
                break
        else:
            continue
        found[node.name] = [
            ast.unparse(call.args[1])
            for call in ast.walk(node)
            if isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in ("isinstance", "issubclass")
            and len(call.args) == 2
            and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(call.args[1]))
        ]
    return found


@pytest.mark.parametrize("path", KEEPERS, ids=lambda p: p.name)
def test_the_keepers_verbs_of_either_game_ask_the_game_not_its_type(path: Path) -> None:
    """`save`, `record` and `export_game` take either game's table (or finished game) and ask its `KEPT`
    part which of the keeper's own verbs keeps it, and the name of its exported records."""
    verbs = told_apart_by_type(path.read_text(encoding="utf-8"), path)
    assert {"save", "record", "export_game"} <= set(verbs), f"the check no longer finds the keeper's verbs: {verbs}"
    typed = {verb: types for verb, types in verbs.items() if types}
    assert not typed, f"{path.name} tells the games apart by type (ask the game's KEPT part instead): {typed}"


def test_the_keepers_check_finds_a_verb_telling_the_games_apart_by_type() -> None:
    storage = KEEPERS[0]
    source = """
from cribtiles.table.cribbage.session import FinishedCribbage
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.tiles.table import Table
from cribtiles.rules.match import Match
AnyTable = Table | CribbageTable

class Store:
    def save(self, table: Table | CribbageTable) -> bool:
        return self.save_cribbage(table) if isinstance(table, CribbageTable) else self.save_game(table)

    def record(self, game: Table | FinishedCribbage) -> None:
        if isinstance(game, (FinishedCribbage,)):
            self.record_cribbage(game.state)

    def export_game(self, table: AnyTable) -> str:
        return "cribbage" if isinstance(table, Table) else "crib-tiles"

    def save_game(self, game: Table | Match) -> bool:
        return isinstance(game, Table)
"""
    assert told_apart_by_type(source, storage) == {
        "save": ["CribbageTable"],
        "record": ["(FinishedCribbage,)"],
        "export_game": ["Table"],
    }
    relative = "from ..table.tiles.table import Table\nfrom ..table.cribbage.table import CribbageTable\n"
    verb = "def save(table: Table | CribbageTable) -> bool:\n    return isinstance(table, Table)\n"
    assert told_apart_by_type(relative + verb, storage) == {"save": ["Table"]}
    assert told_apart_by_type(relative + verb.replace("isinstance(table, Table)", "kept_by(table)"), storage) == {
        "save": []
    }
