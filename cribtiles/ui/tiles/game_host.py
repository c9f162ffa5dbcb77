"""What the table scene's controllers see of the window and of the scene that holds them: protocols
only, so that no controller imports the scene (nor the scene's other controllers' modules back).
"""

from __future__ import annotations

from typing import Protocol

from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.public import PublicState
from cribtiles.table.tiles.session import Session

from ..config import Keeper
from ..geometry import Layout
from ..sound import Sounds
from .snapshot import TableSnapshot


class Window(Protocol):
    """The window as the table's controllers use it: where things are, the settings, the sounds, and
    where the settings are kept."""

    layout: Layout
    prefs: Preferences
    sounds: Sounds
    keeper: Keeper


class Stage(Protocol):
    """The table scene as its controllers see it: the game, the seat shown, its clock and messages."""

    @property
    def app(self) -> Window: ...

    @property
    def session(self) -> Session: ...

    @property
    def state(self) -> PublicState: ...

    @property
    def human(self) -> int:
        """The seat whose rack is shown."""
        ...

    @property
    def uncovered(self) -> int | None:
        """The seat whose private things may be drawn now (None under the curtain)."""
        ...

    @property
    def my_turn(self) -> bool: ...

    @property
    def now(self) -> float: ...

    def name_of(self, seat: int) -> str:
        """ "You" for the only person at a table of bots, else the seat's name."""
        ...

    def can_exchange(self) -> bool:
        """The person shown may open the exchange now."""
        ...

    def anim(self, seconds: float) -> float:
        """`seconds` of animation at the speed set."""
        ...

    def toast(self, text: str, seconds: float = 3.0, seat: int | None = None) -> None: ...

    def refresh_preview(self) -> None:
        """The play laid on the board was changed: judge it again."""
        ...

    def snapshot(self) -> TableSnapshot: ...

    def saved(self) -> None:
        """Keep the game as it stands, and tell a save that failed."""
        ...
