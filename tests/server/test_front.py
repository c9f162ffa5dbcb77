"""The server through its WebSocket front on a loopback port: a seed gives the same game as at one table
here, a resend after a dropped connection is made once, a spectator sees no rack, `status` tells anyone
with the code, and only the host may seat a bot (issue 31)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from websockets.sync.client import connect

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.online.client import Link, Refused
from cribtiles.online.protocol import read, write
from cribtiles.online.tiles_seat import tile_move
from cribtiles.rules.moves import format_move, parse_move
from cribtiles.rules.options import RuleOptions
from cribtiles.server.front import Hall
from cribtiles.server.store import MemoryStore, StoreError
from cribtiles.table.saves import save_table
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.table import Table

from .conftest import MakeStore
from .players import WAIT, Player, connected, new_table, turn_of
from .running import running_server


@pytest.fixture
def server(make_store: MakeStore) -> Iterator[tuple[str, Hall]]:
    """A server on SQLite and one on PostgreSQL (`store_kind`): the same tests pass on both (issue 46)."""
    with running_server(store=make_store()) as running:
        yield running


@pytest.fixture
def link(server: tuple[str, Hall]) -> Iterator[Link]:
    one = connected(server[0])
    yield one
    one.close()


Step = tuple[int, int, int, str]  # round, turn, seat, move


def play_locally(seats: list[Seat], rules: str, seed: int) -> tuple[Table, list[Step]]:
    """A whole match at one table here, people moving as easy bots: the table and the people's moves."""
    table = Table.new(seats, RuleOptions.parse(rules), seed)
    steps: list[Step] = []
    for _ in range(3_000):
        if table.is_over:
            return table, steps
        if table.round_over:
            table.next_round()
        elif table.bot_to_move:
            request = table.bot_request()
            table.play_bot(choose_safely(make_bot(request.level), request.view, random.Random(request.seed)), request)
        else:
            seat = table.to_move
            assert seat is not None
            rng = random.Random(f"{seed}/{len(table.match.finished)}/{table.turn}")
            move = format_move(choose_safely(make_bot("easy"), table.view(seat), rng))
            steps.append((len(table.match.finished), table.turn, seat, move))
            table.play(parse_move(move))
    raise AssertionError("the local game did not end")


def replay_online(url: str, seats: list[dict[str, Any]], rules: str, seed: int, steps: list[Step]) -> dict[str, Any]:
    """The people's `steps` made at a server's table of `seats` (a round begun by the first person to move
    in it): the last state the first person saw."""
    host = connected(url)
    code = new_table(host, seats, rules=rules, seed=seed)["code"]
    host.close()
    people = [Player(url, code) for s in seats if s["kind"] == "person"]
    try:
        for person, seat in zip(people, [i for i, s in enumerate(seats) if s["kind"] == "person"], strict=True):
            assert person.join(seats[seat]["name"]) == seat
        by_seat = {p.seat: p for p in people}
        started = {0}  # the rounds begun
        for round_index, turn, seat, move in steps:
            player = by_seat[seat]
            state = player.wait_until(lambda s, r=round_index, me=seat: _ready(s, me, r) or _may_begin(s, r, started))
            if not _ready(state, seat, round_index):
                player.request("next_round", ply=state["ply"])
                started.add(round_index)
                state = player.wait_until(lambda s, r=round_index, me=seat: _ready(s, me, r))
            assert turn_of(state) == (round_index, turn)
            player.request("act", ply=state["ply"], move=move)
        first = people[0]
        return first.wait_until(lambda s: s["phase"] == "over")
    finally:
        for person in people:
            person.close()


def _ready(state: dict[str, Any], seat: int, round_index: int) -> bool:
    return state["phase"] == "playing" and state["to_move"] == seat and turn_of(state)[0] == round_index


def _may_begin(state: dict[str, Any], round_index: int, started: set[int]) -> bool:
    """The round before `round_index` is over, and no one has begun the next yet."""
    over = state["phase"] == "playing" and state["to_move"] is None and "record" in state
    return over and round_index not in started and turn_of(state)[0] == round_index - 1


@pytest.mark.parametrize(
    ("names", "rules", "seed"),
    [
        (["Ann", "Ben"], "", 3),
        (["Ann", "easy", "Ben"], "joker=on", 8),
        (["Ann", "Ben", "beginner", "Cat"], "rounds=2", 21),
        (["Ann", "Ben"], "mode=solitaire", 5),
    ],
)
def test_a_seed_gives_the_same_game_as_at_one_table(
    server: tuple[str, Hall], names: list[str], rules: str, seed: int
) -> None:
    seats = [Seat.bot(n) if n in ("easy", "beginner") else Seat.person(n) for n in names]
    local, steps = play_locally(seats, rules, seed)
    told = [
        {"kind": "bot", "level": s.level} if s.is_bot else {"kind": "person", "name": s.name}
        for s in [Seat.bot(n) if n in ("easy", "beginner") else Seat.person(n) for n in names]
    ]
    final = replay_online(server[0], told, rules, seed, steps)
    assert final["record"] == save_table(local)
    assert final["match"]["game"]["outcome"]["final_scores"] == list(local.state.outcome.final_scores)  # type: ignore[union-attr]


# --- a resend after a dropped connection ---


@contextmanager
def _raw(url: str) -> Iterator[Any]:
    with connect(url, open_timeout=WAIT, close_timeout=2) as ws:
        assert read(ws.recv(timeout=WAIT), "server")["type"] == "welcome"
        yield ws


def _answer(ws: Any, re: int) -> dict[str, Any]:
    """The server's answer to request `re` (passing over what it sends by itself)."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        message = read(ws.recv(timeout=WAIT), "server")
        if message.get("re") == re:
            return message
    raise AssertionError("no answer")


def test_a_resend_after_a_dropped_connection_is_made_once(server: tuple[str, Hall], link: Link) -> None:
    url, hall = server
    created = new_table(link, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}], seed=4, sit=0)
    code, tokens = created["code"], [created["token"]]
    ben = link.request("join", code=code, name="Ben")
    tokens.append(ben["token"])
    room = hall.rooms[code]
    with _raw(url) as ws:
        ws.send(write("resume", id=1, code=code, token=tokens[0]))
        assert _answer(ws, 1)["type"] == "joined"
        mover = room.game.to_move if room.game else None
        assert mover is not None
        ws.send(write("resume", id=2, code=code, token=tokens[mover]))
        _answer(ws, 2)
        ply = room.ply
        view = room.game.table.view(mover)  # type: ignore[attr-defined]
        move = format_move(choose_safely(make_bot("easy"), view, random.Random(1)))
        act = {"code": code, "ply": ply, "move": move}
        ws.send(write("act", id=3, **act))
    # dropped before the answer was read
    with _raw(url) as again:
        again.send(write("resume", id=1, code=code, token=tokens[mover]))
        _answer(again, 1)
        again.send(write("act", id=2, **act))
        answer = _answer(again, 2)
        assert answer["type"] == "state", answer["reason"]
        assert answer["state"]["ply"] == ply + 1 and answer["state"]["to_move"] == 1 - mover
        assert room.ply == ply + 1 and len(room.game.table.state.turns) == 1  # type: ignore[union-attr]
        again.send(write("act", id=3, **act))  # and once more: still answered, still made once
        assert _answer(again, 3)["state"]["ply"] == ply + 1
        again.send(write("act", id=4, code=code, ply=ply, move="pass"))  # another move at that ply
        assert "moved on" in _answer(again, 4)["reason"]


# --- spectators, status, the host ---


def test_a_spectator_sees_no_rack_and_cannot_move(server: tuple[str, Hall], link: Link) -> None:
    url, _ = server
    code = new_table(link, [{"kind": "open"}, {"kind": "bot", "level": "easy"}], seed=9)["code"]
    ann, eye = Player(url, code), Player(url, code)
    try:
        eye.watch()
        ann.join("Ann")
        ann.wait_until(lambda s: s["phase"] == "playing")
        state = eye.wait_until(lambda s: s["phase"] == "playing")
        assert state["you"] is None and "rack" not in state and "may_call" not in state
        assert ann.state["rack"] and ann.state["rack"] not in json.dumps(state)
        with pytest.raises(Refused, match="spectator"):
            eye.request("act", ply=state["ply"], move="pass")
        assert eye.request("chat", text="good luck")["type"] == "ok"  # a request answered, as every one
        end = time.monotonic() + WAIT
        while not ann.said and time.monotonic() < end:
            ann.pump()
        assert ann.said[-1]["text"] == "good luck" and ann.said[-1]["seat"] is None
        assert eye.request("leave")["type"] == "ok"
        with pytest.raises(Refused, match=r"(?i)join the table"):
            eye.request("chat", text="still here?")
    finally:
        ann.close()
        eye.close()


def test_status_tells_anyone_with_the_code(server: tuple[str, Hall], link: Link) -> None:
    url, _ = server
    code = new_table(link, [{"kind": "person", "name": "Ann"}, {"kind": "open"}], seed=2, sit=0)["code"]
    other = connected(url)
    try:
        table = other.request("status", code=code.lower())["table"]
        assert table["phase"] == "waiting" and [s["kind"] for s in table["seats"]] == ["person", "open"]
        assert table["seats"][0]["present"] and not table["seats"][1]["present"]
        other.request("join", code=code, name="Ben")
        table = other.request("status", code=code)["table"]
        assert table["phase"] == "playing" and table["scores"] == [0, 0] and table["to_move"] in (0, 1)
        assert "rack" not in json.dumps(table) and "seed" not in table
        with pytest.raises(Refused, match=r"(?i)no table has that code"):
            other.request("status", code="ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY")
    finally:
        other.close()


#: A wrong host token is refused as a wrong code is (and counted so), or in its own words.
WRONG_HOST = r"(?i)no table has that code|host token"


def test_only_the_host_seats_a_bot(server: tuple[str, Hall], link: Link) -> None:
    url, hall = server
    created = new_table(link, [{"kind": "person", "name": "Ann"}, {"kind": "open"}], seed=2, sit=0)
    code, host = created["code"], created["host"]
    other = connected(url)
    try:
        for token in (created["token"], "x" * 32, ""):  # Ann's seat token is not the host's
            with pytest.raises(Refused, match=WRONG_HOST):
                other.request("seat_bot", code=code, host=token, seat=1, level="easy")
        fresh = new_table(other, [{"kind": "person", "name": "Cat"}, {"kind": "open"}], seed=2)
        with pytest.raises(Refused, match=WRONG_HOST):
            other.request("seat_bot", code=code, host=fresh["host"], seat=1, level="easy")  # another table's
        assert hall.rooms[code].places[1].open and hall.rooms[code].phase == "waiting"
        other.request("seat_bot", code=code, host=host, seat=1, level="easy")  # the host's token, from anywhere
    finally:
        other.close()
    room = hall.rooms[code]
    assert room.places[1].kind == "bot" and room.phase == "playing"
    with pytest.raises(Refused, match=r"(?i)not a person.s seat"):
        link.request("seat_bot", code=code, host=host, seat=1, level="easy")


class FailingStore(MemoryStore):
    """A store that cannot keep anything while `failing` is set (a full disk, a locked file)."""

    def __init__(self) -> None:
        super().__init__()
        self.failing = False

    def put(self, code: str, game: str, phase: str, updated: float, data: dict[str, Any]) -> None:
        if self.failing:
            raise StoreError("the disk is full")
        super().put(code, game, phase, updated, data)


def test_a_move_the_store_failed_to_keep_is_kept_and_told_when_it_is_sent_again() -> None:
    store = FailingStore()
    with running_server(store=store) as (url, hall):
        maker = connected(url)
        code = new_table(maker, [{"kind": "open"}, {"kind": "open"}], seed=6)["code"]
        maker.close()
        ann, ben = Player(url, code), Player(url, code)
        try:
            ann.join("Ann")
            ben.join("Ben")
            room = hall.rooms[code]
            mover = room.game.to_move if room.game else None
            player, other = (ann, ben) if mover == 0 else (ben, ann)
            state = player.wait_until(lambda s: s["phase"] == "playing" and s["to_move"] == mover)
            view = room.game.table.view(mover)  # type: ignore[union-attr]
            move = format_move(choose_safely(make_bot("easy"), view, random.Random(2)))
            store.failing = True
            with pytest.raises(Refused, match="could not keep"):
                player.request("act", ply=state["ply"], move=move)
            assert json.loads(store.kept[code])["ply"] == state["ply"]  # not acknowledged, not kept
            store.failing = False
            answer = player.request("act", ply=state["ply"], move=move)  # the same move again
            assert answer["state"]["ply"] == state["ply"] + 1
            assert json.loads(store.kept[code])["ply"] == state["ply"] + 1  # kept before it was acknowledged
            told = other.wait_until(lambda s: s["ply"] == state["ply"] + 1)  # and the other seat is told
            assert told["to_move"] == other.seat
        finally:
            ann.close()
            ben.close()


def test_the_server_chooses_seeds_too_many_to_search(server: tuple[str, Hall], link: Link) -> None:
    """A seed is found from the start's draws and one's own rack by trying them all, if there are few:
    the server's are drawn from 2**63."""
    url, hall = server
    codes = [new_table(link, [{"kind": "open"}, {"kind": "open"}])["code"] for _ in range(6)]
    seeds = [hall.rooms[code].seed for code in codes]
    assert max(seeds) >= 2**40 and len(set(seeds)) == 6
    ann, ben = Player(url, codes[0]), Player(url, codes[0])
    try:  # and a game goes with such a seed
        ann.join("Ann")
        ben.join("Ben")
        assert ann.wait_until(lambda s: s["phase"] == "playing")["rack"]
    finally:
        ann.close()
        ben.close()


def _answer_to(player: Player, number: int) -> dict[str, Any]:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        message = player.link.next_message(0.2)
        if message is not None and message.get("re") == number:
            return message
        if message is not None and message["type"] == "state":
            player.take(message["state"])
    raise AssertionError("no answer came")


def test_two_joker_calls_sent_at_once_the_first_wins_and_the_second_changes_nothing(
    server: tuple[str, Hall], link: Link
) -> None:
    url, hall = server
    code = new_table(link, [{"kind": "open"}] * 3, rules="joker=on", seed=12)["code"]
    people = [Player(url, code) for _ in range(3)]
    try:
        for n, person in enumerate(people):
            assert person.join(f"P{n}") == n
        room = hall.rooms[code]
        for _ in range(60):  # until someone plays
            mover = people[room.game.to_move]  # type: ignore[union-attr,index]
            state = mover.wait_until(lambda s, me=mover.seat: s["phase"] == "playing" and s["to_move"] == me)
            mover.request("act", ply=state["ply"], move=tile_move(state, "easy", random.Random(state["ply"])))
            last = room.game.table.last  # type: ignore[union-attr]
            if last is not None and last.is_play:
                break
        else:
            raise AssertionError("no one played")
        ply = room.ply
        callers = [p for p in people if p.seat != last.player]
        numbers = [p.link.send("call", code=code, ply=ply) for p in callers]
        answers = [_answer_to(p, n) for p, n in zip(callers, numbers, strict=True)]
        assert sorted(a["type"] for a in answers) == ["refused", "state"]
        winner = next(p for p, a in zip(callers, answers, strict=True) if a["type"] == "state")
        loser = next(a for a in answers if a["type"] == "refused")
        assert "moved on" in loser["reason"]
        assert [c.caller for _, c in room.game.table.state.calls] == [winner.seat]  # type: ignore[union-attr]
        assert room.ply == ply + 1
    finally:
        for person in people:
            person.close()
