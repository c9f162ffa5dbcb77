"""Muggins with three or four at the table (issue 32): a score said aloud is open to a call only by the one
who answers it, the next player round from its owner; another person's word on it is refused."""

from __future__ import annotations

import pytest

from cribtiles.cribbage import CribbageOptions
from cribtiles.cribbage.moves import Muggins
from cribtiles.cribbage.options import Variant
from cribtiles.table.cribbage.table import CribbageTable


@pytest.mark.parametrize("variant", [Variant.THREE, Variant.PARTNERSHIP])
def test_only_the_next_player_round_may_call_a_count(variant: Variant) -> None:
    table = CribbageTable.new(31, "easy", CribbageOptions(variant=variant, muggins=True, play_muggins=True))
    seen: set[int] = set()
    answered = refused = 0
    while not table.is_over and (len(seen) < variant.players - 1 or not answered or not refused):
        claim = table.state.claim
        if claim is not None and claim.counter != 0:
            answerer = (claim.counter + 1) % variant.players
            assert table.state.current_player == answerer
            if answerer == 0:
                assert table.call_open_to(0) == claim and Muggins(True) in table.state.legal_actions()
                answered += 1
            else:
                assert table.call_open_to(0) is None  # another's count, answered by someone else
                assert "not your turn" in table.why_not(Muggins(True), 0)
                refused += 1
            seen.add(claim.counter)
        if table.person_to_move:
            table.play(table.state.legal_actions()[0])
        else:
            table.bot_move()
    assert len(seen) == variant.players - 1 and answered and refused  # both kinds of moment were seen
