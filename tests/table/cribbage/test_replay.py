"""A game of cribbage replayed (issue 32): the table at any move of its record is the game as it stood
then, story and all; the replay's session is read only; a record without seats seats its bots by name."""

from __future__ import annotations

import pytest

from cribtiles.cribbage.moves import CribbageError, Go
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.cribbage.replay import ReplaySession
from cribtiles.table.cribbage.table import CribbageTable


def test_the_table_at_each_move_is_the_game_as_it_stood_then() -> None:
    table = CribbageTable.new(9, "hard")
    seen = []
    while not table.is_over:
        seen.append((table.state, list(table.story), [list(s) for s in table.sequences]))
        if table.bot_to_move:
            table.bot_move()
        else:
            table.play(table.state.legal_actions()[-1])
    for ply in (0, 1, 2, 7, len(seen) // 2, len(seen) - 1):
        at = table.at_ply(ply)
        assert (at.state, at.story, at.sequences) == seen[ply]
        assert at.seats == table.seats and at.pending == []
    assert table.at_ply(10**6).state == table.state and table.at_ply(-3).state == seen[0][0]


def test_the_replays_session_is_read_only() -> None:
    table = CribbageTable.new(9, "easy")
    session = ReplaySession(table, 0)
    assert not session.thinking and session.poll() is None
    with pytest.raises(CribbageError, match="this is a replay"):
        session.act(0, Go())
    with pytest.raises(IllegalMove, match="this is a replay"):
        session.undo(0)
    with pytest.raises(IllegalMove, match="this is a replay"):
        session.land()
    assert not session.can_undo(0)


def test_a_bare_record_seats_a_bot_by_its_name() -> None:
    table = CribbageTable.new(2, "hard", person=1)
    again = CribbageTable.from_record(table.state.record())
    assert [s.level for s in again.seats] == ["hard", None] and again.person == 1
