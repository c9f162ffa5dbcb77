"""Tests for cribtiles.games: both games played through the one protocol and the registry alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cribtiles.games import CRIBBAGE, GAMES, TILES, GameKind, game_named

KINDS = [pytest.param(kind, id=name) for name, kind in GAMES.items()]
MOST_ACTIONS = 3000  # a random game of either ends far sooner; the bound only stops a broken one


def play_out(kind: GameKind[Any], names: tuple[str, ...], seed: int) -> tuple[Any, list[str]]:
    """A whole game of random legal actions, checking the protocol's promises at every step."""
    rng = random.Random(seed)
    state = kind.start(names, seed)
    taken: list[str] = []
    for _ in range(MOST_ACTIONS):
        actions = state.legal_actions()
        assert (state.current_player is None) == state.is_over == (len(actions) == 0)
        assert state.returns() == (0.0,) * state.players or state.is_over
        if state.is_over:
            return state, taken
        assert 0 <= state.current_player < state.players
        for p in range(state.players):
            state.view(p)
        action = rng.choice(list(actions))
        text = kind.format_action(action)
        assert kind.parse_action(text) == action  # the notation reads back
        taken.append(text)
        state = state.apply(action)
    raise AssertionError(f"{kind.name}: no end after {MOST_ACTIONS} actions")


@pytest.mark.parametrize("kind", KINDS)
def test_random_games_keep_the_protocol_and_their_records_replay(kind: GameKind[Any]) -> None:
    for seed in (1, 2):
        names = ("Ann", "Ben")
        state, taken = play_out(kind, names, seed)
        returns = state.returns()
        assert len(returns) == state.players == len(names) and sum(returns) == pytest.approx(1.0)
        assert all(r in (0.0, 0.5, 1.0) for r in returns)
        text = kind.record(state)
        again = kind.replay(text)
        assert again.is_over and again.returns() == returns and kind.record(again) == text
        # a seed and the actions, in their notation, reproduce the whole game
        state2 = kind.start(names, seed)
        for action in taken:
            state2 = state2.apply(kind.parse_action(action))
        assert kind.record(state2) == text


def test_the_tile_game_takes_three_and_four_players_through_the_protocol() -> None:
    state, _ = play_out(TILES, ("Ann", "Ben", "Cat", "Dan"), 3)
    assert state.players == 4 and state.is_over


def test_the_registry_names_both_games_and_refuses_others_in_words() -> None:
    assert set(GAMES) == {"tiles", "cribbage"} and game_named("cribbage") is CRIBBAGE and game_named("tiles") is TILES
    assert CRIBBAGE.seats == (2,) and TILES.seats == (2, 3, 4)
    with pytest.raises(ValueError, match="no game called 'chess': the games are tiles, cribbage"):
        game_named("chess")
    with pytest.raises(ValueError, match="two"):
        CRIBBAGE.start(("Ann", "Ben", "Cat"), 1)


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_record_is_refused_in_words(kind: GameKind[Any]) -> None:
    for text in ("", "{", "[]", '{"moves": 3}'):
        with pytest.raises(ValueError):
            kind.replay(text)
