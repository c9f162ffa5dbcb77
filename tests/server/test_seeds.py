"""A seed chosen by a table's creator (issue 31): whoever chooses it knows every rack and bag, so a server
takes one only at a table with one person's seat, the rest bots, and refuses it in words at a table of
several people; a server run for tests (`any_seed`) takes one anywhere."""

from __future__ import annotations

from typing import Any

import pytest

from cribtiles.online.client import Link, Refused

from .players import WAIT, connected, new_table
from .running import running_server

ANN_AND_A_BOT = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]


def racks_dealt(link: Link, seats: list[dict[str, Any]], seed: int, game: str = "tiles") -> str:
    """The creator's rack (or hand) at a new table made with `seed`, the creator sitting at seat 0."""
    made = link.request("create", WAIT, game=game, seats=seats, seed=seed, sit=0)
    while True:  # the creator's state follows the answer
        message = link.next_message(WAIT)
        assert message is not None, "no state came"
        if message["type"] == "state" and message["code"] == made["code"]:
            told = message["state"]
            return str(told.get("rack") or told["view"])


def test_a_seed_is_refused_at_a_table_of_several_people() -> None:
    with running_server(any_seed=False) as (url, hall):
        link = connected(url)
        try:
            for seats in (
                [{"kind": "open"}, {"kind": "open"}],
                [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}],
                [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}],
            ):
                with pytest.raises(Refused, match="A seed is taken only at a table with one person's seat"):
                    new_table(link, seats, seed=5)
            with pytest.raises(Refused, match="one person's seat"):
                link.request("create", WAIT, game="cribbage", seats=[{"kind": "open"}] * 2, seed=5)
            assert not hall.rooms  # nothing was made
            assert new_table(link, [{"kind": "open"}, {"kind": "open"}])["code"]  # the server draws one
        finally:
            link.close()


@pytest.mark.parametrize("game", ["tiles", "cribbage"])
def test_a_seed_deals_the_same_game_at_a_table_of_one_person_and_bots(game: str) -> None:
    with running_server(any_seed=False) as (url, _hall):
        link = connected(url)
        try:
            first = racks_dealt(link, ANN_AND_A_BOT, 41, game)
            assert racks_dealt(link, ANN_AND_A_BOT, 41, game) == first
            assert racks_dealt(link, ANN_AND_A_BOT, 42, game) != first
        finally:
            link.close()


def test_a_server_for_tests_takes_a_seed_at_any_table() -> None:
    with running_server(any_seed=True) as (url, _hall):
        link = connected(url)
        try:
            assert new_table(link, [{"kind": "open"}, {"kind": "open"}], seed=5)["code"]
        finally:
            link.close()
