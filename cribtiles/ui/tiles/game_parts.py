"""The table scene as the modules that work across its controllers see it (making a turn, taking
one back): every controller, and the few flags of the scene's own. A protocol, so that none of them
imports the scene.
"""

from __future__ import annotations

from typing import Protocol

from .game_acts import Acts
from .game_anims import Animations
from .game_coach import Coaching
from .game_hand import Hand
from .game_host import Stage
from .game_joker import JokerDesk
from .game_keys import Keys
from .game_others import Others
from .game_seats import SeatShown
from .game_turns import TurnList


class Parts(Stage, Protocol):
    """The scene's controllers, and its flags: the end card shown (`ended`), the panel's help."""

    shown: SeatShown
    others: Others
    hand: Hand
    coaching: Coaching
    joker: JokerDesk
    keys: Keys
    turn_list: TurnList
    anims: Animations
    acts: Acts
    ended: bool
    help: bool

    @property
    def curtain(self) -> int | None: ...
