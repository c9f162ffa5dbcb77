"""The tile game's seat bot online (the registry's `SEAT_BOT` part of it, `TILE_PLAY`): its move and its
"Joker" call from what its seat was sent, and nothing more (issues 31, 43, 45)."""

from __future__ import annotations

import random
from typing import Any

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import level as level_named
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import format_move, parse_rack
from cribtiles.table.tiles.public import match_from_json, player_view

from .botclient import SeatPlay


def _seat_view(state: dict[str, Any]) -> PlayerView:
    """What the seat a state was sent to sees: the game, and its own rack."""
    match = match_from_json(state["match"])
    return player_view(match.game, state["you"], tuple(parse_rack(state["rack"])))


def tile_move(state: dict[str, Any], level: str, rng: random.Random) -> str:
    """The move a tile bot of `level` makes from what its seat was sent."""
    return format_move(choose_safely(make_bot(level), _seat_view(state), rng))


def tile_call(state: dict[str, Any], level: str, rng: random.Random) -> bool:
    """Whether a tile bot of `level` calls "Joker" on the last play, from what its seat was sent: the
    state withholds the play's worth while it may be called, so the bot counts it on the board, and
    misses a wrong declaration as often as its level's manners say (as at a table of this computer)."""
    return level_named(level).manners.should_call(_seat_view(state), rng)


#: The tile game's seat bot.
TILE_PLAY = SeatPlay(tile_move, tile_call)
