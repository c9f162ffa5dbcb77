"""The pegs at the cribbage table: a pair a side (partners peg together), moved by what each move told
scored; a score said aloud is pegged only once answered. Each move told also leaves the end of a play,
or of a show, held in sight (`table_state.hold_after`)."""

from __future__ import annotations

from cribtiles.table.cribbage.public import Act, PublicMove

from ..motion import PEG
from ..pegs import Pegs
from .paint import PegSpot
from .table_state import Hold, Stage, hold_after


class Pegging:
    """Each side's pegs, and whether points said aloud are still owed to them (`owed`)."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.pegs: list[Pegs] = []
        self.owed = False
        self.reset()

    def reset(self) -> None:
        """The pegs where the scores are (the last points behind), nothing owed but a score waiting."""
        pub = self.stage.pub
        self.pegs = [Pegs() for _ in pub.scores]  # a side each: partners peg together
        for p, peg in enumerate(self.pegs):
            peg.set(pub.scores[p], pub.previous[p])
        # a score said aloud whose points are not told yet (the scores are as before it): its answer pegs them
        self.owed = pub.claim is not None

    @property
    def moving(self) -> bool:
        return any(p.moving for p in self.pegs)

    def advance(self, dt: float) -> None:
        pace = self.stage.app.prefs.pace
        for peg in self.pegs:
            peg.advance(dt, PEG * pace)

    def spots(self) -> tuple[PegSpot, ...]:
        """Each side's pegs as drawn: the score shown counts up while the front peg moves."""
        scores = self.stage.pub.scores
        return tuple(
            PegSpot(pegs.back, pegs.shown_score, round(pegs.shown_score) if pegs.moving else scores[p])
            for p, pegs in enumerate(self.pegs)
        )

    def tell(self, h: PublicMove) -> None:
        """A move made: its points pegged, a call announced, a finished show held in sight. A score said
        aloud is told without its points until it is answered: the answer pegs them."""
        stage = self.stage
        pub = stage.pub
        if h.act is Act.CALL:
            stage.say(h.words, error=False)
        events = h.events
        if h.act in (Act.CALL, Act.LET_STAND):
            events = (*(pub.answered(h) if self.owed else ()), *events)
            self.owed = False
        self.owed = self.owed or any(e.points is None for e in h.events)
        gained = [0] * len(self.pegs)
        for event in events:
            gained[pub.side_of(event.player)] += event.points or 0  # partners peg together
        for p in range(len(self.pegs)):
            points = min(gained[p], pub.scores[p] - self.pegs[p].front)
            if points > 0:
                self.pegs[p].score(points)
        held = hold_after(h, pub)
        if held is not Hold.NONE and not stage.watching:  # a spectator has no Enter to go on with
            stage.hold = held

    def settle_untold(self) -> None:
        """A score said aloud was answered by a move not told here (online, an answer that came with the
        next deal's first move: the story keeps that deal's moves only): its points are pegged as the
        scores now say."""
        if not self.owed or self.stage.pub.claim is not None:
            return
        self.owed = False
        scores = self.stage.pub.scores
        for p, peg in enumerate(self.pegs):
            if scores[p] > peg.front:
                peg.score(scores[p] - peg.front)
