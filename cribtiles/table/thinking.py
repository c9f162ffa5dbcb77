"""Who chooses a bot's move at a table of this process, in either game: the `Thinker` that both games'
sessions ask (generic over what a move is started from and the move it answers), and `InlineThinker`,
which chooses at `start`, in this thread (the text mode, the tests, a replay) (issue 45)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")  # what a move is started from: the tile game's (level, view, seed), cribbage's request
M = TypeVar("M")  # the move chosen
M_co = TypeVar("M_co", covariant=True)


class Thinker(Protocol[P, M_co]):
    """Who chooses a bot's move: the window's worker (a thread, a process), a script, or
    `InlineThinker`. One move at a time: `start` it, poll `result` (None while the bot thinks; `busy`
    until the move is taken), `cancel` it when the table moves on. `incidents`: what went wrong, in words,
    oldest first; the session tells them and clears the list."""

    incidents: list[str]

    @property
    def busy(self) -> bool: ...

    def start(self, *args: P.args, **kwargs: P.kwargs) -> None: ...

    def result(self) -> M_co | None: ...

    def cancel(self) -> None: ...


class InlineThinker(Generic[P, M]):
    """A `Thinker` whose `chooser` chooses at `start`, in this thread: the move is ready at once."""

    busy = False

    def __init__(self, chooser: Callable[P, M]) -> None:
        self.chooser = chooser
        self.incidents: list[str] = []
        self._move: M | None = None

    def start(self, *args: P.args, **kwargs: P.kwargs) -> None:
        self._move = self.chooser(*args, **kwargs)

    def result(self) -> M | None:
        move, self._move = self._move, None
        return move

    def cancel(self) -> None:
        self._move = None
