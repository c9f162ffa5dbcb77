"""Hostile peers on raw WebSocket connections: frames too large, binary, not JSON, not an object, of no
known type, with fields of the wrong kind or too many; floods; too many connections, tables or codes
tried from one address. Each is refused or closed with a reason, while a game at another table, played
by two seat bots, goes on to its end and the server still answers afterwards (issue 31)."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidMessage
from websockets.sync.client import ClientConnection, connect

from cribtiles.online.botclient import Outcome, SeatBot
from cribtiles.online.protocol import MESSAGES, VERSION, read
from cribtiles.server.front import Hall, Limits

from .players import WAIT, connected, new_table
from .running import running_server


@dataclass
class Busy:
    """A server with a game going on at one of its tables, played by two seat bots."""

    url: str
    hall: Hall
    code: str
    outcomes: list[Outcome] = field(default_factory=list)


@contextmanager
def busy_server(limits: Limits | None = None) -> Iterator[Busy]:
    """A server with a game at one table while the block runs; after it, the game has ended as it should
    and the server still answers."""
    with running_server(limits=limits) as (url, hall):
        maker = connected(url)
        code = new_table(maker, [{"kind": "open"}, {"kind": "open"}], seed=77)["code"]
        maker.close()
        busy = Busy(url, hall, code)
        bots = [SeatBot(connected(url), code, "beginner", seed=n) for n in range(2)]
        for n, bot in enumerate(bots):
            bot.take_seat(f"Bot {n}")
        threads = [threading.Thread(target=lambda b=b: busy.outcomes.append(b.play(timeout=90))) for b in bots]
        for thread in threads:
            thread.start()
        try:
            yield busy
        finally:
            for thread in threads:
                thread.join(100)
            for bot in bots:
                bot.link.close()
        assert len(busy.outcomes) == 2 and all(o.over for o in busy.outcomes)
        assert busy.outcomes[0].state["record"] == busy.outcomes[1].state["record"]
        assert hall.rooms[code].phase == "over"
        after = connected(url)
        try:
            assert after.request("ping")["type"] == "pong"
        finally:
            after.close()


@contextmanager
def raw(url: str) -> Iterator[ClientConnection]:
    """A connection that speaks the protocol only as a test makes it, welcomed."""
    with connect(url, open_timeout=WAIT, close_timeout=2, max_size=None) as ws:
        assert read(ws.recv(timeout=WAIT), "server")["type"] == "welcome"
        yield ws


def answer(ws: ClientConnection) -> dict[str, Any]:
    """The next message the server sends (a state it sends by itself passed over)."""
    for _ in range(100):
        message = read(ws.recv(timeout=WAIT), "server")
        if message["type"] not in ("state", "said"):
            return message
    raise AssertionError("the server sent only states")


def refused(ws: ClientConnection, frame: str | bytes, why: str) -> None:
    """`frame` is refused with words holding `why` (or one of its "|"-parted alternatives)."""
    ws.send(frame)
    message = answer(ws)
    assert message["type"] == "refused", message
    assert any(w in message["reason"].lower() for w in why.lower().split("|")), message["reason"]


def closed(ws: ClientConnection) -> ConnectionClosed:
    """How the server closed `ws` (what it sent before is passed over)."""
    try:
        for _ in range(10_000):
            ws.recv(timeout=WAIT)
    except ConnectionClosed as e:
        return e
    raise AssertionError("the server did not close the connection")


def frame(kind: str, **fields: Any) -> str:
    return json.dumps({"v": VERSION, "type": kind, **fields})


# --- frames that are not messages ---


def test_frames_that_are_not_messages_are_refused_in_words() -> None:
    with busy_server() as busy, raw(busy.url) as ws:
        refused(ws, b'{"v":1,"type":"ping"}', "binary")
        refused(ws, "{not json", "not json")
        refused(ws, "", "not json")
        refused(ws, "[" * 5_000 + "]" * 5_000, "not json")  # nested past any parser's patience
        refused(ws, '["ping"]', "json object")
        refused(ws, "42", "json object")
        refused(ws, '"hello"', "json object")
        refused(ws, "null", "json object")
        refused(ws, json.dumps({"type": "ping"}), f'carries "v": {VERSION}')
        refused(ws, json.dumps({"v": VERSION - 1, "type": "ping"}), f"this server speaks version {VERSION}")
        refused(ws, json.dumps({"v": str(VERSION), "type": "ping"}), "as a whole number")
        refused(ws, json.dumps({"v": float(VERSION), "type": "ping"}), "as a whole number")  # 2.0 == 2 in Python
        refused(ws, json.dumps({"v": True, "type": "ping"}), "as a whole number")  # and True == 1
        refused(ws, frame("dance"), "unknown message type")
        refused(ws, frame("welcome", server="me", version=1), "unknown message type")  # the server's own
        refused(ws, frame(["ping"]), "unknown message type")
        refused(ws, frame("__class__"), "unknown message type")
        ws.send(frame("ping", id=7))
        assert answer(ws) == {"v": VERSION, "type": "pong", "re": 7}


def test_fields_of_the_wrong_kind_or_too_many_are_refused() -> None:
    with busy_server() as busy, raw(busy.url) as ws:
        code = busy.code
        refused(ws, frame("join", code=code), "needs 'name'")
        refused(ws, frame("join", code=5, name="Eve"), "'code' must be text")
        refused(ws, frame("join", code=code, name=["Eve"]), "'name' must be text")
        refused(ws, frame("join", code=code, name="Eve", seat="1"), "'seat' must be a whole number")
        refused(ws, frame("join", code=code, name="Eve", seat=True), "'seat' must be a whole number")
        refused(ws, frame("act", code=code, ply=1.5, move="pass"), "'ply' must be a whole number")
        refused(ws, frame("act", code=code, ply=3.0, move="pass"), "'ply' must be a whole number")  # 3.0 == 3
        refused(ws, frame("act", code=code, ply=None, move="pass"), "'ply' must be a whole number")
        refused(ws, frame("ping", id="1"), "'id' must be a whole number")
        refused(ws, frame("create", game="tiles", seats={"kind": "open"}), "'seats' must be a list")
        refused(ws, frame("join", code=code, name="Eve", admin=True), "there is no field")
        refused(ws, frame("ping", re=1), "there is no field")
        refused(ws, frame("ping", **{"x" * 5_000: 1}), "there is no field")
        # well formed, and still nonsense: refused by the table, in words
        refused(ws, frame("create", game="chess", seats=[{"kind": "open"}] * 2), "the games are")
        refused(ws, frame("create", game="tiles", seats=[1, 2]), "a seat is an object")
        refused(ws, frame("create", game="tiles", seats=[{"kind": "open"}] * 9), "2 to 4 seats")
        refused(ws, frame("create", game="tiles", seats=[{"kind": "open"}] * 2, rules="joker=maybe"), "")
        refused(ws, frame("create", game="tiles", seats=[{"kind": "open"}] * 2, turn_timer=-5), "turn timer")
        refused(ws, frame("create", game="tiles", seats=[{"kind": "open"}] * 2, sit=1), "creator sits")
        refused(ws, frame("create", game="tiles", seats=[{"kind": "open"}] * 2, on_timeout="explode"), "")
        refused(ws, frame("join", code=code, name="Eve\x1b[2J"), "control characters")
        refused(ws, frame("join", code=code, name="E" * 9_000), "at most 40")
        refused(ws, frame("act", code=code, ply=0, move="pass"), "join the table")
        refused(ws, frame("resume", code=code, token="not a token"), "no table has that code|opens no seat")
        refused(ws, frame("chat", code=code, text="hi"), "join the table")
        ws.send(frame("ping", id=1))
        assert answer(ws)["type"] == "pong"  # all that, and the connection stays open


def test_an_oversized_frame_closes_the_connection() -> None:
    with busy_server() as busy, raw(busy.url) as ws:
        ws.send(frame("chat", code=busy.code, text="x" * (busy.hall.limits.frame + 10)))
        reason = closed(ws)
        assert reason.rcvd is not None and reason.rcvd.code == 1009


def test_a_connection_that_keeps_sending_bad_messages_is_closed_with_the_reason() -> None:
    limits = Limits(bad_messages=5)
    with busy_server(limits) as busy, raw(busy.url) as ws:
        for _ in range(4):
            refused(ws, "{", "not json")
        ws.send("{")
        assert answer(ws)["type"] == "refused"
        bye = answer(ws)
        assert bye["type"] == "bye" and "bad messages" in bye["reason"]
        reason = closed(ws)
        assert reason.rcvd is not None and reason.rcvd.code == 1008 and "bad messages" in reason.rcvd.reason


def test_a_flood_is_refused_then_closed_with_a_reason() -> None:
    limits = Limits()  # the seat bots at the other table live under the same limits, and play on
    with busy_server(limits) as busy, raw(busy.url) as ws:
        sent = 0
        try:
            for n in range(400):
                ws.send(frame("ping", id=n))
                sent += 1
        except ConnectionClosed:
            pass
        kinds: list[str] = []
        reasons: list[str] = []
        try:
            for _ in range(sent + 1):
                message = read(ws.recv(timeout=WAIT), "server")
                kinds.append(message["type"])
                reasons.append(message.get("reason", ""))
                assert message["type"] == "bye" or isinstance(message.get("re"), int)  # each request answered
        except ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 1008 and e.rcvd.reason == "too many messages"
        else:
            raise AssertionError("a flood was not closed")
        # the burst, and what the allowance grew by meanwhile
        assert limits.burst <= kinds.count("pong") < 400
        assert kinds.count("refused") == limits.bad_messages
        assert f"too many messages: at most {limits.per_second:g} a second" in reasons
        assert kinds[-1] == "bye" and reasons[-1] == "too many messages"


# --- too much from one address ---


def test_too_many_connections_from_one_address_are_closed_as_soon_as_they_are_accepted() -> None:
    limits = Limits(connections_per_address=6)
    with busy_server(limits) as busy, ExitStack() as stack:
        opened = 0
        # closed before any answer to its handshake: the client finds it closed as it sends its request, or
        # as it waits for the answer
        with pytest.raises((ConnectionClosed, InvalidMessage, OSError)):
            for _ in range(10):
                stack.enter_context(raw(busy.url))
                opened += 1
        assert busy.hall.doors.by_address["127.0.0.1"] == limits.connections_per_address
        assert opened >= 3  # the seat bots' two and these
        stack.close()
        for _ in range(1_000):  # each is let go of once the server sees its socket closed
            if busy.hall.doors.by_address.get("127.0.0.1", 0) < limits.connections_per_address:
                break
            time.sleep(0.02)
        with raw(busy.url) as again:  # once they are gone, one comes in again
            again.send(frame("ping", id=1))
            assert answer(again)["type"] == "pong"


def test_guessing_codes_is_rate_limited() -> None:
    limits = Limits(codes_per_minute=8)
    with busy_server(limits) as busy, raw(busy.url) as ws:
        wrong = "ZZZZZZ" if busy.code != "ZZZZZZ" else "YYYYYY"
        for n in range(8):
            refused(ws, frame("status", code=wrong, id=n), "no table has that code")
        refused(ws, frame("status", code=wrong), "too many codes")
        refused(ws, frame("join", code=busy.code, name="Eve"), "too many codes")  # even a right one
        refused(ws, frame("watch", code=busy.code.lower()), "too many codes")
        with raw(busy.url) as other:  # from the same address on another connection
            refused(other, frame("status", code=busy.code), "too many codes")
            refused(other, frame("resume", code=busy.code, token="x" * 32), "too many codes")
        # the seat bots at their table play on (the game's end is checked as the server closes)


def test_a_player_coming_back_with_a_token_is_not_taken_for_a_guesser() -> None:
    limits = Limits(codes_per_minute=3)
    with busy_server(limits) as busy:
        maker = connected(busy.url)
        created = new_table(maker, [{"kind": "person", "name": "Ann"}, {"kind": "open"}], seed=3, sit=0)
        maker.close()
        with raw(busy.url) as ws:
            for _ in range(3):
                refused(ws, frame("watch", code="QQQQQQ"), "no table has that code")
            refused(ws, frame("watch", code=created["code"]), "too many codes")
            ws.send(frame("resume", id=1, code=created["code"], token=created["token"]))
            assert answer(ws)["type"] == "joined"
            ws.send(frame("chat", id=2, code=created["code"], text="back"))  # at her table: no code to guess
            assert answer(ws)["type"] == "ok"


def test_too_many_tables_from_one_address_are_refused() -> None:
    limits = Limits(tables_per_address=4)
    with busy_server(limits) as busy, raw(busy.url) as ws:
        made = 0
        seats = [{"kind": "open"}, {"kind": "open"}]
        for n in range(10):
            ws.send(frame("create", id=n, game="tiles", seats=seats))
            message = answer(ws)
            if message["type"] == "refused":
                assert "tables not over" in message["reason"]
                break
            made += 1
        # the busy table counts too while its game is on
        assert made in (limits.tables_per_address - 1, limits.tables_per_address)
        assert len(busy.hall.rooms) == made + 1


def test_a_seat_bot_that_outruns_the_limit_slows_down_and_finishes() -> None:
    limits = Limits(per_second=4, burst=4)
    with running_server(limits=limits) as (url, hall):
        maker = connected(url)
        code = new_table(maker, [{"kind": "open"}, {"kind": "bot", "level": "beginner"}], seed=31)["code"]
        maker.close()
        bot = SeatBot(connected(url), code, "beginner", seed=1)
        try:
            bot.take_seat("Quick")
            outcome = bot.play(timeout=90)
        finally:
            bot.link.close()
        assert outcome.over and hall.rooms[code].phase == "over"


def _value(kind: Any, rng: random.Random, code: str, ply: int) -> Any:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    chosen = rng.choice(kinds)
    if chosen is int:
        return rng.choice([0, 1, 2, -1, ply, ply - 1, 10**12, -(10**12)])
    if chosen is str:
        return rng.choice(["", "x", code, code.lower(), "easy", "pass", "H8=5S", "Ann", "\x1b[2J", "é" * 50, "?"])
    if chosen is bool:
        return rng.choice([True, False])
    if chosen is list:
        return rng.choice([[], [{"kind": "open"}, {"kind": "open"}], [1, "x", None], [{"what": "run"}] * 3])
    if chosen is dict:
        return {}
    return None


def test_every_request_of_every_kind_is_answered_whatever_its_values() -> None:
    """Messages of every type a client sends, their fields of the right kinds with values picked at random:
    each is answered with its id (refused in words, or done), and the connection stays open."""
    rng = random.Random(31)
    limits = Limits(per_second=1_000, burst=1_000, tables_per_address=1_000, codes_per_minute=10_000)
    client_kinds = sorted(k for k, spec in MESSAGES.items() if spec.sender == "client")
    with busy_server(limits) as busy, raw(busy.url) as ws:
        for number in range(1, 400):
            kind = client_kinds[number % len(client_kinds)]
            spec = MESSAGES[kind]
            ply = busy.hall.rooms[busy.code].ply
            fields = {name: _value(k, rng, busy.code, ply) for name, k in spec.required.items()}
            for name, k in spec.optional.items():
                if name != "id" and rng.random() < 0.5:
                    fields[name] = _value(k, rng, busy.code, ply)
            ws.send(frame(kind, id=number, **fields))
            for _ in range(100):  # what it sends by itself (states, chat) passed over
                message = read(ws.recv(timeout=WAIT), "server")
                if message.get("re") == number:
                    break
                assert message["type"] in ("state", "said"), (kind, fields, message)
            else:
                raise AssertionError(f"{kind} with {fields} was not answered")
