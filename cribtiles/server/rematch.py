"""A request to play a finished online table again with the same seats (`RematchAsk`): who asked, who has
agreed, and how it ended; the people at the table agree as they do to take back a move, the server's bots
by themselves. Pure: the table (`rooms.Room`) keeps it and makes the new table once everyone agreed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class RematchEnd(StrEnum):
    """How a request to play again ended (its value is the protocol's word)."""

    MADE = "made"  # everyone agreed: the new table is made
    REFUSED = "refused"
    WITHDRAWN = "withdrawn"
    GONE = "gone"  # a person went away from the table meanwhile


@dataclass
class RematchAsk:
    """A person's request (`seat`) to play the finished table again with the same seats: the people who
    have agreed, and once it is over how it ended (by whom) and, once made, the new table's code. One at
    a time; the server's bots agree by themselves."""

    seat: int
    agreed: list[int] = field(default_factory=list)
    ended: RematchEnd | None = None
    by: int | None = None
    table: str | None = None

    def data(self) -> dict[str, Any]:
        return {"seat": self.seat, "agreed": list(self.agreed), "ended": self.ended, "by": self.by, "table": self.table}

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> RematchAsk | None:
        if data is None:
            return None
        ended = None if data["ended"] is None else RematchEnd(data["ended"])
        return cls(int(data["seat"]), [int(s) for s in data["agreed"]], ended, data["by"], data["table"])

    def waiting(self, people: Sequence[int]) -> list[int]:
        """Those of `people` (the seats of people) still to agree: the asker asked, so agreed."""
        return [p for p in people if p != self.seat and p not in self.agreed]

    def told(self, people: Sequence[int]) -> dict[str, Any]:
        """As every connection at the table is told it: who asked, who agreed, who is still to answer,
        how it ended and by whom, and once made the new table's code."""
        return {
            "seat": self.seat,
            "agreed": sorted(self.agreed),
            "waiting": [] if self.ended is not None else self.waiting(people),
            "ended": self.ended,
            "by": self.by,
            "table": self.table,
        }
