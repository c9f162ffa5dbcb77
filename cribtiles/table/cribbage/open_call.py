"""What a table tells of a score said aloud while it is open to a call (muggins): the number said and its
words, never what the cards make nor what the engine pegged for it; the pegs move once it is answered; and
what may be done once it stands, never whether letting it stand ends the game (`foreseen`). Told the
worth, a player would call exactly when a call pays (issue 43)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from cribtiles.cribbage.events import EventKind
from cribtiles.cribbage.game import CribbageState
from cribtiles.cribbage.moves import Muggins
from cribtiles.cribbage.muggins import Claim
from cribtiles.cribbage.view import CribbageView

#: The kinds of event a score said aloud pegs (`Claim.event`): its points are its worth, kept until the answer.
SAID = frozenset({EventKind.COUNT, EventKind.CLAIM})


def told_scores(scores: tuple[int, ...], claim: Claim | None, side_of: Callable[[int], int]) -> tuple[int, ...]:
    """`scores` as told while `claim` (None: no score waits) waits for its answer: the counter's side as it
    stood before the count. The engine pegged `claim.pegged` at once, which says whether the count was
    over; while the claim is open that is never kept at the target (nor did it end the game), so it is
    exactly what is taken off.

    >>> from cribtiles.cribbage.cards import parse_card, parse_cards
    >>> from cribtiles.cribbage.muggins import ClaimKind
    >>> over = Claim(1, 24, ClaimKind.SHOW, parse_cards("4H 4D 6S 6C"), parse_card("KC"))
    >>> over.pegged, told_scores((40, 52), over, lambda p: p), told_scores((40, 52), None, lambda p: p)
    (4, (40, 48), (40, 52))
    """
    if claim is None:
        return scores
    side = side_of(claim.counter)
    return (*scores[:side], scores[side] - claim.pegged, *scores[side + 1 :])


def told_view(view: CribbageView) -> CribbageView:
    """`view` as its player is told it: while a score said aloud waits for its answer, the scores as before
    it and none of its events (the claim itself says what was said); else `view` itself."""
    if view.claim is None:
        return view
    return replace(
        view,
        scores=told_scores(view.scores, view.claim, view.side_of),
        events=tuple(e for e in view.events if e.kind not in SAID),
    )


def foreseen(state: CribbageState) -> CribbageState:
    """`state` once the score waiting for its answer stands, as the one to answer it may foresee it: whose
    turn, the phase, the cards; the scores set aside. Letting a count stand ends the game when what it
    pegged (or a go or last card after it) reaches the target, which would tell what the cards make, so the
    game foreseen never ends: nothing of 0 reaches a target of 31 or more (`CribbageOptions`)."""
    return replace(state, scores=(0,) * len(state.scores)).apply(Muggins(False))
