"""What the cribbage table's controllers see of the scene that holds them, and the kinds they share:
where a card lies (`Place`), what the felt shows (`Mode`), a moment kept in sight (`Hold`). Protocols
only, so that no controller imports the scene (as `cribtiles.ui.tiles.game_host` is to the tile game's).
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.moves import Move
from cribtiles.cribbage.muggins import Claim
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.view import CribbageView
from cribtiles.table.cribbage.public import CribbagePublic, PublicMove
from cribtiles.table.cribbage.session import CribbageDriver
from cribtiles.table.settings import Preferences

from ..sound import Sounds
from .layout import ButtonKind, CribLayout


class Place(Enum):
    """Where a card lies on the felt (a card may be drawn in two places: your hand and the show)."""

    HAND = "hand"
    PILE = "pile"
    OLD = "old"  # the count just ended, shown dimmed until the next card
    SHOW = "show"
    BOT = "bot"
    STARTER = "starter"
    CRIB = "crib"


class Hold(Enum):
    """A moment kept on the felt until you go on: the last count of the play, or the whole show (the
    engine has moved on already: to the show, or to the next deal)."""

    NONE = "none"
    PLAY_OVER = "play over"
    SHOW_OVER = "show over"


class Mode(Enum):
    """What the felt shows: the discard, the play, or the show (a show is kept until you go on)."""

    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"


Key = tuple[Place, Card | None, int]  # a place, the card (None: a back), the back's index

#: A row of buttons planned: their kinds in order, the labels that are not the kind's own, those enabled.
Plan = tuple[tuple[ButtonKind, ...], dict[ButtonKind, str], set[ButtonKind]]


def hold_after(h: PublicMove, state: CribbagePublic) -> Hold:
    """What a move just made leaves held in sight at this table: the show, when the crib was counted
    and the next deal dealt; the play, when its last card was laid; else nothing."""
    if h.phase is Phase.SHOW and state.deal_number != h.deal:
        return Hold.SHOW_OVER
    if h.phase is Phase.PLAY and state.phase is Phase.SHOW and state.show_step == 0:
        return Hold.PLAY_OVER
    return Hold.NONE


class Window(Protocol):
    """The window as the table's controllers use it: the settings, the sounds, and closing the table."""

    prefs: Preferences
    sounds: Sounds

    def close_top(self) -> None: ...


class Stage(Protocol):
    """The cribbage scene as its controllers see it: the game as the session tells it, the seat the felt
    is seen from, what is held in sight, its clock and its prompt's message; and the few steps a table
    aside (the tutorial) makes its own: a move made, going on in the show, the buttons planned."""

    hold: Hold
    message: str
    message_error: bool
    resigning: bool  # Ctrl+R asked whether you give the game up
    #: Why the hint key is refused at this table, in words ("": the coach helps).
    coach_off: str

    @property
    def app(self) -> Window: ...

    @property
    def session(self) -> CribbageDriver: ...

    @property
    def pub(self) -> CribbagePublic: ...

    @property
    def seen(self) -> CribbageView:
        """Your own view of the game: your hand, your legal moves."""
        ...

    @property
    def after_answer(self) -> tuple[Move, ...]:
        """Your moves once a score waiting for your answer stands (your moves now, when none waits)."""
        ...

    @property
    def open_call(self) -> Claim | None:
        """The score said aloud that you may call now."""
        ...

    @property
    def open_hands(self) -> dict[int, tuple[Card, ...]]:
        """A replay's every hand face up (Tab): each seat's cards."""
        ...

    @property
    def replaying(self) -> tuple[str, str] | None: ...

    @property
    def now(self) -> float: ...

    @property
    def person(self) -> int: ...

    @property
    def watching(self) -> bool: ...

    @property
    def ended(self) -> bool: ...

    @property
    def asks_again(self) -> bool:
        """A table online, whose next game is asked of the others there."""
        ...

    @property
    def my_turn(self) -> bool: ...

    @property
    def bots_turn(self) -> bool: ...

    @property
    def actor(self) -> int: ...

    @property
    def to_crib(self) -> int: ...

    @property
    def may_lay_away(self) -> bool: ...

    @property
    def holding(self) -> bool: ...

    @property
    def mode(self) -> Mode: ...

    @property
    def hand(self) -> tuple[Card, ...]: ...

    @property
    def dealer(self) -> int: ...

    @property
    def layout(self) -> CribLayout: ...

    def say(self, text: str, error: bool = True) -> None: ...

    def act(self, move: Move) -> bool:
        """Your move, or the reason it cannot be made, in words; whether it was made."""
        ...

    def new_game(self) -> None:
        """N (or the end card's New game): the new game's choice over the table."""
        ...

    def go_on(self) -> None:
        """Enter or the button in the show: count your own hand, or let the next count (or deal) come."""
        ...

    def button_plan(self) -> Plan: ...
