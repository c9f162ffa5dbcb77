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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, Self, TypeVar

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


@dataclass(frozen=True)
class GameKind:
    """One game the table can host, as players and saves know it."""

    name: str  # the name on the command line and in saves: "tiles", "cribbage"
    title: str  # the name for players
    seats: tuple[int, ...]  # how many players it takes


TILES = GameKind(name="tiles", title="Kings Cribbage", seats=(2, 3, 4))
CRIBBAGE = GameKind(name="cribbage", title="Cribbage", seats=(2,))

#: Every game by its name.
GAMES: Mapping[str, GameKind] = {kind.name: kind for kind in (TILES, CRIBBAGE)}
