"""A tile game (and a match) given up: it ends at once, the others win whoever led, no rack is counted,
no call is made on it, and its record keeps the resignation apart from the actions, so that a record
without one (every record written before) loads as before and one with it replays to the same end
(issue 44)."""

from __future__ import annotations

import json
import random

import pytest

from cribtiles.rules import GameState, IllegalMove, RecordError, new_game
from cribtiles.rules.game import EndReason
from cribtiles.rules.match import Match
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.record import GameRecord, load, load_match, record_of, replay, save, save_match


def played(state: GameState, turns: int, seed: int = 1) -> GameState:
    """`turns` turns of the first legal play (or a pass), chosen at random from `seed`."""
    rng = random.Random(seed)
    for _ in range(turns):
        plays = state.legal_plays()
        state = state.apply(rng.choice(plays)) if plays else state.apply("pass")
    return state


def test_a_player_who_resigns_loses_to_every_other_whatever_the_scores() -> None:
    state = played(new_game(3, seed=4, names=("Ann", "Ben", "Cat")), 5)
    leader = max(range(3), key=lambda p: state.scores[p])
    over = state.resign(leader)
    assert over.is_over and over.current_player is None and over.legal_actions() == []
    assert over.outcome is not None
    assert over.outcome.reason is EndReason.RESIGNED and over.outcome.resigned == leader
    assert over.outcome.winners == tuple(p for p in range(3) if p != leader)
    assert over.outcome.final_scores == state.scores and over.outcome.deductions == (0, 0, 0)
    assert over.log == state.log  # the rules' actions: the resignation is not one of them
    with pytest.raises(IllegalMove, match="the game is over"):
        over.resign(0)
    with pytest.raises(IllegalMove, match="there is no player 4"):
        state.resign(3)


def test_no_joker_is_called_on_a_game_given_up() -> None:
    state = played(new_game(2, RuleOptions(joker=True), seed=5), 3)
    with pytest.raises(IllegalMove, match="given up"):
        state.resign(0).call_joker(0)


def test_the_record_keeps_the_resignation_and_replays_to_the_same_end() -> None:
    state = played(new_game(2, seed=6, names=("Ann", "Ben")), 4)
    over = state.resign(1)
    data = json.loads(save(over))
    assert data["resigned"] == 1 and len(data["actions"]) == 4
    again = load(save(over))
    assert again == over
    assert replay(record_of(over), 4) == state  # the game as it stood before, for a review
    assert "resigned" not in json.loads(save(state))  # a game played on has none, as records before it


def test_a_record_naming_no_player_as_the_one_who_resigned_is_refused_in_words() -> None:
    data = json.loads(save(played(new_game(2, seed=6), 2)))
    for wrong in (2, -1, "0", True):
        with pytest.raises(RecordError, match="the player who gave it up is no player of it"):
            GameRecord.from_dict({**data, "resigned": wrong})


def test_a_match_given_up_in_its_first_round_is_over_and_won_by_the_others() -> None:
    options = RuleOptions(rounds=3)
    match = Match.start(2, options, 9, ("Ann", "Ben"))
    match = Match(match.options, match.seed, match.names, (), played(match.game, 6))
    over = match.resign(0)
    assert over.is_over and over.resigned == 0 and over.winners == (1,)
    assert over.round == 1 and over.totals == match.game.scores
    with pytest.raises(IllegalMove, match="Ann gave it up"):
        over.next_round()
    again = load_match(save_match(over))
    assert again.is_over and again.resigned == 0 and again.winners == (1,)
