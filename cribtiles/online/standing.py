"""What a table's status (`table`, the answer to `status`) says to the player at one of its seats: whether
it is their turn, who the others are, the scores, and how long until a stand-in moves for the person to
move (the turn timer, or a bot for a player away), counted on from when the status was heard; and when
to warn that a move's time is nearly out (issue 44)."""

from __future__ import annotations

from typing import Any

from cribtiles.games import GAMES

#: The least and the most time before a stand-in moves at which the player is warned.
WARN_LEAST, WARN_MOST = 10.0, 3600.0


def _seats(table: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in table.get("seats") or [] if isinstance(s, dict)]


def to_move(table: dict[str, Any]) -> int | None:
    """The seat to move while the game is played (None before, after, or between rounds)."""
    seat = table.get("to_move")
    playing = table.get("phase") == "playing"
    return seat if playing and isinstance(seat, int) and not isinstance(seat, bool) else None


def is_yours(seat: int | None, table: dict[str, Any]) -> bool:
    """It is the player at `seat`'s turn (a spectator's never is).

    >>> is_yours(1, {"phase": "playing", "to_move": 1}), is_yours(1, {"phase": "over", "to_move": 1})
    (True, False)
    """
    return seat is not None and to_move(table) == seat


def game_title(table: dict[str, Any]) -> str:
    """The table's game as players call it ("Kings Cribbage", "Cribbage")."""
    kind = GAMES.get(str(table.get("game") or "tiles"))
    return kind.title if kind is not None else str(table.get("game"))


def opponents(seat: int | None, table: dict[str, Any]) -> list[str]:
    """The names at the other seats, an open seat as "(open)".

    >>> opponents(0, {"seats": [{"name": "Ann"}, {"name": None, "kind": "open"}, {"name": "Easy"}]})
    ['(open)', 'Easy']
    """
    return [str(s.get("name") or "(open)") for i, s in enumerate(_seats(table)) if i != seat]


def time_left(table: dict[str, Any], elapsed: float = 0.0) -> float | None:
    """Seconds until a stand-in moves for the person to move, `elapsed` seconds after the status was
    told: their turn timer, or the bot for a player away too long, whichever comes first (as the server
    counts them); None when nothing will move for them.

    >>> ann = {"kind": "person", "present": False, "away": 100}
    >>> table = {"phase": "playing", "to_move": 0, "seats": [ann], "since_last_move": 30,
    ...          "settings": {"turn_timer": 300, "absent_bot": 120}}
    >>> time_left(table), time_left(table, elapsed=10)
    (90.0, 80.0)
    """
    seat = to_move(table)
    seats = _seats(table)
    if seat is None or not 0 <= seat < len(seats) or seats[seat].get("kind") != "person":
        return None
    settings = table.get("settings") or {}
    since = float(table.get("since_last_move") or 0) + elapsed
    left: list[float] = []
    timer = settings.get("turn_timer")
    if isinstance(timer, int | float):
        left.append(timer - since)
    absent, away = settings.get("absent_bot"), seats[seat].get("away")
    if isinstance(absent, int | float) and not seats[seat].get("present") and isinstance(away, int | float):
        left.append(absent - min(away + elapsed, since))
    return max(0.0, min(left)) if left else None


def limit(table: dict[str, Any]) -> float | None:
    """The whole time a move may take at `table` before a stand-in moves (None: no limit)."""
    settings = table.get("settings") or {}
    limits = [v for v in (settings.get("turn_timer"), settings.get("absent_bot")) if isinstance(v, int | float)]
    return float(min(limits)) if limits else None


def warn_at(table: dict[str, Any]) -> float | None:
    """Seconds left at which the player is warned: a fifth of the time a move may take, from ten
    seconds to an hour.

    >>> warn_at({"settings": {"turn_timer": 60}}), warn_at({"settings": {"turn_timer": 86400}})
    (12.0, 3600.0)
    """
    most = limit(table)
    return None if most is None else min(WARN_MOST, max(WARN_LEAST, most / 5))


def scores_words(names: list[str], scores: list[int]) -> str:
    """Each player and their score, as the caption and the title say them.

    >>> scores_words(["You", "Ben"], [12, 9])
    'You 12 · Ben 9'
    """
    return " · ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False))


def table_scores(seat: int | None, table: dict[str, Any]) -> str:
    """The scores as the status tells them, this player as "You" ("" before the game has begun)."""
    scores = table.get("scores")
    if not isinstance(scores, list):
        return ""
    names = ["You" if i == seat else str(s.get("name") or "?") for i, s in enumerate(_seats(table))]
    return scores_words(names, [int(s) for s in scores])
