"""A seat's view and the public game read as what the engine and the felt need (issue 45): `stand_in_state`,
a game that agrees with all a seat sees, to judge its own move in the engine's words; `watcher_view`, the
felt as a spectator sees it, from the first seat's side and no card of anyone's hand."""

from __future__ import annotations

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.game import CribbageState
from cribtiles.cribbage.view import CribbageView

from .public import CribbagePublic


def stand_in_state(view: CribbageView) -> CribbageState:
    """A game that agrees with all `view` shows, the cards its player cannot see dealt out in their sorted
    order (each other player's hand, then what they laid away, then the three-player crib's card from the
    deck): enough to judge that player's own move in the engine's words, never to play on."""
    me, variant = view.player, view.options.variant
    pool = list(view.unseen)

    def take(n: int) -> tuple[Card, ...]:
        taken = tuple(pool[:n])
        del pool[:n]
        return taken

    held = [view.hand if p == me else take(view.cards_left[p]) for p in range(view.players)]
    laid = [
        view.discards if p == me else take(variant.to_crib) if view.discarded_by[p] else () for p in range(view.players)
    ]
    crib = (*(c for cards in laid for c in cards), *take(variant.from_deck))
    if view.to_count and view.show_step == view.players:  # your crib, face up for you to count
        crib = view.to_count
    return CribbageState(
        seed=0,
        names=view.names,
        options=view.options,
        cut_for_deal=view.cut_for_deal,
        scores=view.scores,
        dealer=view.dealer,
        deal_number=view.deal_number,
        phase=view.phase,
        hands=tuple(held),
        discards=tuple(laid),
        discarded=view.discarded_by,
        shown=tuple(view.kept if p == me else held[p] for p in range(view.players)),
        crib=crib,
        starter=view.starter,
        turn=me if view.current_player is None else view.current_player,
        pile=view.pile,
        count=view.count,
        gone=(False,) * view.players,
        played=view.played,
        show_step=view.show_step,
        claim=view.claim,
        stock=tuple(pool),
    )


def watcher_view(public: CribbagePublic) -> CribbageView:
    """What a spectator sees from the first seat's side of the felt: the public game and no card of
    anyone's hand (the scene draws the felt from a seat's view)."""
    played = tuple(card for sequence in public.sequences for card in sequence)
    return CribbageView(
        player=0,
        names=public.names,
        options=public.options,
        scores=public.scores,
        dealer=public.dealer,
        deal_number=public.deal_number,
        phase=public.phase,
        hand=(),
        kept=(),
        discards=(),
        crib_size=public.crib_size,
        starter=public.starter,
        pile=public.pile,
        count=public.count,
        played=played,
        cards_left=public.hand_sizes,
        discarded_by=tuple(False for _ in public.names),
        shown_hands=(),
        show_step=public.show_step,
        claim=public.claim,
        to_count=(),
        current_player=public.to_move,
        legal=(),
        events=(),
        outcome=None,
        cut_for_deal=(),
        unseen=(),
    )
