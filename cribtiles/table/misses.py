"""The biggest misses of a review, for both games: the decisions that lost most, biggest first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

#: A decision that lost no more than this lost nothing.
TIE = 1e-9


def biggest_misses(
    decisions: Sequence[T], n: int, lost: Callable[[T], tuple[float, ...]], when: Callable[[T], tuple[int, ...]]
) -> tuple[T, ...]:
    """The `n` decisions whose `lost` (what they lost, then what breaks a tie, all larger first) is
    largest, earlier `when` first among equals; a decision whose first figure is 0 is no miss.

    >>> biggest_misses([3.0, 0.0, 5.0, 3.0], 3, lambda x: (x,), lambda x: ())
    (5.0, 3.0, 3.0)
    """
    misses = [d for d in decisions if lost(d)[0] > TIE]
    misses.sort(key=lambda d: (tuple(-x for x in lost(d)), when(d)))
    return tuple(misses[: max(0, n)])


def misses_first(decisions: Sequence[T], misses: Sequence[T]) -> list[int]:
    """The indices of `decisions`, those of `misses` first in their order, then the rest in order: each
    decision once.

    >>> misses_first(["a", "b", "c"], ["c"])
    [2, 0, 1]
    """
    where = {id(d): i for i, d in enumerate(decisions)}
    order = [where[id(d)] for d in misses if id(d) in where]
    seen = set(order)
    return order + [i for i in range(len(decisions)) if i not in seen]
