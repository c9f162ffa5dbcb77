"""The rules of Crib Tiles (Kings Cribbage) as a pure library: the names of rules.md section 8.

Standard library only; nothing here draws, waits or reads the clock.
"""

from cribtiles.counting import Combination, CombinationKind, count_value

from .board import BLOCKED, SIZE, Board, Direction, Line, Square, parse_square
from .errors import IllegalMove, NotationError, RecordError
from .game import EndReason, GameState, JokerCall, Outcome, PlayerView, Turn, new_game
from .hands import HandScore, score_hand
from .match import Match
from .movegen import has_legal_play, legal_plays, scored_plays
from .moves import Exchange, Move, Pass, Placement, Play, format_move, format_rack, parse_move, parse_rack
from .options import RuleOptions
from .record import GameRecord, load, load_match, record_of, replay, save, save_match
from .scorer import Scorer
from .scoring import Bonus, Bonuses, BonusKind, PlayScore, ScoredLine, is_legal_play, score_play
from .tiles import Colour, Tile, full_set, parse_tile

__all__ = [
    "BLOCKED",
    "SIZE",
    "Board",
    "Bonus",
    "BonusKind",
    "Bonuses",
    "Colour",
    "Combination",
    "CombinationKind",
    "Direction",
    "EndReason",
    "Exchange",
    "GameRecord",
    "GameState",
    "HandScore",
    "IllegalMove",
    "JokerCall",
    "Line",
    "Match",
    "Move",
    "NotationError",
    "Outcome",
    "Pass",
    "Placement",
    "Play",
    "PlayScore",
    "PlayerView",
    "RecordError",
    "RuleOptions",
    "ScoredLine",
    "Scorer",
    "Square",
    "Tile",
    "Turn",
    "count_value",
    "format_move",
    "format_rack",
    "full_set",
    "has_legal_play",
    "is_legal_play",
    "legal_plays",
    "load",
    "load_match",
    "new_game",
    "parse_move",
    "parse_rack",
    "parse_square",
    "parse_tile",
    "record_of",
    "replay",
    "save",
    "save_match",
    "score_hand",
    "score_play",
    "scored_plays",
]
