"""Inference of the tiles an opponent kept, from their last play (Quackle's and Macondo's idea).

A player who laid these tiles for that score held them together with the tiles they kept; a rack
on which a far better play stood was less likely theirs. So: draw sets of kept tiles from what this
player cannot see, rebuild each rack the opponent had, and keep the sets with which their play was
among their best by score plus leave (within `SLACK` points). The simulations then deal the
opponent those tiles plus fresh draws, instead of any tiles at all. Only what the view shows is read.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cribtiles.rules.board import Board
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Play
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.tiles import Tile

from .leave import LeaveTable

#: Sets of kept tiles drawn and tested per opponent and move (each test is one move generation).
TRIES = 160
#: Stop drawing once this many sets agree with the play.
ENOUGH = 48
#: A play this many points (score plus leave) below the best on the rebuilt rack still looks chosen.
SLACK = 3.0
#: With fewer agreeing sets than this the play was a surprise on every rack tried: no inference.
FEWEST = 8
#: How many of the rebuilt rack's best-scoring plays are weighed with their leave.
WIDTH = 12

Kept = tuple[Tile, ...]


def _board_before(view: PlayerView, index: int) -> Board:
    """The board as it was before turn `index` (its tiles and every later play's taken away)."""
    return view.board.without(
        s for turn in view.turns[index:] if isinstance(turn.move, Play) for s in turn.move.squares
    )


def _last_plays(view: PlayerView) -> dict[int, int]:
    """For each opponent, the index of their turn since this player's last one, when it was a play."""
    found: dict[int, int] = {}
    for index in range(len(view.turns) - 1, -1, -1):
        turn = view.turns[index]
        if turn.player == view.player:
            break
        if turn.player not in found and isinstance(turn.move, Play):
            found[turn.player] = index
    return found


def _ranks_left(rack: Sequence[Tile], play: Play) -> tuple[int, ...]:
    left = [t.rack_form.rank for t in rack]
    for t in play.tiles:
        left.remove(t.rack_form.rank)
    return tuple(sorted(left))


def _looks_chosen(
    board: Board, rack: Sequence[Tile], worth: int, kept: Kept, leave: LeaveTable, scorer: Scorer
) -> bool:
    plays = scorer.top_plays(board, rack, WIDTH)
    if not plays:
        return False
    best = max(score + leave.of_ranks(_ranks_left(rack, play)) for play, score in plays)
    chosen = worth + leave.of_ranks(tuple(sorted(t.rack_form.rank for t in kept)))
    return chosen >= best - SLACK


def kept_sets(view: PlayerView, rng: random.Random, leave: LeaveTable) -> dict[int, list[Kept]]:
    """For each opponent whose last turn was a play, the sets of kept tiles that agree with it (none
    for an opponent whose play agreed with too few, or who kept nothing, or in Solitaire, where the
    sides draw from bags of their own colour)."""
    if view.options.solitaire:
        return {}
    out: dict[int, list[Kept]] = {}
    pool = list(view.unseen)
    for player, index in _last_plays(view).items():
        turn = view.turns[index]
        assert isinstance(turn.move, Play)
        size = view.rack_sizes[player] - turn.drawn
        if size <= 0 or size > len(pool):
            continue
        board = _board_before(view, index)
        # counted here, not read from the turn: the last play's worth is withheld while it may be called
        worth = view.scorer.score(board, turn.move).total
        played = tuple(t.rack_form for t in turn.move.tiles)
        agreeing: list[Kept] = []
        for _ in range(TRIES):
            kept = tuple(rng.sample(pool, size))
            if _looks_chosen(board, played + kept, worth, kept, leave, view.scorer):
                agreeing.append(kept)
                if len(agreeing) >= ENOUGH:
                    break
        if len(agreeing) >= FEWEST:
            out[player] = agreeing
    return out


def pick_known(sets: dict[int, list[Kept]], rng: random.Random, unseen: Sequence[Tile]) -> dict[int, Kept]:
    """One agreeing set per opponent for one guess of the hidden tiles, each drawn at random; an
    opponent whose set no longer fits beside the others' (the tiles are not all there) is left out."""
    left = Counter(unseen)
    known: dict[int, Kept] = {}
    for player, options in sets.items():
        kept = options[rng.randrange(len(options))]
        need = Counter(kept)
        if all(left[t] >= n for t, n in need.items()):
            left -= need
            known[player] = kept
    return known
