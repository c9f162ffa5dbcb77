"""The tile game at an online table through `RemoteSession`, against a real server on the loopback
address with a `SeatBot` at another seat: whole games (two seats; three with a server bot; the Joker rule
with a call; a match of rounds), the others' moves queued and landed in order, refusals in the server's
words, and a connection dropped mid-game that comes back while the game goes on (issue 31)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.online.botclient import Outcome, SeatBot
from cribtiles.online.client import Link
from cribtiles.online.remote import RemoteSession
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.moves import Pass
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.session import Session
from cribtiles.table.tiles.table import Table
from tests.server.running import running_server

WAIT = 60.0  # seconds any game of these tests may take, at the most


class Kept:
    """A keeper that keeps the finished games it is given."""

    def __init__(self) -> None:
        self.games: list[Table] = []

    def save(self, table: Table) -> bool:
        return True

    def record(self, game: Table) -> None:
        self.games.append(game)


@contextmanager
def table_with_bot(
    seats: list[dict[str, Any]], rules: str = "", seed: int = 7, coach: bool = False, **link_options: Any
) -> Iterator[tuple[RemoteSession, Link, threading.Thread, list[Outcome]]]:
    """A server, a table created by Ann (seat 0, on `link`), a SeatBot playing the open seat in a thread,
    and Ann's RemoteSession."""
    with running_server() as (url, _hall):
        link = Link(url, **link_options)
        other = Link(url)
        try:
            assert link.wait_connected(10) and other.wait_connected(10)
            made = link.request("create", game="tiles", seats=seats, sit=0, seed=seed, rules=rules, coach=coach)
            link.sit(made["code"], made["token"])
            bot = SeatBot(other, made["code"], "easy", seed=3)
            bot.take_seat("Bob")
            outcomes: list[Outcome] = []
            thread = threading.Thread(target=lambda: outcomes.append(bot.play(timeout=WAIT)), daemon=True)
            thread.start()
            session = RemoteSession(link, made["code"], 0, keeper=Kept())
            yield session, link, thread, outcomes
            thread.join(WAIT)
        finally:
            other.close()
            link.close()


def play_out(session: RemoteSession, call_when_may: bool = False, landed: list[int] | None = None) -> int:
    """Ann plays her seat to the end of the match (easy bot's moves), landing the others' as they come;
    the number of her moves."""
    import time

    bot, rng, moves = make_bot("easy"), random.Random(1), 0
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if session.is_over:
            if session.match.is_over:
                return moves
            session.next_round()
            continue
        if call_when_may and session.may_call(0):
            session.call_joker(0)
        if session.to_move == 0:
            record = session.act(0, choose_safely(bot, session.view(0), rng))
            assert record.player == 0 and record.number == len(session.state.turns) - 1
            moves += 1
        elif session.poll() is not None:
            record = session.land()
            if landed is not None:
                landed.append(record.number)
        else:
            time.sleep(0.005)
    raise AssertionError("the game did not end in time")


def test_a_remote_session_is_a_session() -> None:
    with table_with_bot([{"kind": "person", "name": "Ann"}, {"kind": "open"}]) as (session, *_):
        held: Session = session  # mypy holds it to the interface
        assert held.mine == (0,) and held.seats == (Seat("Ann"), Seat("Bob"))
        assert held.state.names == ("Ann", "Bob") and not held.is_over
        assert len(held.view(0).rack) == held.state.rack_sizes[0] > 0 and held.view(0).player == 0
        with pytest.raises(IllegalMove, match="not played here"):
            held.view(1)  # Bob's rack never came here
        with pytest.raises(IllegalMove, match="still being played"):
            held.record()
        assert held.coach_allowed is False and held.away(1) is None and held.time_left() is None
        play_out(session)


def test_two_seats_play_a_whole_game_and_it_goes_into_the_history() -> None:
    landed: list[int] = []
    with table_with_bot([{"kind": "person", "name": "Ann"}, {"kind": "open"}]) as (session, _, thread, outcomes):
        first = len(session.state.turns)  # Bob may have moved before Ann sat down
        moves = play_out(session, landed=landed)
        thread.join(WAIT)
        assert outcomes and outcomes[0].over  # Bob saw the same end
        final = outcomes[0].state
        assert final["match"]["game"]["scores"] == list(session.state.scores)
        assert len(session.history) == len(session.state.turns) == first + moves + len(landed)
        assert landed == sorted(landed) and all(session.history[n].player == 1 for n in landed)
        record = session.record()  # the whole game, every rack, once it is over
        assert record.state.turns == session.state.turns and record.state.is_over
        session.finish()
        session.finish()  # once, however often asked
        assert isinstance(session.keeper, Kept) and len(session.keeper.games) == 1
        with pytest.raises(IllegalMove, match="not played again from here"):
            session.again(session.seats, 5)


def test_three_seats_with_a_server_bot_land_in_order() -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]
    landed: list[int] = []
    with table_with_bot(seats, seed=11) as (session, _, thread, outcomes):
        first = len(session.state.turns)  # the others may have moved before Ann sat down
        play_out(session, landed=landed)
        thread.join(WAIT)
        assert outcomes and outcomes[0].over
        players = {session.history[n].player for n in landed}
        assert players == {1, 2}  # the seat bot's moves and the server bot's, each shown on its way
        # every turn of the game was shown once, in order: Ann's made, the others' landed
        mine = [r.number for r in session.history if r.player == 0]
        assert sorted(mine + landed) == list(range(first, len(session.state.turns)))


def test_the_joker_rule_with_a_call() -> None:
    with table_with_bot([{"kind": "person", "name": "Ann"}, {"kind": "open"}], rules="joker=on", seed=5) as (
        session,
        _,
        thread,
        _outcomes,
    ):
        play_out(session, call_when_may=True)
        thread.join(WAIT)
        calls = [c for _, c in session.state.calls] + [c for g in session.match.finished for _, c in g.calls]
        assert any(c.caller == 0 for c in calls)  # Ann called on Bob's plays, and the table kept it


def test_a_match_of_rounds_goes_round_by_round() -> None:
    with table_with_bot([{"kind": "person", "name": "Ann"}, {"kind": "open"}], rules="rounds=2", seed=9) as (
        session,
        *_,
    ):
        play_out(session)
        assert session.match.is_over and len(session.match.finished) == 1


def test_refusals_are_in_the_servers_words() -> None:
    with table_with_bot([{"kind": "person", "name": "Ann"}, {"kind": "open"}], seed=7) as (session, *_):
        while session.to_move != 0:
            if session.poll() is not None:
                session.land()
        with pytest.raises(IllegalMove, match="not played here"):
            session.act(1, Pass())
        with pytest.raises(IllegalMove, match=r"legal play|may not pass"):
            session.act(0, Pass())  # she has a play (the rules say so, through the server)
        with pytest.raises(IllegalMove, match="no turn to take back"):
            session.undo(0)
        with pytest.raises(IllegalMove, match="coach is not at this table"):
            session.count_hint()
        with pytest.raises(IllegalMove, match="no next round"):
            session.next_round()
        play_out(session)


def test_an_old_ply_is_refused_and_changes_nothing() -> None:
    with table_with_bot([{"kind": "person", "name": "Ann"}, {"kind": "open"}], seed=7) as (session, link, *_):
        while session.to_move != 0:
            if session.poll() is not None:
                session.land()
        turns = len(session.state.turns)
        move = choose_safely(make_bot("easy"), session.view(0), random.Random(1))
        from cribtiles.rules.moves import format_move

        with pytest.raises(Exception, match="moved on"):
            link.request("act", code=session.code, ply=session.data["ply"] - 1, move=format_move(move))
        assert len(session.state.turns) == turns
        session.act(0, move)  # the right ply is taken
        assert len(session.state.turns) == turns + 1
        play_out(session)


def test_a_dropped_connection_comes_back_and_the_game_goes_on() -> None:
    import time

    with table_with_bot([{"kind": "person", "name": "Ann"}, {"kind": "open"}], seed=13, backoff=(1.0, 1.0)) as (
        session,
        link,
        thread,
        outcomes,
    ):
        bot, rng = make_bot("easy"), random.Random(2)
        for _ in range(3):  # a few turns first
            while session.to_move != 0:
                if session.poll() is not None:
                    session.land()
            session.act(0, choose_safely(bot, session.view(0), rng))
        ws = link._ws  # the socket under the link: cut as a network would
        assert ws is not None
        ws.socket.shutdown(2)
        told: list[str] = []
        end = time.monotonic() + 20
        while link.connects < 2 and time.monotonic() < end:
            told += session.incidents()
            session.poll()
            time.sleep(0.01)
        assert link.connects >= 2, "the link did not come back"
        end = time.monotonic() + 5
        back = ("Back in touch", "it is back")  # (a link back within a frame is told in one line)
        while not any(b in t for t in told for b in back) and time.monotonic() < end:
            told += session.incidents()
            time.sleep(0.01)
        assert any("connection to the server was lost" in t for t in told), told
        assert any(b in t for t in told for b in back), told
        play_out(session)  # and the game goes on to its end
        thread.join(WAIT)
        assert outcomes and outcomes[0].over
        assert len(session.state.turns) == len(outcomes[0].state["match"]["game"]["turns"])  # nothing lost


def test_a_spectator_sees_no_rack() -> None:
    with table_with_bot([{"kind": "person", "name": "Ann"}, {"kind": "open"}], seed=3) as (session, link, *_):
        watcher = Link(link.url)
        try:
            assert watcher.wait_connected(10)
            watcher.request("watch", code=session.code)
            watcher.watch(session.code)
            seen = RemoteSession(watcher, session.code, None)
            assert seen.mine == () and seen.view(0).rack == () and seen.view(1).rack == ()
            assert not seen.may_call(0) and not seen.can_undo(0)
            with pytest.raises(IllegalMove):
                seen.act(0, Pass())
            play_out(session)
            import time

            end = time.monotonic() + 10
            while not seen.is_over and time.monotonic() < end:
                if seen.poll() is not None:
                    seen.land()
                time.sleep(0.005)
            assert seen.is_over and seen.state.turns == session.state.turns
        finally:
            watcher.close()


def test_chat_is_kept_with_the_table_and_a_player_going_away_is_told_once() -> None:
    """The lines said at the table are the session's `chat_lines` (those said before it was opened among
    them: the server sends the last again), never its incidents; Bob going away is an incident, once."""
    import time

    with running_server() as (url, _hall):
        link, other = Link(url), Link(url)
        try:
            assert link.wait_connected(10) and other.wait_connected(10)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
            made = link.request("create", game="tiles", seats=seats, sit=0, seed=4, turn_timer=300)
            link.sit(made["code"], made["token"])
            bob = other.request("join", code=made["code"], name="Bob")
            other.request("chat", code=made["code"], text="before Ann sat down")
            session = RemoteSession(link, made["code"], 0)
            assert session.incidents() == ()
            assert [line.words for line in session.chat_lines] == ["Bob: before Ann sat down"]
            left = session.time_left()
            assert left is not None and 290 <= left <= 300  # the turn timer's, on this clock
            other.request("chat", code=made["code"], text="good luck")
            end = time.monotonic() + 10
            while len(session.chat_lines) < 2 and time.monotonic() < end:
                time.sleep(0.01)
            assert [(line.seat, line.words) for line in session.chat_lines] == [
                (1, "Bob: before Ann sat down"),
                (1, "Bob: good luck"),
            ]
            told: list[str] = []
            other.close()  # Bob goes
            end = time.monotonic() + 10
            while not any("gone away" in t for t in told) and time.monotonic() < end:
                told += session.incidents()
                session.poll()
                time.sleep(0.01)
            assert told == ["Bob has gone away."] and (session.away(1) or -1) >= 0
            assert len(session.chat_lines) == 2
            token = bob["token"]
            again = Link(url)  # Bob comes back with his seat's token: back, as he was here before
            try:
                assert again.wait_connected(10)
                again.come_back(made["code"], token)
                end = time.monotonic() + 10
                while not any("back" in t for t in told) and time.monotonic() < end:
                    told += session.incidents()
                    session.poll()
                    time.sleep(0.01)
                assert told == ["Bob has gone away.", "Bob is back at the table."]
            finally:
                again.close()
        finally:
            other.close()
            link.close()


def test_a_person_first_sitting_down_at_a_table_played_again_is_at_the_table_not_back() -> None:
    """A table played again starts with every person away until they come: Ann, there first, is told that
    Ben is at the table (he has not been there to come back)."""
    import time

    with running_server() as (url, _hall):
        ann, ben = Link(url), Link(url)
        try:
            assert ann.wait_connected(10) and ben.wait_connected(10)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
            code = ann.request("create", game="tiles", seats=seats, seed=4)["code"]
            ann.request("join", code=code, name="Ann")
            ben.request("join", code=code, name="Ben")
            ann.request("resign", code=code)
            ann.request("rematch", code=code)
            ben.request("rematch_answer", code=code, yes=True)
            sent = {}
            end = time.monotonic() + 10
            while len(sent) < 2 and time.monotonic() < end:
                for who, link in (("ann", ann), ("ben", ben)):
                    message = link.next_message(0.05)
                    if message is not None and message.get("type") == "rematched":
                        sent[who] = message
            new = sent["ann"]["table"]
            ann2, ben2 = Link(url), Link(url)
            try:
                assert ann2.wait_connected(10) and ben2.wait_connected(10)
                ann2.come_back(new, sent["ann"]["token"])
                session = RemoteSession(ann2, new, 0)
                told: list[str] = list(session.incidents())
                ben2.come_back(new, sent["ben"]["token"])
                end = time.monotonic() + 10
                while not told and time.monotonic() < end:
                    told += session.incidents()
                    session.poll()
                    time.sleep(0.01)
                assert told == ["Ben is at the table."]
            finally:
                ann2.close()
                ben2.close()
        finally:
            ann.close()
            ben.close()


def ann_against_a_server_bot(url: str, **options: Any) -> tuple[Link, RemoteSession, str]:
    link = Link(url)
    assert link.wait_connected(10)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
    made = link.request("create", game="tiles", seats=seats, sit=0, **options)
    link.sit(made["code"], made["token"])
    return link, RemoteSession(link, made["code"], 0), str(made["code"])


def her_turn(session: RemoteSession) -> None:
    """Land the others' moves until Ann is to move."""
    import time

    end = time.monotonic() + 20
    while session.to_move != 0 and time.monotonic() < end:
        if session.poll() is not None:
            session.land()
        time.sleep(0.002)
    assert session.to_move == 0


def test_at_a_coach_table_a_turn_is_taken_back_and_a_hint_counted() -> None:
    with running_server() as (url, _hall):
        link, session, _ = ann_against_a_server_bot(url, seed=8, coach=True)
        try:
            assert session.coach_allowed
            her_turn(session)
            rack, turns = sorted(session.view(0).rack), len(session.state.turns)
            session.act(0, choose_safely(make_bot("easy"), session.view(0), random.Random(3)))
            her_turn(session)  # the server bot replied
            assert len(session.state.turns) == turns + 2 and session.can_undo(0)
            taken = session.undo(0)
            assert [r.player for r in taken] == [0, 1]  # hers and the bot's reply after it
            assert len(session.state.turns) == turns and sorted(session.view(0).rack) == rack
            assert session.count_hint() == 1 and session.hints == 1
            session.act(0, choose_safely(make_bot("easy"), session.view(0), random.Random(4)))
            assert session.hints == 1  # the table's own count now, not counted twice
        finally:
            link.close()


def test_a_move_made_for_her_seat_elsewhere_is_announced_by_poll() -> None:
    """Her turn timer runs out (the table's clock is moved on): a bot moves for her at the server, and
    the session announces that move like another seat's, then shows it."""
    import time

    with running_server() as (url, hall):
        link, session, code = ann_against_a_server_bot(url, seed=8, turn_timer=60, on_timeout="bot")
        try:
            her_turn(session)
            turns = len(session.state.turns)
            hall.rooms[code].last_change -= 120  # as if two minutes had gone by
            end = time.monotonic() + 20
            move = None
            while move is None and time.monotonic() < end:
                move = session.poll()
                time.sleep(0.01)
            assert move is not None  # her seat's move, made by the table
            record = session.land()
            assert record.player == 0 and record.number == turns and record.turn.move == move
        finally:
            link.close()


def test_joker_items_pointed_at_go_with_the_play_and_come_back_on_its_record() -> None:
    from cribtiles.rules.moves import Play
    from cribtiles.rules.scoring import score_play
    from cribtiles.table.tiles.joker import items_of

    with running_server() as (url, _hall):
        link, session, _ = ann_against_a_server_bot(url, seed=8, rules="joker=on")
        try:
            bot, rng = make_bot("easy"), random.Random(5)
            for _ in range(30):  # until one of her plays scores something to point at
                her_turn(session)
                move = choose_safely(bot, session.view(0), rng)
                if isinstance(move, Play) and items_of(score_play(session.state.board, move)):
                    items = items_of(score_play(session.state.board, move))
                    record = session.act(0, move, declared=sum(i.points for i in items), claimed=items)
                    assert record.claimed == items  # as the table kept them
                    return
                session.act(0, move)
            raise AssertionError("no scoring play in 30 turns")
        finally:
            link.close()


def test_a_table_still_waiting_for_a_player_is_refused_in_words() -> None:
    """The session is made once the game is on (the lobby waits for every seat to be taken)."""
    with running_server() as (url, _hall):
        link = Link(url)
        try:
            assert link.wait_connected(10)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
            made = link.request("create", game="tiles", seats=seats, sit=0)
            link.sit(made["code"], made["token"])
            with pytest.raises(IllegalMove, match="starts once every seat is taken"):
                RemoteSession(link, made["code"], 0, first_wait=1.0)
        finally:
            link.close()


def test_a_table_opened_again_is_not_left_when_the_older_session_closes() -> None:
    """The window opens the same table again (from its list of online games) and closes the session it
    held: the new one keeps the seat and its states."""
    with running_server() as (url, _hall):
        link, older, code = ann_against_a_server_bot(url, seed=8)
        try:
            token = link.seats[code]
            link.sit(code, token)
            newer = RemoteSession(link, code, 0)
            older.close()
            assert link.seats.get(code) == token  # still held, so the link comes back to it
            her_turn(newer)
            newer.act(0, choose_safely(make_bot("easy"), newer.view(0), random.Random(3)))
            her_turn(newer)  # the server bot's reply came: the table was not left
            newer.close()
            assert code not in link.seats  # the last one leaves
        finally:
            link.close()


def test_a_move_not_sent_is_said_so_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribtiles.online.client import NotConnected

    with running_server() as (url, _hall):
        link, session, _ = ann_against_a_server_bot(url, seed=8)
        try:
            her_turn(session)
            turns, ply = len(session.state.turns), session.data["ply"]

            def down(*_args: Any, **_fields: Any) -> dict[str, Any]:
                raise NotConnected("the connection to the server was lost")

            monkeypatch.setattr(link, "request", down)
            move = choose_safely(make_bot("easy"), session.view(0), random.Random(3))
            with pytest.raises(IllegalMove, match=r"not sent.*reconnects by itself"):
                session.act(0, move)
            assert len(session.state.turns) == turns and session.data["ply"] == ply
            monkeypatch.undo()
            session.act(0, move)  # sent once the link is back
            assert len(session.state.turns) == turns + 1
        finally:
            link.close()


def test_a_turn_taken_back_by_another_player_is_followed_and_told() -> None:
    import time

    from cribtiles.online.tiles_seat import tile_move

    with running_server() as (url, _hall):
        link, other = Link(url), Link(url)
        try:
            assert link.wait_connected(10) and other.wait_connected(10)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
            made = link.request("create", game="tiles", seats=seats, sit=0, seed=8, coach=True)
            link.sit(made["code"], made["token"])
            code = made["code"]
            other.request("join", code=code, name="Bob")
            session = RemoteSession(link, code, 0)
            if session.to_move == 0:  # Ann first, so that Bob has a turn to take back
                session.act(0, choose_safely(make_bot("easy"), session.view(0), random.Random(1)))
            state = next(
                m["state"]
                for m in iter(lambda: other.next_message(10), None)
                if m["type"] == "state" and m["state"]["to_move"] == 1
            )
            moved = other.request("act", code=code, ply=state["ply"], move=tile_move(state, "easy", random.Random(2)))
            other.request("undo", code=code, ply=moved["state"]["ply"])  # Bob asks; Ann must agree
            turns = len(session.state.turns)
            end = time.monotonic() + 10
            while session.poll() is None and time.monotonic() < end:
                time.sleep(0.01)
            assert session.land().player == 1 and len(session.state.turns) == turns + 1  # Bob's move shown
            while session.pending_undo is None and time.monotonic() < end:
                session.poll()
                time.sleep(0.01)
            assert session.pending_undo is not None and session.pending_undo.asker == 1
            session.answer_undo(0, True)
            told = list(session.incidents())
            assert len(session.state.turns) == turns and session.to_move == 1  # taken back: Bob to move again
            assert "Everyone agreed: Bob's move is taken back." in told
        finally:
            other.close()
            link.close()
