"""A recorded game of cribbage stepped through on the felt: from the first deal, move by move (every
discard, card laid, go, count and call), each as the table showed it to the person who played it, the
pegs where the scores stood; the ends of the play and of each show kept in sight as at the table.

The felt is the cribbage table's own scene (`CribbageScene`) over a read-only session of the game at the
move shown (`ReplaySession`), with its prompt and keys' line saying where the replay is; the controls
are the tile game's replay's: Left/Right (Space) a move, PageUp/PageDown a deal, Home/End, E exports,
and Tab shows every hand of a finished game (the other seat's cards face up, as the tile replay's Tab
shows another rack).
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from cribtiles.cribbage.moves import parse_move
from cribtiles.table.cribbage.replay import ReplaySession
from cribtiles.table.cribbage.table import CribbageTable

from .scene import CribbageScene, Host

#: The keys' line of a replay.
REPLAY_KEYS = "Left/Right a move · PageUp/PageDown a deal · Home/End · Tab every hand · E exports · Esc goes back"
#: What Tab says in the replay of a game not finished (its hands are not all known to everyone yet).
NOT_OVER = "Every hand is shown only in the replay of a finished game."
STEPS = {pygame.K_RIGHT: 1, pygame.K_SPACE: 1, pygame.K_LEFT: -1}


class CribbageReplayScene:
    """The game of `table` (finished or not) at move `at` of its record (0: as first dealt)."""

    def __init__(
        self,
        app: Host,
        table: CribbageTable,
        on_close: Callable[[], None],
        on_export: Callable[[CribbageTable], str] | None = None,
    ) -> None:
        self.app = app
        self.table = table
        self.on_close = on_close
        self.on_export = on_export
        self.moves = len(table.state.log)
        # the move at which each deal begins (its discards), to step a deal at a time
        self.deal_starts = _deal_starts(table)
        self.at = 0
        self.note = ""
        self.every_hand = False  # Tab: the other seats' cards face up (a finished game's replay only)
        self.felt = CribbageScene(app, ReplaySession(table, 0))
        self.go(0)

    # --- moving through it ---

    def go(self, at: int) -> None:
        """Show the game after its first `at` moves (kept within the record)."""
        self.at = max(0, min(self.moves, at))
        self.note = ""
        session = ReplaySession(self.table, self.at)
        self.felt.resync(session, held=True)
        state = session.table.state
        self.felt.open_hands = {p: state.hands[p] for p in self.felt.pub.others} if self.every_hand else {}
        self._words()

    def toggle_hands(self) -> None:
        """Tab: every hand face up, or the game as you saw it again; only a finished game's (a game still
        being played keeps the other's hand to itself)."""
        if not self.table.is_over:
            self.note = NOT_OVER
            self._words()
            return
        self.every_hand = not self.every_hand
        self.go(self.at)

    def step(self, n: int) -> None:
        self.go(self.at + n)

    def deal(self, n: int) -> None:
        """The start of the next deal (`n` 1) or of this one, or the one before (-1)."""
        if n > 0:
            later = [s for s in self.deal_starts if s > self.at]
            self.go(later[0] if later else self.moves)
        else:
            earlier = [s for s in self.deal_starts if s < self.at]
            self.go(earlier[-1] if earlier else 0)

    def export(self) -> None:
        if self.on_export is None:
            self.note = "This game cannot be exported from here."
        else:
            self.note = self.on_export(self.table)
        self._words()

    def _words(self) -> None:
        """The prompt: where the replay is and the move just made (or what was said of the export)."""
        pub = self.felt.pub
        if self.note:
            said = self.note
        elif self.at == 0:
            said = f"Deal 1 as dealt: {self.moves} moves follow."
        else:
            story = pub.story
            said = story[-1].words if story else ""
        where = f"Move {self.at} of {self.moves} · deal {pub.deal_number}"
        if self.every_hand:
            where += " · every hand shown"
        words = f"{where}: {said}" if said else where
        if self.at == self.moves and not self.note:
            summary = self.table.summary()
            words += " The record ends here." if summary is None else f" The end: {summary.words}"
        self.felt.replaying = (words, REPLAY_KEYS)

    # --- the scene ---

    def shutdown(self) -> None:
        self.felt.shutdown()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.felt.handle(event)  # the panel's lines light their cards
        elif event.type == pygame.KEYDOWN:
            k = event.key
            if k in STEPS:
                self.step(STEPS[k])
            elif k in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                self.deal(1 if k == pygame.K_PAGEDOWN else -1)
            elif k == pygame.K_HOME:
                self.go(0)
            elif k == pygame.K_END:
                self.go(self.moves)
            elif k == pygame.K_e:
                self.export()
            elif k == pygame.K_TAB:
                self.toggle_hands()
            elif k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.on_close()

    def update(self, dt: float) -> None:
        self.felt.update(dt)

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        return self.felt.draw(surface, full)

    def window_caption(self) -> str:
        return "Replay — " + self.felt.window_caption()


def _deal_starts(table: CribbageTable) -> list[int]:
    """The moves after which each deal after the first begins."""
    starts = []
    state = table.at_ply(0).state
    for i, text in enumerate(table.state.log, start=1):
        deal = state.deal_number
        state = state.apply(parse_move(text))
        if state.deal_number != deal:
            starts.append(i)
    return starts
