"""Chat at a table online, as both games' sessions and the window share it: the longest line the server
takes (`CHAT_LIMIT`), the rule its names and lines follow (printable characters only), and a line heard
(`ChatLine`), kept with its table for as long as the window runs (issues 31, 44)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from cribtiles.rules.errors import IllegalMove

#: The most characters of a line said at a table (the server cuts a longer one there).
CHAT_LIMIT = 200
#: The name the server gives the lines it says itself (what a stand-in did for a player out of time).
TABLE_NAME = "The table"
#: Why a line may not be said at a table of this process.
NO_CHAT = "everyone at this table is at this window: there is no one elsewhere to write to"


def chat_text(text: str) -> str:
    """`text` as a chat line may hold it: no control character (a tab, a newline, an escape), at most
    `CHAT_LIMIT` characters.

    >>> chat_text("gg\\x1b[31m well\\nplayed")
    'gg[31m wellplayed'
    >>> len(chat_text("x" * 500))
    200
    """
    return "".join(ch for ch in text if ch.isprintable())[:CHAT_LIMIT]


def heard_words(said: Mapping[str, object]) -> str:
    """A line said at the table (a `said` message's fields), as it is told: the name first, and neither
    with a control character, whatever the server sent.

    >>> heard_words({"name": "Ann", "text": "good\\x07 luck"})
    'Ann: good luck'
    """
    name = chat_text(str(said.get("name") or "?")).strip() or "?"
    return f"{name}: {chat_text(str(said.get('text') or '')).strip()}"


@dataclass(frozen=True)
class ChatLine:
    """A line said at a table: the seat it came from (None: a spectator, or the table's own words), the
    name, the text, and when (the server's clock, seconds since 1970)."""

    seat: int | None
    name: str
    text: str
    at: float

    @property
    def words(self) -> str:
        return f"{self.name}: {self.text}"


def chat_line(said: Mapping[str, object]) -> ChatLine:
    """A `said` message's fields as a line, cleaned as `heard_words` cleans them.

    >>> chat_line({"seat": 1, "name": "Ben\x07", "text": " hi ", "at": 5}).words
    'Ben: hi'
    """
    seat = said.get("seat")
    at = said.get("at")
    return ChatLine(
        seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
        chat_text(str(said.get("name") or "?")).strip() or "?",
        chat_text(str(said.get("text") or "")).strip(),
        float(at) if isinstance(at, int | float) and not isinstance(at, bool) else 0.0,
    )


class Talker(Protocol):
    """What the chat at a table needs of a game's session (both games' have it: `GameSession` extends it):
    the seats it plays, and the lines said there."""

    @property
    def mine(self) -> tuple[int, ...]:
        """The seats this driver plays (the people at a table of this window)."""
        ...

    @property
    def chat_allowed(self) -> bool:
        """Lines may be said to the others at this table (online: they are elsewhere); a table of this
        process has no one to tell, and the window shows no chat there."""
        ...

    def say(self, text: str) -> None:
        """A line to everyone at the table (`chat_text`: printable, bounded); it comes back, with the
        others', among the `chat_lines`. IllegalMove in words (not sent, no chat here)."""
        ...

    @property
    def chat_lines(self) -> tuple[ChatLine, ...]:
        """The lines said at the table so far as this window heard them, oldest first (none here)."""
        ...

    @property
    def where(self) -> tuple[str, str] | None:
        """The online table's server and code (None: a table of this window)."""
        ...


class AtOneWindow:
    """What a session of a table at this window says of the people elsewhere: there are none (no one is
    away, there is no one to write to), for both games' local sessions."""

    def about(self, seat: int) -> tuple[str, ...]:
        return ()

    @property
    def chat_allowed(self) -> bool:
        return False

    def say(self, text: str) -> None:
        raise IllegalMove(NO_CHAT)

    @property
    def chat_lines(self) -> tuple[ChatLine, ...]:
        return ()

    @property
    def where(self) -> tuple[str, str] | None:
        """The online table's server and code: None, this table is of this window."""
        return None

    def here(self, present: bool) -> None:
        """Whether the player looks at this table now: nothing to tell anyone at a table of this window."""

    @property
    def spectator(self) -> bool:
        """Whether the window watches this table from no seat: never at a table of this window."""
        return False
