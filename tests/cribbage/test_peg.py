"""Tests for cribtiles.cribbage.peg: what the latest card scores in the play, from the seed rules' examples
(6-4-5 is a run, a pair 2, three 6, four 12, a run of four 4, Q K A no run) and sequences counted by hand."""

from __future__ import annotations

import pytest

from cribtiles.cribbage.cards import CardError, parse_cards
from cribtiles.cribbage.peg import PegKind, count_of, item_words, peg_items, peg_points


def scored(sequence: str) -> list[tuple[PegKind, int]]:
    return [(item.kind, item.points) for item in peg_items(parse_cards(sequence))]


@pytest.mark.parametrize(
    ("sequence", "items"),
    [
        # the seed: "the first lays a 4 and says four, the next a 7 and says eleven"
        ("4H", []),
        ("4H 7D", []),
        # "a 6, then a 4, then a 5 is a run of three even though not laid in order" (and 15)
        ("6H 4D 5S", [(PegKind.FIFTEEN, 2), (PegKind.RUN, 3)]),
        # a card of the rank just laid 2; a third 6; a fourth 12
        ("9H 9D", [(PegKind.PAIR, 2)]),
        ("9H 9D 9S", [(PegKind.PAIR_ROYAL, 6)]),
        ("3H 3D 3S 3C", [(PegKind.DOUBLE_PAIR_ROYAL, 12)]),
        ("5H 5D 5S", [(PegKind.FIFTEEN, 2), (PegKind.PAIR_ROYAL, 6)]),
        # runs of four and five, each card one point more
        ("2H 4D 3S 5C", [(PegKind.RUN, 4)]),
        ("AH 2C 4D 3S 5C", [(PegKind.FIFTEEN, 2), (PegKind.RUN, 5)]),
        ("2H 3H 4H 5H 6H 7H", [(PegKind.RUN, 6)]),
        # 9 10 J and J 9 10 are runs, 9 10 Q is not; aces are low: Q K A is no run, A 2 3 is
        ("9H TD JS", [(PegKind.RUN, 3)]),
        ("JS 9H TD", [(PegKind.RUN, 3)]),
        ("9H TD QS", []),
        ("QH KD AS", []),
        ("AS 3H 2D", [(PegKind.RUN, 3)]),
        # a pair only with the card just before: 4 7 4 scores the 15 alone
        ("4H 7D 4S", [(PegKind.FIFTEEN, 2)]),
        # a run broken by a pair: 4 5 5 6 scores nothing; the run is of the latest cards only
        ("4H 5D 5S 6C", []),
        ("4H 5D 6S 4C", [(PegKind.RUN, 3)]),  # 5 6 4 are the latest three
        ("3H 4D KS 5C", []),  # 4 K 5: the king stands between
        ("3H 5D 4S 6C", [(PegKind.RUN, 4)]),
        # 31 for two, with whatever else the card makes
        ("KH QD 5S 6C", [(PegKind.THIRTY_ONE, 2)]),
        ("8H 8D 5S 5C 5H", [(PegKind.THIRTY_ONE, 2), (PegKind.PAIR_ROYAL, 6)]),
        ("TH 5D", [(PegKind.FIFTEEN, 2)]),
        ("TH 5D 5S", [(PegKind.PAIR, 2)]),
    ],
)
def test_what_the_last_card_scores(sequence: str, items: list[tuple[PegKind, int]]) -> None:
    assert scored(sequence) == items
    assert peg_points(parse_cards(sequence)) == sum(points for _, points in items)


def test_items_name_the_cards_that_make_them() -> None:
    items = peg_items(parse_cards("2H 4D 4S 4C"))
    assert [(i.kind, " ".join(map(str, i.cards))) for i in items] == [(PegKind.PAIR_ROYAL, "4D 4S 4C")]
    run = peg_items(parse_cards("KH 2H 4D 3S"))
    assert [" ".join(map(str, i.cards)) for i in run] == ["2H 4D 3S"]


def test_words_for_each_kind() -> None:
    assert [item_words(i) for i in peg_items(parse_cards("6H 4D 5S"))] == ["fifteen two", "run of 3"]
    assert [item_words(i) for i in peg_items(parse_cards("KH QD 5S 6C"))] == ["31 for two"]
    assert [item_words(i) for i in peg_items(parse_cards("3H 3D 3S 3C"))] == ["double pair royal for twelve"]


def test_the_count_is_the_sum_of_values() -> None:
    assert count_of(parse_cards("4H 7D KS")) == 21


@pytest.mark.parametrize(
    ("sequence", "message"),
    [
        ("KH QD JS 5C", "KH QD JS 5C counts 35: the count in the play never passes 31"),
        ("", "the play needs at least one card"),
    ],
)
def test_impossible_sequences_are_refused_in_words(sequence: str, message: str) -> None:
    with pytest.raises(CardError) as caught:
        peg_items(parse_cards(sequence))
    assert str(caught.value) == message
