"""The table under the keyboard: the board's cursor moved with the arrows, the rack's tile chosen
with Tab or 1-5, Space laying it on the cursor's square (or lifting the one there), F flipping.
"""

from __future__ import annotations

import pygame

from cribtiles.rules.board import CENTRE, SIZE, Square

from .game_hand import Hand
from .game_host import Stage

ARROWS = {pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1), pygame.K_UP: (-1, 0), pygame.K_DOWN: (1, 0)}


class Keys:
    """The board cursor, whether it is shown (the keyboard is in use), and the rack tile chosen."""

    def __init__(self, stage: Stage, hand: Hand) -> None:
        self.stage = stage
        self.hand = hand
        self.cursor: Square = CENTRE
        self.keyboard = False  # show the board cursor and the selected rack tile
        self.selected = 0  # index into the rack order for keyboard play

    def key(self, event: pygame.event.Event) -> bool:
        """The rack's and the cursor's keys: arrows (Ctrl+Left/Right move the tile in the rack), Tab,
        1-5, Space lays or lifts, F flips. True when the key was the cursor's."""
        k, mods = event.key, event.mod
        if k in ARROWS:
            if mods & pygame.KMOD_CTRL and k in (pygame.K_LEFT, pygame.K_RIGHT):
                ids = self.hand.draft.order
                if ids:
                    tid = ids[min(self.selected, len(ids) - 1)]
                    self.hand.draft.move_in_rack(tid, -1 if k == pygame.K_LEFT else 1)
                    self.selected = self.hand.draft.order.index(tid)
            elif self.keyboard:
                dr, dc = ARROWS[k]
                row, col = self.cursor.row + dr, self.cursor.col + dc
                self.cursor = Square(min(SIZE - 1, max(0, row)), min(SIZE - 1, max(0, col)))
            self.keyboard = True
        elif k == pygame.K_TAB:
            n = len(self.hand.draft.order)
            if n:
                self.selected = (self.selected + (-1 if mods & pygame.KMOD_SHIFT else 1)) % n
            self.keyboard = True
        elif pygame.K_1 <= k <= pygame.K_5:
            i = k - pygame.K_1
            if self.hand.exchanging:
                if i < len(self.hand.draft.order):
                    self.hand.draft.toggle_mark(self.hand.draft.order[i])
            elif i < len(self.hand.draft.order):
                self.selected = i
                self.keyboard = True
        elif k == pygame.K_SPACE:
            self.keyboard = True
            self._space()
        elif k == pygame.K_f:
            self._flip_key()
        else:
            return False
        return True

    def escape(self) -> None:
        """Escape: the held tile goes back, the exchange closes, the keyboard's cursor goes away."""
        if self.hand.draft.held is not None:
            self.hand.draft.cancel()
            self.stage.refresh_preview()
        elif self.hand.exchanging:
            self.hand.close_exchange()
        self.keyboard = False

    def _space(self) -> None:
        """Space: lay the selected rack tile on the cursor square, or lift back the one there."""
        if self.cursor in self.hand.draft.placed:
            self.hand.draft.take_back(self.cursor)
            self.hand.moved()
            self.stage.refresh_preview()
            return
        ids = self.hand.draft.order
        if not ids or not self.stage.my_turn or self.hand.exchanging:
            return
        tid = ids[min(self.selected, len(ids) - 1)]
        if self.hand.draft.place(tid, self.stage.state.board, self.cursor):
            self.hand.moved()
            self.stage.app.sounds.click()
            self.selected = min(self.selected, max(0, len(self.hand.draft.order) - 1))
            self.stage.refresh_preview()

    def _flip_key(self) -> None:
        hit = None if self.keyboard else self.hand.tile_at(self.hand.mouse)
        if hit is not None:
            self.hand.flip_at(self.hand.mouse)
        elif self.keyboard and self.cursor in self.hand.draft.placed:
            self.hand.flip(self.hand.draft.placed[self.cursor])
        elif self.hand.draft.order:
            self.hand.flip(self.hand.draft.order[min(self.selected, len(self.hand.draft.order) - 1)])
