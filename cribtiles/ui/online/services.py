"""What the Online screens need from the app, as protocols (the ui never imports the app): the seats
this player holds (`SeatBook`), a server hosted on this computer (`Host`), a look-out for servers on the
network, and the making of a table's session once its seat is held. `HeldSeat` is one seat at one table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cribtiles.online.lan import Found

from ..chat import Mutes

#: The seat of a table this window watches rather than sits at (a spectator's: no token, no seat).
WATCHING = -1


@dataclass(frozen=True)
class HeldSeat:
    """A seat this player holds at a table online. The tokens are secrets: never shown, printed or logged."""

    server: str  # ws://host:port
    code: str
    seat: int
    name: str  # the player's name at that table
    game: str = "tiles"
    token: str = field(default="", repr=False)
    host_token: str = field(default="", repr=False)  # the creator's: lets a bot take an absent seat

    @property
    def key(self) -> tuple[str, str]:
        return self.server, self.code


class SeatBook(Protocol):
    """The seats held, kept in the data folder; `note` says in words what went wrong with its file."""

    note: str

    def seats(self) -> list[HeldSeat]: ...

    def add(self, held: HeldSeat) -> None: ...

    def remove(self, server: str, code: str) -> None: ...


class Host(Protocol):
    """A server run by this computer in a process of its own; nothing here waits on it."""

    @property
    def url(self) -> str | None:
        """Its address once it listens (for this computer), else None."""
        ...

    @property
    def lan_url(self) -> str | None:
        """The address others on the local network type, while it is shared with them."""
        ...

    @property
    def problem(self) -> str:
        """Why it is not running, in words ("" when it is, or is starting)."""
        ...

    @property
    def shared(self) -> bool:
        """Whether others on the local network may join (it listens there and is advertised)."""
        ...

    @property
    def running(self) -> bool:
        """Whether its process runs (started by this window, or left running by an earlier one)."""
        ...

    def is_ours(self, url: str) -> bool:
        """Whether `url` is this computer's server's address (running or not)."""
        ...

    def start(self, shared: bool) -> None: ...

    def stop(self) -> None: ...

    def keep_running(self) -> None:
        """The window quits and the server goes on in the background; the next window takes it back."""
        ...


class Lookout(Protocol):
    """Servers heard of on the local network."""

    def found(self) -> list[Found]: ...

    def close(self) -> None: ...


#: Makes the session of a seat at a table online: (link, code, seat, game) -> the game's session (a
#: Session of the tile game, cribbage's driver); seat None: a spectator's. It runs in a job, as it may
#: wait for the table's state.
SessionMaker = Callable[[Any, str, int | None, str], Any]


@dataclass
class OnlineServices:
    """What the app gives the Online screens."""

    book: SeatBook
    host: Host | None = None
    lookout: Callable[[], Lookout] | None = None  # starts a look-out (None: the network is not searched)
    sessions: SessionMaker | None = None  # None: the window's own (a RemoteSession)
    names: Sequence[str] = ()  # names this player used before, the first offered
    mutes: Mutes | None = None  # whose chat this window hides, kept in the data folder (None: not kept)
    # a table handed to this window by a second program (an invitation clicked while it is open): each
    # call gives it once, as (server, code, name), with what was wrong with it in words ("" when nothing)
    handed: Callable[[], tuple[tuple[str, str, str | None] | None, str]] | None = None
