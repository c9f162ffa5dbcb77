"""Classic cribbage (two players, five-card, three players, four in partnerships) as a pure library: cards,
the show, the play and the game state.

Standard library only (the hand scorer is shared with the tile game's rules); nothing here draws or waits.
"""

from .cards import DECK, Card, CardError, Suit, format_cards, parse_card, parse_cards
from .events import EventKind, MarginKind, Outcome, ScoreEvent
from .game import CribbageState, describe_cut, new_game
from .moves import Count, CribbageError, Discard, Go, Move, Muggins, PlayCard, parse_move
from .muggins import MOST_PEGGED, MOST_SHOWN, WRONG_CALL, Claim, ClaimKind, call_points
from .options import CribbageOptions, Phase, Variant
from .peg import PegItem, PegKind, peg_items, peg_points
from .record import replay
from .show import ShowItem, ShowKind, ShowScore, describe_show, score_show, show_total
from .view import CribbageView, ShownHand

__all__ = [
    "DECK",
    "MOST_PEGGED",
    "MOST_SHOWN",
    "WRONG_CALL",
    "Card",
    "CardError",
    "Claim",
    "ClaimKind",
    "Count",
    "CribbageError",
    "CribbageOptions",
    "CribbageState",
    "CribbageView",
    "Discard",
    "EventKind",
    "Go",
    "MarginKind",
    "Move",
    "Muggins",
    "Outcome",
    "PegItem",
    "PegKind",
    "Phase",
    "PlayCard",
    "ScoreEvent",
    "ShowItem",
    "ShowKind",
    "ShowScore",
    "ShownHand",
    "Suit",
    "Variant",
    "call_points",
    "describe_cut",
    "describe_show",
    "format_cards",
    "new_game",
    "parse_card",
    "parse_cards",
    "parse_move",
    "peg_items",
    "peg_points",
    "replay",
    "score_show",
    "show_total",
]
