"""Tests for cribtiles.cribbage.cards: the deck, a card's words and values, the notation and its errors."""

from __future__ import annotations

import pytest

from cribtiles.cribbage.cards import DECK, Card, CardError, Suit, format_cards, parse_card, parse_cards


def test_the_deck_holds_52_distinct_cards_13_of_each_suit() -> None:
    assert len(DECK) == len(set(DECK)) == 52
    for suit in Suit:
        assert sorted(c.rank for c in DECK if c.suit is suit) == list(range(1, 14))
    assert [c.index for c in DECK] == list(range(52))


@pytest.mark.parametrize(
    ("text", "rank", "suit", "shown", "value", "name"),
    [
        ("5H", 5, Suit.HEARTS, "5H", 5, "five of hearts"),
        ("5h", 5, Suit.HEARTS, "5H", 5, "five of hearts"),
        ("TD", 10, Suit.DIAMONDS, "TD", 10, "ten of diamonds"),
        ("10D", 10, Suit.DIAMONDS, "TD", 10, "ten of diamonds"),
        ("as", 1, Suit.SPADES, "AS", 1, "ace of spades"),
        (" KC ", 13, Suit.CLUBS, "KC", 10, "king of clubs"),
        ("JS", 11, Suit.SPADES, "JS", 10, "jack of spades"),
        ("QD", 12, Suit.DIAMONDS, "QD", 10, "queen of diamonds"),
        ("9C", 9, Suit.CLUBS, "9C", 9, "nine of clubs"),
    ],
)
def test_parse_card(text: str, rank: int, suit: Suit, shown: str, value: int, name: str) -> None:
    card = parse_card(text)
    assert card == Card(rank, suit)
    assert (str(card), card.value, card.name) == (shown, value, name)
    assert parse_card(str(card)) == card


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5X", "'5X' is not a card: X is not a suit (S, H, D or C)"),
        ("1H", "'1H' is not a card: 1 is not a rank (A 2 3 4 5 6 7 8 9 T J Q K); an ace is written A"),
        ("11S", "'11S' is not a card: 11 is not a rank (A 2 3 4 5 6 7 8 9 T J Q K); a jack is written J"),
        ("ZD", "'ZD' is not a card: Z is not a rank (A 2 3 4 5 6 7 8 9 T J Q K)"),
        ("H", "'H' is not a card: write a rank and a suit, like 5H or TD"),
        ("", "'' is not a card: write a rank and a suit, like 5H or TD"),
    ],
)
def test_bad_cards_are_refused_in_words(text: str, message: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert str(caught.value) == message


def test_parse_cards_takes_spaces_and_commas_and_refuses_a_card_twice() -> None:
    assert format_cards(parse_cards("5h, 5D  10s,JC")) == "5H 5D TS JC"
    assert parse_cards("") == ()
    with pytest.raises(CardError, match="5H is named twice"):
        parse_cards("5H 6D 5h")


def test_suits_have_symbols_words_and_colours() -> None:
    assert [(s.value, s.symbol, s.word, s.is_red) for s in Suit] == [
        ("S", "♠", "spades", False),
        ("H", "♥", "hearts", True),
        ("D", "♦", "diamonds", True),
        ("C", "♣", "clubs", False),
    ]


def test_a_card_outside_the_ranks_cannot_be_made() -> None:
    with pytest.raises(CardError):
        Card(0, Suit.SPADES)
    with pytest.raises(CardError):
        Card(14, Suit.SPADES)


def test_cards_order_by_rank_then_suit() -> None:
    assert format_cards(sorted(parse_cards("KS 2H 2C AD"))) == "AD 2C 2H KS"
