"""Expert: Monte Carlo simulation over Hard's best candidates.

Each round draws a guess of the hidden tiles (the same guess for every candidate, so that they are
compared on equal luck), plays the candidate, lets each opponent and then this player reply with a
fast policy, and scores the spread plus the value of the rack left. Candidates that fall clearly
behind stop being sampled, so the close ones get the samples. It stops within its time budget and
plays the best so far. With the bag empty in a two-player game it searches instead (`endgame`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from math import sqrt

from cribtiles.rules.game import GameState, PlayerView
from cribtiles.rules.movegen import scored_plays
from cribtiles.rules.moves import Move
from cribtiles.rules.options import ANY_TIME

from .base import Clock
from .endgame import endgame_move
from .equity import Candidate, exchange_candidate, kept_tiles, leave_equity, rank_plays
from .exchange import LeaveFn, stuck_move
from .leave import default_leave
from .sampling import determinize

DEFAULT_BUDGET = 1.5
CANDIDATES = 8
#: The fast policy looks at this many of the best-scoring plays when weighing the leave.
POLICY_WIDTH = 12


def fast_move(state: GameState, leave: LeaveFn) -> Move:
    """Score plus leave over the best-scoring plays: the policy of simulated turns."""
    view = state.view(state.current)
    plays = scored_plays(view.board, view.rack)
    if not plays:
        return stuck_move(view, leave)
    plays.sort(key=lambda ps: ps[1], reverse=True)
    best = max(plays[:POLICY_WIDTH], key=lambda ps: ps[1] + leave(kept_tiles(view.rack, ps[0])))
    return best[0]


def rollout(state: GameState, move: Move, me: int, leave: LeaveFn) -> float:
    """Play `move`, then one turn by each other player and one more by `me`; return my spread gain
    against the mean opponent, plus the leave I am left with."""
    start = state.scores
    state = state.apply(move)
    while not state.is_over and state.current != me:
        state = state.apply(fast_move(state, leave))
    if not state.is_over:
        state = state.apply(fast_move(state, leave))
    scores = state.final_scores()
    mine = scores[me] - start[me]
    others = [scores[p] - start[p] for p in range(len(scores)) if p != me]
    value = mine - sum(others) / len(others)
    if not state.is_over:
        value += leave_equity(state.view(me), state.racks[me], leave)
    return value


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
    #: Filled after each move: samples per candidate, for the benchmarks and the curious.
    last_samples: dict[str, int] = field(default_factory=dict)

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        budget = self.budget if budget is None else budget
        deadline = self.clock() + budget
        leave = default_leave()
        if sum(view.bag_sizes) == 0 and view.players == 2:
            return endgame_move(view, deadline - 0.05, self.clock)
        ranked = rank_plays(view, leave, top=self.candidates)
        if not ranked:
            return stuck_move(view, leave)
        cands = list(ranked)
        if view.options.exchange == ANY_TIME:
            swap = exchange_candidate(view, leave)
            if swap is not None:
                cands.append(swap)
        if len(cands) == 1:
            return cands[0].move
        return self._simulate(view, cands, rng, deadline, leave)

    def _simulate(
        self, view: PlayerView, cands: list[Candidate], rng: random.Random, deadline: float, leave: LeaveFn
    ) -> Move:
        stats = [_Stats(c) for c in cands]
        alive = list(stats)
        per = 0.0  # seconds per rollout: a pessimistic running estimate (the dearest, slowly forgotten)
        rounds = 0
        while len(alive) > 1:
            if self.clock() + per * len(alive) > deadline:
                break  # a whole round would not fit: every candidate keeps the same number of samples
            guess = determinize(view, rng)
            for s in alive:
                started = self.clock()
                s.add(rollout(guess, s.candidate.move, view.player, leave))
                per = max(per * 0.9, self.clock() - started)
            rounds += 1
            if rounds >= 6:
                best = max(alive, key=lambda x: x.mean)
                alive = [s for s in alive if s is best or s.mean + 2.5 * max(s.stderr, best.stderr) >= best.mean]
        self.last_samples = {str(s.candidate.move): s.n for s in stats}
        if rounds == 0:
            return cands[0].move
        return max(alive, key=lambda s: s.mean).candidate.move
