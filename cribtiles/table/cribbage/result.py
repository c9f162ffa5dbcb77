"""How a finished game of cribbage went for the people at the table (its `RESULT` part in
`cribtiles.games`): there are no ties, and partners are one side, so a person's side won, or it lost."""

from __future__ import annotations

from collections.abc import Set

from ..game_summary import Result


def result(won: Set[int], people: Set[int]) -> Result:
    """A win when the winning side (`won`, its seats) has a person at it, else a loss (a table with people
    and bots).

    >>> result({0, 2}, {0}), result({1, 3}, {0})
    (<Result.WIN: 'win'>, <Result.LOSS: 'loss'>)
    """
    return Result.WIN if won & people else Result.LOSS
