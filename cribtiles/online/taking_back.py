"""Taking back a move at an online table, as both games' remote sessions read it from a state's `undo`
field: the request that waits (`asked`), why one may not be asked now (`why_not_asked`), and how one ended,
in words for the window (`ended_words`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cribtiles.table.session import UndoAsked


def waiting(state: dict[str, Any]) -> dict[str, Any] | None:
    """The request to take back a move that `state` tells of while it waits (None: none waits)."""
    told = state.get("undo")
    return told if isinstance(told, dict) and told.get("ended") is None else None


def asked(state: dict[str, Any]) -> UndoAsked | None:
    """The request waiting, as a session tells it (None: none waits)."""
    told = waiting(state)
    if told is None:
        return None
    return UndoAsked(int(told["seat"]), tuple(told.get("agreed") or ()), tuple(told.get("waiting") or ()))


#: Why a request to take back a move is not sent while another waits.
ONE_AT_A_TIME = "a request to take back a move waits already: one at a time"


def why_not_asked(state: dict[str, Any], seat: int, otherwise: str) -> str:
    """Why `seat` may not ask to take back its move at the table as `state` tells it ("" when it may): a
    request waits already, or its own was refused or withdrawn there; else `otherwise`, its game's words.

    >>> why_not_asked({"can_undo": True}, 0, "not now")
    ''
    >>> why_not_asked({"undo": {"seat": 0, "ended": "refused"}}, 0, "not now")
    'that move was asked back once already: it stands'
    >>> why_not_asked({"undo": {"seat": 1, "ended": "refused"}}, 0, "not now")
    'not now'
    """
    if state.get("can_undo"):
        return ""
    if waiting(state) is not None:
        return ONE_AT_A_TIME
    told = state.get("undo")
    if isinstance(told, dict) and told.get("seat") == seat and told.get("ended") in ("refused", "withdrawn"):
        return "that move was asked back once already: it stands"
    return otherwise


def ended_words(before: object, after: object, names: Sequence[str], seat: int | None) -> str:
    """How a request to take back a move ended, in words for the window of `seat` ("" when `after` ends
    none, or ends it as `before` did already: told once, in the state that ended it)."""
    if not isinstance(after, dict) or after == before or after.get("ended") is None:
        return ""
    asker, by, ended = after.get("seat"), after.get("by"), after["ended"]
    if not isinstance(asker, int) or not 0 <= asker < len(names):
        return ""
    mine = asker == seat
    whose = "your move" if mine else f"{names[asker]}'s move"
    if ended == "made" and after.get("agreed"):  # (taken back at once, unasked: the asker's window says so)
        return f"Everyone agreed: {whose} is taken back."
    if ended == "refused" and isinstance(by, int) and 0 <= by < len(names) and by != seat:
        return f"{names[by]} said no: {whose} stands."
    if ended == "withdrawn" and not mine:
        return f"{names[asker]} no longer asks to take back a move."
    if ended == "moved" and mine:
        return "The table moved on: your move stands."
    return ""
