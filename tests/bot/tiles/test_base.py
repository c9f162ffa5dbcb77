"""A bot's Joker manners (`JokerManners.should_call`): it counts the last play itself from the board,
since no view tells a play's worth while it may be called (issue 43), and calls in exactly the cases
it called in when the view still told it (the engine's `unclaimed` and `overclaimed`)."""

from __future__ import annotations

import random

import pytest

from cribtiles.bot.tiles.base import JokerManners
from cribtiles.rules.game import GameState, new_game
from cribtiles.rules.moves import Pass, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.table.tiles.public import player_view, public_of

JOKER = RuleOptions.parse("joker=on,exchange=any-time")
MANNERS = (JokerManners(), JokerManners(undercount=0.3, oversight=0.5))


def told_rule(state: GameState, viewer: int, manners: JokerManners, rng: random.Random | None) -> bool:
    """The rule as it was before issue 43, reading what the referee knows: a call when the last play, by
    someone else, left points unclaimed or claimed too many, and nobody has settled it yet."""
    last = state.turns[-1] if state.turns else None
    if not state.options.joker or last is None or not last.is_play:
        return False
    wrong = state.unclaimed > 0 or state.overclaimed > 0
    missed = last.player != viewer and wrong
    return missed and (rng is None or rng.random() >= manners.oversight)


def first_play(state: GameState) -> tuple[GameState, Play, int]:
    play = next(p for p in state.legal_plays() if len(p.placements) == 2)
    return state, play, score_play(state.board, play).total


def joker_states(players: int, seed: int) -> list[GameState]:
    """Every state of a seeded random game under the Joker rule: plays declared short, right and over,
    and calls made now and then, a second call on a play already called among them."""
    rng = random.Random(seed)
    state = new_game(players, JOKER, seed)
    states = [state]
    while not state.is_over:
        plays = state.legal_plays()
        if plays:
            play = rng.choice(plays)
            total = score_play(state.board, play).total
            state = state.apply(play, declared=max(0, total + rng.choice((-3, -1, 0, 0, 0, 2))))
        else:
            state = state.apply(Pass())
        states.append(state)
        while rng.random() < 0.35:  # a call, perhaps after another's on the same play
            last = state.turns[-1]
            state = state.call_joker(rng.choice([q for q in range(players) if q != last.player]))
            states.append(state)
    return states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_calls_from_its_own_count_exactly_when_it_called_from_the_told_worth(players: int) -> None:
    met = {"call": 0, "no call on a play": 0, "settled": 0}
    over = 0  # games played to their end, where the bots may still call on the last play
    for seed in range(3):
        states = joker_states(players, seed)
        over += states[-1].is_over
        for state in states:
            last = state.turns[-1] if state.turns else None
            for viewer in range(players):
                view = state.view(viewer)
                remote = player_view(public_of(state), viewer, state.racks[viewer])  # a seat over the wire
                for manners in MANNERS:
                    for k in range(2):
                        told = told_rule(state, viewer, manners, random.Random(k))
                        assert manners.should_call(view, random.Random(k)) is told
                        assert manners.should_call(remote, random.Random(k)) is told
                    told = told_rule(state, viewer, manners, None)
                    assert manners.should_call(view) is told
                    if last is not None and last.is_play and last.player != viewer and manners == MANNERS[0]:
                        met["call" if told else "no call on a play"] += 1
                        met["settled"] += view.last_called and last.points != last.true_points
    assert all(n >= 5 for n in met.values()) and over == 3, (met, over)


def test_the_count_is_what_it_rests_on() -> None:
    """The check above can fail: a bot that ignored the calls already made on the play would call
    again on a play settled by another's call, where the told rule did not."""
    disagreed = 0
    for state in joker_states(3, 0):
        last = state.turns[-1] if state.turns else None
        if last is None or not last.is_play:
            continue
        for viewer in range(3):
            view = state.view(viewer)
            forgetful = last.player != viewer and view.last_play_worth() != last.points
            disagreed += forgetful is not told_rule(state, viewer, JokerManners(), None)
    assert disagreed > 0


def test_a_call_follows_the_count_of_the_last_play() -> None:
    s, play, total = first_play(new_game(3, JOKER, 3))
    p = s.current
    a, b = (p + 1) % 3, (p + 2) % 3
    perfect = JokerManners()
    short, right, over = (s.apply(play, declared=total + d) for d in (-2, 0, 3))
    for state, wrong in ((short, True), (right, False), (over, True)):
        assert state.view(a).turns[-1].true_points is None  # not told: counted
        assert perfect.should_call(state.view(a)) is wrong
        assert not perfect.should_call(state.view(p))  # never on its own play
    assert not perfect.should_call(short.call_joker(b).view(a))  # settled by another's call
    assert not perfect.should_call(short.apply(Pass()).view(a))  # the next player acted
    assert not JokerManners(oversight=1.0).should_call(short.view(a), random.Random(0))
    assert not perfect.should_call(new_game(3, RuleOptions(), 3).view(a))
