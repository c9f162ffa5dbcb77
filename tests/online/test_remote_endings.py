"""How a table online ends besides its rules, through both games' remote sessions at a real server on the
loopback address: a person resigns (both sessions see the game over and are told in words, the finished
game goes into each history with its resignation); a request to play again is asked, seen waiting by the
other (`pending_again`), agreed, and each session learns its own seat at the new table (`next_table`),
whose token opens it; a refusal is told; a table aborted is told and seen (`aborted`); leaving drops the
table from the player's list; the turns and moves made by the server's stand-in are told as such in the
public values (issue 44, defect 15)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from cribtiles.online.client import Link
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.online.remote import RemoteSession
from cribtiles.rules.errors import IllegalMove
from cribtiles.server.front import Hall
from cribtiles.table.again import AgainAsked
from cribtiles.table.cribbage.session import FinishedCribbage
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.session import LocalSession
from cribtiles.table.tiles.table import Table
from tests.server.running import running_server
from tests.server.test_stand_in import Clock

WAIT = 20.0
Sessions = tuple[RemoteSession | RemoteCribbageSession, ...]


class Kept:
    """A history: what each finished game's record said."""

    def __init__(self) -> None:
        self.games: list[Any] = []

    def save(self, table: Any) -> bool:
        return True

    def record(self, game: Table | FinishedCribbage) -> None:
        self.games.append(game.state if isinstance(game, FinishedCribbage) else game)


@contextmanager
def ann_and_ben(
    game: str = "tiles", hall_clock: Clock | None = None, **options: Any
) -> Iterator[tuple[list[Any], list[Link], str, Hall, list[list[str]], list[Kept]]]:
    """A server and a table of `game` for Ann (seat 0, its creator) and Ben: both sessions, their links,
    the code, the hall, the codes each session forgot (`leave`) and each one's history."""
    clock = hall_clock or time.time
    with running_server(clock=clock) as (url, hall):
        links = [Link(url), Link(url)]
        forgot: list[list[str]] = [[], []]
        kept = [Kept(), Kept()]
        try:
            assert all(link.wait_connected(10) for link in links)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
            made = links[0].request("create", game=game, seats=seats, sit=0, seed=5, **options)
            code = made["code"]
            links[0].sit(code, made["token"])
            links[1].sit(code, links[1].request("join", code=code, name="Ben")["token"])
            kind = RemoteSession if game == "tiles" else RemoteCribbageSession
            sessions = [
                kind(links[s], code, s, keeper=kept[s], forget=lambda s=s: forgot[s].append(code))  # type: ignore[misc]
                for s in (0, 1)
            ]
            yield sessions, links, code, hall, forgot, kept
        finally:
            for link in links:
                link.close()


def until(sessions: Sessions, done: Callable[[], bool], told: list[list[str]]) -> None:
    """Drive the sessions as windows do (another seat's move landed, what is told read) until `done()`,
    bounded; what they were told is read once more after it."""
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, f"what was waited for did not happen; told: {told}"
        for i, session in enumerate(sessions):
            if session.poll() is not None:  # both games' sessions: the same verbs
                session.land()
            heard(session, told[i])
        time.sleep(0.005)
    for i, session in enumerate(sessions):
        heard(session, told[i])


def heard(session: RemoteSession | RemoteCribbageSession, told: list[str]) -> None:
    """What `session` tells, as its window hears it: the incidents, and the lines said at the table (the
    link keeps those, the table's own among them: "The table: Ann resigned: Ben wins.")."""
    told.extend(session.incidents())
    told.extend(w for w in (line.words for line in session.chat_lines) if w not in told)


def test_a_resignation_ends_the_tile_game_for_both_and_goes_into_each_history() -> None:
    with ann_and_ben() as (sessions, _, _, _, _, kept):
        ann, ben = sessions
        told: list[list[str]] = [[], []]
        with pytest.raises(IllegalMove, match="seat 2 is not played here"):
            ann.resign(1)
        ann.resign(0)
        assert ann.is_over and ann.state.outcome is not None and ann.state.outcome.resigned == 0
        until((ann, ben), lambda: ben.is_over and ben.match.is_over, told)
        assert ben.match.winners == (1,)
        until((ann, ben), lambda: "The table: Ann resigned: Ben wins." in told[1], told)
        ann.finish()
        ben.finish()
        for history in kept:
            [table] = history.games
            assert table.match.resigned == 0 and table.match.winners == (1,)


def test_both_agree_to_play_again_and_each_learns_its_own_seat_at_the_new_table() -> None:
    with ann_and_ben() as (sessions, links, code, hall, forgot, _):
        ann, ben = sessions
        told: list[list[str]] = [[], []]
        ben.resign(1)
        until((ann, ben), lambda: ann.is_over, told)
        assert ann.pending_again is None and ann.next_table is None
        with pytest.raises(IllegalMove, match="no one is asking to play again now"):
            ben.answer_again(1, True)
        ann.ask_again(0)
        assert ann.pending_again == AgainAsked(0, (), (1,))
        until((ann, ben), lambda: ben.pending_again is not None, told)
        assert "Ann asks to play again: Y or Play again agrees, N says no." in told[1]
        ben.answer_again(1, True)
        until((ann, ben), lambda: ann.next_table is not None and ben.next_table is not None, told)
        mine, theirs = ann.next_table, ben.next_table
        assert mine is not None and theirs is not None
        assert mine.code == theirs.code != code and (mine.left, theirs.left) == (code, code)
        assert (mine.seat, mine.name, mine.game, theirs.seat, theirs.name) == (0, "Ann", "tiles", 1, "Ben")
        assert mine.token != theirs.token
        new = hall.rooms[mine.code]
        assert new.seat_of(mine.token) == 0 and new.seat_of(theirs.token) == 1
        assert f"Everyone agreed: the new table is {mine.code[:3]} {mine.code[3:]}." in told[0]
        links[0].sit(mine.code, mine.token)  # as the window does: the new table's session
        again = RemoteSession(links[0], mine.code, 0)
        assert again.seat == 0 and not again.is_over and again.seats[1].name == "Ben"
        ann.leave()
        assert forgot[0] == [code] and code not in links[0].seats


def test_a_refusal_is_told_to_the_one_who_asked() -> None:
    with ann_and_ben() as (sessions, _, _, _, _, _):
        ann, ben = sessions
        told: list[list[str]] = [[], []]
        ann.resign(0)
        until((ann, ben), lambda: ben.is_over, told)
        ben.ask_again(1)
        until((ann, ben), lambda: ann.pending_again is not None, told)
        ann.answer_again(0, False)
        until((ann, ben), lambda: "Ann said no: the table is not played again." in told[1], told)
        assert ann.pending_again is None and ben.pending_again is None


def test_cribbage_resigned_and_played_again() -> None:
    with ann_and_ben("cribbage") as (sessions, _, _, hall, _, kept):
        ann, ben = sessions
        told: list[list[str]] = [[], []]
        ann.resign(0)
        assert ann.is_over
        until((ann, ben), lambda: ben.is_over, told)
        summary = ben.public().summary
        assert summary is not None and summary.words == "Ann resigned: Ben wins, 0 to 0."
        ben.finish()
        [state] = kept[1].games
        assert state.outcome.resigned == 0
        ben.ask_again(1)
        until((ann, ben), lambda: ann.pending_again is not None, told)
        ann.answer_again(0, True)
        until((ann, ben), lambda: ann.next_table is not None and ben.next_table is not None, told)
        nxt = ann.next_table
        assert nxt is not None and nxt.game == "cribbage" and hall.rooms[nxt.code].game_name == "cribbage"


def test_an_aborted_table_is_told_and_seen() -> None:
    with ann_and_ben() as (sessions, links, code, _, _, _):
        ann, ben = sessions
        told: list[list[str]] = [[], []]
        assert links[1].request("abort", code=code)["type"] == "ok"
        until((ann, ben), lambda: ann.aborted, told)
        assert "The table was aborted before its first move: it ends with no result." in told[0]
        with pytest.raises(IllegalMove, match="aborted before its first move"):
            RemoteSession(links[0], code, 0)


def test_the_stand_ins_turns_are_told_as_such() -> None:
    clock = Clock()
    with ann_and_ben(hall_clock=clock, turn_timer=60) as (sessions, _, _, hall, _, _):
        ann, ben = sessions
        told: list[list[str]] = [[], []]
        mover = ann if ann.to_move == 0 else ben
        clock.now += 61  # the mover's time runs out: the server's tick moves for them
        until((ann, ben), lambda: len(mover.state.turns) == 1 or mover.poll() is not None, told)
        if mover.poll() is not None:
            mover.land()
        assert mover.state.stand_in(0) == "timer" and mover.state.stand_in(1) is None
        room = next(iter(hall.rooms.values()))
        shown = json.loads(json.dumps(room.shown(None, clock.now)))
        assert shown["match"]["game"]["turns"][0]["stand_in"] == "timer"


def test_a_table_at_this_window_has_nobody_to_ask() -> None:
    session = LocalSession(Table.new((Seat("You"), Seat("Easy", "easy")), seed=3))
    assert session.pending_again is None and session.next_table is None and not session.aborted
    with pytest.raises(IllegalMove, match="a new game is started here"):
        session.ask_again(0)
    session.resign(0)
    assert session.is_over and session.match.winners == (1,)
