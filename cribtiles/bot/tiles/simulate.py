"""Expert: Monte Carlo simulation over Hard's best candidates.

Each round draws a guess of the hidden tiles (the same guess for every candidate, so that they are
compared on equal luck), plays the candidate, lets each opponent and then this player reply with a
fast policy, and scores the spread plus the value of the rack left. Once the bag is empty a
continuation goes on to the end of the game, the policy then weighing kept tiles as a debt, so that
the racks left are deducted by the rules rather than guessed at. Candidates that fall clearly behind
stop being sampled, so the close ones get the samples. It stops within its time budget and plays the
best so far. With the bag empty in a two-player game it searches instead (`endgame`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from math import sqrt

from cribtiles.counting import count_value
from cribtiles.rules.board import Board
from cribtiles.rules.game import GameState, PlayerView
from cribtiles.rules.movegen import ranks_key
from cribtiles.rules.moves import Move, Pass, Play
from cribtiles.rules.options import ExchangeRule
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.tiles import Tile

from .base import Clock
from .endgame import ENDGAME_MARGIN, EndgameResult, solve_view
from .equity import KEPT_DEBT, Candidate, bag_weight, exchange_candidate, rank_plays
from .exchange import stuck_move
from .infer import Kept, kept_sets, pick_known
from .leave import KINDS, MAX_LEAVE, LeaveTable, default_leave
from .sampling import determinize
from .value import Value, default_value
from .value_features import position_features

DEFAULT_BUDGET = 1.5
#: Hard's best plays weighed by continuations: as many as Hard weighs for what they open
#: (`equity.OPENING_CANDIDATES`). Rollouts are plentiful (4,000 to 6,000 a move) and clearly worse
#: candidates stop being sampled, so a wider list costs little precision. From Hard-v-Hard
#: positions with at most 20 tiles in the bag (`benchmarks/tiles/bench_late_game.py --bag 20 --positions 100`,
#: seeds 1000-1300, 400 positions, paired), 40 against 12 gained +0.85 ± 0.62 points of spread and
#: +2.1 ± 1.1 points of games won; 20 gained +0.58 ± 0.50 and +1.4 ± 0.9.
CANDIDATES = 40
#: The fast policy looks at this many of the best-scoring plays when weighing the leave.
POLICY_WIDTH = 12
#: Turns a continuation plays after the candidate: in a two-player game the opponent's reply, my next
#: turn and the opponent's next, so both players have had two turns when the racks are weighed.
FOLLOW_TURNS = 3
#: Once the bag is empty a continuation goes on to the end of the game (at most this many more turns),
#: so that the racks left are deducted by the rules, not guessed at (`_rack_equity`).
PLAYOUT_TURNS = 12
#: Whether a continuation that stops before the game ends is judged by the learned value (issue 33).
#: Off: it does not play better. From 100 Hard-v-Hard positions with at most 20 tiles in the bag
#: (`benchmarks/tiles/bench_late_game.py --against HEAD --bag 20 --positions 100 --set use_value=true`,
#: paired with the Expert without it), the Expert's spread over Hard moved by -0.19 ± 1.16 and its
#: games won by -1.0 ± 2.1 points with the compiled reading (four continuations in seven as many);
#: -1.17 ± 1.67 and -0.2 ± 2.4 with the plain Python one; with at most 8, -0.29 ± 0.36 and +0.5 ± 0.5.
END_VALUE = False
#: The learned value's share of that judgement, the racks' worth the rest.
VALUE_WEIGHT = 1.0


def policy_play(board: Board, rack: Sequence[Tile], leave: LeaveTable, scorer: Scorer) -> tuple[Play, int] | None:
    """The simulated turns' policy: of the best-scoring plays (by the game's `scorer`), the one with the
    best score plus leave (None when there is no play)."""
    return scorer.best_keeping(board, rack, POLICY_WIDTH, leave.by_rank_key)


@lru_cache(maxsize=1)
def _debts() -> dict[int, float]:
    """What kept tiles are worth once the bag is empty, by `ranks_key`: a debt of half their count
    (they are deducted if the game ends with them on the rack), as `equity.leave_equity` weighs them."""
    return {
        ranks_key(ranks): -KEPT_DEBT * sum(count_value(r) for r in ranks)
        for n in range(MAX_LEAVE + 1)
        for ranks in combinations_with_replacement(KINDS, n)
    }


def policy_turn(state: GameState, leave: LeaveTable) -> GameState:
    """One turn of the policy: score plus leave, or, with the bag empty, score less half the count kept."""
    rack = state.racks[state.current]
    if state.bag_size(state.current) == 0:
        found = state.scorer.best_keeping(state.board, rack, POLICY_WIDTH, _debts())
    else:
        found = policy_play(state.board, rack, leave, state.scorer)
    if found is None:
        return state.apply(stuck_move(state.view(state.current), leave))
    return state.apply_generated(*found)


def _rack_equity(state: GameState, player: int, leave: LeaveTable) -> float:
    """What the tiles on a player's rack are worth to them now: their leave value with tiles in the
    bag, a debt of half their count when the bag is (nearly) empty (`equity.leave_equity`)."""
    rack = state.racks[player]
    w = bag_weight(state.bag_size(player))
    value = (1.0 - w) * leave(rack) if w < 1.0 else 0.0
    return value - w * KEPT_DEBT * sum(t.value for t in rack)


def end_value(state: GameState, me: int, value: Value, leave: LeaveTable) -> float:
    """The spread still to come for `me` in a two-player game not over, by the learned value from the
    view of the player to move (the view it was learned from): theirs, against me if it is not mine."""
    mover = state.current
    to_come = value.remaining(position_features(state.view(mover), leave))
    return to_come if mover == me else -to_come


def rollout(
    state: GameState,
    move: Move,
    me: int,
    leave: LeaveTable,
    turns: int = FOLLOW_TURNS,
    score: int | None = None,
    value: Value | None = None,
    value_weight: float = 1.0,
) -> float:
    """Play `move`, then `turns` more turns by the fast policy (the other players' replies, my next
    turn, their next); return my spread gain against the mean opponent, plus what the racks left are
    worth (mine for me, theirs against me). A play's `score`, when given, is what it scores on this
    board (the generator's): the rules then skip checking it again, as they do for the policy's.
    With a learned `value`, a two-player continuation that ends before the game does is judged by it
    (`end_value`), mixed with the racks' worth by `value_weight` (1: the value alone)."""
    start = state.scores
    state = state.apply_generated(move, score) if score is not None and isinstance(move, Play) else state.apply(move)
    for _ in range(turns):
        if state.is_over:
            break
        state = policy_turn(state, leave)
    for _ in range(PLAYOUT_TURNS):  # the bag empty: to the end, where the rules deduct what is left
        if state.is_over or state.bag_size() > 0:
            break
        state = policy_turn(state, leave)
    scores = state.final_scores()
    others = [p for p in range(len(scores)) if p != me]
    gain = scores[me] - start[me] - sum(scores[p] - start[p] for p in others) / len(others)
    if state.is_over:
        return gain
    if value is not None and len(scores) == 2 and value_weight >= 1.0:
        return gain + end_value(state, me, value, leave)
    racks = _rack_equity(state, me, leave) - sum(_rack_equity(state, p, leave) for p in others) / len(others)
    if value is None or len(scores) != 2 or value_weight <= 0.0:
        return gain + racks
    return gain + value_weight * end_value(state, me, value, leave) + (1.0 - value_weight) * racks


@dataclass
class _Stats:
    candidate: Candidate
    total: float = 0.0
    total_sq: float = 0.0
    n: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else self.candidate.equity

    @property
    def stderr(self) -> float:
        if self.n < 2:
            return float("inf")
        var = max(0.0, self.total_sq / self.n - self.mean**2)
        return sqrt(var / (self.n - 1))

    def add(self, v: float) -> None:
        self.total += v
        self.total_sq += v * v
        self.n += 1


@dataclass
class ExpertBot:
    name: str = "expert"
    budget: float = DEFAULT_BUDGET
    clock: Clock = field(default=time.perf_counter)
    candidates: int = CANDIDATES
    #: Deal opponents the tiles their last play suggests they kept (`infer`), not any tiles at all.
    infer: bool = True
    #: End each continuation that stops before the game does on the learned value (`end_value`).
    use_value: bool = END_VALUE
    #: The value's share of a continuation's end; the rest is the racks' worth (`_rack_equity`).
    value_weight: float = VALUE_WEIGHT
    #: Turns a continuation plays after the candidate before it is judged.
    follow_turns: int = FOLLOW_TURNS
    #: Filled after each move: samples per candidate, for the benchmarks and the curious.
    last_samples: dict[str, int] = field(default_factory=dict)
    #: Filled after each move with the bag empty in a two-player game: the endgame search's answer.
    last_endgame: EndgameResult | None = None

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        budget = self.budget if budget is None else budget
        deadline = self.clock() + budget
        leave = default_leave()
        self.last_samples, self.last_endgame = {}, None
        if sum(view.bag_sizes) == 0 and view.players == 2:
            self.last_endgame = solve_view(view, deadline - ENDGAME_MARGIN, self.clock)
            return self.last_endgame.play or Pass()
        ranked = rank_plays(view, leave, top=self.candidates)
        if not ranked:
            return stuck_move(view, leave)
        cands = list(ranked)
        if view.options.exchange == ExchangeRule.ANY_TIME:
            swap = exchange_candidate(view, leave)
            if swap is not None:
                cands.append(swap)
        if len(cands) == 1:
            return cands[0].move
        return self._simulate(view, cands, rng, deadline, leave)

    def guess(self, view: PlayerView, rng: random.Random, inferred: dict[int, list[Kept]]) -> GameState:
        """One guess of the hidden tiles for a round of continuations: a world drawn at random from those the
        view allows, the opponents holding tiles `inferred` from their last plays. The one place the search
        meets the unseen, so that a benchmark's seer (`benchmarks/tiles/bench_seer.py`) can be told the
        truth here; a bot of the ladder never is."""
        return determinize(view, rng, pick_known(inferred, rng, view.unseen) if inferred else None)

    def _simulate(
        self, view: PlayerView, cands: list[Candidate], rng: random.Random, deadline: float, leave: LeaveTable
    ) -> Move:
        stats = [_Stats(c) for c in cands]
        alive = list(stats)
        inferred = kept_sets(view, rng, leave) if self.infer else {}
        value = default_value() if self.use_value else None
        turns, weight = self.follow_turns, self.value_weight
        per = 0.0  # seconds per rollout: a pessimistic running estimate (the dearest, slowly forgotten)
        rounds = 0
        while len(alive) > 1:
            if self.clock() + per * len(alive) > deadline:
                break  # a whole round would not fit: every candidate keeps the same number of samples
            guess = self.guess(view, rng, inferred)
            for s in alive:
                started = self.clock()
                s.add(rollout(guess, s.candidate.move, view.player, leave, turns, s.candidate.score, value, weight))
                per = max(per * 0.9, self.clock() - started)
            rounds += 1
            if rounds >= 6:
                best = max(alive, key=lambda x: x.mean)
                alive = [s for s in alive if s is best or s.mean + 2.5 * max(s.stderr, best.stderr) >= best.mean]
        self.last_samples = {str(s.candidate.move): s.n for s in stats}
        if rounds == 0:
            return cands[0].move
        return max(alive, key=lambda s: s.mean).candidate.move
