"""What belongs to one seat's eyes only, and the one rule for when it may be shown: while that seat's
rack is uncovered. Private are a rack, the coach's hint, advice and best plays for it, the tiles still
out as its player sees them, and the coach's note on its player's play. The window and the text mode ask here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..seats import Seat

T = TypeVar("T")


@dataclass(frozen=True)
class Private(Generic[T]):
    """`value`, for the eyes of the player at `seat` only."""

    seat: int
    value: T

    def seen_by(self, uncovered: int | None) -> T | None:
        """The value when `uncovered` is its seat (that seat's rack is uncovered), else None."""
        return self.value if visible(self.seat, uncovered) else None


def visible(seat: int | None, uncovered: int | None) -> bool:
    """Whether what belongs to `seat` (None: to everyone) may be shown while `uncovered` is the seat
    whose rack is uncovered (None: the curtain is down).

    >>> visible(None, None), visible(1, 1), visible(1, 0), visible(1, None)
    (True, True, False, False)
    """
    return seat is None or (uncovered is not None and seat == uncovered)


def uncovered_seat(shown: int, curtain_down: bool) -> int | None:
    """The seat whose rack is uncovered: the one shown, unless the curtain hides every rack."""
    return None if curtain_down else shown


def reveal(item: Private[T] | None, uncovered: int | None) -> T | None:
    """`item`'s value if it may be shown while `uncovered` is the seat uncovered, else None.

    >>> reveal(Private(1, "best was f7=5D"), 1), reveal(Private(1, "best was f7=5D"), 0)
    ('best was f7=5D', None)
    >>> reveal(Private(1, "best was f7=5D"), None) is None  # the curtain is down
    True
    """
    return None if item is None else item.seen_by(uncovered)


def next_person(seats: Sequence[Seat], current: int) -> int | None:
    """The first seat holding a person from `current` on, in turn order (None: only bots sit here).

    >>> next_person([Seat.person("Ann"), Seat.bot("hard"), Seat.person("Ben")], 1)
    2
    """
    n = len(seats)
    return next(((current + k) % n for k in range(n) if seats[(current + k) % n].is_person), None)


def hands_over(seats: Sequence[Seat], mover: int, current: int | None) -> bool:
    """After `mover`'s turn, whether the window passes to another person (the racks covered until
    they are ready): several people share it, and the next person to act is not `mover`.
    `current`: the seat to move now (None: the round is over, nobody takes the seat).

    >>> seats = [Seat.person("Ann"), Seat.bot("hard"), Seat.person("Ben")]
    >>> hands_over(seats, 0, 1), hands_over(seats, 2, 0), hands_over(seats[:2], 0, 1)
    (True, True, False)
    """
    if current is None or sum(1 for s in seats if s.is_person) < 2:
        return False
    following = next_person(seats, current)
    return following is not None and following != mover
