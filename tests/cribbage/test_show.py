"""Tests for cribtiles.cribbage.show: hands counted by hand (29, 28, 24s, flushes in hand and crib, nobs),
the items named card by card, and the fast total held to the full count."""

from __future__ import annotations

import random

import pytest

from cribtiles.cribbage.cards import DECK, CardError, parse_card, parse_cards
from cribtiles.cribbage.show import ShowKind, describe_show, score_show, show_total


def total(hand: str, starter: str, crib: bool = False) -> int:
    score = score_show(parse_cards(hand), parse_card(starter), crib)
    assert show_total(parse_cards(hand), parse_card(starter), crib) == score.total
    return score.total


@pytest.mark.parametrize(
    ("hand", "starter", "fifteens", "pairs", "runs", "flush", "nobs", "points"),
    [
        # the 29: four J+5 and four 5+5+5 fifteens (16), six pairs (12), the jack of the starter's suit (1)
        ("5H 5D 5S JC", "5C", 16, 12, 0, 0, 1, 29),
        # 28: all four fives and a ten-card; a jack turned up is not nobs
        ("5H 5D 5S 5C", "JD", 16, 12, 0, 0, 0, 28),
        ("5H 5D 5S KC", "5C", 16, 12, 0, 0, 0, 28),
        # 24s: 4 4 5 6 6 (four runs of three, four fifteens, two pairs); 3 3 3 3 9 (six 3+3+9, six pairs)
        ("4H 4D 5S 6C", "6H", 8, 4, 12, 0, 0, 24),
        ("3H 3D 3S 9C", "3C", 12, 12, 0, 0, 0, 24),
        ("7H 7D 7S 7C", "AD", 12, 12, 0, 0, 0, 24),  # A+7+7 six times
        ("6H 7D 8S 8C", "7C", 8, 4, 12, 0, 0, 24),  # 6 7 7 8 8: double double run
        # runs: a double run of four with a pair (A A 2 3 4): 2 runs of four, one pair, 4+... no fifteen
        ("AH AD 2S 3C", "4C", 0, 2, 8, 0, 0, 10),
        ("AH 2D 3S 4C", "5C", 2, 0, 5, 0, 0, 7),  # a run of five and 1+2+3+4+5 = 15
        # flush: four in the hand 4, with the starter 5
        ("2H 4H 6H 8H", "KS", 0, 0, 0, 4, 0, 4),
        ("2H 4H 6H 8H", "KH", 0, 0, 0, 5, 0, 5),
        # nobs: the jack of the starter's suit in the hand; another jack is nothing
        ("JH 2C 4S 8D", "KH", 0, 0, 0, 0, 1, 1),
        ("JH 2C 4S 8D", "KS", 0, 0, 0, 0, 0, 0),
        # a "nineteen": nothing at all
        ("2H 4C 6S 8D", "KS", 0, 0, 0, 0, 0, 0),
    ],
)
def test_hand_checked_hands(
    hand: str, starter: str, fifteens: int, pairs: int, runs: int, flush: int, nobs: int, points: int
) -> None:
    score = score_show(parse_cards(hand), parse_card(starter))
    assert (score.fifteens, score.pairs, score.runs, score.flush, score.nobs, score.total) == (
        fifteens,
        pairs,
        runs,
        flush,
        nobs,
        points,
    )
    assert show_total(parse_cards(hand), parse_card(starter)) == points


def test_the_crib_scores_a_flush_only_with_the_starter() -> None:
    assert total("2H 4H 6H 8H", "KS", crib=True) == 0
    assert total("2H 4H 6H 8H", "KH", crib=True) == 5
    assert total("2H 4H 6H 8H", "KS", crib=False) == 4
    # three of a suit and the starter of that suit are no flush, in hand or crib
    assert total("2H 4H 6H 8C", "KH") == 0
    assert total("2H 4H 6H 8C", "KH", crib=True) == 0


def test_a_crib_counts_nobs_like_a_hand() -> None:
    assert total("JH 2C 4S 8D", "KH", crib=True) == 1


def test_the_items_name_their_cards() -> None:
    score = score_show(parse_cards("5H 5D 5S JC"), parse_card("5C"))
    kinds = [item.kind for item in score.items]
    assert kinds.count(ShowKind.FIFTEEN) == 8 and kinds.count(ShowKind.PAIR) == 6
    assert [item.cards for item in score.items if item.kind is ShowKind.NOBS] == [(parse_card("JC"),)]
    flush = score_show(parse_cards("2H 4H 6H 8H"), parse_card("KH")).items
    assert [(i.kind, len(i.cards), i.points) for i in flush] == [(ShowKind.FLUSH, 5, 5)]
    for item in score.items:  # every card of an item is one of the five
        assert set(item.cards) <= {*score.hand, score.starter}


def test_describe_show_prints_each_item_then_the_total() -> None:
    lines = describe_show(score_show(parse_cards("4H 5H 6H JD"), parse_card("5D")))
    assert lines == [
        "fifteen for 2: 5H JD",
        "fifteen for 2: JD 5D",
        "fifteen for 2: 4H 5H 6H",
        "fifteen for 2: 4H 6H 5D",
        "pair for 2: 5H 5D",
        "run of three for 3: 4H 5H 6H",
        "run of three for 3: 4H 6H 5D",
        "his nobs for 1: JD",
        "total 17",
    ]
    assert describe_show(score_show(parse_cards("2H 4H 6H 8H"), parse_card("KH"), crib=True))[0] == (
        "flush of five for 5: 2H 4H 6H 8H KH"
    )


def test_a_hand_must_be_four_distinct_cards_and_the_starter_another() -> None:
    with pytest.raises(CardError, match=r"holds 4 cards .*, not 2"):
        score_show(parse_cards("5H 5D"), parse_card("5C"))
    with pytest.raises(CardError, match="a crib four"):
        score_show(parse_cards("5H 5D 5S"), parse_card("5C"), crib=True)
    with pytest.raises(CardError, match="named twice"):
        score_show(parse_cards("5H 5D 5S JC"), parse_card("5H"))


def test_the_fast_total_equals_the_full_count_on_random_hands() -> None:
    rng = random.Random(13)
    for _ in range(3000):
        cards = rng.sample(DECK, 5)
        crib = rng.random() < 0.5
        assert show_total(cards[:4], cards[4], crib) == score_show(cards[:4], cards[4], crib).total
