"""Tests for the coach of classic cribbage: the discard advisor against a brute-force average over the 46
starters and against the crib table Hard discards by, its order, its refusals; the pegging hint is Hard's
card, with what it scores and what it leaves in words."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.bot.cribbage.advisor import AdviceError, DiscardAdvice, advise_discard, hint_rng, peg_hint, replies
from cribtiles.bot.cribbage.bots import hard_discard, hard_play
from cribtiles.bot.cribbage.crib import default_table, plain_table
from cribtiles.cribbage import DECK, Phase, format_cards, new_game, parse_cards, show_total
from cribtiles.cribbage.moves import Discard, Go, PlayCard

deals = st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True)


def brute_hand(kept: tuple, dealt: tuple) -> float:
    """The show of `kept` with each of the 46 starters not dealt, summed one by one and averaged."""
    starters = [c for c in DECK if c not in dealt]
    assert len(starters) == 46
    return sum(show_total(kept, s) for s in starters) / 46


@settings(max_examples=150, deadline=None)
@given(deals, st.booleans())
def test_hand_values_are_the_exact_average_over_the_46_starters(dealt: list, dealer: bool) -> None:
    six = tuple(dealt)
    advice = advise_discard(six, dealer)
    assert len(advice) == 15
    assert len({frozenset(a.thrown) for a in advice}) == 15  # every discard once
    for a in advice:
        assert set(a.kept) | set(a.thrown) == set(six) and len(a.kept) == 4
        assert a.hand == pytest.approx(brute_hand(a.kept, six))
        assert a.total == pytest.approx(a.hand + a.crib)


@settings(max_examples=80, deadline=None)
@given(deals, st.booleans())
def test_crib_values_come_from_the_table_the_bots_use(dealt: list, dealer: bool) -> None:
    table = default_table()
    for a in advise_discard(tuple(dealt), dealer):
        lo, hi = sorted(c.rank for c in a.thrown)
        own = table.own[(lo, hi)]
        theirs = table.opponent[(lo, hi)]
        assert a.crib == (own if dealer else -theirs)


@settings(max_examples=80, deadline=None)
@given(deals, st.booleans())
def test_best_first_and_the_best_is_hards_discard(dealt: list, dealer: bool) -> None:
    six = tuple(dealt)
    advice = advise_discard(six, dealer)
    totals = [a.total for a in advice]
    assert totals == sorted(totals, reverse=True)
    state = new_game(1)
    view = replace(state.view(0), hand=six, dealer=0 if dealer else 1)
    hard = hard_discard(view, random.Random(0))
    assert advice[0].total == pytest.approx(
        next(a.total for a in advice if set(a.thrown) == set(hard.discarded)), abs=1e-9
    )


def test_a_known_deal() -> None:
    advice = advise_discard(parse_cards("5H 5D JS QC 8H 2S"), dealer=True)
    best = advice[0]
    assert format_cards(best.kept) == "5H 5D JS QC" and format_cards(best.thrown) == "8H 2S"
    # 5 5 J Q shows 10 before the starter (each 5 with each court card: four fifteens, 8; the pair, 2).
    # Of the 46 starters left: a 5 (two left) adds 10 (four more fifteens, 5 5 5, and pair royal for a
    # pair); a 10 (four) or a K (four) adds 7 (two fifteens and a run of three); a J or a Q (three each)
    # adds 6 (two fifteens and a pair); each of the 11 spades left adds 1 for his nob (the JS is kept);
    # every other starter adds nothing. 46 x 10 + 2 x 10 + 8 x 7 + 6 x 6 + 11 = 583.
    assert best.hand == pytest.approx(583 / 46, abs=1e-12)
    assert best.words().startswith("keep 5H 5D JS QC, throw 8H 2S: hand 12.67, crib ")
    assert isinstance(best, DiscardAdvice)
    with pytest.raises(AttributeError):
        best.hand = 0.0  # type: ignore[misc]  # immutable


def test_his_nobs_counts_in_the_hand() -> None:
    # the jack's suit as the starter (12 of 46) adds a point each time: 12/46 over the same hand with a queen
    with_jack = advise_discard(parse_cards("JH 2C 4D 6S KS QS"), dealer=True)
    kept = next(a for a in with_jack if set(a.thrown) == set(parse_cards("KS QS")))
    assert kept.hand == pytest.approx(brute_hand(kept.kept, parse_cards("JH 2C 4D 6S KS QS")))


def test_a_chosen_table_is_used() -> None:
    plain = advise_discard(parse_cards("5H 5D JS QC 8H 2S"), dealer=False, table=plain_table())
    pair = next(a for a in plain if set(a.thrown) == set(parse_cards("5H 5D")))
    assert pair.crib == -2.0


@pytest.mark.parametrize("cards", ["5H 5D JS QC 8H", "5H 5D JS QC 8H 2S 3S"])
def test_not_six_cards_is_said_in_words(cards: str) -> None:
    with pytest.raises(AdviceError, match="needs the 6 cards dealt"):
        advise_discard(parse_cards(cards), dealer=True)


def test_a_card_twice_is_said_in_words() -> None:
    five = parse_cards("5H 5D JS QC 8H")
    with pytest.raises(AdviceError, match="named twice"):
        advise_discard((*five, five[0]), dealer=True)


# --- the pegging hint ---


def play_views(seed: int) -> list:
    """Every view in seeded games where the player to move in the play has a card to lay."""
    state = new_game(seed)
    out = []
    rng = random.Random(seed)
    while not state.is_over and len(out) < 40:
        player = state.current_player
        assert player is not None
        view = state.view(player)
        if view.phase is Phase.PLAY and any(isinstance(m, PlayCard) for m in view.legal):
            out.append(view)
        move = rng.choice(view.legal)
        if view.phase is Phase.DISCARD:
            move = next(m for m in view.legal if isinstance(m, Discard))
        state = state.apply(move)
    return out


def test_the_peg_hint_is_hards_card_with_its_points_in_words() -> None:
    views = play_views(3) + play_views(4)
    assert views
    for view in views:
        hint = peg_hint(view)
        assert hint is not None
        assert PlayCard(hint.card) in view.legal or any(
            isinstance(m, PlayCard) and m.card == hint.card for m in view.legal
        )
        assert hint.count == view.count + hint.card.value <= 31
        assert hint.why.startswith(f"Lay {hint.card}: it scores ")
        assert peg_hint(view) == hint  # the same position, the same hint
        assert hint.card in view.hand
        assert hint.card == hard_play(view, hint_rng(view))  # Hard's own choice


def test_the_hint_says_what_it_gives_away() -> None:
    state = new_game(5)
    view = state.view(state.current_player or 0)
    # a made-up play position: 4 to lay on 17 (leaves 21: a 10 makes 31), or a 9 (leaves 26)
    pile = parse_cards("7S TD")
    hand = parse_cards("4H 9C")
    unseen = tuple(c for c in DECK if c not in (*pile, *hand))
    view = replace(
        view,
        phase=Phase.PLAY,
        hand=hand,
        pile=pile,
        count=17,
        current_player=view.player,
        unseen=unseen,
        cards_left=tuple(len(hand) if p == view.player else 3 for p in range(2)),
        played=((view.opponent, pile[0]), (view.player, pile[1])),
        legal=(PlayCard(hand[0]), PlayCard(hand[1])),
    )
    hint = peg_hint(view)
    assert hint is not None
    assert "leaves" in hint.why and str(hint.card) in hint.why
    four = replies((*pile, hand[0]), unseen)
    assert any(r.words == "a 10 or a court card makes 31" and r.points == 2 for r in four)
    assert four[0].points >= four[-1].points


def test_no_hint_without_a_card_to_lay() -> None:
    state = new_game(6)
    view = state.view(state.current_player or 0)
    assert view.phase is Phase.DISCARD
    assert peg_hint(view) is None
    other = state.view(1 - (state.current_player or 0))
    assert (
        peg_hint(replace(other, legal=(Go(),), current_player=other.player, phase=Phase.PLAY, hand=(), pile=())) is None
    )
