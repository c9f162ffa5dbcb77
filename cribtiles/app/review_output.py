"""What `cribtiles review` prints alike for both games: the JSON document's envelope (its format and
version, how the analysis was made, the players, the reviewed items with their scores, the finals, the
biggest misses and the totals, in that order) and the text's opening and closing lines. Each game's
review (`tiles.review_cli`, `cribbage.review_cli`) says what an item is (a turn, a decision) and what
its figures are.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TextIO, TypeVar

from cribtiles.terminal import ProgressLine, print_review

#: The misses listed (text and JSON).
MISSES = 10

Made = TypeVar("Made")
Item = TypeVar("Item")


def print_reviewed(
    review: Callable[[ProgressLine | None], Made],
    as_json: Callable[[Made], object],
    as_text: Callable[[Made, str], str],
    ns: argparse.Namespace,
    stderr: TextIO,
    unit: str,
) -> int:
    """`cribtiles review`'s run of the parsed arguments `ns`: the review made (its progress counted in
    `unit`s on `stderr`), printed as JSON (`--json`) or as text that names the file; 0, or 130 when
    Ctrl-C stopped it."""
    # the text names the file by its name alone: the name as typed may hold anything
    return print_review(review, as_json, lambda made: as_text(made, ns.file.name), ns.json, stderr, unit)


class Reviewed(Protocol):
    """A game reviewed, of either game: its players, whether it was played to the end, the scores after
    each item reviewed, and its biggest misses (items themselves, the biggest first)."""

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def complete(self) -> bool: ...

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]: ...

    def biggest_misses(self, n: int) -> Sequence[object]: ...


def review_document(
    form: tuple[str, int],
    analysis: Mapping[str, Any],
    review: Reviewed,
    items: tuple[str, Sequence[Item]],
    item_json: Callable[[Item, tuple[str, ...]], dict[str, Any]],
    ending: tuple[list[Any], list[dict[str, Any]]],
    rules: str | None = None,
) -> dict[str, Any]:
    """The JSON document of `review`: `form` (its format's name and version), the `analysis` (how it was
    made: its budget or guesses, its seed), the players, the `rules` reviewed under (when the game names
    them), whether the game is complete, the `items` reviewed (under their key, each by `item_json`)
    with the scores after each, the `ending` (the finals and each player's totals) and where the
    biggest misses stand among the items."""
    name, version = form
    key, reviewed = items
    finals, totals = ending
    return {
        "format": name,
        "version": version,
        **analysis,
        "players": list(review.names),
        **({} if rules is None else {"rules": rules}),
        "complete": review.complete,
        key: [item_json(item, review.names) for item in reviewed],
        "scores": [list(s) for s in review.scores],
        "finals": finals,
        "biggest_misses": miss_indices(reviewed, review.biggest_misses(MISSES)),
        "totals": totals,
    }


def miss_indices(items: Sequence[object], misses: Sequence[object]) -> list[int]:
    """Where each of `misses` (items themselves, the biggest first) stands in `items`."""
    index = {id(item): i for i, item in enumerate(items)}
    return [index[id(miss)] for miss in misses]


def opening_lines(names: Sequence[str], source: str, count: int, noun: str, how: str, complete: bool) -> list[str]:
    """The text's first lines: whose game (from `source`, a file's name), how many `noun`s (turns,
    decisions), `how` they were weighed; whether the game is unfinished, or has nothing to review."""
    lines = [f"Review of {' v '.join(names)}{f' ({source})' if source else ''}: {count} {noun}s, {how}."]
    if not complete:
        lines.append(f"The game is not finished: its {noun}s so far.")
    if not count:
        lines.append(f"There is no {noun} to review yet.")
    return lines


def misses_heading(any_miss: bool, none: str) -> list[str]:
    """The heading of the biggest misses, or `none` (in words: every one was the best found)."""
    return ["", "Biggest misses:" if any_miss else f"No misses: {none}."]


def closing_lines(complete: bool, finals: str) -> list[str]:
    """The text's last line: the final scores (`finals`, in words), or the scores so far."""
    return ["", f"Final scores: {finals}." if complete else f"Scores so far: {finals}."]
