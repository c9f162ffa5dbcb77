"""Tests for cribtiles.cribbage.game: the cut for deal, the deal, the discard, his heels, the play (go, 31,
the last card, the count reset), the show's order, 121 up the moment it is reached, muggins in the show and
in the play, lurches."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from cribtiles.cribbage import (
    WRONG_CALL,
    Card,
    Claim,
    ClaimKind,
    Count,
    CribbageError,
    CribbageOptions,
    CribbageState,
    Discard,
    EventKind,
    Go,
    MarginKind,
    Muggins,
    PegKind,
    Phase,
    PlayCard,
    ShowKind,
    describe_cut,
    new_game,
    parse_card,
    parse_cards,
    parse_move,
    replay,
)
from cribtiles.cribbage.events import outcome_of

DEALER, PONE = 0, 1


def position(
    pone: str,
    dealer: str,
    starter: str = "AD",
    crib: str = "",
    scores: tuple[int, int] = (0, 0),
    options: CribbageOptions | None = None,
) -> CribbageState:
    """The play about to start: player 0 deals, player 1 leads, each holding the four cards given."""
    hands = {PONE: parse_cards(pone), DEALER: parse_cards(dealer)}
    held = {*hands[PONE], *hands[DEALER], parse_card(starter)}
    crib_cards = parse_cards(crib) if crib else tuple(c for c in new_game(0).stock if c not in held)[:4]
    pair = (hands[0], hands[1])
    return dataclasses.replace(
        new_game(0, options=options),
        dealer=DEALER,
        phase=Phase.PLAY,
        hands=pair,
        shown=pair,
        discarded=(True, True),
        crib=crib_cards,
        starter=parse_card(starter),
        turn=PONE,
        scores=scores,
    )


def play(state: CribbageState, *cards: str) -> CribbageState:
    for card in cards:
        state = state.apply(PlayCard(parse_card(card)) if card != "go" else Go())
    return state


def pegged(state: CribbageState) -> list[tuple[int, object, int]]:
    return [(e.player, e.kind, e.points) for e in state.events]


# --- the cut and the deal ---


def test_the_lower_card_of_the_cut_deals_and_a_tie_cuts_again() -> None:
    tied = next(seed for seed in range(200) if len(new_game(seed).cut_for_deal) > 1)
    for seed in (0, 1, 2, 3, tied):
        state = new_game(seed)
        cuts = state.cut_for_deal
        assert all(a.rank == b.rank for a, b in cuts[:-1])
        a, b = cuts[-1]
        assert a.rank != b.rank
        assert state.dealer == (0 if a.rank < b.rank else 1)
    lines = describe_cut(new_game(tied))
    assert lines[0].endswith(": a tie, cut again") and "the lower card deals" in lines[-1]


def test_a_deal_gives_six_cards_each_from_a_seeded_shuffle() -> None:
    state = new_game(5)
    assert [len(h) for h in state.hands] == [6, 6]
    cards = [*state.hands[0], *state.hands[1], *state.stock]
    assert len(cards) == len(set(cards)) == 52
    assert new_game(5) == state and new_game(6).hands != state.hands
    assert state.phase is Phase.DISCARD and state.current_player == state.pone


def test_the_non_dealer_discards_first_then_the_dealer() -> None:
    state = new_game(3)
    pone, dealer = state.pone, state.dealer
    with pytest.raises(CribbageError, match="you do not hold"):
        state.apply(Discard((state.hands[dealer][0], state.hands[dealer][1])))
    with pytest.raises(CribbageError, match="not to play"):
        state.apply(PlayCard(state.hands[pone][0]))
    state = state.apply(Discard((state.hands[pone][0], state.hands[pone][1])))
    assert state.current_player == dealer and len(state.hands[pone]) == 4 and len(state.crib) == 2
    state = state.apply(Discard((state.hands[dealer][4], state.hands[dealer][5])))
    assert state.phase is Phase.PLAY and len(state.crib) == 4 and state.starter == new_game(3).stock[0]
    assert state.current_player == pone  # the non-dealer leads


def with_jack_starter(seed: int, scores: tuple[int, int] = (0, 0)) -> CribbageState:
    state = new_game(seed)
    jack = next(c for c in state.stock if c.rank == 11)
    return dataclasses.replace(state, stock=(jack, *(c for c in state.stock if c != jack)), scores=scores)


def discard_both(state: CribbageState) -> CribbageState:
    for _ in range(2):
        state = state.apply(state.legal_actions()[0])
    return state


def test_a_jack_turned_up_gives_the_dealer_two_for_his_heels() -> None:
    state = discard_both(with_jack_starter(4))
    assert state.starter is not None and state.starter.rank == 11
    assert [(e.player, e.kind, e.points, e.words) for e in state.events] == [
        (state.dealer, EventKind.HEELS, 2, "two for his heels")
    ]
    assert state.scores[state.dealer] == 2 and state.scores[state.pone] == 0


def test_his_heels_can_win_the_game() -> None:
    dealer = new_game(4).dealer
    scores = (119, 50) if dealer == 0 else (50, 119)
    state = discard_both(with_jack_starter(4, scores))
    assert state.is_over and state.outcome is not None
    assert state.outcome.winner == dealer and state.scores[dealer] == 121
    assert state.outcome.margin_kind is MarginKind.DOUBLE_SKUNK
    assert state.legal_actions() == () and state.current_player is None
    with pytest.raises(CribbageError, match="the game is over"):
        state.apply(Go())


# --- the play ---


def test_the_count_rises_and_a_card_past_31_is_refused() -> None:
    state = play(position("KH 5C 9C 9D", "QS 2H 3S 4D"), "KH", "QS")
    assert state.count == 20 and state.pile == parse_cards("KH QS") and state.current_player == PONE
    with pytest.raises(CribbageError, match="you do not hold the jack of spades"):
        play(state, "JS")
    state = play(state, "5C", "2H")
    with pytest.raises(CribbageError, match="the count is 27: the nine of clubs would make it 36, over 31"):
        play(state, "9C")


def test_nobody_can_lay_so_the_last_to_lay_pegs_the_go_and_the_other_leads() -> None:
    state = play(position("KH QD 8C 7C", "TS 9D 5H 4H"), "KH", "TS", "QD")
    # 30: the dealer's 9, 5 and 4 all pass 31, and so do the non-dealer's 8 and 7: one for the go
    assert pegged(state) == [(PONE, PegKind.GO, 1)] and state.events[0].words == "go for one"
    assert state.count == 0 and state.pile == () and state.current_player == DEALER
    state = play(state, "9D", "8C", "5H", "7C")
    assert pegged(state) == [(PONE, PegKind.GO, 1)]  # 29, and the dealer's 4 would make 33
    assert state.current_player == DEALER
    state = play(state, "4H")
    assert pegged(state) == [(DEALER, PegKind.LAST_CARD, 1)] and state.events[0].words == "last card for one"
    assert state.phase is Phase.SHOW and state.scores == (1, 2)


def test_a_player_who_cannot_lay_says_go_and_the_other_plays_on() -> None:
    state = play(position("KH 5C 9C 9D", "QS 2H 3S 4D"), "KH", "QS", "5C", "2H")
    assert state.count == 27 and state.current_player == PONE
    assert state.legal_actions() == (Go(),)  # both nines pass 31, and the dealer can still lay
    state = play(state, "go")
    assert state.events == () and state.current_player == DEALER and state.gone == (False, True)
    state = play(state, "3S")  # 30; the 4 would make 34: the go is the dealer's
    assert pegged(state) == [(DEALER, PegKind.GO, 1)]
    assert state.count == 0 and state.current_player == PONE  # the player after the last to lay leads
    state = play(state, "9C", "4D", "9D")
    assert pegged(state) == [(PONE, PegKind.LAST_CARD, 1)] and state.phase is Phase.SHOW


def test_go_is_refused_while_a_card_fits() -> None:
    state = play(position("KH 5C 9C 9D", "QS 2H 3S 4D"), "KH")
    with pytest.raises(CribbageError, match="no go: the"):
        play(state, "go")


def test_31_scores_two_resets_the_count_and_no_run_reaches_back_past_it() -> None:
    state = play(position("KH 6C 4C 8H", "QS AH 5D 7S"), "KH", "QS", "6C", "5D")
    assert pegged(state) == [(DEALER, PegKind.THIRTY_ONE, 2)] and state.events[0].words == "31 for two"
    assert state.count == 0 and state.pile == () and state.current_player == PONE
    state = play(state, "4C")  # 6 5 4 would be a run, but the 6 and 5 were laid before the reset
    assert state.events == () and state.pile == parse_cards("4C")
    state = play(state, "AH", "8H", "7S")
    assert pegged(state) == [(DEALER, PegKind.LAST_CARD, 1)]
    assert state.scores == (3, 0)


def test_31_with_the_last_card_is_two_not_three() -> None:
    state = play(position("KH 6C 3D 2D", "QS 5D AH 4S"), "KH", "QS", "6C", "5D", "3D", "AH", "2D", "4S")
    # 3 A 2 4 after the reset: a run of three (3 A 2), then a run of four (3 A 2 4) with the last card
    assert state.phase is Phase.SHOW
    assert state.scores == (2 + 4 + 1, 3)


def test_runs_and_pairs_in_the_play_are_pegged_as_laid() -> None:
    state = play(position("6H 5S 7D 7C", "4D 5H 8S 8C"), "6H", "4D", "5S")
    assert pegged(state) == [(PONE, PegKind.FIFTEEN, 2), (PONE, PegKind.RUN, 3)]
    state = play(state, "5H")
    assert pegged(state) == [(DEALER, PegKind.PAIR, 2)]


def test_the_game_ends_the_moment_the_play_reaches_121() -> None:
    state = play(position("6H 5S 7D 7C", "4D 5H 8S 8C", scores=(100, 117)), "6H", "4D", "5S")
    assert state.is_over and state.outcome is not None
    assert state.scores == (100, 121) and state.outcome.winner == PONE
    assert state.outcome.margin_kind is MarginKind.WIN
    assert [e.kind for e in state.events] == [PegKind.FIFTEEN, PegKind.RUN]  # 117 + 2, then the run


# --- the show ---


def all_played(state: CribbageState) -> CribbageState:
    while state.phase is Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    return state


def test_the_show_counts_the_non_dealer_then_the_dealer_then_the_crib_then_deals_again() -> None:
    state = all_played(position("5H 5D 5S JC", "4H 4D 6S 6C", starter="5C", crib="2H 4S 6H 8H"))
    scores = state.scores
    assert state.phase is Phase.SHOW and state.current_player == PONE
    state = state.apply(Count())
    assert sum(e.points for e in state.events) == 29 and all(e.player == PONE for e in state.events)
    assert state.scores[PONE] == scores[PONE] + 29 and state.current_player == DEALER
    state = state.apply(Count())
    assert sum(e.points for e in state.events) == 24  # 4 4 5 6 6: four runs, two pairs, four fifteens
    assert state.current_player == DEALER and state.show_step == 2
    view = state.view(PONE)
    assert [(h.owner, h.crib) for h in view.shown_hands] == [(PONE, False), (DEALER, False)]
    state = state.apply(Count())  # the crib 2 4 6 8 with a 5 of clubs: a flush needs the starter's suit
    assert [(e.kind, e.points) for e in state.events] == [(ShowKind.FIFTEEN, 2)] * 2 + [(ShowKind.RUN, 3)]
    assert state.phase is Phase.DISCARD and state.deal_number == 2 and state.dealer == PONE
    assert [len(h) for h in state.hands] == [6, 6] and state.current_player == DEALER


def test_the_non_dealers_count_can_win_before_the_dealer_counts() -> None:
    state = all_played(position("5H 5D 5S JC", "4H 4D 6S 6C", starter="5C", scores=(115, 100)))
    state = state.apply(Count())
    assert state.is_over and state.outcome is not None and state.outcome.winner == PONE
    assert state.scores[PONE] == 121 and state.show_step == 1
    assert state.outcome.margin_kind is MarginKind.WIN  # the dealer stopped at 115 + what the play gave


def test_without_muggins_a_count_must_be_exact() -> None:
    state = all_played(position("5H 5D 5S JC", "4H 4D 6S 6C", starter="5C"))
    assert state.legal_actions() == (Count(),)
    with pytest.raises(CribbageError, match="the hand makes 29, not 28: count it exactly"):
        state.apply(Count(28))
    assert state.apply(Count(29)).scores == state.apply(Count()).scores


MUGGINS = CribbageOptions(muggins=True)
IN_THE_PLAY = CribbageOptions(play_muggins=True)


def test_with_muggins_a_count_is_said_aloud_and_the_opponent_may_call_what_it_missed() -> None:
    state = all_played(position("5H 5D 5S JC", "4H 4D 6S 6C", starter="5C", options=MUGGINS))
    before = state.scores
    assert state.legal_actions() == (Count(), *(Count(n) for n in range(30)))  # any number: the list tells nothing
    with pytest.raises(CribbageError, match="a hand or crib makes 0 to 29"):
        state.apply(Count(30))
    short = state.apply(Count(24))
    assert pegged(short) == [(PONE, EventKind.COUNT, 24)] and short.events[0].words == "counts 24"
    assert short.current_player == DEALER and short.legal_actions() == (Muggins(True), Muggins(False))
    claim = Claim(PONE, 24, ClaimKind.SHOW, parse_cards("5H 5D 5S JC"), parse_card("5C"))
    assert short.view(DEALER).claim == short.view(PONE).claim == claim and claim.worth == 29
    with pytest.raises(CribbageError, match="call muggins on the hand just counted, or let it stand"):
        short.apply(Count())
    called = short.apply(Muggins(True))
    assert pegged(called) == [(DEALER, EventKind.MUGGINS, 5)] and called.events[0].words == "muggins: 5 missed"
    assert called.scores == (before[0] + 5, before[1] + 24) and called.current_player == DEALER and called.claim is None
    let_go = short.apply(Muggins(False))
    assert let_go.events == () and let_go.scores == (before[0], before[1] + 24)
    assert let_go.show_step == 1 and let_go.current_player == DEALER
    assert called.record()["moves"][-2:] == ["count 24", "muggins"]


def test_with_muggins_an_over_count_pegs_what_the_cards_make_and_a_call_takes_the_excess() -> None:
    state = all_played(position("5H 5D 5S JC", "4H 4D 6S 6C", starter="5C", options=MUGGINS)).apply(Count())
    state = state.apply(Muggins(False))  # the non-dealer's 29, counted right and let stand
    before = state.scores
    over = state.apply(Count(27))  # the dealer's 4 4 6 6 with a 5 makes 24
    assert pegged(over) == [(DEALER, EventKind.COUNT, 24)] and over.events[0].words == "counts 27"
    assert over.scores == (before[0] + 24, before[1]) and over.current_player == PONE
    called = over.apply(Muggins(True))
    assert pegged(called) == [(PONE, EventKind.MUGGINS, 3)] and called.events[0].words == "muggins: 3 said over"
    assert called.scores == (before[0] + 24, before[1] + 3) and called.current_player == DEALER  # the crib next


def test_with_muggins_a_call_on_a_right_count_gives_the_counter_two() -> None:
    state = all_played(position("5H 5D 5S JC", "4H 4D 6S 6C", starter="5C", options=MUGGINS))
    right = state.apply(Count(29))
    assert pegged(right) == [(PONE, EventKind.COUNT, 29)]
    wrong = right.apply(Muggins(True))
    assert pegged(wrong) == [(PONE, EventKind.WRONG_CALL, WRONG_CALL)] and WRONG_CALL == 2
    assert wrong.events[0].words == "a wrong call: 2 to the counter"
    assert wrong.scores[PONE] == state.scores[PONE] + 31 and wrong.scores[DEALER] == state.scores[DEALER]
    zero = all_played(position("AH 3D 7S 9C", "4H 4D 6S 6C", starter="KC", options=MUGGINS))
    said_nothing = zero.apply(Count(0))  # A 3 7 9 K: nothing, and nothing said
    assert said_nothing.events == () and said_nothing.claim is not None and said_nothing.current_player == DEALER


#: The end of the records made before `end_on_answer`: a count that reached the target ended the game at once.
BEFORE_THE_ANSWER = CribbageOptions(muggins=True, end_on_answer=False)


def test_in_a_record_of_before_a_count_that_reached_the_target_ended_the_game_before_any_call() -> None:
    state = all_played(
        position("5H 5D 5S JC", "4H 4D 6S 6C", starter="5C", scores=(100, 110), options=BEFORE_THE_ANSWER)
    )
    state = state.apply(Count(20))
    assert state.is_over and state.scores[PONE] == 121 and state.claim is None and state.legal_actions() == ()


def at_the_show(scores: tuple[int, int]) -> CribbageState:
    """The show under muggins at `scores` (the dealer's, the non-dealer's): the non-dealer's 5H 5D 5S JC
    with the 5C turned (29) counted right and let stand, the dealer's 4H 4D 6S 6C (24) to count."""
    state = all_played(position("5H 5D 5S JC", "4H 4D 6S 6C", starter="5C", options=MUGGINS))
    state = dataclasses.replace(state, scores=scores).apply(Count(29)).apply(Muggins(False))
    assert state.current_player == DEALER and state.scores == (scores[0], scores[1] + 29)
    return state


def test_with_muggins_a_count_said_to_reach_the_target_that_the_cards_do_not_is_open_like_any_other() -> None:
    state = at_the_show((96, 50)).apply(Count(27))  # 96 + 27 would win; the cards make 24: 120
    assert state.claim is not None and not state.is_over and state.scores == (120, 79)
    assert state.legal_actions() == (Muggins(True), Muggins(False))
    stood = state.apply(Muggins(False))
    assert not stood.is_over and stood.scores == (120, 79) and stood.current_player == DEALER  # the crib next
    called = state.apply(Muggins(True))
    assert not called.is_over and called.scores == (120, 82) and pegged(called) == [(PONE, EventKind.MUGGINS, 3)]


def test_with_muggins_a_count_that_reaches_the_target_wins_only_once_it_is_answered() -> None:
    over = at_the_show((100, 50)).apply(Count(27))  # the cards make 24: enough, said 3 over
    right = at_the_show((100, 50)).apply(Count(24))
    for said in (over, right):
        assert said.claim is not None and not said.is_over and said.outcome is None
        assert said.scores == (124, 79)  # pegged at once, past the target: nothing is ended or kept till the answer
        assert said.legal_actions() == (Muggins(True), Muggins(False))
        stood = said.apply(Muggins(False))
        assert stood.is_over and stood.scores == (121, 79) and stood.events == ()
        assert stood.outcome is not None and stood.outcome.winner == DEALER and stood.outcome.scores == (121, 79)
    called = over.apply(Muggins(True))  # the excess to the caller, the game the counter's
    assert pegged(called) == [(PONE, EventKind.MUGGINS, 3)] and called.is_over and called.scores == (121, 82)
    wrong = right.apply(Muggins(True))
    assert pegged(wrong) == [(DEALER, EventKind.WRONG_CALL, WRONG_CALL)] and wrong.scores == (121, 79)
    assert wrong.outcome is not None and wrong.outcome.winner == DEALER
    assert right.apply(Muggins(False)).record()["moves"][-2:] == ["count 24", "no muggins"]


def test_with_muggins_the_caller_may_win_by_the_call_and_a_count_pegged_first_wins_over_it() -> None:
    short = at_the_show((96, 90)).apply(Count(27))  # the non-dealer at 119; the dealer's 27 pegs 24: 120
    called = short.apply(Muggins(True))
    assert called.is_over and called.scores == (120, 121) and called.outcome is not None
    assert called.outcome.winner == PONE  # by the 3 said over
    both = at_the_show((100, 89)).apply(Count(29))  # 124 by the cards; the call's 5 take the caller past 121 too
    won = both.apply(Muggins(True))
    assert pegged(won) == [(PONE, EventKind.MUGGINS, 5)] and won.outcome is not None
    assert won.outcome.winner == DEALER and won.scores == (121, 120)  # the count was pegged first


def test_with_muggins_in_the_play_each_card_s_score_is_said_and_may_be_called() -> None:
    state = position("7H 9S KC QC", "8D 2S 3C 4D", options=IN_THE_PLAY)
    moves = state.legal_actions()
    assert len(moves) == 4 + 4 * 15 and moves[:4] == tuple(PlayCard(c) for c in parse_cards("7H 9S KC QC"))
    state = state.apply(PlayCard(parse_card("7H"), 0))  # a 7 alone scores nothing: said right
    assert (
        state.events == ()
        and state.current_player == DEALER
        and state.legal_actions() == (Muggins(True), Muggins(False))
    )
    assert state.view(DEALER).claim == Claim(PONE, 0, ClaimKind.PLAY, (parse_card("7H"),))
    state = state.apply(Muggins(False))
    assert state.current_player == DEALER and state.count == 7 and state.claim is None
    short = state.apply(PlayCard(parse_card("8D"), 1))  # fifteen: 2, said 1
    assert pegged(short) == [(DEALER, EventKind.CLAIM, 1)] and short.events[0].words == "says 1"
    assert short.current_player == PONE and short.count == 15
    called = short.apply(Muggins(True))
    assert pegged(called) == [(PONE, EventKind.MUGGINS, 1)] and called.scores == (1, 1)
    assert called.current_player == PONE and called.turn == PONE  # the play goes on: the non-dealer lays next
    over = called.apply(PlayCard(parse_card("KC"), 3))  # 25: nothing, said 3
    assert over.events == () and over.current_player == DEALER
    assert pegged(over.apply(Muggins(True))) == [(DEALER, EventKind.MUGGINS, 3)]
    assert str(short.log[-1]) == "play 8D 1" and parse_move("play 8D 1") == PlayCard(parse_card("8D"), 1)


def test_with_muggins_in_the_play_the_go_and_the_last_card_are_pegged_after_the_answer() -> None:
    state = play(position("KH 9S AC 4D", "QD 7H 8C 6S", options=IN_THE_PLAY), "KH")
    for card in ("QD", "9S"):  # K Q 9: 29, nothing said, each let stand
        state = play(state.apply(Muggins(False)), card)
    state = state.apply(Muggins(False))
    assert state.current_player == DEALER and state.legal_actions() == (Go(),)  # nothing fits 29
    state = play(state, "go", "AC")  # 30: the non-dealer says 0 for it
    assert state.current_player == DEALER and state.claim == Claim(PONE, 0, ClaimKind.PLAY, parse_cards("KH QD 9S AC"))
    state = state.apply(Muggins(False))
    assert pegged(state) == [(PONE, PegKind.GO, 1)]  # the go is the game's to peg, after the answer
    assert state.count == 0 and state.current_player == DEALER


def test_without_muggins_in_the_play_a_card_is_pegged_exactly() -> None:
    state = play(position("7H 9S KC QC", "8D 2S 3C 4D"), "7H")
    with pytest.raises(CribbageError, match="the eight of diamonds scores 2, not 0: the play is pegged exactly"):
        state.apply(PlayCard(parse_card("8D"), 0))
    exact = state.apply(PlayCard(parse_card("8D"), 2))
    assert pegged(exact) == [(DEALER, PegKind.FIFTEEN, 2)] and exact.current_player == PONE and exact.claim is None


def test_in_a_record_of_before_a_claim_in_the_play_that_reached_the_target_ended_the_game() -> None:
    options = CribbageOptions(play_muggins=True, end_on_answer=False)
    state = play(position("7H 9S KC QC", "8D 2S 3C 4D", scores=(119, 0), options=options), "7H")
    state = state.apply(Muggins(False)).apply(PlayCard(parse_card("8D"), 5))  # said 5, pegs the 2 there
    assert state.is_over and state.scores == (121, 0) and state.claim is None


def in_the_play_at(dealer: int) -> CribbageState:
    """Muggins in the play, the dealer at `dealer`: the non-dealer's 7H laid and let stand; the dealer's
    8D next makes fifteen (2)."""
    state = play(position("7H 9S KC QC", "8D 2S 3C 4D", scores=(dealer, 0), options=IN_THE_PLAY), "7H")
    return state.apply(Muggins(False))


def test_with_muggins_in_the_play_a_card_that_reaches_the_target_wins_only_once_it_is_answered() -> None:
    eight = parse_card("8D")
    short = in_the_play_at(117).apply(PlayCard(eight, 5))  # said 5, would win; the cards make 2: 119
    assert short.claim is not None and short.scores == (119, 0)
    stood = short.apply(Muggins(False))
    assert not stood.is_over and stood.current_player == PONE and stood.count == 15
    for said in (2, 5):  # right, and over: the 2 the cards make reach 121 either way
        open_call = in_the_play_at(119).apply(PlayCard(eight, said))
        assert open_call.claim is not None and not open_call.is_over and open_call.scores == (121, 0)
        assert open_call.legal_actions() == (Muggins(True), Muggins(False))
        stood = open_call.apply(Muggins(False))
        assert stood.is_over and stood.scores == (121, 0) and stood.outcome is not None
        assert stood.outcome.winner == DEALER
    called = in_the_play_at(119).apply(PlayCard(eight, 5)).apply(Muggins(True))
    assert pegged(called) == [(PONE, EventKind.MUGGINS, 3)] and called.is_over and called.scores == (121, 3)
    wrong = in_the_play_at(120).apply(PlayCard(eight, 2)).apply(Muggins(True))
    assert pegged(wrong) == [(DEALER, EventKind.WRONG_CALL, WRONG_CALL)] and wrong.scores == (121, 0)
    assert wrong.is_over and wrong.outcome is not None and wrong.outcome.winner == DEALER


def test_a_record_with_muggins_both_ways_replays_the_counts_and_the_calls() -> None:
    options = CribbageOptions(muggins=True, play_muggins=True)
    state = new_game(4, options=options)
    rng = random.Random(4)
    while state.deal_number < 3:
        state = state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    assert record["options"] == {"muggins": True, "play_muggins": True, "target": 121, "end_on_answer": True}
    assert any(m.startswith("count ") for m in state.log) and "muggins" in state.log
    assert any(len(m.split()) == 3 and m.startswith("play ") for m in state.log)
    assert replay(json.loads(json.dumps(record))) == state
    older = {**record, "options": {"muggins": True, "target": 121}, "moves": []}  # a record from before the options
    assert replay(older).options == CribbageOptions(muggins=True, end_on_answer=False)


def test_a_record_of_before_the_end_at_the_answer_replays_as_it_was_played() -> None:
    """A game under muggins whose record does not name `end_on_answer` was played when a count that reached
    the target ended the game at once: it replays so; under the rule of new games its moves would not."""
    rng = random.Random(5)
    state = new_game(5, options=dataclasses.replace(BEFORE_THE_ANSWER, target=61))
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.log[-1] == "count 29" and state.scores == (55, 61)  # the game won by a count, at once
    record = json.loads(json.dumps(state.record()))
    assert record["options"] == {"muggins": True, "play_muggins": False, "target": 61}  # as records were written
    assert replay(record) == state
    now = replay({**record, "options": {**record["options"], "end_on_answer": True}})
    assert not now.is_over and now.claim is not None and now.scores == (55, 63)  # open to a call, as a new game
    with pytest.raises(CribbageError, match=r"move 46 .* the game is over"):  # that count was never answered
        replay({**record, "moves": [*record["moves"], "no muggins"]})


# --- the end, moves' notation, records ---


@pytest.mark.parametrize(
    ("loser", "kind", "words"),
    [
        (91, MarginKind.WIN, "You win, 121 to 91."),
        (90, MarginKind.SKUNK, "You win by a lurch (skunk), 121 to 90."),
        (61, MarginKind.SKUNK, "You win by a lurch (skunk), 121 to 61."),
        (60, MarginKind.DOUBLE_SKUNK, "You win by a double lurch (double skunk), 121 to 60."),
    ],
)
def test_lurches(loser: int, kind: MarginKind, words: str) -> None:
    outcome = outcome_of((121, loser), 0, 121)
    assert outcome.margin_kind is kind and outcome.words(("You", "Bot")) == words
    assert outcome.lurch is (kind is not MarginKind.WIN)
    assert outcome_of((loser, 121), 1, 121).words(("You", "Bot")).startswith("Bot wins")


@pytest.mark.parametrize(
    "text", ["discard 5H JD", "play 7C", "play 7C 2", "go", "count", "count 12", "muggins", "no muggins"]
)
def test_move_notation_round_trips(text: str) -> None:
    assert str(parse_move(text)) == text
    assert str(parse_move(text.upper())) == text


@pytest.mark.parametrize("text", ["let stand", "Let Stand", " no  MUGGINS "])
def test_letting_a_count_stand_is_said_either_way(text: str) -> None:
    """The story tells the answer "let stand", and the protocol's page has always named it: both are read."""
    assert parse_move(text) == Muggins(False)
    assert str(parse_move(text)) == "no muggins"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("discard 5H 6H 7H", "a discard lays two cards"),
        ("play 5X", "X is not a suit"),
        ("count lots", "write 'count' for the exact count"),
        ("jump", "is not a move"),
        ("", "an empty move"),
    ],
)
def test_bad_move_notation_is_refused_in_words(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_move(text)


def test_the_target_is_31_to_1000() -> None:
    assert CribbageOptions(target=61).target == 61
    with pytest.raises(ValueError, match="31 to 1000"):
        CribbageOptions(target=5)


def test_a_view_shows_its_own_discards_not_the_others() -> None:
    state = discard_both(new_game(8))
    pone, dealer = state.pone, state.dealer
    view = state.view(pone)
    assert view.discards == state.discards[pone] and view.crib_size == 4
    assert not set(state.discards[dealer]) & {*view.hand, *view.kept, *view.discards, *view.pile}
    assert set(state.discards[dealer]) <= set(view.unseen)
    assert not set(state.discards[pone]) & set(view.unseen)
    assert len(view.unseen) == 52 - 4 - 2 - 1


def test_cards_are_cards() -> None:
    assert Card(5, parse_card("5H").suit) == parse_card("5h")
