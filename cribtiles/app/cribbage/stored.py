"""Classic cribbage's details in the history database (its `STORED` part in `cribtiles.games`): its rows of
`cribbage_details` and `cribbage_counts`, and since schemas 7 and 8 of `cribbage_figures` and
`cribbage_variants`, written and read back, every value checked by kind (a history may have been edited by
hand, or written by an older version)."""

from __future__ import annotations

import re

from cribtiles.cribbage.events import MarginKind
from cribtiles.quoting import quoted
from cribtiles.table.game_summary import SIX_CARD, Counting, CribbageDetails, ShowCount

from ..history_rows import Rows, Stored, one
from ..sqlrows import Row, flag, text, whole

_CARDS = re.compile(r"[A2-9TJQK][SHDC]( [A2-9TJQK][SHDC]){2,3}")  # a five-card game's hand is three
#: The most counts of a deal's show: four hands and the crib (four in partnerships).
MOST_COUNTS = 5
_CARD = re.compile(r"[A2-9TJQK][SHDC]")


def cribbage_rows(d: CribbageDetails) -> dict[str, tuple[Row, ...]]:
    """`d` as its rows by table (without the game's id): `cribbage_figures` only when its counting is known,
    `cribbage_variants` only for a variant other than six-card cribbage."""
    details = (int(d.muggins), d.target, d.margin.value, d.deals, *d.pegged[:2], d.undos, d.hints)
    counts = tuple((c.deal, c.step, c.owner, int(c.crib), c.cards, c.starter, c.points, c.declared) for c in d.shows)
    children: dict[str, tuple[Row, ...]] = {"cribbage_details": (details,), "cribbage_counts": counts}
    if d.counting is not None and d.muggins_won is not None:
        children["cribbage_figures"] = ((d.counting.value, *d.muggins_won[:2]),)
    if d.variant != SIX_CARD:  # its seats past the second: None where there are fewer
        more = (*d.pegged[2:], None, None)[:2]
        won = (*(d.muggins_won or ())[2:], None, None)[:2]
        children["cribbage_variants"] = ((d.variant, *more, *won),)
    return children


def cribbage_details(children: Rows) -> CribbageDetails:
    """The details of a game's rows of `cribbage_details`, `cribbage_counts`, `cribbage_figures` and
    `cribbage_variants`; TypeError or ValueError in words."""
    row = one(children, "cribbage_details")
    if len(row) == 6:  # kept for the history by a version before schema 6: no marks
        row = (*row, 0, 0)
    muggins, target, margin, deals, pegged_0, pegged_1, undos, hints = row
    counting, won = _figures(children)
    variant, more_pegged, more_won = _variant(children)
    if won is not None:
        won = (*won, *more_won)
    try:
        margin_kind = MarginKind(text(margin, "margin"))
    except ValueError:
        raise ValueError(f"its margin {quoted(margin)} is not win, skunk or double skunk") from None
    return CribbageDetails(
        muggins=flag(muggins, "muggins mark"),
        target=whole(target, "target"),
        margin=margin_kind,
        deals=whole(deals, "number of deals"),
        pegged=(whole(pegged_0, "points pegged"), whole(pegged_1, "points pegged"), *more_pegged),
        shows=tuple(_count(c) for c in children.get("cribbage_counts", ())),
        undos=whole(undos, "number of undos"),
        hints=whole(hints, "number of hints"),
        counting=counting,
        muggins_won=won,
        variant=variant,
    )


def _variant(children: Rows) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """Schema 8's variant of a game of cribbage (six-card, with no row), and its third and fourth seats'
    points pegged and taken by muggins (none for two)."""
    if not children.get("cribbage_variants", ()):
        return SIX_CARD, (), ()
    variant, pegged_2, pegged_3, won_2, won_3 = one(children, "cribbage_variants")
    name = text(variant, "variant")
    if name == SIX_CARD or not name:
        raise ValueError(f"its variant {quoted(name)} is not one besides six-card cribbage")
    pegged = tuple(whole(p, "points pegged") for p in (pegged_2, pegged_3) if p is not None)
    won = tuple(whole(w, "muggins points") for w in (won_2, won_3) if w is not None)
    return name, pegged, won


def _figures(children: Rows) -> tuple[Counting | None, tuple[int, ...] | None]:
    """Schema 6's figures of a game of cribbage (None for a game stored before): its counting, the calls."""
    if not children.get("cribbage_figures", ()):
        return None, None
    counting, won_0, won_1 = one(children, "cribbage_figures")
    try:
        kind = Counting(text(counting, "counting"))
    except ValueError:
        raise ValueError(f"its counting {quoted(counting)} is not auto, manual or muggins") from None
    return kind, (whole(won_0, "muggins points"), whole(won_1, "muggins points"))


def _count(row: Row) -> ShowCount:
    deal, step, owner, crib, cards, starter, points, declared = row
    if not _CARDS.fullmatch(text(cards, "show's cards")) or not _CARD.fullmatch(text(starter, "starter")):
        raise ValueError("a count of its show does not name three or four cards and a starter")
    if not 0 <= whole(step, "show's step") < MOST_COUNTS:
        raise ValueError(f"a count of its show is not one of a deal's {MOST_COUNTS} at most")
    return ShowCount(
        deal=whole(deal, "deal"),
        step=whole(step, "show's step"),
        owner=whole(owner, "show's owner"),
        crib=flag(crib, "crib mark"),
        cards=text(cards, "show's cards"),
        starter=text(starter, "starter"),
        points=whole(points, "show's points"),
        declared=whole(declared, "count declared"),
    )


STORED = Stored(words="This game of cribbage", rows=cribbage_rows, details=cribbage_details)
