"""Classic two-player cribbage as a pure library: cards, the show, the play and the game state.

Standard library only (the hand scorer is shared with the tile game's rules); nothing here draws or waits.
"""

from .cards import DECK, Card, CardError, Suit, format_cards, parse_card, parse_cards
from .peg import PegItem, PegKind, peg_items, peg_points
from .show import ShowItem, ShowKind, ShowScore, describe_show, score_show, show_total

__all__ = [
    "DECK",
    "Card",
    "CardError",
    "PegItem",
    "PegKind",
    "ShowItem",
    "ShowKind",
    "ShowScore",
    "Suit",
    "describe_show",
    "format_cards",
    "parse_card",
    "parse_cards",
    "peg_items",
    "peg_points",
    "score_show",
    "show_total",
]
