"""The host token used (issue 44, defect 7), and the open tables, on a real server on a loopback port whose
clock the test moves: during the game the host gives the seat of a person away two minutes to a bot, which
moves for them whenever it is their turn (the table told so) until they come back, in both games; a wrong
host token, a person away for less, a person who is here are refused in words. A public table is listed
among the open tables with nothing secret, until its seats are taken; the list is bounded in size and in
how often an address may ask."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cribtiles.online.client import Link, Refused
from cribtiles.online.cribbage_seat import bot_move as cribbage_move
from cribtiles.online.tiles_seat import tile_move
from cribtiles.server.front import Hall, Limits

from .conftest import MakeStore
from .running import running_server

WAIT = 20.0
#: Messages read at most while a game is driven: a loop that never ends is a failure, not a hang.
MOST_MESSAGES = 3_000


class Clock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def server(clock: Clock) -> Iterator[tuple[str, Hall]]:
    with running_server(clock=clock, limits=Limits(per_second=1000, burst=1000)) as (url, hall):
        yield url, hall


def connected(url: str) -> Link:
    link = Link(url, backoff=(0.05, 0.5))
    assert link.wait_connected(WAIT), link.problem
    return link


def until(link: Link, check: Any) -> dict[str, Any]:
    """Read `link`'s messages until one satisfies `check` (a bounded wait): that message."""
    for _ in range(MOST_MESSAGES):
        message = link.next_message(WAIT)
        assert message is not None, "the server said nothing more"
        if check(message):
            return message
    raise AssertionError("the message waited for never came")


def status(link: Link, code: str) -> dict[str, Any]:
    table: dict[str, Any] = link.request("status", WAIT, code=code)["table"]
    return table


@pytest.mark.parametrize("game", ["tiles", "cribbage"])
def test_the_host_gives_the_seat_of_a_player_away_two_minutes_to_a_bot_until_they_come_back(
    server: tuple[str, Hall], clock: Clock, game: str
) -> None:
    url, hall = server
    ann = connected(url)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
    made = ann.request("create", WAIT, game=game, seats=seats, sit=0, seed=5)
    code, host = made["code"], made["host"]
    ann.sit(code, made["token"])
    ben = connected(url)
    joined = ben.request("join", WAIT, code=code, name="Ben")
    ben.close()  # Ben vanishes
    for _ in range(MOST_MESSAGES):
        if not status(ann, code)["seats"][1]["present"]:
            break
    assert status(ann, code)["seats"][1]["away"] == 0

    with pytest.raises(Refused, match="Only the table's host may do that"):
        ann.request("seat_bot", WAIT, code=code, host="not-the-token", seat=1, level="medium")
    with pytest.raises(Refused, match="Ann is here: a bot takes only an absent player's seat"):
        ann.request("seat_bot", WAIT, code=code, host=host, seat=0, level="medium")
    clock.now += 119
    with pytest.raises(Refused, match="Ben has been away 119 s; a bot may take a player's seat once they have"):
        ann.request("seat_bot", WAIT, code=code, host=host, seat=1, level="medium")
    clock.now += 1
    assert ann.request("seat_bot", WAIT, code=code, host=host, seat=1, level="medium")["type"] == "ok"
    said = until(ann, lambda m: m["type"] == "said" and m["seat"] is None)
    assert said["name"] == "The table"
    assert said["text"] == "Ben is away, so the host has given their seat to the medium bot until they come back."

    # Ann plays her turns; Ben's are made for him by the medium bot, and his seat says so
    rng, bens_turns = random.Random(1), set()
    for _ in range(MOST_MESSAGES):
        message = until(ann, lambda m: m["type"] == "state")
        state = message["state"]
        assert state["seats"][1]["host_bot"] == "medium" and state["seats"][1]["kind"] == "person"
        if state["to_move"] == 1:
            bens_turns.add(state["ply"])
        if len(bens_turns) >= 3 or state["phase"] == "over":
            break
        if state["to_move"] == 0 and hall.rooms[code].ply == state["ply"]:
            move = tile_move(state, "easy", rng) if game == "tiles" else cribbage_move(state, "easy", rng)
            try:
                answer = ann.request("act", WAIT, code=code, ply=state["ply"], move=move)["state"]
            except Refused:
                continue  # the table moved on meanwhile
            if answer["to_move"] == 1:  # told in the answer, not again: Ann's next state is after Ben's turn
                bens_turns.add(answer["ply"])
    assert len(bens_turns) >= 3, "the bot did not move for Ben"

    # Ben comes back with his seat token: the seat is his again, and no bot moves for him
    back = connected(url)
    back.request("resume", WAIT, code=code, token=joined["token"])
    table = status(ann, code)
    assert table["seats"][1]["host_bot"] is None and table["seats"][1]["present"] is True
    assert hall.rooms[code].places[1].host_bot is None
    assert hall.store.get(code)["places"][1].get("host_bot") is None  # kept so: a restart does not bring it back
    room = hall.rooms[code]
    if room.game is not None and room.game.to_move == 1:
        assert room.bot_request() is None
    for link in (ann, back):
        link.close()


def test_a_public_table_is_listed_with_nothing_secret_until_its_seats_are_taken(server: tuple[str, Hall]) -> None:
    url, _hall = server
    ann = connected(url)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "level": "hard"}]
    public = ann.request("create", WAIT, game="tiles", seats=seats, sit=0, public=True, rules="joker=on")
    ann.request("create", WAIT, game="tiles", seats=[{"kind": "open"}] * 2)  # not public
    crib = ann.request("create", WAIT, game="cribbage", seats=[{"kind": "open"}] * 2, public=True)
    listed = ann.request("open_tables", WAIT)["tables"]
    assert [t["code"] for t in listed] == [crib["code"], public["code"]]  # the newest first
    entry = listed[1]
    assert set(entry) == {"code", "game", "seats", "settings", "created", "open"}
    assert entry["game"] == "tiles" and entry["open"] == 1 and entry["settings"]["rules"] == "joker=on"
    assert entry["settings"]["public"] is True
    assert [(s["name"], s["kind"], s["away"]) for s in entry["seats"]] == [
        ("Ann", "person", None),
        (None, "open", None),
        (None, "bot", None),
    ]
    text = repr(listed)
    assert public["host"] not in text and public["token"] not in text
    assert [t["code"] for t in ann.request("open_tables", WAIT, game="cribbage")["tables"]] == [crib["code"]]
    ben = connected(url)
    ben.request("join", WAIT, code=public["code"], name="Ben")  # the last open seat: the game begins
    assert [t["code"] for t in ann.request("open_tables", WAIT)["tables"]] == [crib["code"]]
    for link in (ann, ben):
        link.close()


def test_a_public_table_takes_no_seed() -> None:
    with running_server(any_seed=True) as (url, _hall):
        link = connected(url)
        with pytest.raises(Refused, match="A table anyone may join takes no seed"):
            link.request(
                "create",
                WAIT,
                game="tiles",
                seats=[{"kind": "open"}, {"kind": "bot", "level": "easy"}],
                public=True,
                seed=4,
            )
        link.close()


def test_the_list_is_bounded_in_size_and_in_how_often_an_address_asks(make_store: MakeStore) -> None:
    """In SQLite and in PostgreSQL alike (issue 46: there, the list is read from the store)."""
    limits = Limits(tables_listed=2, lists_per_minute=3)
    with running_server(store=make_store(), limits=limits) as (url, _hall):
        link = connected(url)
        codes = [
            link.request("create", WAIT, game="tiles", seats=[{"kind": "open"}] * 2, public=True)["code"]
            for _ in range(4)
        ]
        assert [t["code"] for t in link.request("open_tables", WAIT)["tables"]] == codes[::-1][:2]
        link.request("open_tables", WAIT)
        link.request("open_tables", WAIT)
        with pytest.raises(Refused, match="The open tables were asked for too often from your address: wait a minute"):
            link.request("open_tables", WAIT)
        link.close()
