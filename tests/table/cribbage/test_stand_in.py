"""A seat's view and the public game read for the engine and the felt (`table/cribbage/stand_in.py`,
issue 45): the stand-in game judges a seat's own move as the real game does, and a spectator's felt shows
the public game and no card of anyone's hand."""

from __future__ import annotations

import random

from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.moves import PlayCard
from cribtiles.cribbage.options import CribbageOptions, Variant
from cribtiles.table.cribbage.public import public_of
from cribtiles.table.cribbage.stand_in import stand_in_state, watcher_view
from cribtiles.table.cribbage.table import CribbageTable

#: What a seat sees of the game that its stand-in shows it alike (its events and the show's hands are the
#: real game's story, which the stand-in does not retell).
SAME = ("hand", "kept", "discards", "scores", "phase", "dealer", "starter", "pile", "count", "played",
        "cards_left", "discarded_by", "claim", "to_count", "current_player", "legal")  # fmt: skip


def test_the_stand_in_judges_a_seats_own_move_as_the_game_does_in_every_variant() -> None:
    judged = 0
    for variant in Variant:
        names = ("Ann", "Ben", "Cy", "Di")[: variant.players]
        for seed in range(2):
            state = new_game(seed, names, CribbageOptions(variant=variant, muggins=True))
            rng = random.Random(seed)
            while not state.is_over:
                seat = state.current_player
                assert seat is not None
                view = state.view(seat)
                stand_in = stand_in_state(view)
                assert stand_in.legal_actions() == state.legal_actions()
                assert all(getattr(stand_in.view(seat), f) == getattr(view, f) for f in SAME)
                judged += 1
                state = state.apply(rng.choice(state.legal_actions()))
    assert judged > 500  # whole games of each variant


def test_the_stand_in_deals_the_unseen_cards_in_their_sorted_order() -> None:
    state = new_game(7)
    view = state.view(0)
    stand_in = stand_in_state(view)
    assert stand_in.hands[0] == view.hand
    assert stand_in.hands[1] == view.unseen[:6]  # the other's hand, then the deck
    assert stand_in.stock == view.unseen[6:] and len(stand_in.stock) == 52 - 12
    absent = stand_in.hands[1][0]
    assert PlayCard(absent) not in stand_in.legal_actions()


def test_a_spectator_sees_the_public_game_from_the_first_seat_and_no_card_of_a_hand() -> None:
    seen = 0
    for variant in Variant:
        table = CribbageTable.new(3, "easy", CribbageOptions(variant=variant, muggins=True, play_muggins=True))
        for _ in range(120):  # through the deal, the play and the show, and on into the next deals
            assert not table.is_over
            felt, seat = watcher_view(public_of(table)), table.view(0)
            assert felt.player == 0
            assert (felt.hand, felt.kept, felt.discards, felt.shown_hands, felt.to_count, felt.unseen) == ((),) * 6
            assert felt.legal == () and not any(felt.discarded_by)
            for field in ("names", "scores", "dealer", "deal_number", "phase", "crib_size", "starter", "pile",
                          "count", "played", "cards_left", "show_step", "claim", "current_player"):  # fmt: skip
                assert getattr(felt, field) == getattr(seat, field), field
            seen += 1
            if table.to_move == table.person:
                table.play(table.state.legal_actions()[0])
            else:
                table.bot_move()
    assert seen == 4 * 120  # no game over before it
