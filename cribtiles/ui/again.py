"""The end of a table online as both games' windows show it (no pygame here): the question a request to
play again puts to this window (to ask, to withdraw, to agree or refuse, or whom it waits for), what a
press of its button or Y and N does, and the confirmation before a person resigns (issue 44)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.rules.errors import IllegalMove
from cribtiles.table.again import AgainAsked, TableEnds


@dataclass(frozen=True)
class AgainQuestion:
    """What the end card of a table online says of playing again: its words, its keys, and the label of
    its button (None: no button, nothing for this window to do but wait)."""

    text: str
    keys: str
    button: str | None


def joined(names: Sequence[str]) -> str:
    """ "Ben", "Ben and Cat", "Ben, Cat and Dan"; "the others" for nobody.

    >>> joined(["Ben"]), joined(["Ben", "Cat", "Dan"]), joined([])
    ('Ben', 'Ben, Cat and Dan', 'the others')
    """
    if not names:
        return "the others"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _named(names: Sequence[str], seats: Sequence[int]) -> str:
    return joined([names[p] for p in seats if 0 <= p < len(names)])


def again_question(
    asked: AgainAsked | None, names: Sequence[str], mine: Sequence[int], played_again_at: str | None = None
) -> AgainQuestion:
    """The question of playing again as this window (its seats `mine`; none: a spectator's) shows it;
    `played_again_at`: the new table's code once everyone agreed.

    >>> again_question(None, ["Ann", "Ben"], [0]).button
    'Play again'
    >>> again_question(AgainAsked(0, (), (1,)), ["Ann", "Ben"], [0]).text
    'Waiting for Ben to agree to play again.'
    >>> again_question(AgainAsked(0, (), (1,)), ["Ann", "Ben"], [1]).text
    'Ann asks to play again, with the same seats and rules.'
    >>> again_question(None, ["Ann", "Ben"], [], "KXQMWD")
    AgainQuestion(text='Ann and Ben play again at table KXQ MWD.', keys='Enter watches it', button='Watch it')
    >>> again_question(None, ["Ann", "Ben"], []).button is None
    True
    """
    if not mine:
        return _watched(asked, names, played_again_at)
    leave = "L leaves the table"
    if asked is None:
        text = "Play again: a new table with the same seats and rules, once everyone here agrees."
        return AgainQuestion(text, f"Enter or N asks the others · {leave}", "Play again")
    if asked.asker in mine:
        return AgainQuestion(
            f"Waiting for {_named(names, asked.waiting)} to agree to play again.",
            f"Enter withdraws the request · {leave}",
            "Withdraw",
        )
    asker = names[asked.asker] if 0 <= asked.asker < len(names) else "Someone"
    if any(p in asked.waiting for p in mine):
        return AgainQuestion(
            f"{asker} asks to play again, with the same seats and rules.",
            f"Enter or Y agrees · N says no · {leave}",
            "Play again",
        )
    return AgainQuestion(f"{asker} asks to play again: waiting for {_named(names, asked.waiting)}.", leave, None)


def _watched(asked: AgainAsked | None, names: Sequence[str], played_again_at: str | None) -> AgainQuestion:
    """The end of a table watched: who plays again where (to watch it too), a request that waits, or the end."""
    if played_again_at is not None:
        code = f"{played_again_at[:3]} {played_again_at[3:]}"
        return AgainQuestion(f"{joined(names)} play again at table {code}.", "Enter watches it", "Watch it")
    if asked is not None:
        asker = names[asked.asker] if 0 <= asked.asker < len(names) else "Someone"
        return AgainQuestion(f"{asker} asks to play again: waiting for {_named(names, asked.waiting)}.", "", None)
    return AgainQuestion("The game is over: you watched it to its end.", "", None)


def press_again(session: TableEnds, names: Sequence[str], seat: int, yes: bool) -> str:
    """The end card's button (`yes`), or N (not `yes`), as this window's `seat` presses it: ask the others
    to play again, withdraw its own request, or answer another's. What was done, in words (a refusal
    of the table's too)."""
    asked = session.pending_again
    try:
        if asked is None:
            if not yes:
                return ""
            session.ask_again(seat)
            waiting = session.pending_again
            if waiting is None:
                return "Everyone agreed: on to the new table."
            return f"Asked {_named(names, waiting.waiting)} to play again."
        if asked.asker == seat:
            session.answer_again(seat, False)
            return "You no longer ask to play again."
        if seat not in asked.waiting:
            return f"Waiting for {_named(names, asked.waiting)} to answer."
        session.answer_again(seat, yes)
    except IllegalMove as e:
        return f"{str(e)[:1].upper()}{str(e)[1:]}."
    asker = names[asked.asker] if 0 <= asked.asker < len(names) else "them"
    return f"You agreed to play again with {asker}." if yes else f"You said no: {asker}'s table is not played again."


def resign_question(names: Sequence[str], seat: int, match: bool) -> str:
    """The confirmation before `seat` resigns, naming who wins.

    >>> resign_question(["Ann", "Ben", "Cat"], 0, False)
    'Resign this game? Ben and Cat win at once, and it cannot be taken back.'
    """
    others = [n for p, n in enumerate(names) if p != seat]
    what = "the whole match" if match else "this game"
    verb = "wins" if len(others) == 1 else "win"
    return f"Resign {what}? {joined(others)} {verb} at once, and it cannot be taken back."
