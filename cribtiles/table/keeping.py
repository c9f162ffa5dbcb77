"""Where a game of either game is kept (issue 45): one protocol, `Keeps`, that both games' local sessions
and the online ones ask of their keeper (the app's store, the window's, a test's), each game with its own
types: what is saved after every move, and what goes into the history once the game is over."""

from __future__ import annotations

from typing import Protocol, TypeVar

#: What a game's save is made from (its table).
Saved_contra = TypeVar("Saved_contra", contravariant=True)
#: What a finished game's entry in the history is made from (its table, or what stands for it).
Recorded_contra = TypeVar("Recorded_contra", contravariant=True)


class Keeps(Protocol[Saved_contra, Recorded_contra]):
    """Where a game is kept: its save after every move, and the history it goes into once over."""

    def save(self, table: Saved_contra) -> bool:
        """Save the game in play; whether it was saved (never raises)."""
        ...

    def record(self, game: Recorded_contra) -> None:
        """Add the finished game to the history, once however often it is called; a game not over is
        not recorded (never raises)."""
        ...
