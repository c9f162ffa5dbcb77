"""The games Crib Tiles hosts, behind one protocol, and a registry of them by name.

Each engine stays pure and separate (`cribtiles.rules`: Kings Cribbage; `cribtiles.cribbage`: classic
cribbage). Their states answer the same verbs, in the spirit of OpenSpiel (`GameState`): who acts, the
legal actions, `apply` (a new state: states are immutable), whether it is over, the returns, and a
player's view. What differs between the games (how one starts, how its record is written and read back,
how an action is written) is one `GameKind` each, found by name in `GAMES`. The seed is part of every
start, so a seed and the actions reproduce a whole game in both.

This module sits above the two engines and beneath everything that hosts a game (bots, the table, the
arena, the network server): standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, Self, TypeVar

from cribtiles import cribbage, rules
from cribtiles.rules import record as tile_record

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


S = TypeVar("S", bound="GameState[Any]")


@dataclass(frozen=True)
class GameKind(Generic[S]):
    """One game the table can host: how to start it, write it down and read it back."""

    name: str  # the name on the command line and in saves: "tiles", "cribbage"
    title: str  # the name for players
    seats: tuple[int, ...]  # how many players it takes
    start: Callable[[Sequence[str], int], S]  # (the players' names, the seed) -> a new game
    record: Callable[[S], str]  # the game as text: its seed, players, options and every action
    replay: Callable[[str], S]  # the game a record leads to, every action checked (a ValueError in words)
    parse_action: Callable[[str], object]  # an action's notation -> the action (a ValueError in words)
    format_action: Callable[[object], str]  # an action -> its notation, which `parse_action` reads back


def _start_tiles(names: Sequence[str], seed: int) -> rules.GameState:
    return rules.new_game(len(names), seed=seed, names=names)


def _start_cribbage(names: Sequence[str], seed: int) -> cribbage.CribbageState:
    if len(names) != 2:
        raise ValueError(f"classic cribbage is played by two, not {len(names)}")
    return cribbage.new_game(seed, (names[0], names[1]))


def _record_cribbage(state: cribbage.CribbageState) -> str:
    return json.dumps(state.record())


def _replay_cribbage(text: str) -> cribbage.CribbageState:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise cribbage.CribbageError(f"this record of a cribbage game is not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise cribbage.CribbageError("this is not a record of a classic cribbage game")
    return cribbage.replay(data)


def _format_tile_action(action: object) -> str:
    if not isinstance(action, rules.Play | rules.Pass | rules.Exchange):
        raise TypeError(f"not an action of Kings Cribbage: {action!r}")
    return rules.format_move(action)


TILES: GameKind[rules.GameState] = GameKind(
    name="tiles",
    title="Kings Cribbage",
    seats=(2, 3, 4),
    start=_start_tiles,
    record=tile_record.save,
    replay=tile_record.load,
    parse_action=rules.parse_move,
    format_action=_format_tile_action,
)

CRIBBAGE: GameKind[cribbage.CribbageState] = GameKind(
    name="cribbage",
    title="Cribbage",
    seats=(2,),
    start=_start_cribbage,
    record=_record_cribbage,
    replay=_replay_cribbage,
    parse_action=cribbage.parse_move,
    format_action=str,
)

#: Every game by its name.
GAMES: Mapping[str, GameKind[rules.GameState] | GameKind[cribbage.CribbageState]] = {
    kind.name: kind for kind in (TILES, CRIBBAGE)
}


def game_named(name: str) -> GameKind[rules.GameState] | GameKind[cribbage.CribbageState]:
    """The game of that name; a ValueError that lists the games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"there is no game called {name[:40]!r}: the games are {', '.join(GAMES)}") from None
