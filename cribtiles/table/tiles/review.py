"""The review of a game: every turn of every player (every round of a match), seen from that player's
own view at that moment, against the best move found by Expert analysis: Hard's top candidates and
the move played, weighed by the Expert's Monte Carlo continuations within a budget per turn (the
coach's `expert_rounds`, as the Best plays list does), or by the exact endgame search once the
bag is empty in a two-player game, as the Expert plays.

Pure: the budget, the clock and the random generator are passed in, and a seed with a clock that
always gives the same times reproduces a review. What a turn "lost" is measured against the best
move found, which the played move is always weighed beside, so evaluation lost is never below 0.

The plays weighed are the coach's `plays_to_weigh` (each play once, the plays scoring most always
among them), the same the Best plays list shows. A play that scores less now is called best only
when the continuations say clearly (by more than their noise) that it gains it back later: otherwise
the play scoring most among those as good is the best, so that a busy machine, which fits fewer
continuations in the budget, gives the same best as an idle one.

Each turn also says in words what the play made and the best play open or close for the reply, and
gives the learned value of the position each leaves (`cribtiles.bot.opens`, from the player's view
at the time): the value's reading of the turn beside the continuations' verdict.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from cribtiles.bot.coach import Suggestion, expert_rounds, play_key, plays_to_weigh
from cribtiles.bot.opens import opens_note, reading, value_after
from cribtiles.bot.tiles.base import Clock
from cribtiles.bot.tiles.endgame import rack_value, solve
from cribtiles.bot.tiles.equity import Candidate, exchange_candidate, kept_tiles, leave_equity, rank_plays
from cribtiles.bot.tiles.exchange import LeaveFn, stuck_move
from cribtiles.bot.tiles.leave import default_leave
from cribtiles.rules.board import Board
from cribtiles.rules.game import GameState, PlayerView
from cribtiles.rules.movegen import has_legal_play
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.rules.record import apply_text, record_of, start
from cribtiles.rules.scorer import STANDARD_SCORER, Scorer
from cribtiles.rules.tiles import Tile, remove_tiles

from ..misses import biggest_misses
from .table import Table

#: Seconds of analysis per turn by default: a two-player game of about 35 turns in well under a minute.
#: Half a second since the continuations got 2.4 times faster (`benchmarks/tiles/bench_review.py --players
#: medium,medium --clock cpu`: 111 rollouts a candidate in 1 s against 47 before), so a review gives at
#: least the evidence it gave in 1 s, in half the time.
DEFAULT_BUDGET = 0.5
#: The share of an endgame turn's budget that the search for the best play may take; the rest is the
#: played move's.
ENDGAME_BEST_SHARE = 0.6
#: The plays weighed beside the move played (`coach.plays_to_weigh`: Hard's top plays, each once, among
#: them always the `coach.TOP_BY_SCORE` scoring most now). Fewer than the Expert weighs (`simulate.CANDIDATES`):
#: the review samples every move equally within half a second a turn, with no pruning, so more moves
#: would each get fewer continuations, and the endgame values each one to the end.
REVIEW_CANDIDATES = 12
#: Values closer than this are equal (a tie goes to the move played: nothing was lost).
TIE = 1e-9
#: Rounds of continuations a simulated turn always gets, whatever the budget: enough to measure
#: their noise, and the same on a busy machine as on an idle one (about a tenth of a second a turn
#: on an idle one, well inside the default budget).
LEAST_ROUNDS = 8
#: A play is clearly worse than the best only when it trails it by more than this many standard
#: errors of the difference (paired over the same guesses); among the plays not clearly worse, the
#: one scoring most now is the best found (the points now are sure, the continuations a guess).
NOISE_Z = 2.0

Progress = Callable[[int, int], None]


class Method(StrEnum):
    """How a turn's moves were weighed."""

    SIMULATED = "simulated"  # the Expert's continuations over guesses of the hidden tiles
    ENDGAME = "endgame"  # the endgame search (the bag empty, two players): exact when `exact`
    STATIC = "static"  # the budget allowed no continuation: Hard's static evaluation
    ONLY = "only"  # the move played was the only one worth weighing


@dataclass(frozen=True)
class TurnReview:
    """One turn against the best move found. Scores are points now (the played move's as the record
    has it: declared, under the Joker rule); values are evaluations in points (the spread over the
    next turns plus the value of the tiles kept, or in the endgame the spread to the end).
    `points_lost` may be below 0: the best move can score less now and gain it back later (only when
    the continuations say so clearly, see `best_index`); a play declared short under the Joker rule
    lost what it left unclaimed even when it was the best."""

    round: int  # 0-based round of the match
    number: int  # the turn's index in its round
    player: int
    played: Move
    played_score: int
    played_value: float
    best: Move
    best_score: int
    best_value: float
    points_lost: int
    value_lost: float
    board_before: Board
    rack: tuple[Tile, ...]  # the player's rack before the turn
    method: Method
    samples: int = 0  # rounds of continuations behind the values (simulated)
    exact: bool = False  # the endgame search reached the end of the game on every line
    weighed: tuple[tuple[Move, int, float], ...] = ()  # every move weighed: (move, points now, value)
    # What each play opens or closes for the reply, in a sentence ("" when nothing worth saying), and
    # the learned value of the position each leaves (the final spread the player can expect; None where
    # the value does not speak): `cribtiles.bot.opens`, from the player's view at the time.
    played_opens: str = ""
    best_opens: str = ""
    played_after: float | None = None
    best_after: float | None = None
    scorer: Scorer = STANDARD_SCORER  # the game's (its rule options' bonuses): what the breakdowns score by

    @property
    def is_best(self) -> bool:
        """The move played was the best found."""
        return self.best == self.played


@dataclass(frozen=True)
class PlayerTotals:
    player: int
    turns: int
    best_found: int  # turns on which the move played was the best found
    points_lost: int  # the points the best moves would have scored more, on the turns they would
    value_lost: float


@dataclass(frozen=True)
class Review:
    """A whole game (or match) reviewed. `scores[i]` is every player's score in its round just after
    `turns[i]` (the Joker calls on it included), as the game had it: a chart of the scores over the
    turns, starting again at 0 with each round. `finals[r]` is round r's final scores (the racks
    deducted), or its scores so far when it was not finished."""

    turns: tuple[TurnReview, ...]
    names: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    finals: tuple[tuple[int, ...], ...]
    budget: float
    complete: bool  # every round was played to its end

    def biggest_misses(self, n: int) -> tuple[TurnReview, ...]:
        """The `n` turns that lost the most evaluation, biggest first (ties: more points lost, then the
        earlier turn); a turn that lost nothing is not a miss."""
        return biggest_misses(self.turns, n, lambda t: (t.value_lost, t.points_lost), lambda t: (t.round, t.number))

    def totals(self) -> tuple[PlayerTotals, ...]:
        """For each player: turns, best moves found, points and evaluation lost."""
        found = []
        for p in range(len(self.names)):
            mine = [t for t in self.turns if t.player == p]
            found.append(
                PlayerTotals(
                    p,
                    len(mine),
                    sum(1 for t in mine if t.is_best),
                    sum(max(0, t.points_lost) for t in mine),
                    sum(t.value_lost for t in mine),
                )
            )
        return tuple(found)


# --- the positions of a game ---


@dataclass(frozen=True)
class Position:
    """A turn about to be taken: the round, the turn's index, the game before it, the move made."""

    round: int
    number: int
    before: GameState
    move: Move
    points: int  # what the move scored, as the record has it


def positions(game: GameState, round_index: int = 0) -> tuple[list[Position], list[tuple[int, ...]]]:
    """Every turn of `game` with the game just before it, rebuilt from its record (so that racks and
    bag are those of that moment), and the scores just after each turn and the Joker calls on it."""
    record = record_of(game)
    state = start(record)
    found: list[Position] = []
    scores: list[tuple[int, ...]] = []
    for action in record.actions:
        if action.startswith("joker "):
            state = apply_text(state, action)
            if scores:  # a call on the last turn: its scores change (a call before any turn is in the first's)
                scores[-1] = state.scores
            continue
        before = state
        state = apply_text(state, action)
        turn = state.turns[-1]
        found.append(Position(round_index, len(before.turns), before, turn.move, turn.points))
        scores.append(state.scores)
    return found, scores


# --- weighing the moves of one turn ---


def static_values(view: PlayerView, moves: Sequence[Move], ranked: Sequence[Candidate], leave: LeaveFn) -> list[float]:
    """Hard's evaluation of each move: a play's equity as Hard ranks it; a pass or an exchange the
    value of the tiles it keeps."""
    equity = {c.move: c.equity for c in ranked}
    values = []
    for move in moves:
        if isinstance(move, Play):
            if move in equity:
                values.append(equity[move])
            else:
                kept = kept_tiles(view.rack, move)
                values.append(view.scorer.score(view.board, move).total + leave_equity(view, kept, leave))
        elif isinstance(move, Exchange):
            values.append(leave_equity(view, remove_tiles(view.rack, move.tiles), leave))
        else:
            values.append(leave_equity(view, view.rack, leave))
    return values


def candidate_moves(view: PlayerView, played: Move, ranked: Sequence[Candidate], leave: LeaveFn) -> list[Move]:
    """What the turn is weighed over: the move played first, then the coach's `plays_to_weigh` (Hard's
    top plays, each once, the plays scoring most among them) but the one alike the move played (the
    same tiles in another colour order is no other play), and when passing is allowed the exchange the
    bots would make."""
    moves: list[Move] = [played]
    if ranked:
        rack = tuple(view.rack)
        mine = play_key(rack, played, _score(view, played))
        for s in plays_to_weigh(view, REVIEW_CANDIDATES, leave, ranked):
            if s.move not in moves and play_key(rack, s.move, s.score) != mine:
                moves.append(s.move)
    if view.may_pass():
        swap = exchange_candidate(view, leave)
        other = swap.move if swap is not None else stuck_move(view, leave)
        if other not in moves:
            moves.append(other)
    return moves


def _to_move_value(
    board: Board, mover: tuple[Tile, ...], other: tuple[Tile, ...], deadline: float, clock: Clock, scorer: Scorer
) -> tuple[float, bool]:
    """The endgame's value for the side to move (`mover`), passes included, and whether it is exact."""
    if has_legal_play(board, mover):
        _, value, exact = solve(board, mover, other, deadline, clock, scorer)
        return value, exact
    if not has_legal_play(board, other):
        return float(rack_value(other) - rack_value(mover)), True  # nobody can play: the game is over
    value, exact = _to_move_value(board, other, mover, deadline, clock, scorer)  # the mover passes
    return -value, exact


def endgame_value(view: PlayerView, move: Move, deadline: float, clock: Clock) -> tuple[float, bool]:
    """The value of `move` in a two-player endgame (every unseen tile on the opponent's rack): the
    spread it gains to the end of the game, and whether the search was exact."""
    board, rack, opp = view.board, tuple(view.rack), tuple(view.unseen)
    if not isinstance(move, Play):
        value, exact = _to_move_value(board, opp, rack, deadline, clock, view.scorer)
        return -value, exact
    score = view.scorer.score(board, move).total
    left = remove_tiles(rack, move.tiles)
    if not left:
        return float(score + rack_value(opp)), True  # went out: the opponent's tiles are deducted
    value, exact = _to_move_value(board.place(move.placements), opp, left, deadline, clock, view.scorer)
    return score - value, exact


@dataclass(frozen=True)
class _Weighed:
    """The moves of a turn (the move played first) and their values, and how they were found."""

    moves: list[Move]
    values: list[float]
    method: Method
    samples: int = 0
    exact: bool = False
    rollouts: list[list[float]] | None = None  # each move's continuations, round by round (simulated)


def _weigh_endgame(
    view: PlayerView,
    played: Move,
    ranked: Sequence[Candidate],
    start: float,
    budget: float,
    clock: Clock,
    leave: LeaveFn,
) -> _Weighed:
    """The endgame's best play (searched with part of the budget) and the move played, valued to the end."""
    deadline = start + budget * ENDGAME_BEST_SHARE
    best, _, _ = solve(view.board, tuple(view.rack), tuple(view.unseen), deadline, clock, view.scorer)
    moves: list[Move] = [played] if best is None or best == played else [played, best]
    found = [endgame_value(view, m, start + budget, clock) for m in moves]
    values = [float(v) for v, _ in found]
    if any(math.isnan(v) for v in values):  # not even one turn deep in time: Hard's evaluation
        return _Weighed(moves, static_values(view, moves, ranked, leave), Method.STATIC)
    return _Weighed(moves, values, Method.ENDGAME, exact=all(e for _, e in found))


def _weigh_simulated(
    view: PlayerView,
    played: Move,
    ranked: Sequence[Candidate],
    rng: random.Random,
    deadline: float,
    budget: float,
    clock: Clock,
    leave: LeaveFn,
) -> _Weighed:
    """Hard's top plays and the move played, by the Expert's continuations (the coach's
    `expert_rounds`, as the Best plays list has them): LEAST_ROUNDS rounds whatever the time left,
    more while the `deadline` allows; none with no `budget` at all (then Hard's evaluation)."""
    moves = candidate_moves(view, played, ranked, leave)
    statics = static_values(view, moves, ranked, leave)
    if len(moves) == 1:
        return _Weighed(moves, statics, Method.ONLY)
    if budget <= 0:
        return _Weighed(moves, statics, Method.STATIC)
    left = max(0.0, deadline - clock())
    suggestions = [_suggestion(view, m, v, leave) for m, v in zip(moves, statics, strict=True)]
    found = expert_rounds(view, suggestions, left, clock, rng, least=LEAST_ROUNDS)
    values = [sum(xs) / len(xs) for xs in found]
    return _Weighed(moves, values, Method.SIMULATED, samples=len(found[0]), rollouts=found)


def clearly_worse(a: Sequence[float], b: Sequence[float], z: float = NOISE_Z) -> bool:
    """Whether the continuations `a` trail `b` (paired round by round) by more than `z` standard errors
    of their difference; with fewer than two rounds nothing is clear.

    >>> clearly_worse([1, 2, 3, 4], [5, 6, 7, 9]), clearly_worse([1, 9, 1, 9], [9, 1, 9, 2])
    (True, False)
    """
    n = min(len(a), len(b))
    if n < 2:
        return False
    d = [y - x for x, y in zip(a, b, strict=False)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean > z * math.sqrt(var / n) + TIE


def best_index(weighed: _Weighed, scores: Sequence[int]) -> int:
    """Which of the weighed moves is the best found. By the continuations (simulated): the move scoring
    most now among those not clearly worse than the highest valued (`clearly_worse`); otherwise the
    highest value. Ties go to the move played (nothing was lost), then to more points now, then to
    the earlier move (Hard's order)."""
    values = weighed.values
    top = 0
    for i in range(1, len(values)):
        if values[i] > values[top] + TIE:
            top = i
    near = [top]
    if weighed.rollouts is not None:
        near = [i for i, xs in enumerate(weighed.rollouts) if not clearly_worse(xs, weighed.rollouts[top])]
    else:
        near = [i for i, v in enumerate(values) if v >= values[top] - TIE]
    most = max(scores[i] for i in near)
    near = [i for i in near if scores[i] == most]
    if 0 in near:
        return 0
    return max(near, key=lambda i: (values[i], -i))


def _suggestion(view: PlayerView, move: Move, equity: float, leave: LeaveFn) -> Suggestion:
    kept = remove_tiles(view.rack, move.tiles) if isinstance(move, Play | Exchange) else tuple(view.rack)
    return Suggestion(move, _score(view, move), kept, leave_equity(view, kept, leave), equity)


def review_turn(
    position: Position, budget: float, clock: Clock, rng: random.Random, leave: LeaveFn | None = None
) -> TurnReview:
    """One turn of a game against the best move found within `budget` seconds of `clock` (a turn given
    some time but less than LEAST_ROUNDS rounds of continuations takes those rounds all the same, so
    that a small budget gives the same review on any machine; a turn given none is weighed by Hard's
    evaluation)."""
    leave = leave or default_leave()
    start = clock()
    state = position.before
    view = state.view(state.current)
    played = position.move
    ranked = rank_plays(view, leave)
    if sum(view.bag_sizes) == 0 and view.players == 2 and ranked:
        weighed = _weigh_endgame(view, played, ranked, start, budget, clock, leave)
    else:
        weighed = _weigh_simulated(view, played, ranked, rng, start + budget, budget, clock, leave)
    moves, values = weighed.moves, weighed.values
    scores = [_score(view, m) for m in moves]
    best_i = best_index(weighed, scores)
    best = moves[best_i]
    best_score = _score(view, best)  # a play declared short (Joker) still had its true score
    before = reading(view)
    played_opens = opens_note(view, played, before) or ""
    best_opens = played_opens if best == played else opens_note(view, best, before) or ""
    seed = rng.getrandbits(64)  # the moves' values over the same guesses (drawn after the weighing)
    played_after = value_after(view, played, random.Random(seed))
    best_after = played_after if best == played else value_after(view, best, random.Random(seed))
    return TurnReview(
        round=position.round,
        number=position.number,
        player=state.current,
        played=played,
        played_score=position.points,
        played_value=values[0],
        best=best,
        best_score=best_score,
        best_value=values[best_i],
        points_lost=best_score - position.points,
        value_lost=max(0.0, values[best_i] - values[0]),
        board_before=view.board,
        rack=tuple(view.rack),
        method=weighed.method,
        samples=weighed.samples,
        exact=weighed.exact,
        weighed=tuple(zip(moves, scores, values, strict=True)),
        played_opens=played_opens,
        best_opens=best_opens,
        played_after=played_after,
        best_after=best_after,
        scorer=view.scorer,
    )


def _score(view: PlayerView, move: Move) -> int:
    return view.scorer.score(view.board, move).total if isinstance(move, Play) else 0


def turn_rng(base: int, round_index: int, number: int) -> random.Random:
    """The guesses of one turn, from the review's seed: a turn's analysis does not depend on how many
    guesses the turns before it drew."""
    return random.Random(f"cribtiles-review/{base}/{round_index}/{number}")


def review_table(
    table: Table, budget: float, clock: Clock, rng: random.Random, progress: Progress | None = None
) -> Review:
    """Review every turn of every round of the table's game or match, `budget` seconds a turn;
    `progress(done, total)` is called before the first turn and after each one."""
    return review_games((*table.match.finished, table.match.game), budget, clock, rng, progress)


def review_games(
    games: Sequence[GameState], budget: float, clock: Clock, rng: random.Random, progress: Progress | None = None
) -> Review:
    """`review_table` for the rounds of a match (or a single game), given as their states."""
    if not games:
        raise ValueError("there is no game to review")
    leave = default_leave()
    base = rng.getrandbits(64)
    found: list[Position] = []
    scores: list[tuple[int, ...]] = []
    for r, game in enumerate(games):
        round_positions, round_scores = positions(game, r)
        found.extend(round_positions)
        scores.extend(round_scores)
    if progress is not None:
        progress(0, len(found))
    turns = []
    for done, position in enumerate(found, 1):
        turns.append(review_turn(position, budget, clock, turn_rng(base, position.round, position.number), leave))
        if progress is not None:
            progress(done, len(found))
    return Review(
        turns=tuple(turns),
        names=games[0].names,
        scores=tuple(scores),
        finals=tuple(g.final_scores() for g in games),
        budget=budget,
        complete=all(g.is_over for g in games),
    )
