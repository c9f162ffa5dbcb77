"""A state guessed from a player's view: what is public (board, scores, the count of turns without a
play, and of turns in which nobody could play) is the real game's; the hidden tiles are the unseen ones."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cribtiles.bot.sampling import determinize
from cribtiles.rules import RuleOptions, new_game


@pytest.mark.parametrize("rules", ["", "exchange=any-time", "mode=solitaire"])
@pytest.mark.parametrize("seed", range(6))
def test_a_guessed_state_keeps_what_is_public_and_deals_the_unseen_tiles(rules: str, seed: int) -> None:
    rng = random.Random(seed)
    s = new_game(2, RuleOptions.parse(rules), seed=seed)
    while not s.is_over:
        v = s.view(s.current)
        g = determinize(v, rng)
        assert (g.board, g.scores, g.current, g.idle, g.stuck) == (s.board, s.scores, s.current, s.idle, s.stuck)
        assert g.racks[s.current] == s.racks[s.current]
        hidden = Counter(t for p, r in enumerate(g.racks) if p != s.current for t in r) + Counter(
            t for b in g.bags for t in b
        )
        assert hidden == Counter(s.unseen_by(s.current))
        actions = s.legal_actions()
        plays = [a for a in actions if getattr(a, "placements", None)]
        # now and then a pass by choice (any-time) or when stuck, to reach idle and locked counts
        move = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(actions)
        s = s.apply(move)
