"""The cribbage bots in every variant: each level finishes seeded games of five-card, three players and
partnerships with no failure, discards as the variant says (one of five, two of five keeping three), counts
its partner's crib as its own, and Hard plays one ply with three or four players; the advisor advises five
cards and refuses a wrong count in words."""

from __future__ import annotations

import random

import pytest

from cribtiles.bot.cribbage.advisor import AdviceError, advise_discard, advise_view, expected_hand, peg_hint
from cribtiles.bot.cribbage.bots import choose_reporting, hard_play, own_crib
from cribtiles.bot.cribbage.crib import default_table
from cribtiles.bot.cribbage.discard import best_split, hand_sums, plain_worth, splits
from cribtiles.bot.cribbage.levels import LEVELS, make_cribbage_bot
from cribtiles.bot.cribbage.peg import answer_card, expected_best
from cribtiles.cribbage import (
    DECK,
    CribbageOptions,
    Discard,
    Phase,
    PlayCard,
    Variant,
    new_game,
    parse_card,
    parse_cards,
    show_total,
)

NAMES = {2: ("You", "Bot"), 3: ("You", "West", "East"), 4: ("You", "West", "North", "East")}
GAMES = 4  # a level's seeded games of each variant (Hard's two-player look-ahead is the slow part)


@pytest.mark.parametrize("variant", [Variant.FIVE_CARD, Variant.THREE, Variant.PARTNERSHIP])
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_finishes_seeded_games_of_every_variant_without_a_failure(level: str, variant: Variant) -> None:
    target = 61 if variant is Variant.FIVE_CARD else 121
    for seed in range(GAMES):
        options = CribbageOptions(variant=variant, target=target, muggins=seed % 2 == 1)
        state = new_game(seed, NAMES[variant.players], options)
        bots = [make_cribbage_bot(level) for _ in range(variant.players)]
        rng = random.Random(seed)
        while not state.is_over:
            player = state.current_player
            assert player is not None
            view = state.view(player)
            move, failure = choose_reporting(bots[player], view, rng)
            assert failure == ""
            if isinstance(move, Discard):
                assert len(move.cards) == variant.to_crib
            state = state.apply(move)
        assert state.outcome is not None and max(state.scores) == target


def test_the_splits_of_five_cards_lay_one_or_two_away() -> None:
    five = parse_cards("5H 5D JS QC 8H")
    assert len(splits(five, 1)) == 5 and all(len(s.kept) == 4 and len(s.discarded) == 1 for s in splits(five, 1))
    assert len(splits(five, 2)) == 10 and all(len(s.kept) == 3 for s in splits(five, 2))


def test_a_hand_of_three_is_valued_exactly_over_the_starters_left() -> None:
    five = parse_cards("4H 7H 9H 5S JC")
    starters = [c for c in DECK if c not in five]
    for split, total in hand_sums(five, 2):
        assert total == sum(show_total(split.kept, s) for s in starters)
        assert expected_hand(split.kept, five) == pytest.approx(total / len(starters))


def test_one_card_to_the_crib_is_worth_most_as_a_five_in_your_own_crib() -> None:
    table = default_table()
    own, theirs = table.worth(True), table.worth(False)
    fives = own(parse_card("5H"))
    assert fives > max(own(c) for c in parse_cards("AH 2H 3H 4H 6H 7H 8H 9H TH JH QH KH")) > 0
    assert theirs(parse_card("5H")) < 0 < plain_worth(True)(parse_card("5H"))
    # the discard: the best expected hand plus the card's worth to the crib
    five = parse_cards("5H KS 9D 2C AC")
    sums = hand_sums(five, 1)
    for worth in (own, theirs):
        best = max(sums, key=lambda st: st[1] / 47 + worth(*st[0].discarded))[0]
        assert best_split(five, worth, 1) == best
    assert best_split(five, own, 1).discarded == (parse_card("2C"),)  # the 5 scores more in the hand


def test_a_partners_crib_is_the_bots_own_and_an_opponents_is_not() -> None:
    state = new_game(5, NAMES[4], CribbageOptions(variant=Variant.PARTNERSHIP))
    dealer = state.dealer
    assert own_crib(state.view(dealer)) and own_crib(state.view((dealer + 2) % 4))
    assert not own_crib(state.view((dealer + 1) % 4)) and not own_crib(state.view((dealer + 3) % 4))


def test_hard_with_three_weighs_the_next_players_answers() -> None:
    # on 10, a 5 scores 2 now but leaves 15... a 4 leaves 14 (an ace makes 15); with nothing unseen but tens,
    # the 5 (fifteen for 2, and a ten then makes 25: nothing) is plainly best
    pile = parse_cards("TH")
    assert answer_card(parse_cards("5C 4D"), pile, parse_cards("TS TD KC QC"), 2) == parse_card("5C")
    # a 7 on 8 makes 15 for 2, but if all they may hold are sixes, a 6 then makes a run of three for them;
    # a king (18) gives a 6 nothing: the king. With tens unseen instead, the fifteen is safe: the 7
    assert answer_card(parse_cards("7C KD"), parse_cards("8H"), parse_cards("6S 6D 6H"), 1) == parse_card("KD")
    assert answer_card(parse_cards("7C KD"), parse_cards("8H"), parse_cards("TS TD TH"), 1) == parse_card("7C")
    assert expected_best([(6, 1), (2, 3)], 10, 1) == pytest.approx(0.6 + 0.6)


def test_hard_plays_legally_in_a_three_player_position() -> None:
    state = new_game(9, NAMES[3], CribbageOptions(variant=Variant.THREE))
    while state.phase is Phase.DISCARD:
        state = state.apply(state.legal_actions()[0])
    player = state.current_player
    assert player is not None
    card = hard_play(state.view(player), random.Random(1))
    assert card in state.hands[player]


def test_the_advisor_advises_five_cards_and_refuses_a_wrong_count_in_words() -> None:
    five = parse_cards("5H 5D JS QC 8H")
    one = advise_discard(five, dealer=True, to_crib=1)
    assert len(one) == 5 and all(len(a.kept) == 4 and len(a.thrown) == 1 for a in one)
    assert [a.total for a in one] == sorted((a.total for a in one), reverse=True)
    two = advise_discard(five, dealer=False, to_crib=2)
    assert len(two) == 10 and all(len(a.kept) == 3 and a.crib < 0 for a in two)
    with pytest.raises(AdviceError, match="not 5"):
        advise_discard(five, dealer=True)
    with pytest.raises(AdviceError, match="not 1 of 6"):
        advise_discard(parse_cards("5H 5D JS QC 8H 2S"), dealer=True, to_crib=1)


def test_the_advice_for_a_view_follows_its_variant_and_its_side() -> None:
    state = new_game(5, NAMES[4], CribbageOptions(variant=Variant.PARTNERSHIP))
    partner = (state.dealer + 2) % 4
    advice = advise_view(state.view(partner))
    assert len(advice) == 5 and all(len(a.thrown) == 1 for a in advice)
    assert advice == advise_discard(state.hands[partner], dealer=True, to_crib=1)  # a partner's crib is theirs
    state = state.apply(state.legal_actions()[0])
    with pytest.raises(AdviceError, match="laid away already"):
        advise_view(state.view((state.dealer + 1) % 4))


def test_the_pegging_hint_works_with_three_and_four() -> None:
    for variant in (Variant.THREE, Variant.PARTNERSHIP):
        state = new_game(11, NAMES[variant.players], CribbageOptions(variant=variant))
        while state.phase is Phase.DISCARD:
            state = state.apply(state.legal_actions()[0])
        for _ in range(6):
            player = state.current_player
            assert player is not None
            hint = peg_hint(state.view(player))
            if hint is None:
                state = state.apply(state.legal_actions()[0])
                continue
            assert hint.card in state.hands[player] and hint.why.startswith(f"Lay {hint.card}")
            state = state.apply(PlayCard(hint.card))
