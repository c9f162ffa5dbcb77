"""Chat at a table online, as both games' sessions and the window share it: the longest line the server
takes (`CHAT_LIMIT`), and the rule its names and lines follow: printable characters only (issue 31)."""

from __future__ import annotations

from collections.abc import Mapping

from cribtiles.rules.errors import IllegalMove

#: The most characters of a line said at a table (the server cuts a longer one there).
CHAT_LIMIT = 200
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


class AtOneWindow:
    """What a session of a table at this window says of the people elsewhere: there are none (no one is
    away, there is no one to write to), for both games' local sessions."""

    def away(self, seat: int) -> float | None:
        return None

    @property
    def chat_allowed(self) -> bool:
        return False

    def say(self, text: str) -> None:
        raise IllegalMove(NO_CHAT)
