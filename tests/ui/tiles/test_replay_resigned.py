"""A round given up, replayed turn by turn (`positions`, the replay's and the History's): its last position
is the round given up, after its last turn, so that the replay ends as the round did (issue 44)."""

from __future__ import annotations

import random

from cribtiles.rules import GameState, new_game
from cribtiles.rules.record import record_of, replay
from cribtiles.ui.tiles.replay_scene import positions


def played(state: GameState, turns: int) -> GameState:
    rng = random.Random(1)
    for _ in range(turns):
        plays = state.legal_plays()
        state = state.apply(rng.choice(plays)) if plays else state.apply("pass")
    return state


def test_a_replay_of_a_round_given_up_ends_given_up() -> None:
    state = played(new_game(2, seed=6, names=("Ann", "Ben")), 4)
    shown = positions(state.resign(0))
    assert len(shown) == 5 and shown[-1].outcome is not None and shown[-1].outcome.resigned == 0
    assert shown[-2] == replay(record_of(state), 3)
    assert positions(state)[-1] == state  # a round played on ends as it stands
