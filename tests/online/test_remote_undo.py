"""Taking back a move by agreement through `RemoteSession`, two people's sessions at a real server on the
loopback address: the asker waits (`pending_undo`), the other agrees or refuses (`answer_undo`), the
move goes back to the asker's rack and both are told in words; the asker withdraws; a bot client in a
person's seat agrees by itself; a spectator cannot answer; a table of this process has no requests
(issue 31)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.online.botclient import SeatBot
from cribtiles.online.client import Link
from cribtiles.online.remote import RemoteSession
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.options import RuleOptions
from cribtiles.table.seats import Seat
from cribtiles.table.session import UndoAsked
from cribtiles.table.tiles.session import LocalSession
from cribtiles.table.tiles.table import Table
from tests.server.running import running_server

WAIT = 20.0


@contextmanager
def ann_and_ben(seed: int = 5) -> Iterator[tuple[RemoteSession, RemoteSession, str]]:
    """A server, and the sessions of Ann (seat 0) and Ben (seat 1) at one table, each on its own link."""
    with running_server() as (url, _hall):
        links = [Link(url), Link(url)]
        try:
            assert all(link.wait_connected(10) for link in links)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
            made = links[0].request("create", game="tiles", seats=seats, sit=0, seed=seed)
            links[0].sit(made["code"], made["token"])
            joined = links[1].request("join", code=made["code"], name="Ben")
            links[1].sit(made["code"], joined["token"])
            yield RemoteSession(links[0], made["code"], 0), RemoteSession(links[1], made["code"], 1), url
        finally:
            for link in links:
                link.close()


def until(sessions: tuple[RemoteSession, ...], done: Callable[[], bool], told: list[str] | None = None) -> None:
    """Drive `sessions` as windows would (poll, land, read what is told) until `done()`, bounded."""
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, "what was waited for did not happen"
        for session in sessions:
            if session.poll() is not None:
                session.land()
            words = session.incidents()
            if told is not None and session is sessions[0]:
                told.extend(words)
        time.sleep(0.005)


def first_move(ann: RemoteSession, ben: RemoteSession) -> tuple[RemoteSession, RemoteSession, list[str]]:
    """The person to move moves: (the mover's session, the other's, the mover's rack before it)."""
    until((ann, ben), lambda: ann.to_move is not None and ben.to_move == ann.to_move)
    mover, other = (ann, ben) if ann.to_move == 0 else (ben, ann)
    seat = mover.mine[0]
    rack = sorted(str(t) for t in mover.view(seat).rack)
    mover.act(seat, choose_safely(make_bot("easy"), mover.view(seat), random.Random(2)))
    until((ann, ben), lambda: len(other.state.turns) == len(mover.state.turns))
    return mover, other, rack


def test_the_other_agrees_and_the_move_goes_back_to_the_askers_rack() -> None:
    with ann_and_ben() as (ann, ben, _):
        mover, other, rack = first_move(ann, ben)
        me, them = mover.mine[0], other.mine[0]
        turns = len(mover.state.turns)
        assert mover.can_undo(me) and not other.can_undo(them)
        assert mover.undo_request(me) == ()  # asked: nothing taken back yet
        assert mover.pending_undo == UndoAsked(me, (), (them,))
        until((other,), lambda: other.pending_undo is not None)
        assert other.pending_undo == UndoAsked(me, (), (them,)) and not mover.can_undo(me)
        with pytest.raises(IllegalMove, match="not played here"):
            other.answer_undo(me, True)  # only its own seat answers
        heard: list[str] = []
        other.answer_undo(them, True)
        assert len(other.state.turns) == turns - 1 and other.pending_undo is None  # the answer shows it
        assert other.to_move == me
        until((mover, other), lambda: len(mover.state.turns) == turns - 1, heard)
        assert sorted(str(t) for t in mover.view(me).rack) == rack  # her tiles are on her rack again
        until((mover,), lambda: "Everyone agreed: your move is taken back." in heard, heard)
        assert mover.pending_undo is None and mover.to_move == me


def test_a_refusal_is_told_and_the_move_stands() -> None:
    with ann_and_ben(seed=9) as (ann, ben, _):
        mover, other, _ = first_move(ann, ben)
        me, them = mover.mine[0], other.mine[0]
        turns = len(mover.state.turns)
        mover.undo_request(me)
        until((other,), lambda: other.pending_undo is not None)
        other.answer_undo(them, False)
        heard: list[str] = []
        name = other.seats[them].name
        until((mover,), lambda: f"{name} said no: your move stands." in heard, heard)
        assert mover.pending_undo is None and len(mover.state.turns) == turns
        with pytest.raises(IllegalMove, match="asked back once"):
            mover.undo_request(me)
        with pytest.raises(IllegalMove, match="no one is asking"):
            other.answer_undo(them, True)


def test_the_asker_withdraws_and_the_other_is_told() -> None:
    with ann_and_ben(seed=11) as (ann, ben, _):
        mover, other, _ = first_move(ann, ben)
        me = mover.mine[0]
        mover.undo_request(me)
        until((other,), lambda: other.pending_undo is not None)
        mover.answer_undo(me, False)
        assert mover.pending_undo is None
        heard: list[str] = []
        name = mover.seats[me].name
        until((other,), lambda: f"{name} no longer asks to take back a move." in heard, heard)
        assert other.pending_undo is None


def test_a_spectator_sees_the_request_and_cannot_answer() -> None:
    with ann_and_ben(seed=13) as (ann, ben, url):
        mover, other, _ = first_move(ann, ben)
        me, them = mover.mine[0], other.mine[0]
        watcher = Link(url)
        try:
            assert watcher.wait_connected(10)
            watcher.request("watch", code=ann.code)
            watcher.watch(ann.code)
            seen = RemoteSession(watcher, ann.code, None)
            mover.undo_request(me)
            until((seen,), lambda: seen.pending_undo is not None)
            assert seen.pending_undo == UndoAsked(me, (), (them,))
            with pytest.raises(IllegalMove, match="not played here"):
                seen.answer_undo(them, True)
            with pytest.raises(IllegalMove, match="not played here"):
                seen.undo_request(me)
        finally:
            watcher.close()


def test_a_bot_client_in_a_persons_seat_agrees_by_itself() -> None:
    with running_server() as (url, _hall):
        link, other = Link(url), Link(url)
        try:
            assert link.wait_connected(10) and other.wait_connected(10)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
            made = link.request("create", game="tiles", seats=seats, sit=0, seed=7)
            link.sit(made["code"], made["token"])
            bot = SeatBot(other, made["code"], "easy", seed=3)
            bot.take_seat("Bob")
            ann = RemoteSession(link, made["code"], 0)

            def bot_sees_the_newest() -> None:
                """The bot answers the newest state it was sent (as it does once it has caught up)."""
                newest = None
                while (message := other.next_message(0.02)) is not None:
                    if message["type"] == "state":
                        newest = message["state"]
                if newest is not None:
                    bot.step(newest)

            until((ann,), lambda: bot_sees_the_newest() is None and ann.to_move == 0)
            rack = sorted(str(t) for t in ann.view(0).rack)
            turns = len(ann.state.turns)
            ann.act(0, choose_safely(make_bot("easy"), ann.view(0), random.Random(1)))
            assert ann.undo_request(0) == () and ann.pending_undo == UndoAsked(0, (), (1,))
            until((ann,), lambda: bot_sees_the_newest() is None and len(ann.state.turns) == turns)
            assert ann.to_move == 0 and sorted(str(t) for t in ann.view(0).rack) == rack
        finally:
            other.close()
            link.close()


def test_at_a_table_of_this_process_there_is_no_request_to_answer() -> None:
    session = LocalSession(Table.new((Seat("Ann"), Seat("Easy", "easy")), RuleOptions(), 5))
    while session.to_move != 0:
        assert session.poll() is not None or session.poll() is not None
        session.land()
    session.act(0, choose_safely(make_bot("easy"), session.view(0), random.Random(1)))
    assert session.pending_undo is None
    with pytest.raises(IllegalMove, match="no one is asking"):
        session.answer_undo(0, True)
    taken = session.undo_request(0)  # taken back at once, as `undo` does
    assert taken and taken[0].player == 0 and session.to_move == 0 and session.pending_undo is None
