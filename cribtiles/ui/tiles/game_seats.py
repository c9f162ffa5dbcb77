"""Whose rack the window shows, and the curtain between two people sharing it (the hot seat): the
racks covered when one person's turn ends, until the next says they are ready.
"""

from __future__ import annotations

import pygame

from cribtiles.table.tiles.privacy import hands_over, next_person, uncovered_seat
from cribtiles.table.tiles.session import Session

READY_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


class SeatShown:
    """The seat whose rack is shown (`viewer`) and the person the racks wait for (`curtain`)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.viewer = self.person_to_show()
        self.curtain: int | None = None  # the person the racks are hidden for until they are ready
        if self.hot_seat and self.mine_to_move:
            self.curtain = self.viewer  # the first person's rack waits for them, too

    @property
    def you(self) -> int | None:
        """The seat called "You": the only person at a table of bots (None with several people, or none)."""
        mine = self.session.mine
        return mine[0] if len(mine) == 1 else None

    def name_of(self, seat: int) -> str:
        """ "You" for the only person at a table of bots, else the seat's name."""
        return "You" if seat == self.you else self.session.state.names[seat]

    @property
    def uncovered(self) -> int | None:
        """The seat whose rack is uncovered now (None while the curtain is down): the only seat whose
        private information (`cribtiles.table.tiles.privacy`) may be drawn."""
        return uncovered_seat(self.viewer, self.curtain is not None)

    @property
    def hot_seat(self) -> bool:
        """Several people share the window (in Solitaire both sides are one person's: no curtain)."""
        return len(self.session.mine) > 1 and not self.session.state.options.solitaire

    @property
    def mine_to_move(self) -> bool:
        """One of this window's seats is to move."""
        return self.session.to_move is not None and self.session.to_move in self.session.mine

    def person_to_show(self, keep: int | None = None) -> int:
        """The person to move, else `keep` (the last shown), else the first person at the table."""
        if self.mine_to_move:
            return self.session.state.current
        if keep is not None:
            return keep
        mine = self.session.mine
        return mine[0] if mine else 0

    def after_turn(self, mover: int) -> int:
        """`mover`'s turn was made: the next person's rack is shown, behind the curtain when people
        share the window (covered at once, even while bots move before the next person's turn). The
        seat shown before."""
        before, self.viewer = self.viewer, self.person_to_show(self.viewer)
        session = self.session
        passing = self.hot_seat and session.seats[mover].is_person
        if passing and hands_over(session.seats, mover, session.to_move):
            following = next_person(session.seats, session.state.current)
            self.viewer = self.viewer if following is None else following
        if self.viewer != before:  # the next person at the table takes their rack, once the others look away
            self.curtain = self.viewer if self.hot_seat else None
        return before

    def taken_back(self) -> None:
        """A turn was taken back: no curtain, the person to move shown."""
        self.curtain = None
        self.viewer = self.person_to_show(self.viewer)

    def lift(self, event: pygame.event.Event) -> bool:
        """A click, Enter or Space lifts the curtain: the person behind it is ready. True when it did."""
        ready = (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1) or (
            event.type == pygame.KEYDOWN and event.key in READY_KEYS
        )
        if ready:
            self.curtain = None
        return ready


def waits(event: pygame.event.Event) -> bool:
    """Input that waits while the curtain is down (the board and the panel are not anyone's yet)."""
    return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.MOUSEWHEEL)
