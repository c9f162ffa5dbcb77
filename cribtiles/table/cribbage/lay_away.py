"""Crib cards laid in any order (issue 44): at a real table everyone lays away at once, but the engine
takes the discards one seat after another from the dealer's left, and a record replays them in that
order. So a person who lays away before the engine comes to them has the discard kept aside
(`CribbageTable.ahead`) and made when their turn comes; meanwhile what each seat sees is told here:
that they have laid away, never what, but to the seat that laid them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from cribtiles.cribbage.game import legal_discards
from cribtiles.cribbage.moves import Discard
from cribtiles.cribbage.view import CribbageView


def laid_ahead(view: CribbageView, ahead: Mapping[int, Discard], may_lay: bool) -> CribbageView:
    """`view` with the crib cards laid `ahead` (seat: its discard, not made yet): every seat that has laid
    away shows so (`discarded_by`, its cards left, the crib's size); the viewer's own discard leaves its
    hand, and it may do nothing more in this discard. `may_lay`: the viewer may lay away now, though it
    is not its turn: its discards are its legal moves.

    >>> from cribtiles.cribbage.game import new_game
    >>> from cribtiles.cribbage.cards import parse_cards
    >>> view = new_game(7).view(1)  # the dealer's: the engine waits for the other's discard first
    >>> view.legal, " ".join(map(str, view.hand))
    ((), 'AC 2H 6D 9S TC TS')
    >>> mine = laid_ahead(view, {1: Discard(parse_cards("AC 2H"))}, False)
    >>> " ".join(map(str, mine.hand)), mine.discards == parse_cards("AC 2H"), mine.discarded_by, mine.crib_size
    ('6D 9S TC TS', True, (False, True), 2)
    >>> mine.cards_left, mine.legal
    ((6, 4), ())
    >>> len(laid_ahead(view, {}, True).legal)  # 6 cards, two to the crib
    15
    """
    if not ahead and not may_lay:
        return view
    laid = {p: len(m.cards) for p, m in ahead.items()}
    told = replace(
        view,
        cards_left=tuple(n - laid.get(p, 0) for p, n in enumerate(view.cards_left)),
        discarded_by=tuple(done or p in ahead for p, done in enumerate(view.discarded_by)),
        crib_size=view.crib_size + sum(laid.values()),
    )
    mine = ahead.get(view.player)
    if mine is not None:
        kept = tuple(c for c in view.hand if c not in mine.cards)
        return replace(told, hand=kept, kept=kept, discards=mine.cards, legal=())
    if may_lay:
        return replace(told, legal=legal_discards(view.hand, view.options.variant))
    return told
