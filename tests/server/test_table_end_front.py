"""Resigning, aborting and playing again through the server's WebSocket front on a loopback port: the
table told in words when a person resigns; a table aborted by its host's token from another connection, or
by a person seated there, never by a spectator; a finished table played again once both people agree,
each person's new token sent to their own connection only (a spectator and the other seat are told the
new code, never a token), and the new table sat at with it; a refusal told in the state (issue 44)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from cribtiles.online.client import Refused
from cribtiles.online.tiles_seat import tile_move
from cribtiles.server.front import TABLE_SPEAKER, Hall, Limits

from .conftest import MakeStore
from .players import WAIT, Player, connected, new_table
from .running import running_server


@pytest.fixture
def server(make_store: MakeStore) -> Iterator[tuple[str, Hall]]:
    """A server on SQLite and one on PostgreSQL (`store_kind`): the same tests pass on both (issue 46)."""
    with running_server(store=make_store()) as running:
        yield running


def seated(url: str, seats: list[dict[str, Any]], **options: Any) -> tuple[str, str, list[Player]]:
    """A table of Ann (seat 0, its creator) and Ben (who joins): its code, the host token, both players."""
    maker = connected(url)
    made = new_table(maker, seats, **options)
    maker.close()
    code = made["code"]
    people = [Player(url, code), Player(url, code)]
    people[0].join("Ann")
    people[1].join("Ben")
    for p in people:
        p.wait_until(lambda s: s["phase"] == "playing")
    return code, made["host"], people


ANN_BEN = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]


def test_a_resignation_is_told_to_the_table_in_words(server: tuple[str, Hall]) -> None:
    url, _ = server
    _, _, (ann, ben) = seated(url, ANN_BEN, seed=3)
    try:
        answer = ann.request("resign")
        assert answer["type"] == "state" and answer["state"]["resigned"] == 0 and answer["state"]["phase"] == "over"
        state = ben.wait_until(lambda s: s["phase"] == "over")
        assert state["resigned"] == 0 and state["match"]["game"]["outcome"]["winners"] == [1]
        ben.wait_until(lambda s: any(m["text"] == "Ann resigned: Ben wins." for m in ben.said))
        line = next(m for m in ben.said if m["text"] == "Ann resigned: Ben wins.")
        assert (line["name"], line["seat"]) == (TABLE_SPEAKER, None)
        assert ann.request("resign")["state"]["resigned"] == 0  # again: answered, nothing changes
        with pytest.raises(Refused, match="The game is over: there is nothing to resign"):
            ben.request("resign")
    finally:
        ann.close()
        ben.close()


def test_the_host_or_a_seated_person_aborts_never_a_spectator(server: tuple[str, Hall]) -> None:
    url, _ = server
    code, host, (ann, ben) = seated(url, ANN_BEN, seed=3)
    eye = Player(url, code)
    stranger = connected(url)
    try:
        eye.watch()
        with pytest.raises(Refused, match="Only a player seated at the table, or its host, may abort it"):
            eye.request("abort")
        with pytest.raises(Refused, match="the host token is not this table's"):
            stranger.request("abort", WAIT, code=code, host="not-the-token")
        assert stranger.request("abort", WAIT, code=code, host=host)["type"] == "ok"
        state = ben.wait_until(lambda s: s["aborted"])
        assert state["phase"] == "over" and "match" not in state
        assert stranger.request("status", WAIT, code=code)["table"]["aborted"] is True
        with pytest.raises(Refused, match="aborted"):
            stranger.request("join", WAIT, code=code, name="Cat")
    finally:
        for p in (ann, ben, eye):
            p.close()
        stranger.close()
    code, _, (ann, ben) = seated(url, ANN_BEN, seed=3)
    try:
        assert ben.request("abort")["type"] == "ok"
        ann.wait_until(lambda s: s["aborted"])
    finally:
        ann.close()
        ben.close()


def test_a_table_with_a_move_made_is_not_aborted(server: tuple[str, Hall]) -> None:
    url, _ = server
    _, _, (ann, ben) = seated(url, ANN_BEN, seed=3)
    try:
        mover = ann if ann.state["to_move"] == 0 else ben
        mover.request("act", ply=mover.state["ply"], move=tile_move(mover.state, "easy", random.Random(1)))
        with pytest.raises(Refused, match="A move has been made: a game under way is resigned, not aborted"):
            ann.request("abort")
    finally:
        ann.close()
        ben.close()


def test_both_agree_and_each_is_sent_their_own_seat_at_the_new_table(server: tuple[str, Hall]) -> None:
    url, hall = server
    code, _, (ann, ben) = seated(url, ANN_BEN, seed=3)
    eye = Player(url, code)
    try:
        eye.watch()
        ann.request("resign")
        for p in (ann, ben, eye):
            p.wait_until(lambda s: s["phase"] == "over")
        asked = ann.request("rematch")["state"]["rematch"]
        assert asked == {"seat": 0, "agreed": [], "waiting": [1], "ended": None, "by": None, "table": None}
        ben.wait_until(lambda s: (s["rematch"] or {}).get("waiting") == [1])
        answer = ben.request("rematch_answer", yes=True)
        new_code = answer["state"]["rematch"]["table"]
        assert answer["state"]["rematch"]["ended"] == "made" and new_code and new_code != code
        new_room = hall.rooms[new_code]
        assert [p.name for p in new_room.places] == ["Ann", "Ben"] and new_room.phase == "playing"
        for seat, person in enumerate((ann, ben)):
            person.wait_until(lambda s: bool((s["rematch"] or {}).get("table")))
            for _ in range(100):
                if person.other:
                    break
                person.pump(0.05)
            assert [(m["type"], m["code"], m["table"], m["seat"]) for m in person.other] == [
                ("rematched", code, new_code, seat)
            ]  # its own seat's, once; never the other's
            assert new_room.seat_of(person.other[0]["token"]) == seat
        assert eye.wait_until(lambda s: bool((s["rematch"] or {}).get("table")))["rematch"]["table"] == new_code
        eye.pump(0.3)
        assert eye.other == []  # a spectator is told the new code, never a token
    finally:
        for p in (ann, ben, eye):
            p.close()


def test_a_refusal_is_told_in_the_state(server: tuple[str, Hall]) -> None:
    url, hall = server
    _, _, (ann, ben) = seated(url, ANN_BEN, seed=3)
    try:
        ben.request("resign")
        ann.wait_until(lambda s: s["phase"] == "over")
        ben.request("rematch")
        ann.wait_until(lambda s: (s["rematch"] or {}).get("waiting") == [0])
        told = ann.request("rematch_answer", yes=False)["state"]["rematch"]
        assert (told["ended"], told["by"], told["table"]) == ("refused", 0, None)
        ben.wait_until(lambda s: (s["rematch"] or {}).get("ended") == "refused")
        assert len(hall.rooms) == 1
        with pytest.raises(Refused, match="That request to play again is over"):
            ann.request("rematch_answer", yes=True)
    finally:
        ann.close()
        ben.close()


def test_a_person_who_leaves_ends_the_request(server: tuple[str, Hall]) -> None:
    url, _ = server
    _, _, (ann, ben) = seated(url, ANN_BEN, seed=3)
    try:
        ann.request("resign")
        ben.wait_until(lambda s: s["phase"] == "over")
        ann.request("rematch")
        ben.wait_until(lambda s: (s["rematch"] or {}).get("waiting") == [1])
        ben.request("leave")
        state = ann.wait_until(lambda s: (s["rematch"] or {}).get("ended") == "gone")
        assert state["rematch"]["by"] == 1
    finally:
        ann.close()
        ben.close()


def test_the_new_token_opens_the_new_seat(server: tuple[str, Hall]) -> None:
    """Alone against a bot: the new table is made at once, and the token sent opens its seat there."""
    url, _ = server
    ann = Player(url, "")
    try:
        made = new_table(ann.link, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}], sit=0, seed=5)
        ann.code = made["code"]
        ann.link.sit(ann.code, made["token"])
        ann.request("resign")
        assert ann.request("rematch")["state"]["rematch"]["ended"] == "made"
        for _ in range(100):
            if ann.other:
                break
            ann.pump(0.05)
        (new,) = ann.other
        assert ann.link.request("resume", WAIT, code=new["table"], token=new["token"])["seat"] == 0
        status = ann.link.request("status", WAIT, code=new["table"])["table"]
        assert status["phase"] == "playing" and [s["name"] for s in status["seats"]] == ["Ann", "Easy"]
    finally:
        ann.close()


def test_a_person_who_missed_their_new_seat_is_sent_it_again_when_back_at_the_old_table(
    server: tuple[str, Hall],
) -> None:
    """Ben's connection drops as the new table is made (his `rematched` is lost with it): back at the
    finished table with its token, he is sent his seat at the new one, with a token of its own; the one
    sent before no longer opens it, and Ann's is untouched."""
    url, hall = server
    code, _, (ann, ben) = seated(url, ANN_BEN, seed=3)
    try:
        ann.request("resign")
        ben.wait_until(lambda s: s["phase"] == "over")
        ann.request("rematch")
        ben.wait_until(lambda s: (s["rematch"] or {}).get("waiting") == [1])
        token = ben.link.seats[code]
        new_code = ben.request("rematch_answer", yes=True)["state"]["rematch"]["table"]
        for _ in range(100):
            if ben.other and ann.other:
                break
            ben.pump(0.05)
            ann.pump(0.05)
        lost = ben.other[0]["token"]  # as if it never came
        ben.close()
        back = Player(url, code)
        try:
            assert back.resume(token) == 1
            for _ in range(100):
                if back.other:
                    break
                back.pump(0.05)
            (again,) = back.other
            assert (again["type"], again["code"], again["table"], again["seat"]) == ("rematched", code, new_code, 1)
            room = hall.rooms[new_code]
            assert room.seat_of(again["token"]) == 1 and room.seat_of(lost) is None
            assert room.seat_of(ann.other[0]["token"]) == 0
        finally:
            back.close()
    finally:
        ann.close()


def test_a_full_server_leaves_the_request_as_it_was_so_the_last_answer_may_come_again() -> None:
    """The server is full as Ben agrees: he is told so, the request still waits for him (it used to wait
    with everyone agreed, and no answer could ever make the table), and once there is room he agrees again."""
    with running_server(limits=Limits(tables=1)) as (url, hall):
        code, _, (ann, ben) = seated(url, ANN_BEN, seed=3)
        try:
            ann.request("resign")
            ann.request("rematch")
            ben.wait_until(lambda s: (s["rematch"] or {}).get("waiting") == [1])
            with pytest.raises(Refused, match=r"^The server is full: try again later\.$"):
                ben.request("rematch_answer", yes=True)
            assert hall.rooms[code].rematch_told() == {
                "seat": 0, "agreed": [], "waiting": [1], "ended": None, "by": None, "table": None
            }  # fmt: skip
            hall.limits = Limits(tables=2)
            made = ben.request("rematch_answer", yes=True)["state"]["rematch"]
            assert made["ended"] == "made" and made["table"] in hall.rooms
        finally:
            for p in (ann, ben):
                p.close()
