"""How much one connection, one address and the whole server may ask (`Limits`), and what is counted
against each address (`Addresses`): wrong codes and tokens tried, lists of the open tables asked for,
tables made and not over. An address is the client's, which a trusted reverse proxy forwards."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from cribtiles.online.protocol import MAX_CLIENT_FRAME
from cribtiles.rules.errors import IllegalMove

TRIES_KEPT = 60.0  # seconds a wrong code counts against its address
#: seconds from a socket's accept to its handshake done, else it is closed (websockets' `open_timeout`). A
#: client on a slow phone line sends its few hundred bytes of request in well under this; a socket that
#: sends nothing holds one of its address's connections this long at most.
HANDSHAKE_TIMEOUT = 10.0


@dataclass(frozen=True)
class Limits:
    """How much one connection, one address and the whole server may ask."""

    frame: int = MAX_CLIENT_FRAME  # bytes in one message from a client
    per_second: float = 20.0  # messages a second a connection may send, on average
    burst: int = 40  # and at once
    bad_messages: int = 20  # refused messages before a connection is closed
    connections_per_address: int = 16
    tables_per_address: int = 30  # tables created from one address and not over
    codes_per_minute: int = 30  # unknown codes tried from one address a minute
    tables: int = 100_000
    outbox: int = 64  # messages waiting for a slow reader before it is dropped
    bad_forgiven: float = 0.1  # refused messages forgiven a second: a rare one never closes a connection
    keep_over: float = 3_600.0  # seconds a finished table no one is at stays in memory (then: the store)
    addresses_counted: int = 10_000  # addresses whose wrong codes are counted at once (the oldest go first)
    handshake: float = HANDSHAKE_TIMEOUT  # seconds a socket may take to finish its handshake
    lists_per_minute: int = 30  # lists of the open tables asked from one address a minute
    tables_listed: int = 50  # open tables in one list at most (the newest)
    #: seconds a message for a table another process of a shared store serves waits for it to be let go
    #: of (its lease released, or run out: a shared store's lease is 10 s)
    lease_wait: float = 12.0


class TooManyTries(IllegalMove):
    """An address past its count of wrong codes and tokens a minute: refused even a right one."""


class Phased(Protocol):
    """A table as the count of an address's tables sees it: over or not."""

    @property
    def phase(self) -> str: ...


#: Warns once in a while of an address past a limit: (address, what, format, count).
Warn = Callable[[str, str, str, int], None]


class Addresses:
    """What each address is counted: the times it tried a wrong code or token, and asked for the open
    tables, in the last minute; the tables it made that are not over."""

    def __init__(self, limits: Limits, clock: Callable[[], float], warn: Warn) -> None:
        self.limits = limits
        self.clock = clock
        self.warn = warn
        self.tries: dict[str, deque[float]] = {}  # address -> when it tried an unknown code
        self.lists: dict[str, deque[float]] = {}  # address -> when it asked for the open tables
        self.created_by: dict[str, set[str]] = {}  # address -> codes of tables it made, not over

    def tried(self, address: str, words: str, right: bool = False) -> None:
        """Refuse a wrong code or token in `words` (IllegalMove), counting it against `address` (a guesser
        is slowed to `codes_per_minute`); a `right` one passes unless the address is over its count
        (TooManyTries)."""
        now = self.clock()
        tried = self.tries.get(address)
        if tried is None:
            while len(self.tries) >= self.limits.addresses_counted:  # many addresses at once: the oldest go
                del self.tries[next(iter(self.tries))]
            tried = self.tries[address] = deque()
        while tried and now - tried[0] > TRIES_KEPT:
            tried.popleft()
        if len(tried) >= self.limits.codes_per_minute:
            raise TooManyTries("too many codes tried from your address: wait a minute")
        if right:
            return
        tried.append(now)
        if len(tried) == self.limits.codes_per_minute:
            self.warn(address, "codes", "%s tried %d wrong codes or tokens in a minute", len(tried))
        raise IllegalMove(words)

    def list_asked(self, address: str) -> None:
        """`address` asks for the open tables: refused past `lists_per_minute` a minute."""
        now = self.clock()
        asked = self.lists.setdefault(address, deque())
        while asked and now - asked[0] > TRIES_KEPT:
            asked.popleft()
        if len(asked) >= self.limits.lists_per_minute:
            raise IllegalMove("the open tables were asked for too often from your address: wait a minute")
        asked.append(now)

    def made(self, address: str, rooms: Mapping[str, Phased]) -> set[str]:
        """The codes of the tables `address` made that are not over (which the caller adds a new one to);
        refused when they are `tables_per_address` already."""
        open_tables = self.created_by.setdefault(address, set())
        open_tables &= {c for c in open_tables if c in rooms and rooms[c].phase != "over"}
        if len(open_tables) >= self.limits.tables_per_address:
            self.warn(address, "tables", "%s made %d tables not over yet", len(open_tables))
            raise IllegalMove(f"your address has {len(open_tables)} tables not over: finish one first")
        return open_tables

    def sweep(self, now: float, rooms: Mapping[str, Phased]) -> None:
        """Forget the tries and lists more than a minute old, and the addresses whose tables are all over."""
        for book in (self.tries, self.lists):
            for address, tried in list(book.items()):
                while tried and now - tried[0] > TRIES_KEPT:
                    tried.popleft()
                if not tried:
                    del book[address]
        for address, codes in list(self.created_by.items()):
            codes &= {c for c in codes if c in rooms and rooms[c].phase != "over"}
            if not codes:
                del self.created_by[address]
