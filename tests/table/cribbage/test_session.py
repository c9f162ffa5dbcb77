"""The cribbage session: the game-neutral verbs over a CribbageTable, the bot thinking behind `poll`
and `land`, the other seat's hand never handed out (issue 30)."""

from __future__ import annotations

import time

import pytest

from cribtiles.cribbage.game import CribbageState
from cribtiles.cribbage.moves import CribbageError, Move
from cribtiles.cribbage.options import CribbageOptions
from cribtiles.cribbage.view import CribbageView
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.cribbage.public import PublicMove, public_from_json, public_json, public_of
from cribtiles.table.cribbage.session import BotThinker, CribbageSession, FinishedCribbage, InlineThinker
from cribtiles.table.cribbage.table import BotRequest, CribbageTable
from cribtiles.table.session import GameSession


class Keeps:
    def __init__(self) -> None:
        self.saved = 0
        self.recorded: list[tuple[CribbageState, int, str]] = []

    def save(self, table: CribbageTable) -> bool:
        self.saved += 1
        return True

    def record(self, game: FinishedCribbage) -> None:
        self.recorded.append((game.state, game.person, game.level))


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
    session: GameSession[CribbageView, Move, Move, PublicMove | None] = CribbageSession(CribbageTable.new(3, "easy"))
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


def _hidden(public_text: str, table: CribbageTable, seat: int) -> set[str]:
    """The cards of `seat`'s hand and of the crib that `public_text` shows but may not yet."""
    state = table.state
    shown = {c.owner for c in table.counted if not c.crib}
    secret = set() if seat in shown else {str(c) for c in state.hands[seat] + state.shown[seat]}
    if not any(c.crib for c in table.counted):
        secret |= {str(c) for c in state.crib + state.discards[0] + state.discards[1]}
    laid = {str(c) for _, c in state.played}
    return {c for c in secret - laid if f'"{c}"' in public_text}


def test_the_public_value_goes_over_json_and_shows_no_hidden_card() -> None:
    session = CribbageSession(CribbageTable.new(11, "easy", CribbageOptions(muggins=True, play_muggins=True)))
    table = session.table
    seen_counted = seen_claim = False
    while not session.is_over:
        public = session.public()
        text = public_json(public)
        assert public_from_json(text) == public
        assert _hidden(text, table, 1) == set()
        assert "seed" not in text and "stock" not in text and "deck" not in text
        claim = table.state.claim  # a score said aloud, open to a call: the scores as before it (issue 43)
        pegged = [0, 0] if claim is None else [claim.pegged * (p == claim.counter) for p in (0, 1)]
        assert public.scores == tuple(s - n for s, n in zip(table.state.scores, pegged, strict=True))
        assert public.to_move == table.to_move
        seen_counted = seen_counted or bool(public.counted)
        seen_claim = seen_claim or public.claim is not None
        seat = session.to_move
        assert seat is not None
        if seat in session.mine:
            session.act(seat, session.view(seat).legal[0])
        else:
            while session.poll() is None:
                pass
            session.land()
    end = public_from_json(public_json(session.public()))
    assert end.is_over and end.summary == table.summary() and end.summary is not None
    assert seen_counted and seen_claim
    assert end.counted[-1].score.total == table.counted[-1].score.total


def test_the_leak_check_sees_the_bots_hand_and_the_crib() -> None:
    table = CribbageTable.new(11, "easy")
    text = public_json(public_of(table))
    assert _hidden(text, table, 1) == set()
    assert _hidden(text + f'"{table.state.hands[1][0]}"', table, 1) == {str(table.state.hands[1][0])}


class Failing:
    """A thinker whose bot failed: it says so."""

    def __init__(self) -> None:
        self.inner = InlineThinker()
        self.incidents = ["The cribbage bot could not choose (ValueError: a bug): it made the first legal move."]

    @property
    def busy(self) -> bool:
        return self.inner.busy

    def start(self, request: BotRequest) -> None:
        self.inner.start(request)

    def result(self) -> Move | None:
        return self.inner.result()

    def cancel(self) -> None:
        self.inner.cancel()


def test_incidents_say_what_went_wrong_with_the_bots_thinking() -> None:
    assert CribbageSession(CribbageTable.new(3, "easy")).incidents() == ()
    session = CribbageSession(CribbageTable.new(3, "easy"), Failing())
    assert session.incidents() == (
        "The cribbage bot could not choose (ValueError: a bug): it made the first legal move.",
    )


def test_a_bot_that_fails_in_the_background_is_an_incident() -> None:
    def broken(request: BotRequest) -> Move:
        raise ValueError("a bug")

    session = CribbageSession(CribbageTable.new(3, "easy"), BotThinker(broken))
    session.act(0, session.view(0).legal[0])
    deadline = time.monotonic() + 10
    while session.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    session.land()
    told = session.incidents()
    assert len(told) == 1 and "ValueError" in told[0] and "first legal move" in told[0]
    assert session.incidents() == ()  # told once
    session.close()
