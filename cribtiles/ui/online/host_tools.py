"""What a table's host does from the code screen and from Your online games (issue 44): send the table's
invitation link (`http://HOST:PORT/t/CODE`, which a browser opens as the server's page of the table, its
"Open in Crib Tiles" seating the game there), put on the clipboard; and give a seat no one is in to the
server's bot (the host token's one use: `seat_bot`), offered once the server's rule allows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from cribtiles.online.invitation import invitation_to

from .services import HeldSeat

#: The level of the bot the host puts in a seat: one both games have, the table's usual opponent.
HOST_BOT_LEVEL = "medium"
#: Seconds a person must have been away before the host may give their seat to a bot during the game: the
#: server's rule (`cribtiles.server.rooms.HOST_BOT_AWAY`; a test holds the two equal).
HOST_BOT_AWAY = 120


@dataclass(frozen=True)
class Giveable:
    """A seat the host may give to a bot now, and the words of the button that does it."""

    seat: int
    words: str


def giveable(table: dict[str, Any], held: HeldSeat) -> Giveable | None:
    """The first seat of `table` (as `status` tells it) that the host of `held`'s table may give to a bot
    now: before the game an open seat, or a person's seat no one is in; during the game the seat of a
    person away `HOST_BOT_AWAY` seconds or more that no bot of the host's plays yet. None for a player who
    is not the host (holds no host token), and when no seat may be given.

    >>> host = HeldSeat("ws://h:1", "KXQMWD", 0, "Ann", host_token="secret")
    >>> ben = {"name": "Ben", "kind": "person", "present": False, "away": 130, "host_bot": None}
    >>> giveable({"phase": "playing", "seats": [{}, ben]}, host)
    Giveable(seat=1, words="Give Ben's seat to a bot")
    >>> giveable({"phase": "playing", "seats": [{}, ben | {"away": 30}]}, host) is None
    True
    >>> giveable({"phase": "waiting", "seats": [{}, {"kind": "open"}]}, host).words
    'Give the open seat to a bot'
    """
    if not held.host_token or table.get("phase") not in ("waiting", "playing"):
        return None
    seats = table.get("seats")
    for number, seat in enumerate(seats if isinstance(seats, list) else []):
        if number == held.seat or not isinstance(seat, dict):
            continue
        if table["phase"] == "waiting" and seat.get("kind") == "open":
            return Giveable(number, "Give the open seat to a bot")
        if seat.get("kind") != "person" or seat.get("present") or seat.get("host_bot"):
            continue
        away = seat.get("away")
        if table["phase"] == "waiting" or (isinstance(away, int) and away >= HOST_BOT_AWAY):
            return Giveable(number, f"Give {str(seat.get('name') or 'their')[:40]}'s seat to a bot")
    return None


def invitation_link(held: HeldSeat, shared_as: str | None = None) -> str:
    """The link that invites a friend to `held`'s table; `shared_as`: the address others on the network
    reach a server hosted here by (its own address, 127.0.0.1, is this computer's alone).

    >>> invitation_link(HeldSeat("ws://127.0.0.1:8765", "KXQMWD", 0, "Ann"), "ws://192.168.1.20:8765")
    'http://192.168.1.20:8765/t/KXQMWD'
    """
    return invitation_to(shared_as or held.server, held.code).web


def put_on_clipboard(text: str) -> str:
    """Put `text` on the clipboard (SDL's, through pygame-ce's `scrap.put_text`); "" when it is there, else
    why not, in words."""
    try:
        pygame.scrap.put_text(text)
    except pygame.error as e:
        return f"The clipboard cannot be used here ({str(e)[:80]})"
    return ""
