"""Who comes and goes at a table online, in words, as both games' remote sessions tell it: a person going
away, coming back, or first sitting down (a seat is away from the moment a table is made, as a table played
again is: its people's arrival is no coming back), from two states' seats in turn; and the time a turn
timer has left, as both games' tables and the lists of tables show it (`clock_words`)."""

from __future__ import annotations

import math

from cribtiles.table.chat import chat_text


def span_words(seconds: float) -> str:
    """A time of a minute or more, short: whole minutes, hours or days ("" under a minute).

    >>> [span_words(s) for s in (20, 185, 7300, 86_400, 3 * 86_400)]
    ['', '3 min', '2 h', '1 day', '3 days']
    """
    if seconds < 60:
        return ""
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 86_400:
        return f"{int(seconds // 3600)} h"
    days = int(seconds // 86_400)
    return f"{days} day{'s' if days != 1 else ''}"


def clock_words(seconds: float | None) -> str:
    """What the turn timer has left, as a clock ("" with no timer).

    >>> clock_words(None), clock_words(42.3), clock_words(125), clock_words(4000), clock_words(2 * 86400 + 5)
    ('', '0:43 left', '2:05 left', '1 h 6 min left', '2 days left')
    """
    if seconds is None:
        return ""
    whole = max(0, math.ceil(seconds))
    if whole < 3600:
        return f"{whole // 60}:{whole % 60:02d} left"
    if whole < 86400:
        return f"{whole // 3600} h {whole % 3600 // 60} min left"
    days = whole // 86400
    return f"{days} day{'s' if days != 1 else ''} left"


def away_words(seconds: float | None) -> str:
    """How long a player has been away from a table online, short enough for a name plate ("" when here).

    >>> away_words(None), away_words(20), away_words(185), away_words(7300), away_words(3 * 86400)
    ('', 'away', 'away 3 min', 'away 2 h', 'away 3 days')
    """
    if seconds is None:
        return ""
    span = span_words(seconds)
    return f"away {span}" if span else "away"


def seat_words(told: object, away: float | None) -> tuple[str, ...]:
    """What a table online says of a seat beside its name, in a few words each, as both games' scenes
    show them (`GameSession.about`), from the seat as the server told it (`state.seats[i]`) and the
    seconds its person has been away by now: how long they have been away. A new thing the server tells
    of a seat is said here, once for both games.

    >>> seat_words({"kind": "person", "present": True}, None), seat_words({"kind": "person"}, 185)
    ((), ('away 3 min',))
    """
    return tuple(w for w in (away_words(away),) if w)


class Presence:
    """The seats' comings and goings for the player at `seat` (None: a spectator), told once each."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.seen_here: set[int] = set()  # seats whose person this session has seen at the table

    def news(self, before: object, now: object) -> list[str]:
        """What changed between two lists of seats (`state.seats`), in words; nothing when either is not
        a list of seats, or their lengths differ (another table's).

        >>> p = Presence(0)
        >>> away = [{}, {"kind": "person", "name": "Ben", "present": False, "away": 3}]
        >>> here = [{}, {"kind": "person", "name": "Ben", "present": True}]
        >>> p.news(away, here), p.news(here, away), p.news(away, here)
        (['Ben is at the table.'], ['Ben has gone away.'], ['Ben is back at the table.'])
        """
        if not isinstance(before, list) or not isinstance(now, list) or len(before) != len(now):
            self.heard(now)  # how things stand: nothing of it is news
            return []
        told = []
        for seat, (old, new) in enumerate(zip(before, now, strict=True)):
            if not isinstance(old, dict) or not isinstance(new, dict) or new.get("kind") != "person":
                continue
            was_here = seat in self.seen_here or bool(old.get("present"))
            if new.get("present"):
                self.seen_here.add(seat)
            if seat == self.seat or old.get("present") == new.get("present"):
                continue
            if new.get("present") and old.get("away") is None:  # taking an open seat: the table says so
                continue
            name = chat_text(str(new.get("name") or f"Seat {seat + 1}"))
            if not new.get("present"):
                told.append(f"{name} has gone away.")
            else:
                told.append(f"{name} is back at the table." if was_here else f"{name} is at the table.")
        return told

    def heard(self, seats: object) -> None:
        """Seats of a state taken as how things stand: who is here is remembered."""
        for seat, entry in enumerate(seats if isinstance(seats, list) else []):
            if isinstance(entry, dict) and entry.get("present"):
                self.seen_here.add(seat)
