"""Legality and score of a play (rules.md section 4), with a breakdown a player can read.

This is the plain, careful checker: `movegen` generates plays much faster, and the tests hold the
two to exact agreement.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from cribtiles.counting import Combination, combinations_of

from .board import ACROSS, BLOCKED, DOWN, SIZE, Board, Direction, Line, Square
from .errors import IllegalMove
from .hands import MAX_LINE, HandScore, score_hand, why_invalid
from .moves import Play
from .tiles import format_tiles

BONUS_POINTS = 10


class BonusKind(StrEnum):
    """The three bonuses of rules.md section 4, each worth BONUS_POINTS; a str, printed as its words."""

    FIRST_PLAY = "first play"
    FIVE_TILES = "five tiles"
    ONE_COLOUR = "one colour"


FIRST_PLAY, FIVE_TILES, ONE_COLOUR = BonusKind.FIRST_PLAY, BonusKind.FIVE_TILES, BonusKind.ONE_COLOUR


class Bonuses(NamedTuple):
    """What each bonus of rules.md section 4 is worth under the rules in force (0: it is not played).
    The checker below and both cores of the move generator are given it (a plain tuple of three ints,
    as the compiled core reads it); a game's `Scorer` holds the one its rule options make."""

    first_play: int = BONUS_POINTS
    five_tiles: int = BONUS_POINTS
    one_colour: int = BONUS_POINTS


#: The bonuses of the standard rules (rules.md section 4), and none at all (the option `bonuses=off`).
STANDARD_BONUSES = Bonuses()
NO_BONUSES = Bonuses(0, 0, 0)


class ScoredLine(NamedTuple):
    """A line that contains a placed tile, scored as a whole hand."""

    line: Line
    hand: HandScore
    placed: tuple[bool, ...]  # for each tile of the line, whether this play placed it

    @property
    def name(self) -> str:
        return self.line.name

    @property
    def total(self) -> int:
        return self.hand.total

    @property
    def combinations(self) -> tuple[Combination, ...]:
        """Each fifteen, pair and run; positions index `line.squares`."""
        return combinations_of(self.hand.ranks)

    def describe(self) -> str:
        return f"{self.name} ({format_tiles(self.line.tiles)}) = {self.total}"


class Bonus(NamedTuple):
    kind: BonusKind
    points: int
    line: Line | None = None  # the line for a one-colour bonus

    def describe(self) -> str:
        where = f" ({self.line.name})" if self.line is not None else ""
        return f"{self.kind}{where} +{self.points}"


class PlayScore(NamedTuple):
    play: Play
    lines: tuple[ScoredLine, ...]
    bonuses: tuple[Bonus, ...]

    @property
    def total(self) -> int:
        return sum(line.total for line in self.lines) + sum(b.points for b in self.bonuses)

    def describe(self) -> str:
        parts = [line.describe() for line in self.lines] + [b.describe() for b in self.bonuses]
        return "; ".join(parts) + f"; total {self.total}"


def _check_geometry(board: Board, play: Play) -> Direction:
    """Raise IllegalMove for a play that is badly placed; return its direction."""
    n = len(play.placements)
    first = board.is_empty()
    if n == 0:
        raise IllegalMove("a play needs at least one tile")
    if n > MAX_LINE:
        raise IllegalMove(f"a play may use at most {MAX_LINE} tiles, not {n}", (play.squares,))
    if first and n < 2:
        raise IllegalMove("the first play of the game needs 2 to 5 tiles", (play.squares,))
    squares = [p.square for p in play.placements]
    if len(set(squares)) != n:
        raise IllegalMove("two tiles cannot go on one square")
    for s in squares:
        if s in BLOCKED:
            raise IllegalMove(f"{s} is part of the name patch and cannot hold a tile", ((s,),))
        if board[s] is not None:
            raise IllegalMove(f"{s} already holds a tile ({board[s]})", ((s,),))
    rows = {s.row for s in squares}
    cols = {s.col for s in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMove("the tiles must lie in one row or one column", (play.squares,))
    direction = ACROSS if len(rows) == 1 else DOWN
    placed = set(squares)
    lo, hi = min(squares), max(squares)
    for i in range(lo.pos, hi.pos + 1, 1 if direction == ACROSS else SIZE):
        s = Square(i // SIZE, i % SIZE)
        if s not in placed and board[s] is None:
            raise IllegalMove(f"there is a gap at {s}: the tiles of a play must touch in one line", ((s,),))
    if not first and not any(board.touches_tile(s) for s in squares):
        raise IllegalMove("tiles must touch the tiles on the board", (play.squares,))
    return direction


def score_play(board: Board, play: Play, bonuses: Bonuses = STANDARD_BONUSES) -> PlayScore:
    """Check a play on a board and score it with `bonuses`; raise IllegalMove with the reason if it
    breaks a rule. A game scores its plays by its `Scorer` (`state.scorer`), which knows the bonuses
    its rule options give; the default here is the standard rules' (the facade of rules.md section 8).

    >>> from .moves import parse_move
    >>> score_play(Board.empty(), parse_move("f7=4L g7=5D h7=6L")).total
    15
    """
    if not isinstance(play, Play):
        raise IllegalMove("only a play of tiles can be scored")
    direction = _check_geometry(board, play)
    after = board.place(play.placements)
    placed = {p.square for p in play.placements}
    lines: list[Line] = []
    seen: set[tuple[Direction, Square]] = set()
    directions = (ACROSS, DOWN) if len(placed) == 1 else (direction, ACROSS if direction == DOWN else DOWN)
    for d in directions:
        for p in play.placements:
            line = after.line_through(p.square, d)
            if line is not None and (d, line.squares[0]) not in seen:
                seen.add((d, line.squares[0]))
                lines.append(line)
    bad = [(line, r) for line, r in ((line, why_invalid(line.ranks, line.name)) for line in lines) if r is not None]
    if bad:  # name every bad line: a player fixing one should not meet the next only afterwards
        raise IllegalMove("; and ".join(r for _, r in bad), tuple(line.squares for line, _ in bad))
    scored: list[ScoredLine] = []
    for line in lines:
        flags = tuple(s in placed for s in line.squares)
        scored.append(ScoredLine(line, score_hand(line.ranks), flags))
    won: list[Bonus] = []
    if board.is_empty() and bonuses.first_play:
        won.append(Bonus(FIRST_PLAY, bonuses.first_play))
    if len(placed) == MAX_LINE and bonuses.five_tiles:
        won.append(Bonus(FIVE_TILES, bonuses.five_tiles))
    for s in scored:
        tiles = s.line.tiles
        if bonuses.one_colour and len(tiles) == MAX_LINE and len({t.colour for t in tiles}) == 1:
            won.append(Bonus(ONE_COLOUR, bonuses.one_colour, s.line))
    return PlayScore(play, tuple(scored), tuple(won))


def score_laid(board: Board, play: Play, bonuses: Bonuses = STANDARD_BONUSES) -> PlayScore:
    """The score of `play`, whose tiles lie on `board` already: the play scored on the board as it
    stood before it (its squares emptied). How a player counts a play that is down, as under the Joker
    rule, where its worth is not told while a call can still be made.

    >>> from .moves import parse_move
    >>> play = parse_move("f7=4L g7=5D h7=6L")
    >>> score_laid(Board.empty().place(play.placements), play).total
    15
    """
    return score_play(board.without(play.squares), play, bonuses)


def is_legal_play(board: Board, play: Play) -> bool:
    try:
        score_play(board, play)
    except IllegalMove:
        return False
    return True
