"""The games Crib Tiles hosts, behind one protocol, and a registry of them by name.

Each engine stays pure and separate (`cribtiles.rules`: Kings Cribbage; `cribtiles.cribbage`: classic
cribbage). Their states answer the same verbs, in the spirit of OpenSpiel (`GameState`): who acts, the
legal actions, `apply` (a new state: states are immutable), whether it is over, the returns, and a
player's view (tests/test_games.py plays both through it). Each game is one `GameKind`, found by name in
`GAMES`. The seed is part of every start, so a seed and the actions reproduce a whole game in both.

This module sits above the two engines and beneath everything that hosts a game (bots, the table, the
arena, the network server): standard library only.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar

A = TypeVar("A")


class GameState(Protocol[A]):
    """One moment of a game, whose actions are `A`s: what both engines' states answer."""

    @property
    def seed(self) -> int: ...

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def players(self) -> int: ...

    @property
    def current_player(self) -> int | None:
        """Who acts now; None once the game is over."""
        ...

    def legal_actions(self) -> Sequence[A]:
        """Every action the player to act may take (none once the game is over)."""
        ...

    def apply(self, action: A, /) -> Self:
        """The state after the player to act takes `action`; the rules' own error if it is illegal."""
        ...

    @property
    def is_over(self) -> bool: ...

    def returns(self) -> tuple[float, ...]:
        """1 shared among the winners once the game is over; 0 for everyone before."""
        ...

    def view(self, player: int) -> object:
        """What `player` may see: never another player's hidden tiles or cards, nor what is still to come."""
        ...


#: The roles of a game's parts, one a layer above the engines: the server's game at a table
#: (`GameAtTable`, its rules checked, started and loaded), the client's session of a seat at a table
#: online, and the window's opening of that seat.
ROOM, REMOTE, SEATED = "room", "remote", "seated"
#: And below them, the engine's own words for a table's rules as a list of tables shows them: a function of
#: the `--rules` text to (the variant's words, each unusual rule's words).
RULE_WORDS = "rule words"
#: And the bot that plays a seat online from what the seat is sent (a `botclient.SeatPlay`).
SEAT_BOT = "seat bot"
#: And the arena's games of its bots against each other, made from the parsed command line.
ARENA = "arena"
#: And a game of the history rebuilt as its table, to be replayed or reviewed (from its `GameSummary`).
REBUILT = "rebuilt"
#: And the command line's: `cribtiles review`'s flags of its own (a function adding them to the command's
#: parser, their help saying whose they are), and its review of a table of it (a function of the table, the
#: parsed arguments and standard error to the run, whose result is the exit code; ValueError in words for
#: a flag, the command's `--rules` or a game it refuses); and, for a game that has one, `cribtiles replay
#: --text`'s telling of a table of it in words (a function of the table to the text).
REVIEW_FLAGS, REVIEW_RUN, TOLD = "review flags", "review run", "told"
#: And the history's reading of a finished game of it (a `GameSummary`): its bot levels, weakest first (the
#: order of its opponents), and how the game went for the people at the table (a `Result`, from the seats
#: of the winners and of the people).
LADDER, RESULT = "ladder", "result"
#: And its statistics, drawn from its games of a history (its part of `ledger.Stats`).
STATISTICS = "statistics"
#: And its details as rows of the history database and back, and how the history's messages name a game of it.
STORED = "stored"
#: And its reading of a save (`table/saves.py`): a function of the save's parsed JSON and its text to its
#: table, None for a save in none of its formats (the one format naming it, its formats of before).
SAVED = "saved"
#: And how the data folder keeps a game of it (a `table.keeping.Kept`): the stem its exported records are
#: named with, and which of the keeper's own verbs saves its table and adds it, finished, to the history.
KEPT = "kept"
#: And the window's: a game's row on the History screen, its page of the Statistics screen, and its rows of
#: the online Create screen (made with a function that lays the screen's rows out again).
HISTORY_ROW, STATISTICS_PAGE, CREATE_FORM = "history row", "statistics page", "create form"
#: And the window's Rules screen: the game's rule book (a `ui.rules_parts.RuleBook`: its pages, and how each
#: of its examples is laid out and drawn on a page).
RULE_BOOK = "rule book"
#: And more of the window's: the title's way into a game (a function of the window to the title's
#: `Item`), and the scenes over what is shown that replay a game of the history step by step (made of the
#: window, the table, the call that closes it and the export of its record) and review it against the
#: best found (the window, the table, the call that closes it).
OPENED, REPLAYED, REVIEWED = "opened", "replayed", "reviewed"
#: And the window's own game, at the bottom of its stack (`HOME`, made of the window and the first game's
#: rules, seats and seed): its first table or the saved one resumed, its scene, the score over it for the
#: window's title, its end card, its next round and again, its New game screen, the window's icon.
HOME = "home"


@dataclass(frozen=True)
class GameKind:
    """One game the table can host, as players and saves know it, and where each layer finds its part of
    it: `parts` names, by role, the module and attribute ("package.module:name") that the layer asks for
    with `part`. They are imported when first asked, so this module imports nothing above the engines,
    and no layer compares a game's name to choose its code: it asks the game."""

    name: str  # the name on the command line and in saves: "tiles", "cribbage"
    title: str  # the name for players
    seats: tuple[int, ...]  # how many players it takes
    command: str  # the command line's words before its own commands: "cribtiles", "cribtiles cribbage"
    parts: tuple[tuple[str, str], ...] = field(default=(), repr=False)  # (role, "module:attribute")

    def has(self, role: str) -> bool:
        """This game has a part for `role` (not every game has every part: only cribbage is told in words).

        >>> CRIBBAGE.has(TOLD), TILES.has(TOLD)
        (True, False)
        """
        return role in dict(self.parts)

    def part(self, role: str) -> Any:
        """This game's part of the layer that plays `role` (one of the role constants above: `RULE_WORDS`,
        `ROOM`, ...); ValueError in words when it has none."""
        where = dict(self.parts).get(role)
        if where is None:
            raise ValueError(f"{self.title} has no part for the {role}")
        module, _, name = where.partition(":")
        return getattr(importlib.import_module(module), name)


TILES = GameKind(
    name="tiles",
    title="Kings Cribbage",
    seats=(2, 3, 4),
    command="cribtiles",
    parts=(
        (RULE_WORDS, "cribtiles.rules.options:unusual_words"),
        (ROOM, "cribtiles.server.tiles_room:TilesGame"),
        (REMOTE, "cribtiles.online.remote:RemoteSession"),
        (SEATED, "cribtiles.ui.tiles.game_scene:seat_online"),
        (SEAT_BOT, "cribtiles.online.tiles_seat:TILE_PLAY"),
        (ARENA, "cribtiles.table.arena:tile_arena"),
        (REBUILT, "cribtiles.table.tiles.replay:past_tile_table"),
        (REVIEW_FLAGS, "cribtiles.app.tiles.review_cli:add_review_flags"),
        (REVIEW_RUN, "cribtiles.app.tiles.review_cli:review_run"),
        (LADDER, "cribtiles.bot.tiles.levels:LEVELS"),
        (RESULT, "cribtiles.table.tiles.result:result"),
        (STATISTICS, "cribtiles.table.tiles.stats:tile_statistics"),
        (STORED, "cribtiles.app.tiles.stored:STORED"),
        (SAVED, "cribtiles.table.tiles.saved:saved_tile_table"),
        (KEPT, "cribtiles.table.tiles.kept:KEPT"),
        (HISTORY_ROW, "cribtiles.ui.tiles.history_row:cells"),
        (STATISTICS_PAGE, "cribtiles.ui.tiles.statistics_page:PAGE"),
        (CREATE_FORM, "cribtiles.ui.tiles.create_form:TileForm"),
        (RULE_BOOK, "cribtiles.ui.tiles.rules_book:BOOK"),
        (OPENED, "cribtiles.ui.tiles.opening:title_item"),
        (REPLAYED, "cribtiles.ui.tiles.replay_scene:ReplayScene"),
        (REVIEWED, "cribtiles.ui.tiles.review_scene:ReviewScene"),
        (HOME, "cribtiles.ui.tiles.home:TileHome"),
    ),
)
CRIBBAGE = GameKind(
    name="cribbage",
    title="Cribbage",
    seats=(2, 3, 4),
    command="cribtiles cribbage",
    parts=(
        (RULE_WORDS, "cribtiles.cribbage.options:unusual_words"),
        (ROOM, "cribtiles.server.cribbage_room:CribbageGame"),
        (REMOTE, "cribtiles.online.cribbage_remote:RemoteCribbageSession"),
        (SEATED, "cribtiles.ui.cribbage.setup:seat_online"),
        (SEAT_BOT, "cribtiles.online.cribbage_seat:SEAT_PLAY"),
        (ARENA, "cribtiles.table.arena:cribbage_arena_of"),
        (REBUILT, "cribtiles.table.cribbage.replay:past_cribbage_table"),
        (REVIEW_FLAGS, "cribtiles.app.cribbage.review_cli:add_review_flags"),
        (REVIEW_RUN, "cribtiles.app.cribbage.review_cli:review_run"),
        (TOLD, "cribtiles.table.cribbage.replay:replay_words"),
        (LADDER, "cribtiles.bot.cribbage.levels:LEVELS"),
        (RESULT, "cribtiles.table.cribbage.result:result"),
        (STATISTICS, "cribtiles.table.cribbage.ledger:cribbage_statistics"),
        (STORED, "cribtiles.app.cribbage.stored:STORED"),
        (SAVED, "cribtiles.table.cribbage.saved:saved_cribbage_table"),
        (KEPT, "cribtiles.table.cribbage.kept:KEPT"),
        (HISTORY_ROW, "cribtiles.ui.cribbage.history_row:cells"),
        (STATISTICS_PAGE, "cribtiles.ui.cribbage.statistics_page:PAGE"),
        (CREATE_FORM, "cribtiles.ui.cribbage.create_form:CribbageForm"),
        (RULE_BOOK, "cribtiles.ui.cribbage.rules_cards:BOOK"),
        (OPENED, "cribtiles.ui.cribbage.opening:title_item"),
        (REPLAYED, "cribtiles.ui.cribbage.replay_scene:CribbageReplayScene"),
        (REVIEWED, "cribtiles.ui.cribbage.review_scene:CribbageReviewScene"),
    ),
)

#: Every game by its name.
GAMES: Mapping[str, GameKind] = {kind.name: kind for kind in (TILES, CRIBBAGE)}
#: The game the window opens with and keeps at the bottom of its stack (its `HOME` part).
FIRST_GAME = TILES.name


def game_named(name: object) -> GameKind:
    """The game called `name`; ValueError in words (naming the games) for any other.

    >>> game_named("cribbage").title
    'Cribbage'
    >>> game_named("chess")
    Traceback (most recent call last):
    ValueError: there is no game 'chess': the games are tiles and cribbage
    """
    kind = GAMES.get(name) if isinstance(name, str) else None
    if kind is None:
        shown = repr(name[:20]) if isinstance(name, str) else "of that kind"
        raise ValueError(f"there is no game {shown}: the games are {' and '.join(GAMES)}")
    return kind


def rules_in_words(game: object, text: str) -> tuple[list[str], list[str]]:
    """A table's rules in words, by its game's own (`RULE_WORDS`): its variant, and each unusual rule; the
    text as it came (cut short) for a game this version does not know.

    >>> rules_in_words("cribbage", "variant=three-player,muggins=on")
    (['three players'], ['muggins'])
    >>> rules_in_words("go", "komi=6.5")
    ([], ['komi=6.5'])
    """
    kind = GAMES.get(game) if isinstance(game, str) else None
    if kind is None:
        return [], [text[:60]] if text else []
    words: tuple[list[str], list[str]] = kind.part(RULE_WORDS)(text)
    return words


def part_modules() -> list[str]:
    """Every module a game's parts are in: imported by name only when asked, so the installers' bundler
    (PyInstaller, `installer.spec`) is told them, as it cannot see them in any import.

    >>> "cribtiles.server.cribbage_room" in part_modules()
    True
    """
    return sorted({where.partition(":")[0] for kind in GAMES.values() for _, where in kind.parts})
