"""Playing cards for classic cribbage: suit, card, the 52-card deck and the notation of a card.

A card is written as its rank (A 2-9 T J Q K, 10 accepted for T) and its suit (S H D C): "5H", "TD".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from cribtiles.quoting import quoted, unquoted

RANK_SYMBOLS = "A23456789TJQK"
_RANK_NAMES = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
JACK = 11


class CardError(ValueError):
    """Text that is not a card (or not a set of distinct cards); the message says why in plain words."""


class Suit(StrEnum):
    """The four suits, each written by its letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card: a rank 1-13 (A = 1, T = 10, J = 11, Q = 12, K = 13) and a suit.

    >>> card = parse_card("10d")
    >>> str(card), card.value, card.name
    ('TD', 10, 'ten of diamonds')
    """

    rank: int
    suit: Suit
    #: The card's place in DECK, 0-51, and its hash: sets and dicts of cards (the bots' hot paths) then
    #: hash and compare one int rather than a (rank, suit) tuple.
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13):
            raise CardError(f"{quoted(self.rank)} is not a rank: a card's rank is 1 (ace) to 13 (king)")
        if not isinstance(self.suit, Suit):
            raise CardError(f"{quoted(self.suit)} is not a suit (S, H, D or C)")
        object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + self.rank - 1)

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    @property
    def value(self) -> int:
        """The count value: an ace 1, two to nine their number, ten and the face cards 10."""
        return self.rank if self.rank < 10 else 10

    @property
    def name(self) -> str:
        return f"{_RANK_NAMES[self.rank - 1]} of {self.suit.word}"

    def __str__(self) -> str:
        return RANK_SYMBOLS[self.rank - 1] + self.suit.value

    def __repr__(self) -> str:
        return f"Card({self})"


#: The 52 cards in a fixed order: spades, hearts, diamonds, clubs, each ace to king.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))

#: Ranks players write out of habit, and what to write instead.
_RANK_HINTS = {
    "1": "; an ace is written A",
    "11": "; a jack is written J",
    "12": "; a queen is written Q",
    "13": "; a king is written K",
    "0": " (write 10 or T)",
}


def parse_card(text: str) -> Card:
    """`5H`, `td`, `10D`, `AS` -> Card.

    >>> parse_card("5X")
    Traceback (most recent call last):
    ...
    cribtiles.cribbage.cards.CardError: '5X' is not a card: X is not a suit (S, H, D or C)
    """
    t = text.strip()
    if len(t) < 2:
        raise CardError(f"{quoted(text)} is not a card: write a rank and a suit, like 5H or TD")
    suit_letter = t[-1].upper()
    if suit_letter not in "SHDC":
        raise CardError(f"{quoted(text)} is not a card: {unquoted(t[-1])} is not a suit (S, H, D or C)")
    rank_text = t[:-1].upper()
    if rank_text == "10":
        rank = 10
    elif len(rank_text) == 1 and rank_text in RANK_SYMBOLS:
        rank = RANK_SYMBOLS.index(rank_text) + 1
    else:
        hint = _RANK_HINTS.get(rank_text, "")
        raise CardError(
            f"{quoted(text)} is not a card: {unquoted(t[:-1])} is not a rank (A 2 3 4 5 6 7 8 9 T J Q K){hint}"
        )
    return Card(rank, Suit(suit_letter))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces or commas; the same card twice is an error.

    >>> format_cards(parse_cards("5h, 5D 10s"))
    '5H 5D TS'
    """
    cards = tuple(parse_card(word) for word in re.split(r"[\s,]+", text.strip()) if word)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"{card} is named twice: a deck holds each card once")
        seen.add(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)
