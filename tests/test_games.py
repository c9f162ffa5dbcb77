"""Tests for cribtiles.games: both games played through the one protocol, and the registry.

How a game starts, is written down and read back are each engine's own functions; the few lines that
put them side by side for these tests live here (`Engine`), not in the registry, which no code of the
game needed them from (issue 45)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from cribtiles import cribbage, rules
from cribtiles.games import CRIBBAGE, GAMES, TILES, GameKind, GameState
from cribtiles.rules import record as tile_record

MOST_ACTIONS = 3000  # a random game of either ends far sooner; the bound only stops a broken one


@dataclass(frozen=True)
class Engine:
    """One engine's start, record and notation, side by side."""

    kind: GameKind
    start: Callable[[Sequence[str], int], Any]  # (the players' names, the seed) -> a new game
    record: Callable[[Any], str]  # the game as text: its seed, players, options and every action
    replay: Callable[[str], Any]  # the game a record leads to, every action checked (a ValueError in words)
    parse_action: Callable[[str], object]
    format_action: Callable[[Any], str]


def replay_cribbage(text: str) -> cribbage.CribbageState:
    data = json.loads(text)  # a JSONDecodeError is a ValueError
    if not isinstance(data, dict):
        raise cribbage.CribbageError("this is not a record of a classic cribbage game")
    return cribbage.replay(data)


TILE_ENGINE = Engine(
    TILES,
    lambda names, seed: rules.new_game(len(names), seed=seed, names=names),
    tile_record.save,
    tile_record.load,
    rules.parse_move,
    rules.format_move,
)
CRIBBAGE_ENGINE = Engine(
    CRIBBAGE,
    lambda names, seed: cribbage.new_game(seed, (names[0], names[1])),
    lambda state: json.dumps(state.record()),
    replay_cribbage,
    cribbage.parse_move,
    str,
)
KINDS = [pytest.param(engine, id=engine.kind.name) for engine in (TILE_ENGINE, CRIBBAGE_ENGINE)]


def play_out(kind: Engine, names: tuple[str, ...], seed: int) -> tuple[Any, list[str]]:
    """A whole game of random legal actions, checking the protocol's promises at every step."""
    rng = random.Random(seed)
    state: GameState[Any] = kind.start(names, seed)
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
    raise AssertionError(f"{kind.kind.name}: no end after {MOST_ACTIONS} actions")


@pytest.mark.parametrize("kind", KINDS)
def test_random_games_keep_the_protocol_and_their_records_replay(kind: Engine) -> None:
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
    state, _ = play_out(TILE_ENGINE, ("Ann", "Ben", "Cat", "Dan"), 3)
    assert state.players == 4 and state.is_over


def test_the_registry_names_both_games_their_titles_and_seats() -> None:
    assert GAMES == {"tiles": TILES, "cribbage": CRIBBAGE}
    assert (TILES.title, TILES.seats) == ("Kings Cribbage", (2, 3, 4))
    assert (CRIBBAGE.title, CRIBBAGE.seats) == ("Cribbage", (2, 3, 4))


DAMAGED = [  # (engine, a damaged record, the words it is refused in)
    (TILE_ENGINE, "", r"the saved game is damaged \(not valid JSON: Expecting value at line 1\)"),
    (TILE_ENGINE, "{", r"the saved game is damaged \(not valid JSON: Expecting property name"),
    (TILE_ENGINE, "[]", "this file is not a Crib Tiles game record"),
    (TILE_ENGINE, '{"moves": 3}', "this file is not a Crib Tiles game record"),
    (CRIBBAGE_ENGINE, '{"moves": 3}', "this is not a record of a classic cribbage game this version can read"),
]


@pytest.mark.parametrize(("kind", "text", "words"), DAMAGED)
def test_a_damaged_record_is_refused_in_words(kind: Engine, text: str, words: str) -> None:
    with pytest.raises(ValueError, match=f"^{words}"):
        kind.replay(text)


def test_every_part_of_every_game_is_there_and_the_bundle_is_told_of_its_module() -> None:
    """Each role a game names leads to an attribute of an importable module; the installers' bundler,
    which cannot see imports by name, is given every module (`installer.spec`'s PART_MODULES)."""
    from pathlib import Path

    from cribtiles.games import part_modules

    for kind in GAMES.values():
        for role, _where in kind.parts:
            assert kind.part(role) is not None, (kind.name, role)
    spec = (Path(__file__).resolve().parents[1] / "installer.spec").read_text(encoding="utf-8")
    assert "*PART_MODULES" in spec and "PART_MODULES = part_modules()" in spec
    assert len(part_modules()) >= 8
    with pytest.raises(ValueError, match=r"^Kings Cribbage has no part for the nothing$"):
        TILES.part("nothing")
