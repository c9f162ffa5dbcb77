"""Inference of an opponent's kept tiles from their last play: drawn only from what the viewer cannot
see, the right size, telling (the tiles really kept agree with the play far more often than tiles
drawn at random), and dealt to that opponent when a state is guessed."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import pairwise

import pytest

from cribtiles.bot import make_bot
from cribtiles.bot.tiles.infer import _board_before, _last_plays, _looks_chosen, kept_sets, pick_known
from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.sampling import determinize
from cribtiles.rules import GameState, RuleOptions, new_game
from cribtiles.rules.moves import Play
from cribtiles.rules.scorer import STANDARD_SCORER
from cribtiles.rules.scoring import score_play
from cribtiles.rules.tiles import remove_tiles


def medium_game(seed: int) -> list[GameState]:
    """Every state of a seeded Medium-vs-Medium game, the first to the last."""
    medium = make_bot("medium")
    state = new_game(2, seed=seed)
    states = [state]
    while not state.is_over:
        state = state.apply(medium.choose(state.view(state.current), random.Random(seed)))
        states.append(state)
    return states


def test_the_tiles_really_kept_agree_more_often_than_random_ones() -> None:
    leave = default_leave()
    rng = random.Random(5)
    truth = chance = tried = 0
    for seed in range(4):
        states = medium_game(seed)
        for before, after in pairwise(states):
            turn = after.turns[-1]
            if not isinstance(turn.move, Play) or after.is_over or after.bag_size() < 10:
                continue
            kept = tuple(t.rack_form for t in remove_tiles(before.racks[turn.player], turn.move.tiles))
            if not kept:
                continue
            view = after.view(after.current)
            played = tuple(t.rack_form for t in turn.move.tiles)
            tried += 1
            worth = score_play(before.board, turn.move).total
            truth += _looks_chosen(before.board, played + kept, worth, kept, leave, STANDARD_SCORER)
            other = tuple(rng.sample(list(view.unseen), len(kept)))
            chance += _looks_chosen(before.board, played + other, worth, other, leave, STANDARD_SCORER)
    assert tried >= 60
    assert truth / tried >= 0.8
    assert chance / tried <= truth / tried - 0.25


def test_kept_sets_come_from_the_unseen_tiles_and_have_the_kept_size() -> None:
    leave = default_leave()
    states = medium_game(2)
    checked = 0
    for state in states[2:40]:
        if state.is_over:
            break
        view = state.view(state.current)
        sets = kept_sets(view, random.Random(1), leave)
        for player, options in sets.items():
            turn = view.turns[_last_plays(view)[player]]
            assert player != view.player
            for kept in options:
                assert len(kept) == view.rack_sizes[player] - turn.drawn
                assert not Counter(kept) - Counter(view.unseen)
            checked += 1
    assert checked >= 10


def test_the_board_before_a_play_lacks_its_tiles() -> None:
    states = medium_game(3)
    after = states[5]
    view = after.view(after.current)
    assert _board_before(view, len(view.turns) - 1) == states[4].board


@pytest.mark.parametrize("seed", range(3))
def test_a_guess_deals_the_known_tiles_to_their_opponent(seed: int) -> None:
    found = None
    for state in medium_game(seed)[4:]:  # the first position with an inference to use
        view = state.view(state.current)
        sets = kept_sets(view, random.Random(seed), default_leave())
        if 1 - view.player in sets:
            found = (view, sets)
            break
    assert found is not None
    view, sets = found
    opponent = 1 - view.player
    rng = random.Random(seed)
    known = pick_known(sets, rng, view.unseen)
    guess = determinize(view, rng, known)
    assert not Counter(known[opponent]) - Counter(guess.racks[opponent])
    assert len(guess.racks[opponent]) == view.rack_sizes[opponent]
    hidden = Counter(guess.racks[opponent]) + Counter(t for b in guess.bags for t in b)
    assert hidden == Counter(view.unseen)


def test_the_inference_counts_a_play_whose_worth_is_withheld() -> None:
    """Under the Joker rule the view withholds the last play's worth while it may be called (issue 43):
    the inference counts it from the board, and reads the same as from a view that told it."""
    medium = make_bot("medium")
    state = new_game(2, RuleOptions.parse("joker=on"), seed=4)
    compared = 0
    while not state.is_over and compared < 6:
        state = state.apply(medium.choose(state.view(state.current), random.Random(4)))
        view = state.view(state.current)
        if view.turns[-1].true_points is not None:
            continue
        told = replace(view, turns=(*view.turns[:-1], state.turns[-1]))  # the worth told, as before issue 43
        assert told != view
        sets = kept_sets(view, random.Random(compared), default_leave())
        assert sets == kept_sets(told, random.Random(compared), default_leave())
        compared += bool(sets)
    assert compared == 6


def test_no_inference_in_solitaire() -> None:
    state = new_game(2, RuleOptions.parse("mode=solitaire"), seed=1)
    hard = make_bot("hard")
    for _ in range(3):
        state = state.apply(hard.choose(state.view(state.current), random.Random(1)))
    assert kept_sets(state.view(state.current), random.Random(1), default_leave()) == {}
