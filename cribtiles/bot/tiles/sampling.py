"""Guessing the hidden tiles: a full game state consistent with what one player can see.

The unseen tiles (other racks and the bags, as a multiset) are shuffled into the other players'
racks, of the sizes everyone can see, and into the bag(s). Nothing hidden is ever read: the view is
all there is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from cribtiles.rules.game import GameState, PlayerView
from cribtiles.rules.tiles import Colour, Tile


def idle_turns(view: PlayerView) -> int:
    """Turns in a row without a play, counted back from the last one."""
    n = 0
    for turn in reversed(view.turns):
        if turn.is_play:
            break
        n += 1
    return n


def stuck_turns(view: PlayerView) -> int:
    """Turns in a row in which the player could not play, counted back from the last one (under
    exchange=any-time a pass by choice is not one of them, and ends the count)."""
    n = 0
    for turn in reversed(view.turns):
        if turn.is_play or not turn.stuck:
            break
        n += 1
    return n


def determinize(view: PlayerView, rng: random.Random, known: Mapping[int, Sequence[Tile]] | None = None) -> GameState:
    """A game state drawn at random from those consistent with the view (the viewer to move).

    `known`: tiles taken to be on an opponent's rack (inferred from their last play, `infer`); the
    rest of their rack is drawn with the bag. Not used in Solitaire, whose bags are split by colour."""
    racks: list[tuple[Tile, ...]] = []
    if view.options.solitaire:
        # Each side draws from a bag of its own colour: split the unseen tiles by colour.
        side_colour = (Colour.DARK, Colour.LIGHT)
        pools = {c: [t for t in view.unseen if t.colour is c] for c in side_colour}
        for pool in pools.values():
            rng.shuffle(pool)
        for p in range(view.players):
            if p == view.player:
                racks.append(view.rack)
            else:
                pool = pools[side_colour[p]]
                racks.append(tuple(pool[: view.rack_sizes[p]]))
                del pool[: view.rack_sizes[p]]
        bags = tuple(tuple(pools[c]) for c in side_colour)
    else:
        known = known or {}
        pool = list(view.unseen)
        for tiles in known.values():
            for t in tiles:
                pool.remove(t)
        rng.shuffle(pool)
        for p in range(view.players):
            if p == view.player:
                racks.append(view.rack)
            else:
                kept = tuple(known.get(p, ()))
                fresh = view.rack_sizes[p] - len(kept)
                racks.append(kept + tuple(pool[:fresh]))
                del pool[:fresh]
        bags = (tuple(pool),)
    return GameState(
        options=view.options,
        seed=rng.getrandbits(32),
        names=view.names,
        board=view.board,
        racks=tuple(racks),
        bags=bags,
        scores=view.scores,
        current=view.player,
        start_draws=(),
        starter=view.starter,
        turns=view.turns[-view.players :],  # the last round, public: whether a board locks rests on it
        idle=idle_turns(view),
        stuck=stuck_turns(view),
    )
