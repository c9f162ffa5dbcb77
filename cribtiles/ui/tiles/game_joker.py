"""The Joker rule at the table: the person counts the play they make (pointing at its combinations,
or typing a total) before declaring it, calls "Joker" on another's play, and every call made at the
table is told, with the pegs it moves.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from cribtiles.rules.board import Square
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.scoring import PlayScore
from cribtiles.table.tiles.joker import Declaration, Item
from cribtiles.table.tiles.seen import call_words

from ..pegs import Pegs
from .game_hand import Hand
from .game_host import Stage
from .game_words import sentence
from .snapshot import DeclaringView

CALL_TOAST = 5.0  # seconds a Joker call's words stay


class JokerDesk:
    """The count of the play being declared, and the calls told so far. `play` makes (or asks about)
    the play laid, with what is declared for it and the combinations pointed at."""

    def __init__(self, stage: Stage, hand: Hand, play: Callable[[int, tuple[Item, ...]], None]) -> None:
        self.stage = stage
        self.hand = hand
        self.play = play
        self.declaring: Declaration | None = None  # the person counts the play they are making
        self.pointed: set[Square] = set()  # squares clicked towards the next item
        self.typed = ""  # a declared total typed instead
        # the calls told so far: (rounds finished, calls in the round); a resumed game's are old
        self.told = (len(stage.session.match.finished), len(stage.state.calls))

    def count(self, score: PlayScore) -> None:
        """The person starts counting the play laid (its true score is what they may find)."""
        self.declaring, self.pointed, self.typed = Declaration(score), set(), ""

    def cancel(self) -> None:
        self.declaring, self.pointed, self.typed = None, set(), ""

    def may_call(self, ready: bool) -> bool:
        """The person shown may call "Joker" on the last play (`ready`: nothing hides or moves)."""
        return ready and self.stage.session.may_call(self.stage.human)

    def call(self, pegs: list[Pegs]) -> None:
        """The person shown calls "Joker" on the last play (a call the table refuses is told: another
        player elsewhere called first, or the table could not be reached)."""
        try:
            self.stage.session.call_joker(self.stage.human)
        except IllegalMove as e:
            self.stage.toast(sentence(str(e)), CALL_TOAST)
            return
        self.tell_calls(pegs)
        self.stage.app.sounds.click()
        self.stage.session.save()

    def tell_calls(self, pegs: list[Pegs], wait: float = 0.0) -> None:
        """Tell every Joker call the table has recorded since the last told, whoever made it (a bot's as
        its play lands, a person's): who called, on whose play, how many points; and move the pegs of
        the points it moved. From the table's records, so that no call goes by unseen."""
        session, state = self.stage.session, self.stage.state
        finished, told = self.told
        if finished != len(session.match.finished):  # a new round: its calls are all new
            told = 0
        calls = state.calls
        told = min(told, len(calls))  # a turn taken back takes its calls with it
        names = tuple(self.stage.name_of(p) for p in range(state.players))
        for before, call in calls[told:]:
            player = state.turns[before - 1].player if before else call.caller
            self.stage.toast(call_words(call, player, names), CALL_TOAST)
            if call.points > 0:
                pegs[call.caller].score(call.points, wait=wait)
            else:
                pegs[call.caller].deduct(-call.points)
            if call.taken:
                pegs[player].deduct(call.taken)
        self.told = (len(session.match.finished), len(calls))

    def point_at(self, square: Square | None) -> None:
        """A click while counting: the square joins (or leaves) the tiles pointed at; when they make a
        fifteen, a pair, a run or a bonus of the play, it is claimed."""
        if self.declaring is None or square is None:
            return
        if self.stage.state.board[square] is None and square not in self.hand.draft.placed:
            return
        self.pointed ^= {square}
        self.declaring, item = self.declaring.point_at(frozenset(self.pointed))
        if item is not None:
            self.pointed = set()
            self.typed = ""
            self.stage.app.sounds.click()

    def key(self, event: pygame.event.Event) -> bool:
        """The count's keys: digits type a total, Backspace takes one back, Enter declares, Escape
        stops counting. True when the key was the count's."""
        k = event.key
        if pygame.K_0 <= k <= pygame.K_9 or pygame.K_KP0 <= k <= pygame.K_KP9:
            digit = k - pygame.K_0 if k <= pygame.K_9 else k - pygame.K_KP0
            self.typed = (self.typed + str(digit))[-3:].lstrip("0") or "0"
            return True
        if k == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
            return True
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.declare()
            return True
        if k == pygame.K_ESCAPE:
            self.cancel()
            return True
        return False

    def declare(self) -> None:
        """Declare what was counted (or typed): refused in words when it may not be declared."""
        d = self.declaring
        if d is None or self.hand.draft.proposal() is None:
            return
        declared = int(self.typed) if self.typed else d.points
        why = d.check(declared)
        if why:
            self.stage.toast(why)
            return
        self.play(declared, () if self.typed else d.found)

    def view(self) -> DeclaringView | None:
        d = self.declaring
        if d is None:
            return None
        claimed = frozenset(sq for item in d.found for sq in item.squares)
        found = tuple((i.what, i.points) for i in d.found)
        return DeclaringView(found, d.points, self.typed, claimed, frozenset(self.pointed))
