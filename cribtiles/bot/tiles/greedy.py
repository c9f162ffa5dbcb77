"""Medium: the play that scores the most now (ties broken by the bot's random generator)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move, Play

from .exchange import stuck_move
from .leave import default_leave


def best_scoring(plays: list[tuple[Play, int]], rng: random.Random) -> tuple[Play, int]:
    top = max(score for _, score in plays)
    best = [pair for pair in plays if pair[1] == top]
    return best[0] if len(best) == 1 else rng.choice(best)


def greedy_move(view: PlayerView, rng: random.Random) -> Move:
    plays = view.scorer.scored_plays(view.board, view.rack)
    if not plays:
        return stuck_move(view, default_leave())
    return best_scoring(plays, rng)[0]


@dataclass(frozen=True)
class GreedyBot:
    name: str = "medium"

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        return greedy_move(view, rng)
