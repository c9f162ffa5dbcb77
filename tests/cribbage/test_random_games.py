"""Random-game conformance for cribtiles.cribbage: thousands of seeded games of random legal moves, with the
rules' invariants checked at every step (the 52 cards all somewhere once, the count never above 31, scores
only rising, the end at the target and nothing after, under muggins every score said aloud open to a call
whatever it makes), records that replay to the same state, and views that show nothing a player may not
see."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from cribtiles.cribbage import (
    ClaimKind,
    Count,
    CribbageError,
    CribbageOptions,
    CribbageState,
    EventKind,
    Go,
    Move,
    Muggins,
    Phase,
    PlayCard,
    call_points,
    new_game,
    parse_move,
    replay,
)

GAMES = 2000  # under `pytest --thorough`
SAMPLE = 500  # otherwise: the first 500, every combination of the options among them
WATCHED = 20  # every 20th game also checks both views at every step and replays its record


def options_for(game: int) -> CribbageOptions:
    """Muggins in the show in every other game, in the play in every third: both, either, neither; in every
    seventh the end of the records made before `end_on_answer` (a count that reached the target ended the
    game at once)."""
    return CribbageOptions(
        muggins=game % 2 == 1,
        target=61 if game % 5 == 0 else 121,
        play_muggins=game % 3 == 1,
        end_on_answer=game % 7 != 3,
    )


def told(state: CribbageState) -> tuple[int, ...]:
    """The scores less what a score said aloud and still open to a call pegged (as the table tells them)."""
    claim = state.claim
    if claim is None:
        return state.scores
    side = state.side_of(claim.counter)
    return tuple(score - (claim.pegged if s == side else 0) for s, score in enumerate(state.scores))


def check_scores(state: CribbageState, move: Move, before: CribbageState) -> None:
    """Every step: scores only rise, by what the move's events peg, and stop at the target, where the game
    ends; but under `end_on_answer` a score said aloud is open to a call whatever it makes, its points
    pegged at once, past the target too, and the game ends at its answer, the scores kept at the target."""
    target = state.options.target
    gained = [now - then for now, then in zip(state.scores, before.scores, strict=True)]
    pegged = [sum(e.points for e in state.events if state.side_of(e.player) == s) for s in range(len(gained))]
    said = (isinstance(move, Count) and state.options.muggins) or (
        isinstance(move, PlayCard) and state.options.play_muggins
    )
    if said and state.options.end_on_answer:
        assert state.claim is not None and not state.is_over  # a window, whatever the count makes
    if state.is_over:
        assert max(state.scores) == target and state.outcome is not None
        assert all(pegged[s] >= gained[s] for s in range(len(gained)))  # the winner stops at the target
        if min(gained) < 0:  # kept at the target: only a count past it, at its answer
            assert isinstance(move, Muggins) and state.options.end_on_answer
            assert max(before.scores) > target and before.claim is not None
        return
    assert pegged == gained and min(gained) >= 0 and max(told(state)) < target
    if not state.options.end_on_answer or state.claim is None:
        assert max(state.scores) < target


def check_claim(state: CribbageState, move: Move, before: CribbageState) -> None:
    """Every step under muggins: a score said aloud pegs what was said, never more than the cards make, and
    waits for the opponent's answer; a call moves the difference to the caller, or WRONG_CALL to the counter."""
    claim = state.claim
    if claim is not None:
        assert not state.is_over and state.current_player == 1 - claim.counter
        assert state.legal_actions() == (Muggins(True), Muggins(False))
        said = [e for e in state.events if e.kind in (EventKind.COUNT, EventKind.CLAIM)]
        assert sum(e.points for e in said) == claim.pegged == min(claim.declared, claim.worth)
        assert claim.kind is (ClaimKind.PLAY if isinstance(move, PlayCard) else ClaimKind.SHOW)
    if before.claim is not None:
        assert isinstance(move, Muggins)
        to_caller, to_counter = call_points(before.claim) if move.claim else (0, 0)
        caller = 1 - before.claim.counter
        took = [
            (e.player, e.kind, e.points) for e in state.events if e.kind in (EventKind.MUGGINS, EventKind.WRONG_CALL)
        ]
        expected = [(caller, EventKind.MUGGINS, to_caller)] if to_caller else []
        expected += [(before.claim.counter, EventKind.WRONG_CALL, to_counter)] if to_counter else []
        assert took == expected
    if not before.options.muggins:
        assert not isinstance(move, Muggins) or before.options.play_muggins


def check_cards(state: CribbageState) -> None:
    """Every step: the 52 cards each somewhere once, the count the pile's and never above 31."""
    where = [*state.hands[0], *state.hands[1], *(card for _, card in state.played), *state.crib, *state.stock]
    assert len(where) == 52 and len(set(where)) == 52
    assert state.count == sum(c.value for c in state.pile) <= 31


def check_deal(state: CribbageState) -> None:
    """In the watched games: the pile is the latest cards laid, the kept hands are what was held and laid."""
    played = [card for _, card in state.played]
    assert tuple(played[len(played) - len(state.pile) :]) == state.pile
    if state.phase is Phase.PLAY:
        assert len(state.crib) == 4 and state.starter == state.stock[0]
        for p in (0, 1):
            assert set(state.shown[p]) == {*state.hands[p], *(c for q, c in state.played if q == p)}
    elif state.phase is Phase.SHOW:
        assert state.hands == ((), ()) and len(state.played) == 8


def check_view(state: CribbageState, player: int, before: CribbageState) -> None:
    view = state.view(player)
    other = 1 - player
    assert view.hand == state.hands[player] and view.scores == state.scores
    assert list(view.unseen) == sorted(view.unseen)
    counted = {c for hand in view.shown_hands for c in hand.cards}
    secret = {*state.hands[other], *(c for c in state.stock if c != state.starter)}
    secret |= {c for c in state.crib if c not in state.discards[player] and c not in counted}
    secret |= {c for c in state.shown[other] if c not in counted and c not in {c for _, c in state.played}}
    if state.phase is Phase.SHOW and state.claim is None:  # the next hand or crib is laid face up to be counted
        assert view.to_count == state.show_cards(state.show_step)[0]
        secret -= set(view.to_count)
    else:
        assert view.to_count == ()
    assert secret <= set(view.unseen)
    # nothing secret anywhere else in the view: its text, less the unseen cards, the cut for deal (shown
    # before the first deal was shuffled) and the events of a move that dealt again (the crib just counted)
    new_deal = state.deal_number != before.deal_number
    if new_deal:
        assert {c for e in view.events for c in e.cards} <= {*before.crib, before.starter}
    text = repr(dataclasses.replace(view, unseen=(), cut_for_deal=(), events=() if new_deal else view.events))
    assert [c for c in secret if repr(c) in text] == []
    assert not hasattr(view, "stock") and not hasattr(view, "log")
    assert view.legal == (state.legal_actions() if state.current_player == player else ())
    assert view.claim == state.claim


def play_game(game: int, watched: bool) -> CribbageState:
    rng = random.Random(game)
    state = new_game(game, options=options_for(game))
    target = state.options.target
    while not state.is_over:
        before = state
        moves = state.legal_actions()
        assert moves and state.current_player is not None
        move = rng.choice(moves)
        state = state.apply(move)
        check_cards(state)
        check_claim(state, move, before)
        check_scores(state, move, before)
        if state.deal_number != before.deal_number:
            assert state.deal_number == before.deal_number + 1 and state.dealer == 1 - before.dealer
            assert before.phase is Phase.SHOW
        if watched:
            assert parse_move(str(move)) == move
            check_deal(state)
            check_view(state, 0, before)
            check_view(state, 1, before)
    assert state.outcome is not None and state.scores[state.outcome.winner] == target
    assert state.outcome.scores == state.scores and state.current_player is None and state.legal_actions() == ()
    with pytest.raises(CribbageError):
        state.apply(Go())
    if watched:
        assert replay(json.loads(json.dumps(state.record()))) == state
    return state


def test_thousands_of_random_games_keep_the_rules(thorough: bool) -> None:
    games = GAMES if thorough else SAMPLE
    finished = [play_game(game, watched=game % WATCHED == 0) for game in range(games)]
    assert len(finished) == games
    winners = [s.outcome.winner for s in finished if s.outcome is not None]
    assert 0 < winners.count(0) < games  # both seats win some
    assert any(s.outcome is not None and s.outcome.lurch for s in finished)
    assert any(s.phase is Phase.OVER and s.show_step == 0 and s.deal_number > 1 for s in finished)  # won in the play
    calls = [m for s in finished for m in s.log if m in ("muggins", "no muggins")]
    assert calls.count("muggins") > games // 2 and calls.count("no muggins") > games // 2
    # under muggins a game ends at the answer (a call or not) to a count that reached the target; under the
    # rule of the records of before, at the count itself
    ended = {(s.options.end_on_answer, s.log[-1].split()[0]) for s in finished if s.options.muggins}
    assert {(True, "muggins"), (True, "no"), (False, "count")} <= ended, ended
    assert (True, "count") not in ended
    assert all(not any(m.startswith("muggins") for m in s.log) for s in finished if s.options == CribbageOptions())


def test_a_game_replays_move_by_move_to_the_same_states() -> None:
    rng = random.Random(99)
    state = new_game(99)
    states = [state]
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    record = state.record()
    moves = record["moves"]
    assert isinstance(moves, list) and len(moves) == len(states) - 1
    for n in (0, 1, len(moves) // 2, len(moves)):
        assert replay({**record, "moves": moves[:n]}) == states[n]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, "not a record of a classic cribbage game"),
        ({"seed": "x"}, "its seed is missing or wrong"),
        ({"names": ["One"]}, "must name two players"),
        ({"options": {"target": 3}}, "its options are wrong"),
        ({"moves": ["play 5X"]}, "move 1 of the record ('play 5X') cannot be played"),
        ({"moves": ["go"]}, "move 1 of the record ('go') cannot be played: it is time to lay two cards"),
    ],
)
def test_a_damaged_record_is_refused_in_words(change: dict[str, object], message: str) -> None:
    record = {**new_game(1).record(), **change}
    with pytest.raises(CribbageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        replay(record)
