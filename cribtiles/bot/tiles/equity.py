"""Hard: static equity. A play is worth its score, plus the value of the tiles it keeps (the learned
leave table), less an estimate of what it opens for the opponents: how much more their best reply,
of any length, would score after it than before, over two dozen racks they may hold.

Near the end (the bag empty or nearly), kept tiles are a debt: their count value is deducted if
the game ends with them on the rack, so the leave is weighed against that.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.rules.board import Board
from cribtiles.rules.game import PlayerView
from cribtiles.rules.hands import MAX_LINE
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.rules.options import ExchangeRule
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.tiles import Tile, remove_tiles

from .exchange import LeaveFn, best_keep, stuck_move
from .leave import default_leave

#: How many of the best plays by score + leave get the (dearer) opening estimate.
OPENING_CANDIDATES = 40
#: Weight of the opening estimate: its racks already say how often the opponent can take the spot
#: (1.0 beat 0.8 by 63.1% to 61.0% over Medium in the same 400 paired games, seed 2).
OPENING_WEIGHT = 1.0
#: Racks drawn for the opponent when weighing what a play opens (the same racks for every play).
#: 24 beat 12 by 65.8% to 63.1% over Medium in the same 400 paired games, seed 2.
THREAT_RACKS = 24
THREAT_SEED = 20261130


@dataclass(frozen=True)
class Candidate:
    move: Move
    score: int
    equity: float


def kept_tiles(rack: Sequence[Tile], play: Play) -> tuple[Tile, ...]:
    return remove_tiles(rack, play.tiles)


def threat_racks(unseen: Sequence[Tile], size: int, count: int = THREAT_RACKS) -> list[tuple[Tile, ...]]:
    """`count` racks of `size` tiles an opponent may hold, drawn from the unseen tiles with a fixed
    seed: the same position gives the same racks, so Hard (and the coach that explains it) always
    ranks it the same way."""
    pool = sorted(unseen)
    size = min(size, len(pool))
    if size <= 0:
        return []
    rng = random.Random(THREAT_SEED)
    return [tuple(rng.sample(pool, size)) for _ in range(count)]


def reply_threat(board: Board, racks: Sequence[Sequence[Tile]], scorer: Scorer) -> float:
    """The points the opponent can expect from their best reply on this board, of any length: the
    mean over the racks they may hold of the best play's score (0 where a rack has none)."""
    if not racks:
        return 0.0
    return sum(scorer.best_score(board, rack) or 0 for rack in racks) / len(racks)


def bag_weight(bag: int) -> float:
    """How much kept tiles count as a debt rather than as a leave, with `bag` tiles left to draw:
    0 with ten or more, 1 when the bag is empty."""
    return 1.0 if bag == 0 else max(0.0, 1.0 - bag / 10)


def endgame_weight(view: PlayerView) -> float:
    """`bag_weight` of the viewer's bag."""
    return bag_weight(view.bag_size)


#: Weight of the learned leave against the points scored now. The table measures only the next
#: turn of greedy self-play, shrunk by its ridge penalty, so it undervalues a good rack: with 24
#: threat racks, 1.3 beat 1.0 by 66.8% to 65.8% over Medium (400 paired games, seed 2) and made
#: 69.0% with seed 77.
LEAVE_WEIGHT = 1.3


#: Near the end, kept tiles are a debt of this share of their count: the rules deduct all of it if the
#: game ends with them on the rack, but most are played out before it does.
KEPT_DEBT = 0.5


def leave_equity(view: PlayerView, kept: Sequence[Tile], leave: LeaveFn) -> float:
    """What the tiles kept are worth: the weighed leave with tiles to draw, a debt of half their
    count as the bag empties."""
    w = endgame_weight(view)
    return (1.0 - w) * LEAVE_WEIGHT * leave(kept) - w * KEPT_DEBT * sum(t.value for t in kept)


def rank_plays(view: PlayerView, leave: LeaveFn | None = None, top: int | None = None) -> list[Candidate]:
    """The legal plays by static equity, best first (the top `top` of them, if given)."""
    leave = leave or default_leave()
    plays = view.scorer.scored_plays(view.board, view.rack)
    if not plays:
        return []
    first = [Candidate(p, s, s + leave_equity(view, kept_tiles(view.rack, p), leave)) for p, s in plays]
    first.sort(key=lambda c: c.equity, reverse=True)
    opponents_rack = max((n for i, n in enumerate(view.rack_sizes) if i != view.player), default=0)
    racks = threat_racks(view.unseen, opponents_rack)
    baseline = reply_threat(view.board, racks, view.scorer)
    refined = []
    for c in first[:OPENING_CANDIDATES]:
        assert isinstance(c.move, Play)
        after = view.board.place(c.move.placements)
        opened = reply_threat(after, racks, view.scorer) - baseline  # negative when the play blocks a threat
        refined.append(Candidate(c.move, c.score, c.equity - OPENING_WEIGHT * opened))
    refined.sort(key=lambda c: c.equity, reverse=True)
    ranked = refined + first[OPENING_CANDIDATES:]
    return ranked[:top] if top else ranked


def exchange_candidate(view: PlayerView, leave: LeaveFn) -> Candidate | None:
    """The best exchange, when the rules allow one now, valued by the leave it keeps."""
    most = min(len(view.rack), MAX_LINE, view.bag_size)
    if most == 0 or not view.may_pass():
        return None
    keep, value = best_keep(view.rack, leave, 1, most)
    throw = list(view.rack)
    for t in keep:
        throw.remove(t)
    return Candidate(Exchange.of(throw), 0, value)


def static_choice(view: PlayerView, rng: random.Random, leave: LeaveFn | None = None) -> Move:
    leave = leave or default_leave()
    ranked = rank_plays(view, leave, top=8)
    if not ranked:
        return stuck_move(view, leave)
    best = ranked[0]
    if view.options.exchange == ExchangeRule.ANY_TIME:
        swap = exchange_candidate(view, leave)
        if swap is not None and swap.equity > best.equity + 2.0:
            return swap.move
    ties = [c for c in ranked if c.equity >= best.equity - 1e-9]
    return (ties[0] if len(ties) == 1 else rng.choice(ties)).move


@dataclass(frozen=True)
class HardBot:
    name: str = "hard"

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        return static_choice(view, rng)
