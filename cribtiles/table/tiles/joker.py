"""A person counting their own play under the Joker rule: the combinations found by pointing at
their tiles (each fifteen, pair, run or bonus once), or a number typed. The true breakdown is never
shown before the declaration is made (nor after, until the play's call window closes: `seen.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from cribtiles.rules.board import Square
from cribtiles.rules.scoring import PlayScore


@dataclass(frozen=True)
class Item:
    """One thing a play scores: a combination of a line, or a bonus, with the squares that make it."""

    what: str  # "fifteen", "pair", "run", or the bonus's name
    squares: frozenset[Square]
    points: int


def items_of(score: PlayScore) -> tuple[Item, ...]:
    """Every item of a play's score, combinations line by line, then the bonuses."""
    items = []
    for line in score.lines:
        for c in line.combinations:
            items.append(Item(str(c.kind), frozenset(line.line.squares[i] for i in c.positions), c.points))
    for b in score.bonuses:
        squares = b.line.squares if b.line is not None else score.play.squares
        items.append(Item(str(b.kind), frozenset(squares), b.points))
    return tuple(items)


@dataclass(frozen=True)
class Declaration:
    """What a person has claimed so far for a play."""

    score: PlayScore
    found: tuple[Item, ...] = ()

    @property
    def points(self) -> int:
        return sum(i.points for i in self.found)

    def point_at(self, squares: frozenset[Square]) -> tuple[Declaration, Item | None]:
        """Claim the item made of exactly `squares` (not claimed yet); the same declaration and None
        when they make none. Only items the play really scores can be claimed: pointing cannot
        over-count."""
        claimed = list(self.found)
        for item in items_of(self.score):
            if item.squares == squares:
                if item in claimed:
                    claimed.remove(item)  # an equal item (a bonus on the same tiles) may still be open
                    continue
                return Declaration(self.score, (*self.found, item)), item
        return self, None

    def check(self, typed: int) -> str:
        """ "" when `typed` may be declared, else why not, gently. Any number from 0 may be declared
        (muggins style, an over-declaration stands unless called): refusing one would tell the true
        score."""
        if typed < 0:
            return "A score cannot be below 0."
        return ""
