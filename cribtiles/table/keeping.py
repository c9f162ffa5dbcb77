"""Where a game of either game is kept (issue 45): one protocol, `Keeps`, that both games' local sessions
and the online ones ask of their keeper (the app's store, the window's, a test's), each game with its own
types: what is saved after every move, and what goes into the history once the game is over. A keeper
tells the games apart by asking the game its `Kept` part (`kept_by`), never by the type of what it keeps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from cribtiles.games import KEPT, game_named

#: What a game's save is made from (its table).
Saved_contra = TypeVar("Saved_contra", contravariant=True)
#: What a finished game's entry in the history is made from (its table, or what stands for it).
Recorded_contra = TypeVar("Recorded_contra", contravariant=True)
#: The keeper a game's `Kept` part writes through (a keeper with that game's own verbs).
Keeper_contra = TypeVar("Keeper_contra", contravariant=True)
T = TypeVar("T")


class Keeps(Protocol[Saved_contra, Recorded_contra]):
    """Where a game is kept: its save after every move, and the history it goes into once over."""

    def save(self, table: Saved_contra) -> bool:
        """Save the game in play; whether it was saved (never raises)."""
        ...

    def record(self, game: Recorded_contra) -> None:
        """Add the finished game to the history, once however often it is called; a game not over is
        not recorded (never raises)."""
        ...


@dataclass(frozen=True)
class Kept(Generic[Keeper_contra, Saved_contra, Recorded_contra]):
    """How the data folder's keeper keeps a game of one game (its `KEPT` part in `cribtiles.games`): the
    stem its exported records are named with, and which of the keeper's own verbs saves its table and
    adds it, finished, to the history."""

    stem: str  # an exported record's name begins with it: "crib-tiles-20261206-170000-You-Easy.json"
    save: Callable[[Keeper_contra, Saved_contra], bool]  # the keeper's verb saving its table
    record: Callable[[Keeper_contra, Recorded_contra], None]  # and adding the finished game to the history


class OfAGame(Protocol):
    """A table, or a finished game, that names its game (`GameTable.game`: the registry's name)."""

    @property
    def game(self) -> str: ...


def kept_by(kept: OfAGame) -> Kept[Any, Any, Any]:
    """How a keeper keeps `kept` (a table, a finished game), asked of its game: the one lookup the keepers
    share, so that none tells the games apart by type; ValueError in words for a game it does not know."""
    part: Kept[Any, Any, Any] = game_named(kept.game).part(KEPT)
    return part


def of_kind(value: object, kind: type[T]) -> T | None:
    """`value` if it is a `kind`, else None: a keeper's typed accessor of one game's tables (`past_table`)."""
    return value if isinstance(value, kind) else None
