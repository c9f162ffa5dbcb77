"""Tests for the bot levels: legal, deterministic, blind to hidden tiles, within their time budgets."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from itertools import count

import pytest

from cribtiles.bot import LEVELS, make_bot
from cribtiles.bot.tiles.base import Bot, choose_safely
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.bot.tiles.simulate import ExpertBot
from cribtiles.rules import Exchange, GameState, Pass, Play, RuleOptions, new_game
from cribtiles.rules.movegen import has_legal_play

FAST_LEVELS = ("beginner", "easy", "medium", "hard")


def play_out(bots: list[Bot], seed: int, options: RuleOptions | None = None, players: int = 2) -> GameState:
    state = new_game(players, options or RuleOptions(), seed)
    rng = random.Random(seed)
    for _ in range(500):
        if state.is_over:
            return state
        move = bots[state.current].choose(state.view(state.current), rng)
        state = state.apply(move)  # raises IllegalMove if a bot chose an illegal move
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_every_choice_is_legal_over_seeded_games(level: str) -> None:
    for seed in range(3):
        state = play_out([make_bot(level), make_bot("medium")], seed)
        assert state.outcome is not None


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_levels_play_three_and_four_players_and_solitaire(level: str) -> None:
    three = play_out([make_bot(level), make_bot("easy"), make_bot("medium")], 4, players=3)
    four = play_out([make_bot(level)] * 4, 5, players=4)
    options = RuleOptions.parse("mode=solitaire,exchange=any-time")
    solitaire = play_out([make_bot(level), make_bot("medium")], 6, options)
    assert (three.players, four.players, solitaire.players) == (3, 4, 2)
    assert three.outcome is not None and four.outcome is not None and solitaire.outcome is not None


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_same_seed_same_game(level: str) -> None:
    a = play_out([make_bot(level), make_bot(level)], 11)
    b = play_out([make_bot(level), make_bot(level)], 11)
    assert a.log == b.log


def reshuffle_hidden(state: GameState, viewer: int, seed: int) -> GameState:
    """The same position as `viewer` sees it, with the other racks and the bag dealt differently."""
    rng = random.Random(seed)
    hidden = [t for p, r in enumerate(state.racks) if p != viewer for t in r] + list(state.bags[0])
    rng.shuffle(hidden)
    racks = []
    for p, r in enumerate(state.racks):
        if p == viewer:
            racks.append(r)
        else:
            racks.append(tuple(hidden[: len(r)]))
            del hidden[: len(r)]
    return replace(state, racks=tuple(racks), bags=(tuple(hidden),))


@pytest.mark.parametrize("level", [*FAST_LEVELS, "expert"])
def test_bots_see_nothing_hidden(level: str) -> None:
    """Two states that differ only in what the player cannot see give that player the same view,
    and the bot the same move."""
    state = play_out_to(seed=3, plays=8)
    p = state.current
    other = reshuffle_hidden(state, p, 99)
    assert other.racks != state.racks or other.bags != state.bags
    assert other.view(p) == state.view(p)
    bot = make_bot(level, budget=0.05) if level == "expert" else make_bot(level)
    if isinstance(bot, ExpertBot):
        bot = replace(bot, clock=fake_clock(0.001))
    m1 = bot.choose(state.view(p), random.Random(5))
    if isinstance(bot, ExpertBot):
        bot = replace(bot, clock=fake_clock(0.001))
    m2 = bot.choose(other.view(p), random.Random(5))
    assert m1 == m2


def play_out_to(seed: int, plays: int) -> GameState:
    state = new_game(2, seed=seed)
    bot = make_bot("medium")
    rng = random.Random(seed)
    while sum(1 for t in state.turns if t.is_play) < plays:
        state = state.apply(bot.choose(state.view(state.current), rng))
    return state


def test_view_holds_no_hidden_tile() -> None:
    state = play_out_to(seed=8, plays=6)
    view = state.view(0)
    text = repr(view)
    # the bag's order and the other rack are nowhere in the view; the unseen multiset is sorted
    assert view.unseen == tuple(sorted(view.unseen))
    assert sorted(view.unseen) == sorted([*state.racks[1], *state.bags[0]])
    assert "bags=" not in text and "racks=" not in text


def fake_clock(step: float) -> object:
    """A clock that moves on by `step` seconds each time it is read: time without the machine's noise."""
    ticks = count()
    return lambda: next(ticks) * step


def test_expert_respects_its_budget_on_a_fake_clock() -> None:
    state = play_out_to(seed=2, plays=4)
    reads: list[float] = []
    base = fake_clock(0.002)

    def clock() -> float:
        reads.append(base())  # type: ignore[operator]
        return reads[-1]

    bot = ExpertBot(budget=0.3, clock=clock)
    move = bot.choose(state.view(state.current), random.Random(1))
    assert isinstance(move, Play | Exchange | Pass)
    # the bot stops reading the clock soon after its deadline (one rollout costs a few reads)
    assert reads[-1] <= reads[0] + 0.3 + 0.05
    assert sum(bot.last_samples.values()) > 0


def test_expert_plays_a_whole_game_with_a_small_budget() -> None:
    state = play_out([ExpertBot(budget=0.02), make_bot("medium")], 21)
    assert state.is_over


def test_expert_searches_the_endgame_when_the_bag_is_empty() -> None:
    state = new_game(2, seed=13)
    bot = make_bot("medium")
    rng = random.Random(13)
    while state.bag_size() > 0 and not state.is_over:
        state = state.apply(bot.choose(state.view(state.current), rng))
    # seed 13 reaches an empty bag with the player to move holding a play (a skip here would prove nothing)
    assert not state.is_over and has_legal_play(state.board, state.racks[state.current])
    expert = ExpertBot(budget=0.3, clock=fake_clock(0.0005))  # type: ignore[arg-type]
    move = expert.choose(state.view(state.current), random.Random(1))
    state.apply(move)  # legal
    # the move is the endgame search's, not the simulation's (which would leave last_endgame None)
    assert expert.last_endgame is not None and expert.last_endgame.play == move
    assert not expert.last_samples


def test_a_failing_bot_falls_back_to_the_greedy_move(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        name = "broken"

        def choose(self, view: object, rng: random.Random, budget: float | None = None) -> Play:
            raise RuntimeError("oops")

    state = new_game(2, seed=1)
    move = choose_safely(Broken(), state.view(state.current), random.Random(0))
    state.apply(move)
    assert move == greedy_move(state.view(state.current), random.Random(0))
    assert "the broken bot failed; it plays the greedy move instead" in caplog.text
    assert "RuntimeError: oops" in caplog.text


def test_medium_takes_the_best_score() -> None:
    from cribtiles.rules.movegen import scored_plays

    state = play_out_to(seed=4, plays=5)
    view = state.view(state.current)
    move = make_bot("medium").choose(view, random.Random(0))
    best = max(s for _, s in scored_plays(view.board, view.rack))
    assert dict(scored_plays(view.board, view.rack))[move] == best


def test_stuck_bots_exchange_or_pass() -> None:
    from cribtiles.rules import parse_rack

    # on the empty board, A 3 7 Q K makes no hand: no pair, no run, no fifteen
    state = new_game(2, seed=1)
    rack = parse_rack("AL 3D 7L QD KL")
    state = replace(state, racks=tuple(rack if p == state.current else r for p, r in enumerate(state.racks)))
    assert not has_legal_play(state.board, rack)
    for level in LEVELS:
        bot = make_bot(level, budget=0.05)
        move = bot.choose(state.view(state.current), random.Random(0))
        assert isinstance(move, Exchange)  # the bag is full: throwing tiles back beats passing
        state.apply(move)


def test_unknown_level_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match=r"'grandmaster'; the levels are beginner, .*, expert$") as e:
        make_bot("grandmaster")
    assert str(e.value).endswith(", ".join(LEVELS))  # every level named, a new one too


def test_bot_package_imports_no_pygame() -> None:
    code = "import cribtiles.bot, cribtiles.table.arena, sys; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
