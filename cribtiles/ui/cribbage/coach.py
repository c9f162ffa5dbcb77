"""The coach at the cribbage table: the hint key (I or ?, as at the tile game's table) asks it; in the
discard it shows the advisor's best discards with their expected points and lights the two cards to
lay away, in the play the card Hard would lay and why. A hint is counted once per position, as the tile
game's coach counts it (`coach_state.refusal`: hints off, or the game's hints used up, in its words).

No pygame here: the scene asks, this answers from `cribtiles.bot.cribbage.advisor`; drawing reads the
snapshot's `CoachNote`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from cribtiles.bot.cribbage.advisor import DEALT, DiscardAdvice, PegHint, advise_discard, peg_hint
from cribtiles.cribbage.cards import DECK, Card, format_cards
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.view import CribbageView
from cribtiles.table.cribbage.session import CribbageDriver

from ..coach_state import refusal

#: How many discards the coach lists (best first).
TOP = 4

Position = tuple[int, int]  # the deal, and the moves made in the game


@dataclass(frozen=True)
class CoachNote:
    """What the coach shows at the cribbage table: a title, its rows (words and the points on the right),
    a line of why, and the cards of your hand it lights (the two to lay away, or the card to lay)."""

    title: str
    rows: tuple[tuple[str, str], ...]
    why: str
    cards: tuple[Card, ...]


def discard_note(advice: tuple[DiscardAdvice, ...], dealer: bool, whose: str = "") -> CoachNote:
    """The advisor's best discards as the coach lists them (`whose` crib it is, in words: "your partner's
    crib"; "" says yours or theirs as `dealer` says)."""
    whose = whose or ("your crib" if dealer else "their crib")
    rows = tuple(
        (f"throw {format_cards(a.thrown)}", f"{a.hand:.1f} {a.crib:+.1f} = {a.total:.1f}") for a in advice[:TOP]
    )
    best = advice[0]
    why = (
        f"Keep {format_cards(best.kept)}: the hand averages {best.hand:.2f} over the {starters(best)} starters, "
        f"and {format_cards(best.thrown)} are worth {best.crib:+.2f} in {whose}."
    )
    return CoachNote("Coach: the best discards (hand, crib = total)", rows, why, best.thrown)


def starters(advice: DiscardAdvice) -> int:
    """The cards the starter may be, to the player who was dealt the advice's cards: 46 of six dealt, 47 of
    five (five-card cribbage, three players, partners)."""
    return len(DECK) - len(advice.kept) - len(advice.thrown)


def peg_note(hint: PegHint) -> CoachNote:
    """The pegging hint as the coach shows it."""
    rows = tuple((r.words, f"{r.points} for them") for r in hint.replies[:3])
    return CoachNote(f"Coach: lay {hint.card}", rows, hint.why, (hint.card,))


@dataclass
class CribCoach:
    """What the coach shows at one cribbage table, and the positions a hint was counted for."""

    note: CoachNote | None = None
    position: Position | None = None  # what is shown is for this position
    counted: set[Position] = field(default_factory=set)

    def refusal(self, session: CribbageDriver, here: Position, hints_on: bool, limit: int) -> str:
        """Why the coach may not help now, in words ("" when it may)."""
        if not session.coach_allowed:
            return "The coach is not at this table: its creator did not allow hints."
        return refusal(session, hints_on, limit, here in self.counted)

    def stale(self, here: Position) -> None:
        """The game moved on: what was shown is put away."""
        if self.note is not None and self.position != here:
            self.note, self.position = None, None

    def ask(self, session: CribbageDriver, view: CribbageView, here: Position) -> str:
        """The hint for `view` (your crib cards still to lay, or your turn to lay a card), counted once per position;
        "" when shown, else why not in words (IllegalMove from a table elsewhere, in its words)."""
        note = self._note(_laying_on(session, view))
        if note is None:
            if view.phase is Phase.PLAY:
                return "No card of yours fits: say Go." if view.my_turn else "The coach helps on your turn."
            return "The coach helps in the discard and in the play."
        if here not in self.counted:
            session.count_hint()  # first: a table elsewhere that cannot count it gives no hint
            self.counted.add(here)
        self.note, self.position = note, here
        return ""

    def dismiss(self) -> None:
        self.note, self.position = None, None

    @staticmethod
    def _note(view: CribbageView) -> CoachNote | None:
        variant = view.options.variant
        if view.phase is Phase.DISCARD and not view.discards and len(view.hand) == variant.dealt:  # still to lay
            ours = view.side_of(view.dealer) == view.side_of(view.player)  # a partner's crib counts as yours
            whose = "your crib" if view.dealer == view.player else "your partner's crib" if ours else "their crib"
            to_crib = None if variant.dealt == DEALT else variant.to_crib
            return discard_note(advise_discard(view.hand, ours, to_crib=to_crib), ours, whose)
        if view.phase is Phase.PLAY:
            hint = peg_hint(view)
            return None if hint is None else peg_note(hint)
        return None


def _laying_on(session: CribbageDriver, view: CribbageView) -> CribbageView:
    """`view` with the moves its player may make once the other's score said aloud stands, while it waits
    for their answer (laying a card lets it stand): the pegging hint is for the card to lay on, not for the
    answer (muggins in the play)."""
    if view.claim is None or view.claim.counter == view.player:
        return view
    after = session.legal_after_answer(view.player)
    return replace(view, legal=after) if after else view
