"""Classic cribbage's seat bot online (the registry's `SEAT_BOT` part of it, `SEAT_PLAY`): a bot's move
from what its seat was sent, its own view only (issues 31, 45)."""

from __future__ import annotations

import random
from typing import Any

from cribtiles.bot.cribbage.bots import choose_reporting
from cribtiles.bot.cribbage.levels import make_cribbage_bot
from cribtiles.table.cribbage.public import view_from_data

from .botclient import SeatPlay


def bot_move(state: dict[str, Any], level: str, rng: random.Random) -> str:
    """The move a cribbage bot of `level` makes from what its seat was sent (its own view only)."""
    view = view_from_data(state["view"])
    move, _failure = choose_reporting(make_cribbage_bot(level), view, rng)  # a failing bot makes a legal move
    return str(move)


def _never_calls(state: dict[str, Any], level: str, rng: random.Random) -> bool:
    """Cribbage's bot calls a count by its move ("muggins" is one), never beside it."""
    return False


#: Classic cribbage's seat bot (the registry's `SEAT_BOT` part of it).
SEAT_PLAY = SeatPlay(bot_move, _never_calls)
