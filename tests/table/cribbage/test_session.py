"""The cribbage session: the game-neutral verbs over a CribbageTable, the bot thinking behind `poll`
and `land`, the other seat's hand never handed out (issue 30)."""

from __future__ import annotations

import pytest

from cribtiles.cribbage.game import CribbageState
from cribtiles.cribbage.moves import CribbageError, Move
from cribtiles.cribbage.view import CribbageView
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.cribbage.session import CribbageSession, InlineThinker
from cribtiles.table.cribbage.table import CribbageTable, Happening
from cribtiles.table.session import GameSession


class Keeps:
    def __init__(self) -> None:
        self.saved = 0
        self.recorded: list[tuple[CribbageState, int, str]] = []

    def save_cribbage(self, table: CribbageTable) -> bool:
        self.saved += 1
        return True

    def record_cribbage(self, state: CribbageState, person: int, level: str) -> None:
        self.recorded.append((state, person, level))


def played_out(session: CribbageSession) -> int:
    """Play the game to its end: the person's first legal move, the bot's through poll and land."""
    moves = 0
    while not session.is_over:
        seat = session.to_move
        assert seat is not None
        if seat in session.mine:
            session.act(seat, session.view(seat).legal[0])
        else:
            while session.poll() is None:  # asked, then answered (at once, inline)
                pass
            session.land()
        moves += 1
    return moves


def test_it_is_a_game_session() -> None:
    session: GameSession[CribbageView, Move, Move, Happening] = CribbageSession(CribbageTable.new(3, "easy"))
    assert session.mine == (0,) and session.seats[1].level == "easy" and not session.is_over


def test_the_bots_hand_is_not_this_drivers_to_see_nor_its_moves_to_make() -> None:
    session = CribbageSession(CribbageTable.new(3, "easy"))
    mine = session.view(0)
    assert len(mine.hand) == 6 and mine.opponent_cards_left == 6
    assert not set(session.table.state.view(1).hand) & set(mine.hand)  # the two hands differ
    with pytest.raises(IllegalMove, match="not played here"):
        session.view(1)
    with pytest.raises(IllegalMove, match="not played here"):
        session.act(1, mine.legal[0])
    assert session.why_not(1, mine.legal[0]) == "Seat 2 is not played here."
    assert session.call_open(1) is None


def test_the_bot_moves_through_poll_and_land() -> None:
    session = CribbageSession(CribbageTable.new(3, "easy"))
    first = session.view(0).legal[0]
    session.act(0, first)  # the person's discard; the bot's to do
    assert session.to_move == 1
    with pytest.raises(CribbageError, match="not your turn"):
        session.act(0, first)
    assert session.poll() is None and session.thinking  # asked
    move = session.poll()
    assert move is not None and session.poll() == move  # announced, not yet made
    ply = session.table.ply
    session.land()
    assert session.table.ply == ply + 1 and not session.thinking
    with pytest.raises(IllegalMove, match="no move"):
        session.land()


def test_a_whole_game_is_saved_and_recorded_once() -> None:
    keeps = Keeps()
    session = CribbageSession(CribbageTable.new(5, "easy"), InlineThinker(), keeps)
    session.save()
    session.finish()
    assert keeps.saved == 1 and keeps.recorded == []  # not over: nothing recorded
    assert played_out(session) > 50
    session.finish()
    session.finish()
    assert len(keeps.recorded) == 1 and keeps.recorded[0][0].is_over and keeps.recorded[0][1:] == (0, "easy")
    session.close()
