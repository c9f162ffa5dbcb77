"""Matches of several rounds (rule option `rounds`) with running totals and the Servant.

After each round the player (or players, on a tie) with the lowest running total is the Servant,
who in the physical game keeps score for the others.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Generic, Protocol, TypeVar

from .errors import IllegalMove
from .game import GameState, Outcome, new_game
from .moves import Move
from .options import RuleOptions

R = TypeVar("R", bound="Round")


def round_seed(seed: int, round_index: int) -> int:
    """The seed of round `round_index` (0-based) of a match, derived from the match's seed."""
    return random.Random(f"cribtiles-match/{seed}/{round_index}").getrandbits(48)


class Round(Protocol):
    """What a match reads of each of its rounds: a `GameState`, or a round as the whole table sees it."""

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def final_scores(self) -> tuple[int, ...]: ...


class Rounds(Generic[R]):
    """The running totals of a match's rounds, its Servant and its winners: what `Match` and a match as
    the whole table sees it (`table/tiles/public.py`) both answer, from `names`, the rounds `finished`
    and the `game` in play."""

    options: RuleOptions
    names: tuple[str, ...]
    finished: tuple[R, ...]  # the rounds played to the end
    game: R  # the round in progress (or the last one, once the match is over)

    @property
    def round(self) -> int:
        """The number (1-based) of the round in progress or last played."""
        return len(self.finished) + 1

    def _rounds_done(self) -> tuple[R, ...]:
        return self.finished + ((self.game,) if self.game.is_over else ())

    @property
    def totals(self) -> tuple[int, ...]:
        """Running totals over the rounds finished so far."""
        totals = [0] * len(self.names)
        for g in self._rounds_done():
            for p, s in enumerate(g.final_scores()):
                totals[p] += s
        return tuple(totals)

    @property
    def servant(self) -> tuple[int, ...]:
        """The Servant(s) after the last finished round: lowest running total; () before any."""
        if not self._rounds_done():
            return ()
        totals = self.totals
        low = min(totals)
        return tuple(p for p, t in enumerate(totals) if t == low)

    @property
    def resigned(self) -> int | None:
        """The player who gave the match up (in its last round), or None."""
        outcome = self.game.outcome
        return None if outcome is None else outcome.resigned

    @property
    def is_over(self) -> bool:
        """Every round played, or one given up (a resignation ends the whole match)."""
        return self.resigned is not None or len(self._rounds_done()) >= self.options.rounds

    @property
    def winners(self) -> tuple[int, ...]:
        """The highest totals; every player but the one who gave the match up."""
        if self.game.outcome is not None and self.resigned is not None:
            return self.game.outcome.winners
        totals = self.totals
        best = max(totals)
        return tuple(p for p, t in enumerate(totals) if t == best)


@dataclass(frozen=True)
class Match(Rounds[GameState]):
    options: RuleOptions
    seed: int
    names: tuple[str, ...]
    finished: tuple[GameState, ...]  # the rounds played to the end
    game: GameState  # the round in progress (or the last one, once the match is over)
    # The seed is kept back (`seed` means nothing): the record of a match still being played, sent to a
    # player between its rounds, who may read every round so far but not deal the next rounds' bags.
    seed_withheld: bool = False

    @classmethod
    def start(cls, players: int, options: RuleOptions, seed: int, names: Sequence[str] | None = None) -> Match:
        game = new_game(players, options, round_seed(seed, 0), names)
        return cls(options, seed, game.names, (), game)

    def apply(self, move: Move | str, declared: int | None = None) -> Match:
        return replace(self, game=self.game.apply(move, declared))

    def resign(self, player: int) -> Match:
        """`player` gives the whole match up, in the round in play: the others win it."""
        return replace(self, game=self.game.resign(player))

    def next_round(self) -> Match:
        """Start the next round once the current one is over."""
        if not self.game.is_over:
            raise IllegalMove("the round is still being played")
        if self.resigned is not None:
            raise IllegalMove(f"the match is over: {self.names[self.resigned]} gave it up")
        if self.is_over:
            raise IllegalMove(f"the match is over: all {self.options.rounds} rounds have been played")
        if self.seed_withheld:
            raise IllegalMove("this record of the match keeps its seed back: its next round is dealt at its table")
        done = self._rounds_done()
        game = new_game(len(self.names), self.options, round_seed(self.seed, len(done)), self.names)
        return replace(self, finished=done, game=game)
