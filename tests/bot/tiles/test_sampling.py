"""A state guessed from a player's view: what is public (board, scores, the count of turns without a
play, and of turns in which nobody could play) is the real game's; the hidden tiles are the unseen ones."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from cribtiles.bot.tiles.sampling import determinize
from cribtiles.rules import (
    Board,
    EndReason,
    Pass,
    RuleOptions,
    full_set,
    has_legal_play,
    new_game,
    parse_move,
    parse_rack,
)
from cribtiles.rules.tiles import remove_tiles


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


def test_a_guessed_state_locks_the_board_as_the_game_does() -> None:
    """Issue 28: a board locks after two rounds in which nobody could play only if nobody can play
    then. Which racks that asks rests on the public turns: an opponent who passed holds the rack they
    could not play, so a guess that gives them a play (their rack is a guess) still locks, as the game
    does, and a search never plays on from a position the game has ended."""
    board = Board.empty().place(parse_move("f7=AL g7=AD").placements)
    racks = (parse_rack("KL QD TL 8D 2L"), parse_rack("KD QL TD 8L 2D"))
    rest = list(remove_tiles(full_set(), (*parse_rack("AL AD"), *racks[0], *racks[1])))
    random.Random(3).shuffle(rest)
    s = replace(new_game(2, RuleOptions(), 3), board=board, racks=racks, bags=(tuple(rest),), current=0)
    assert not any(has_legal_play(board, r) for r in s.racks)
    s = s.apply("pass").apply("pass").apply("pass")  # the second player's turn: a pass locks the board
    locked = s.apply(Pass()).outcome
    assert locked is not None and locked.reason is EndReason.LOCKED
    rng = random.Random(0)
    guessed_a_play = 0
    for _ in range(40):
        g = determinize(s.view(1), rng)
        assert g.turns[-2:] == s.view(1).turns[-2:] and g.stuck_turns == 3
        guessed_a_play += has_legal_play(board, g.racks[0])
        ended = g.apply(Pass())
        assert ended.outcome is not None and ended.outcome.reason is EndReason.LOCKED
    assert guessed_a_play  # guesses that would have played on, had the guessed rack been asked
