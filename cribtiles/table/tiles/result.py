"""How a finished tile game went for the people at the table (its `RESULT` part in `cribtiles.games`): the
winners may share the win, so people who share it with a bot tied."""

from __future__ import annotations

from collections.abc import Set

from ..game_summary import Result


def result(won: Set[int], people: Set[int]) -> Result:
    """A win when the winners (`won`, their seats) are all people, a tie when people share it with a bot,
    else a loss (a table with people and bots).

    >>> result({0}, {0}), result({0, 1}, {0}), result({1}, {0})
    (<Result.WIN: 'win'>, <Result.TIE: 'tie'>, <Result.LOSS: 'loss'>)
    """
    if won <= people:
        return Result.WIN
    return Result.TIE if won & people else Result.LOSS
