"""The coach: the bots' own judgement put into words for a player. The candidate plays with their
score, the value of the tiles they keep and Hard's equity; the hint (exactly Hard's choice); the
exchange advisor; the tiles still out; a note after a play; the Expert's simulated evaluation.

Nothing here ranks plays anew: the ranking is Hard's (`equity.rank_plays`), the simulation Expert's
(`simulate.rollout` on `sampling.determinize`), the scores the game's scorer's (`view.scorer`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from cribtiles.counting import RANKS, CombinationKind
from cribtiles.quoting import quoted
from cribtiles.rules.board import Board
from cribtiles.rules.game import RACK_SIZE, PlayerView
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.scoring import PlayScore, ScoredLine
from cribtiles.rules.tiles import (
    COLOURS,
    SIX,
    Colour,
    Tile,
    format_ranks,
    format_tiles,
    full_set,
    rank_word,
    remove_tiles,
)

from .opens import Opening, opening_of, reading
from .tiles.base import Clock
from .tiles.equity import (
    OPENING_CANDIDATES,
    Candidate,
    exchange_candidate,
    kept_tiles,
    leave_equity,
    rank_plays,
    static_choice,
)
from .tiles.exchange import LeaveFn, best_keep
from .tiles.leave import default_leave
from .tiles.sampling import determinize
from .tiles.simulate import rollout

#: The orderings of `candidates`.
BY_SCORE, BY_EQUITY = "score", "equity"
ORDERS = (BY_SCORE, BY_EQUITY)
#: The plays scoring most now that the coach always weighs, whatever Hard's equity says (`plays_to_weigh`).
TOP_BY_SCORE = 3
#: The hint's random generator when none is given (see `hint`).
HINT_SEED = 0
#: `expert_evaluate` stops after this many rounds (one rollout of every suggestion each) even with
#: time to spare: the evaluation no longer moves much, and the progress bar needs an end.
MAX_EXPERT_ROUNDS = 200
#: The running estimate of a rollout's cost forgets the dearest one slowly (as the Expert does).
COST_MEMORY = 0.9

Progress = Callable[[int, int], None]
#: How the breakdown names the pairs of one rank, by how many tiles of it a line holds.
OF_A_KIND = {2: "pair", 3: "three", 4: "four", 5: "five"}


@dataclass(frozen=True)
class Suggestion:
    """One move the coach can show, with every figure it is judged by."""

    move: Move  # a Play, or an Exchange (the hint under exchange=any-time, the advisor)
    score: int  # points now
    kept: tuple[Tile, ...]  # the tiles left on the rack
    leave: float  # what Hard adds for the tiles kept (the leave table, weighed against the end)
    equity: float  # Hard's evaluation: score + leave + its threat terms, what it ranks by
    expert: float | None = None  # Expert's simulated evaluation, once it has run
    breakdown: PlayScore | None = None  # the game scorer's breakdown, for a play
    alike: tuple[Move, ...] = ()  # the same play with equal ranks' colours in another order (`distinct`)
    opening: Opening | None = None  # what the play opens or closes for the reply (`opens.opening`)

    @property
    def opens(self) -> str:
        """What the play opens or closes for the reply, in a sentence ("" when nothing worth saying)."""
        return "" if self.opening is None else self.opening.words

    @property
    def notation(self) -> str:
        return str(self.move)

    @property
    def threat(self) -> float:
        """What Hard takes off (or adds, for a play that blocks) for what the move opens."""
        return self.equity - self.score - self.leave

    @property
    def words(self) -> str:
        return describe(self)

    @property
    def label(self) -> str:
        """The play as a list row names it: its notation, or for plays grouped by `distinct` the
        squares and tiles with a colour left out where it may go either way, 'f7=Q g7=Q, either
        colour order'."""
        return group_label(self.move, self.alike)


@dataclass(frozen=True)
class ExchangeAdvice:
    """Which tiles to throw back and which to keep, and why."""

    move: Exchange
    throw: tuple[Tile, ...]
    keep: tuple[Tile, ...]
    value: float  # the leave table's value of the tiles kept
    why: str


@dataclass(frozen=True)
class TilesOut:
    """How many tiles of one kind (a rank and a colour; the 6s and 9s pooled as 6/9) the player has
    not seen: on the other racks or in the bag."""

    rank: int  # 1-13, never 9: the 6/9 kind is rank 6
    colour: Colour
    count: int
    of: int  # how many of that kind the whole set holds (4, or 8 for 6/9)

    @property
    def label(self) -> str:
        """'6/9', 'A', '10', 'K'."""
        return "6/9" if self.rank == SIX else rank_word(self.rank)


# --- words ---


def _line_items(line: ScoredLine) -> list[str]:
    """A line's combinations, each with its points: 'fifteen 2', '2 fifteens 4', 'pair 5s 2',
    'three Ks 6', 'run 3' (a run of 3 scores 3), '2 runs 6'."""
    combos = line.combinations
    items: list[str] = []
    fifteens = sum(1 for c in combos if c.kind is CombinationKind.FIFTEEN)
    if fifteens:
        items.append(f"fifteen {2 * fifteens}" if fifteens == 1 else f"{fifteens} fifteens {2 * fifteens}")
    kinds = Counter(line.hand.ranks)
    for rank in sorted(kinds):
        n = kinds[rank]
        if n >= 2:
            items.append(f"{OF_A_KIND[n]} {rank_word(rank)}s {n * (n - 1)}")
    runs = [c for c in combos if c.kind is CombinationKind.RUN]
    if runs:
        points = sum(c.points for c in runs)
        items.append(f"run {points}" if len(runs) == 1 else f"{len(runs)} runs {points}")
    return items


def breakdown_words(result: PlayScore) -> str:
    """The breakdown on one line: each line with its ranks, points and combinations, then the bonuses.

    >>> from cribtiles.rules import parse_move
    >>> breakdown_words(Scorer().score(Board.empty(), parse_move("f7=4L g7=5D h7=6L")))
    'row 7 (4 5 6) 5: fifteen 2, run 3; first play +10'
    """
    parts = [
        f"{line.name} ({format_ranks(line.hand.ranks)}) {line.total}: {', '.join(_line_items(line))}"
        for line in result.lines
    ]
    parts += [b.describe() for b in result.bonuses]
    return "; ".join(parts)


def describe(s: Suggestion) -> str:
    """'f7=4L g7=5D h7=6L  15  row 7 (4 5 6) 5: ...' -- the move, its score and why."""
    if s.breakdown is not None:
        why = breakdown_words(s.breakdown)
    else:
        why = f"keeps {format_tiles(s.kept) or 'nothing'} (worth {s.leave:+.1f})"
    return f"{s.move}  {s.score}  {why}"


# --- the candidates and the hint ---


def _suggestion(view: PlayerView, c: Candidate, leave: LeaveFn) -> Suggestion:
    if isinstance(c.move, Play):
        kept = kept_tiles(view.rack, c.move)
        return Suggestion(c.move, c.score, kept, leave_equity(view, kept, leave), c.equity)
    kept = remove_tiles(view.rack, c.move.tiles) if isinstance(c.move, Exchange) else tuple(view.rack)
    return Suggestion(c.move, c.score, kept, c.equity, c.equity)  # an exchange is worth what it keeps


def _with_breakdown(view: PlayerView, s: Suggestion) -> Suggestion:
    if isinstance(s.move, Play):
        return replace(s, breakdown=view.scorer.score(view.board, s.move))
    return s


def _order_key(by: str) -> Callable[[tuple[int, Suggestion]], tuple[bool, float, str]]:
    """The sort key of (Hard's rank, suggestion) pairs."""
    if by == BY_SCORE:
        return lambda rs: (False, -rs[1].score, rs[1].notation)
    if by == BY_EQUITY:
        # Hard weighs what a play opens for its OPENING_CANDIDATES best by score + leave only, and
        # ranks those first: the rest follow, so that the order is Hard's own.
        return lambda rs: (rs[0] >= OPENING_CANDIDATES, -rs[1].equity, rs[1].notation)
    raise ValueError(f"order the candidates by {' or '.join(ORDERS)}, not {quoted(by)}")


def all_candidates(
    view: PlayerView, by: str = BY_EQUITY, leave: LeaveFn | None = None, ranked: Sequence[Candidate] | None = None
) -> list[Suggestion]:
    """Every legal play as a suggestion (no breakdowns: they are dear), best first; by equity in
    Hard's order (its best OPENING_CANDIDATES by score + leave, which it also weighs for what they
    open, then the others), ties by notation. `ranked`: Hard's `rank_plays` for this view and
    `leave`, when the caller has it already (it is the dear part)."""
    key = _order_key(by)
    leave = leave or default_leave()
    found = rank_plays(view, leave) if ranked is None else ranked
    rows = [(i, _suggestion(view, c, leave)) for i, c in enumerate(found)]
    return [s for _, s in sorted(rows, key=key)]


def candidates(view: PlayerView, top: int = 10, by: str = BY_EQUITY) -> list[Suggestion]:
    """The `top` legal plays for the viewer's rack, each once (`distinct`: colour orders of equal
    ranks are one play), each with its breakdown and what it opens or closes for the reply
    (`opens.opening`). By "equity" they are `plays_to_weigh` (Hard's best, the plays scoring most
    among them) in Hard's order; by "score" the top by points now. Ties go by the play's notation."""
    if top < 1:
        raise ValueError(f"show at least one candidate, not {top}")
    found = plays_to_weigh(view, top) if by == BY_EQUITY else distinct(all_candidates(view, by), view.rack)[:top]
    before = reading(view)  # the board read for the reply once, for every play's sentence
    return [replace(_with_breakdown(view, s), opening=opening_of(view, s.move, before)) for s in found]


def hint(view: PlayerView, rng: random.Random | None = None) -> Suggestion | None:
    """Exactly the move the Hard bot chooses in this position, or None when there is no play: then
    the exchange advisor speaks. Hard uses its random generator only between plays of equal equity
    (often the same tiles in another order): the hint is `HardBot().choose(view, rng)`, with
    random.Random(HINT_SEED) when no `rng` is given, so that a position always gets the same hint.
    Between equal plays it need not be the one `candidates` lists first (that one goes by notation).
    Under exchange=any-time it may be an exchange, as Hard's move is."""
    leave = default_leave()
    ranked = rank_plays(view, leave)
    if not ranked:
        return None
    move = static_choice(view, rng or random.Random(HINT_SEED), leave)
    if isinstance(move, Play):
        chosen = next(c for c in ranked if c.move == move)
    else:
        swap = exchange_candidate(view, leave)
        assert swap is not None and swap.move == move  # Hard passes over its plays only to exchange
        chosen = swap
    return _with_breakdown(view, _suggestion(view, chosen, leave))


# --- one row for plays that differ only in colour order ---


def play_key(rack: Sequence[Tile], move: Move, score: int) -> tuple[object, ...]:
    """What makes two moves the same play for the coach: the same rank on every square, the same
    score and the same tiles kept (so the same tiles laid, in another colour order). A colour that
    changes the score (a one-colour bonus) or the tiles kept makes another play."""
    if not isinstance(move, Play):
        return (move,)
    ranks = tuple((p.square, p.tile.rank) for p in move.placements)
    return (ranks, score, tuple(sorted(remove_tiles(rack, move.tiles))))


def distinct(suggestions: Sequence[Suggestion], rack: Sequence[Tile]) -> list[Suggestion]:
    """The suggestions with each play once: plays equal up to the colour order of equal ranks on the
    same squares (same score, same tiles kept, see `play_key`) are one suggestion, the first of them in
    the order given, which lists the others in `alike`. The order is kept.

    >>> from cribtiles.rules import parse_move
    >>> a, b = (Suggestion(parse_move(m), 4, (), 0.0, 4.0) for m in ("f7=QL g7=QD", "f7=QD g7=QL"))
    >>> [(s.label, len(s.alike)) for s in distinct([a, b], parse_move("f7=QL g7=QD").tiles)]
    [('f7=Q g7=Q, either colour order', 1)]
    """
    first: dict[tuple[object, ...], int] = {}
    rows: list[Suggestion] = []
    for s in suggestions:
        key = play_key(rack, s.move, s.score)
        if key in first:
            i = first[key]
            rows[i] = replace(rows[i], alike=(*rows[i].alike, s.move))
        else:
            first[key] = len(rows)
            rows.append(s)
    return rows


def group_label(move: Move, alike: Sequence[Move]) -> str:
    """'f7=QL g7=5D' alone; with plays alike, the colour left out on the squares where it changes:
    'f7=Q g7=Q h7=5D, either colour order' (two plays), '..., any colour order' (more)."""
    if not alike or not isinstance(move, Play):
        return str(move)
    varies = {
        p.square
        for other in alike
        if isinstance(other, Play)
        for p, q in zip(move.placements, other.placements, strict=False)
        if p.tile != q.tile
    }
    words = " ".join(f"{p.square}={str(p.tile)[:-1]}" if p.square in varies else str(p) for p in move.placements)
    return f"{words}, {'either' if len(alike) == 1 else 'any'} colour order"


def alike_words(s: Suggestion) -> str:
    """What a grouped row stands for, in words: "" for a play alone, 'either colour order, also
    f7=QD g7=QL' for two, 'any colour order, 6 plays alike' for more."""
    if not s.alike:
        return ""
    if len(s.alike) == 1:
        return f"either colour order, also {s.alike[0]}"
    return f"any colour order, {len(s.alike) + 1} plays alike"


def plays_to_weigh(
    view: PlayerView, count: int, leave: LeaveFn | None = None, ranked: Sequence[Candidate] | None = None
) -> list[Suggestion]:
    """The plays the coach weighs in a position, one of each (`distinct`), in Hard's order: the best
    `count` of them by Hard's equity: Hard's own first, then always the TOP_BY_SCORE scoring most now
    (as many as `count` leaves room for), then the next by equity. The
    review of a game (in the window and `cribtiles review`) weighs these beside the move played, and
    the Best plays list shows them: so a review can never miss a play that scores more than its best
    only because Hard's equity put it further down. `ranked`: as for `all_candidates`."""
    if count < 1:
        raise ValueError(f"weigh at least one play, not {count}")
    rows = distinct(all_candidates(view, BY_EQUITY, leave, ranked), view.rack)
    by_score = sorted(range(1, len(rows)), key=lambda i: (-rows[i].score, i))[: min(TOP_BY_SCORE, count - 1)]
    chosen = {0, *by_score} if rows else set()
    for i in range(len(rows)):
        if len(chosen) >= count:
            break
        chosen.add(i)
    return [rows[i] for i in sorted(chosen)]


# --- when stuck ---


def exchange_advice(view: PlayerView) -> ExchangeAdvice | None:
    """Which tiles to throw back and which to keep (the Hard bot's own exchange), or None when no
    exchange may be made now: the player has a play (under exchange=when-stuck), the bag is empty,
    or the rack is."""
    most = min(len(view.rack), RACK_SIZE, view.bag_size)
    if most == 0 or not view.may_pass():
        return None
    leave = default_leave()
    keep, value = best_keep(view.rack, leave, 1, most)
    throw = remove_tiles(view.rack, keep)
    move = Exchange.of(throw)
    return ExchangeAdvice(move, move.tiles, tuple(keep), value, _why_keep(view.rack, keep, value, most, leave))


def _why_keep(rack: Sequence[Tile], keep: Sequence[Tile], value: float, most: int, leave: LeaveFn) -> str:
    tiles = sorted(rack)
    choices = {k for n in range(len(tiles) - most, len(tiles)) for k in combinations(tiles, n)}
    nothing = leave(())
    thrown = format_tiles(remove_tiles(rack, keep))
    if not keep:
        return (
            f"Throw back all of {thrown}: no tiles of this rack are worth keeping together "
            f"(keeping nothing is worth {nothing:+.1f}, the best of the {len(choices)} choices)."
        )
    return (
        f"Throw back {thrown} and keep {format_tiles(keep)}: they are worth {value:+.1f} on the next turns "
        f"by the bots' table of kept tiles, the best of the {len(choices)} choices "
        f"(keeping nothing is worth {nothing:+.1f})."
    )


# --- the tiles still out ---


def tiles_out(view: PlayerView) -> tuple[TilesOut, ...]:
    """Every kind of tile (by rank, then light before dark; 6 and 9 pooled as 6/9) with how many of
    it the player has not seen: on the other racks or in the bag. Kinds all seen count 0."""
    unseen = Counter(t.rack_form for t in view.unseen)
    whole = Counter(full_set())
    return tuple(
        TilesOut(rank, colour, unseen[Tile(rank, colour)], whole[Tile(rank, colour)])
        for rank in RANKS
        if rank != 9
        for colour in COLOURS
    )


# --- after a play ---


def after_play_note(board_before: Board, rack_before: Sequence[Tile], played: Play, scorer: Scorer) -> str:
    """A quiet note after a play: 'best was f7=5D g7=TL for 18 (you scored 12)', or "" when the play
    scored as much as any (the best by score, by the game's `scorer`; ties between plays go by notation)."""
    scored = scorer.score(board_before, played).total
    plays = scorer.scored_plays(board_before, rack_before)
    if not plays:
        return ""
    best, points = min(plays, key=lambda ps: (-ps[1], str(ps[0])))
    if points <= scored:
        return ""
    return f"best was {best} for {points} (you scored {scored})"


# --- the Expert's evaluation ---


def expert_evaluate(
    view: PlayerView,
    suggestions: Sequence[Suggestion],
    budget: float,
    clock: Clock,
    rng: random.Random,
    progress: Progress | None = None,
    least: int = 1,
) -> list[Suggestion]:
    """The suggestions with `expert` filled in, best first by it (ties by notation): each the mean of
    its rollouts in `expert_rounds` (which says how the budget is spent)."""
    if not suggestions:
        return []
    samples = expert_rounds(view, suggestions, budget, clock, rng, progress, least)
    rated = [replace(s, expert=sum(xs) / len(xs)) for s, xs in zip(suggestions, samples, strict=True)]
    return sorted(rated, key=lambda s: (-(s.expert or 0.0), s.notation))


def expert_rounds(
    view: PlayerView,
    suggestions: Sequence[Suggestion],
    budget: float,
    clock: Clock,
    rng: random.Random,
    progress: Progress | None = None,
    least: int = 1,
) -> list[list[float]]:
    """Each suggestion's rollouts, round by round: over guesses of the hidden tiles, the Expert's
    rollout (the move, a reply by each opponent, a turn more of mine: the spread gained plus the value
    of the rack left). Every suggestion is played out on the same guess in a round, so that the k-th
    values of two suggestions are a fair pair. Rounds go on until the next would not fit in `budget`
    seconds of `clock` (the first `least` rounds always run, at least one) or MAX_EXPERT_ROUNDS are
    done: a given seed and `least` rounds are the same on any machine, however busy.

    `progress(done, total)` is called after every rollout: `total` is the number of rollouts that
    look likely to fit, an estimate that changes as the rollouts are timed; the last call has
    done == total."""
    n = len(suggestions)
    samples: list[list[float]] = [[] for _ in range(n)]
    if not n:
        return samples
    leave = default_leave()
    deadline = clock() + budget
    least = max(1, min(least, MAX_EXPERT_ROUNDS))
    rounds, done, per = 0, 0, 0.0
    planned = n * MAX_EXPERT_ROUNDS
    while rounds < MAX_EXPERT_ROUNDS and (rounds < least or clock() + per * n <= deadline):
        guess = determinize(view, rng)
        for i, s in enumerate(suggestions):
            started = clock()
            samples[i].append(rollout(guess, s.move, view.player, leave))
            now = clock()
            per = max(per * COST_MEMORY, now - started)
            done += 1
            if progress is not None:
                planned = max(_planned(done, rounds, n, per, deadline - now), least * n)
                progress(done, planned)
        rounds += 1
    if progress is not None and planned != done:
        progress(done, done)
    return samples


def _planned(done: int, rounds: int, n: int, per: float, left: float) -> int:
    """Rollouts likely by the end: this round finished, then the whole rounds that fit in the time
    `left` after it (at `per` seconds a rollout)."""
    round_end = (rounds + 1) * n
    after = left - per * (round_end - done)
    more = int(after / (per * n)) if per > 0 and after > 0 else (0 if per > 0 else MAX_EXPERT_ROUNDS)
    return min(round_end + more * n, MAX_EXPERT_ROUNDS * n)


# --- a position from a board and a rack ---


def position_view(
    board: Board, rack: Sequence[Tile], players: int = 2, options: RuleOptions | None = None
) -> PlayerView:
    """The view of a player to move with this rack on this board, at the start of a game's scores
    (0 each): the tiles not on the board or the rack fill the other racks (5 each, while they last)
    and the bag. Raises ValueError when the board and the rack hold more of a tile than the set has."""
    options = options or RuleOptions()
    if options.solitaire:
        raise ValueError("a position is analysed in the standard mode (one bag), not in Solitaire")
    rack = tuple(t.rack_form for t in rack)
    used = Counter(t.rack_form for _, t in board.tiles()) + Counter(rack)
    whole = Counter(full_set())
    for tile, n in sorted(used.items()):
        if n > whole[tile]:
            kind = f"{tile.colour.word} 6/9" if tile.rank == SIX else tile.word
            raise ValueError(f"the board and the rack hold {n} {kind} tiles; the set has {whole[tile]}")
    unseen = tuple(sorted((whole - used).elements()))
    left = len(unseen)
    sizes = []
    for p in range(players):
        if p == 0:
            sizes.append(len(rack))
        else:
            sizes.append(min(RACK_SIZE, left))
            left -= sizes[-1]
    return PlayerView(
        player=0,
        options=options,
        names=tuple(f"Player {i + 1}" for i in range(players)),
        board=board,
        rack=rack,
        scores=(0,) * players,
        current=0,
        bag_sizes=(left,),
        rack_sizes=tuple(sizes),
        unseen=unseen,
        turns=(),
        outcome=None,
        starter=0,
    )
