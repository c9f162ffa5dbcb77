"""What a play opens or closes for the reply, and what the learned value makes of the position it
leaves (issue 33): the coach's sentences about a play, from the value's own ingredients.

The learned value reads the board through one question (`value_features`): on each square, what does
one tile still out make there (`movegen.single_tile_scores`), and so how likely is the opponent, whose
rack is drawn from the tiles the player has not seen, to hold a tile that makes 10 or 20 somewhere
(hypergeometric, `value_features.expected_best`). Here the same question is asked of the board before
a play and after it, from the player's own view, and the difference put in words: the line the play
opens (or closes) in the game's notation, its squares, how many tiles still out make the big reply
there, and how likely that reply is now against before. Only what changes the chance by
`MIN_CHANGE` or more is said.

`value_after` is the learned value of the position a move leaves: the final spread the player can
expect, averaged over guesses of the hidden tiles, as the value was learned (the view of the player
about to move; after a move that is the opponent, whose expectation is the player's turned round).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.rules.board import Board, Square
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move, Play
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.squares import SQUARES
from cribtiles.rules.tiles import Colour, Tile

from .tiles.leave import LeaveTable
from .tiles.sampling import determinize
from .tiles.value import Value, default_value, spread
from .tiles.value_features import HOT, VERY_HOT, expected_best

#: A note is said only when the chance of the big reply changes by at least this much.
MIN_CHANGE = 0.15
#: The squares a note names at most (the rest are counted).
NAMED_SQUARES = 2
#: Guesses of the hidden tiles `value_after` averages over by default.
VALUE_GUESSES = 8
#: Solitaire's sides draw from bags of their own colour (as `sampling.determinize` has it).
_SIDE_COLOUR = (Colour.DARK, Colour.LIGHT)


@dataclass(frozen=True)
class Reading:
    """A board read for the reply: for each square where a tile may go, the best single-tile score of
    each kind of tile in the replier's pool (`best[pos][kind]`, -1 where it cannot go)."""

    board: Board
    kinds: tuple[Tile, ...]  # the kinds of tile in the pool (rack forms), each once
    counts: tuple[int, ...]  # how many of each kind the pool holds
    drawn: int  # the tiles on the replier's rack
    best: dict[int, tuple[int, ...]]
    singles: dict[int, tuple[int, ...]]  # `scorer.single_tile_scores(board)`: by square, by face
    scorer: Scorer  # the game's

    def kinds_at(self, pos: int, level: int) -> frozenset[int]:
        """The kinds (indices into `kinds`) that make `level` or more on square `pos`."""
        return frozenset(k for k, s in enumerate(self.best.get(pos, ())) if s >= level)

    def chance(self, level: int) -> float:
        """The chance that the replier holds a tile making `level` or more somewhere."""
        tops = [max((row[k] for row in self.best.values()), default=0) for k in range(len(self.kinds))]
        values = [max(0, tops[k]) for k, n in enumerate(self.counts) for _ in range(n)]
        _, p10, p20 = expected_best(values, self.drawn)
        return p20 if level >= VERY_HOT else p10

    def tiles(self, kinds: frozenset[int]) -> int:
        return sum(self.counts[k] for k in kinds)


def read_board(board: Board, pool: Sequence[Tile], drawn: int, scorer: Scorer) -> Reading:
    """`board` read for a replier holding `drawn` tiles drawn from `pool`, plays scored by `scorer`."""
    kinds = tuple(sorted({t.rack_form for t in pool}))
    counts = tuple(sum(t.rack_form == k for t in pool) for k in kinds)
    faces = [tuple(f.code for f in k.faces) for k in kinds]
    singles = scorer.single_tile_scores(board)
    best = {pos: tuple(max(scores[c] for c in fs) for fs in faces) for pos, scores in singles.items()}
    return Reading(board, kinds, counts, drawn, best, singles, scorer)


def replier(view: PlayerView) -> int | None:
    """The player who replies to `view.player`'s play: the next in turn with tiles (None: nobody)."""
    for step in range(1, view.players):
        p = (view.player + step) % view.players
        if view.rack_sizes[p] > 0:
            return p
    return None


def reply_pool(view: PlayerView, who: int) -> tuple[Tile, ...]:
    """The tiles `who`'s rack is drawn from, as `view.player` sees it: the tiles unseen (in Solitaire,
    those of `who`'s colour)."""
    if view.options.solitaire:
        return tuple(t for t in view.unseen if t.colour is _SIDE_COLOUR[who % 2])
    return tuple(view.unseen)


@dataclass(frozen=True)
class Opening:
    """What a play opens (or closes) for the reply: the reply's `line` ('row 7', 'column g') through
    `squares`, where `tiles` tiles still out make `level` or more (made, for a line closed), and the
    chance of a reply that big anywhere `before` the play and `after` it."""

    opens: bool
    level: int
    line: str
    squares: tuple[Square, ...]
    more: int  # further squares of the line, not named
    tiles: int
    before: float
    after: float
    taken: bool = False  # closed by laying tiles on the squares themselves

    @property
    def words(self) -> str:
        """'Opens row 7 at k7, where 6 tiles still out make 20 or more: a reply that big is now 52%
        likely (was 8%).'; for a line closed 'Closes ...' (or 'Takes the spot k7 in row 7' when the
        play lies on it), the tiles that 'made' it."""
        tiles = f"{self.tiles} tile{'s' if self.tiles != 1 else ''} still out"
        make = ("make" if self.tiles != 1 else "makes") if self.opens else "made"
        return (
            f"{self.what}, where {tiles} {make} {self.level} or more: "
            f"a reply that big is now {percent(self.after)} likely (was {percent(self.before)})."
        )

    @property
    def short(self) -> str:
        """`words` in fewer, for a line of a list: 'Opens row 7 at k7: a reply of 20 or more is now 52%
        likely (was 8%).'"""
        return (
            f"{self.what}: a reply of {self.level} or more is now {percent(self.after)} likely "
            f"(was {percent(self.before)})."
        )

    @property
    def what(self) -> str:
        """'Opens row 7 at k7', 'Closes column g at g3 and g8', 'Takes the spot k7 in row 7'."""
        at = " and ".join(str(s) for s in self.squares)
        if self.more:
            at = f"{', '.join(str(s) for s in self.squares)} and {self.more} more"
        if self.opens:
            return f"Opens {self.line} at {at}"
        if self.taken:
            return f"Takes the spot{'s' if len(self.squares) > 1 else ''} {at} in {self.line}"
        return f"Closes {self.line} at {at}"


def percent(p: float) -> str:
    """A chance as a whole percent, never rounded to a sure 0% or 100% it is not.

    >>> percent(0.523), percent(0.001), percent(0.9995), percent(0.0)
    ('52%', '1%', '99%', '0%')
    """
    n = round(100 * p)
    if p > 0 and n == 0:
        n = 1
    if p < 1 and n == 100:
        n = 99
    return f"{n}%"


def _reply_line(r: Reading, square: Square, tile: Tile, prefer: frozenset[Square]) -> str:
    """The line a reply of `tile` on `square` of `r`'s board scores most on, one through a square of
    `prefer` first."""
    scores = r.singles[square.pos]
    face = max(tile.faces, key=lambda f: (scores[f.code], -f.code))
    try:
        lines = r.scorer.score(r.board, Play.of([(square, face)])).lines
    except (IllegalMove, ValueError):
        lines = ()
    if not lines:
        return f"the line at {square}"
    line = max(lines, key=lambda ln: (any(s in prefer for s in ln.line.squares), ln.total, ln.name))
    return line.name


def _spots(
    grown: Reading, shrunk: Reading, level: int, prefer: frozenset[Square]
) -> list[tuple[str, list[tuple[Square, frozenset[int]]]]]:
    """The squares where some kind makes `level` or more on `grown` but not on `shrunk`, grouped by
    the reply's line on `grown`; each square with the kinds that make it there. The line with the
    most tiles first (then by name)."""
    by_line: dict[str, list[tuple[Square, frozenset[int]]]] = {}
    for pos in sorted(grown.best):
        new = grown.kinds_at(pos, level) - shrunk.kinds_at(pos, level)
        if not new:
            continue
        square = SQUARES[pos]
        every = grown.kinds_at(pos, level)
        top = max(every, key=lambda k: (grown.best[pos][k], -k))
        line = _reply_line(grown, square, grown.kinds[top], prefer)
        by_line.setdefault(line, []).append((square, every))
    return sorted(by_line.items(), key=lambda kv: (-grown.tiles(frozenset().union(*(k for _, k in kv[1]))), kv[0]))


def opening(view: PlayerView, play: Play, before: Reading | None = None) -> Opening | None:
    """What `play` opens or closes for the reply, from `view` (the player's view before it), or None
    when it changes the chance of a 20-point reply (or else a 10-point one) by less than `MIN_CHANGE`
    or there is nobody to reply. `before`: `view.board` read already (`reading`), to save reading it
    again for each play of one position. Raises ValueError for a play whose squares are not free."""
    if before is None:
        before = reading(view)
        if before is None:
            return None
    after = read_board(view.board.place(play.placements), _pool_of(before), before.drawn, before.scorer)
    played = frozenset(play.squares)
    for level in (VERY_HOT, HOT):
        was, now = before.chance(level), after.chance(level)
        if abs(now - was) < MIN_CHANGE:
            continue
        opens = now > was
        grown, shrunk = (after, before) if opens else (before, after)
        spots = _spots(grown, shrunk, level, played)
        if not spots:
            continue
        line, squares = spots[0]
        squares.sort(key=lambda sk: (-grown.tiles(sk[1]), sk[0].pos))
        kinds: frozenset[int] = frozenset().union(*(k for _, k in squares))
        named = tuple(s for s, _ in squares[:NAMED_SQUARES])
        taken = not opens and all(s in played for s, _ in squares)
        return Opening(opens, level, line, named, len(squares) - len(named), grown.tiles(kinds), was, now, taken)
    return None


def _pool_of(r: Reading) -> list[Tile]:
    return [k for k, n in zip(r.kinds, r.counts, strict=True) for _ in range(n)]


def reading(view: PlayerView) -> Reading | None:
    """`view.board` read for the reply to `view.player` (None when nobody replies or nothing is out)."""
    who = replier(view)
    if who is None:
        return None
    pool = reply_pool(view, who)
    if not pool:
        return None
    return read_board(view.board, pool, min(view.rack_sizes[who], len(pool)), view.scorer)


def opening_of(view: PlayerView, move: Move, before: Reading | None = None) -> Opening | None:
    """`opening` for any move: None for a move that is no play, or a play that does not fit the board."""
    if not isinstance(move, Play):
        return None
    try:
        return opening(view, move, before)
    except ValueError:
        return None


def opens_note(view: PlayerView, move: Move, before: Reading | None = None) -> str | None:
    """The coach's sentence on what `move` opens or closes for the reply ('Opens row 7 at k7, where 6
    tiles still out make 20 or more: a reply that big is now 52% likely (was 8%).'), or None when
    there is nothing worth saying (or the move is no play, or not one that fits the board)."""
    found = opening_of(view, move, before)
    return None if found is None else found.words


# --- the learned value of the position a move leaves ---


def value_after(
    view: PlayerView,
    move: Move,
    rng: random.Random,
    guesses: int = VALUE_GUESSES,
    value: Value | None = None,
    leave: LeaveTable | None = None,
) -> float | None:
    """The final spread `view.player` can expect after `move` by the learned value, averaged over
    `guesses` guesses of the hidden tiles (the spread itself where the move ends the game). None
    where the value does not speak: none shipped, not a two-player game of one bag, or a move the
    position refuses."""
    model = value if value is not None else default_value()
    if model is None or view.players != 2 or view.options.solitaire or guesses < 1:
        return None
    me = view.player
    found = []
    for _ in range(guesses):
        guess = determinize(view, rng)
        try:
            after = guess.apply(move)
        except IllegalMove:
            return None
        if after.is_over:
            found.append(spread(after.final_scores(), me))
            continue
        mover = after.current
        v = model(after.view(mover), leave)
        found.append(v if mover == me else -v)
    return statistics.fmean(found)


def ahead(x: float) -> str:
    """A spread in words: '4.1 ahead', '2.0 behind', 'level'.

    >>> ahead(4.06), ahead(-2.0), ahead(0.04)
    ('4.1 ahead', '2.0 behind', 'level')
    """
    if round(x, 1) == 0:
        return "level"
    return f"{abs(x):.1f} {'ahead' if x > 0 else 'behind'}"


def outlook_words(name: str, played: float | None, best: float | None, same: bool = False) -> str:
    """The learned value's view of a turn in a sentence: where `name` can expect to finish after the
    play made and after the best found ("" when it does not speak)."""
    if played is None:
        return ""
    if same or best is None:
        return f"The learned value: after this play {name} can expect to finish {ahead(played)}."
    gap = best - played
    diff = f"{abs(gap):.1f} {'more' if gap > 0 else 'less'}" if round(gap, 1) else "the same"
    return (
        f"The learned value: {name} can expect to finish {ahead(played)} after the play made, "
        f"{ahead(best)} after the best found ({diff})."
    )
