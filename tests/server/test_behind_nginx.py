"""The server behind a real reverse proxy (issue 43): nginx on loopback sets `X-Forwarded-For`, the server
trusts 127.0.0.1 (nginx's own address towards it), and 24 players from 24 loopback addresses all get in,
make a table and play a move, though the test's limits would let no more than 3 connections in from one
address. One forwarded address still meets its limits, and another is not touched by them; a forged
`X-Forwarded-For` sent through nginx, or straight to the server, changes nothing.

Linux routes all of 127.0.0.0/8 to the loopback interface: each client binds its own source address
(`local_addr`, passed by `websockets` to `loop.create_connection`)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import AsyncExitStack
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from cribtiles.online.protocol import read, write
from cribtiles.online.tiles_seat import tile_move
from cribtiles.server.forwarded import Proxies, networks
from cribtiles.server.front import Hall, Limits

from .nginx import nginx_in_front
from .players import WAIT
from .running import running_server

PLAYERS = 24
LIMITS = Limits(connections_per_address=3, codes_per_minute=5)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Hall]]:
    """nginx's address, the server's own and its hall."""
    with running_server(limits=LIMITS, proxies=Proxies(networks("127.0.0.1"))) as (url, hall):
        port = urlsplit(url).port
        assert port is not None
        with nginx_in_front(tmp_path_factory.mktemp("nginx"), port) as front:
            yield front, url, hall


def source(n: int) -> tuple[str, int]:
    return (f"127.0.0.{n}", 0)


def opened(url: str, n: int, **headers: str) -> Any:
    """A connection to `url` from 127.0.0.`n` (an async context manager)."""
    return connect(url, local_addr=source(n), open_timeout=WAIT, additional_headers=headers or None)


async def message(ws: ClientConnection) -> dict[str, Any]:
    return read(await asyncio.wait_for(ws.recv(), WAIT), "server")


async def answer(ws: ClientConnection, number: int) -> dict[str, Any]:
    """The answer to request `number` (what the server sends by itself meanwhile passed over)."""
    for _ in range(200):
        got = await message(ws)
        if got.get("re") == number:
            return got
    raise AssertionError(f"no answer to request {number}")


async def welcomed(ws: ClientConnection) -> None:
    assert (await message(ws))["type"] == "welcome"


async def plays_a_move(url: str, n: int, everyone: asyncio.Barrier, released: asyncio.Event) -> str:
    """Player `n` from 127.0.0.`n`: a table of its own against a bot, one move made there; connected
    until every player has and the test has looked. The table's code."""
    async with opened(url, n) as ws:
        await welcomed(ws)
        seats = [{"kind": "person", "name": f"Player {n}"}, {"kind": "bot", "level": "beginner"}]
        await ws.send(write("create", id=1, game="tiles", seats=seats, sit=0, seed=n))
        created = await answer(ws, 1)
        assert created["type"] == "created", created
        for _ in range(200):
            got = await message(ws)
            state = got.get("state", {})
            if got["type"] == "state" and state.get("phase") == "playing" and state.get("to_move") == state["you"]:
                break
        else:
            raise AssertionError(f"player {n} was never to move")
        move = tile_move(state, "beginner", random.Random(n))
        await ws.send(write("act", id=2, code=created["code"], ply=state["ply"], move=move))
        acted = await answer(ws, 2)
        assert acted["type"] == "state" and acted["state"]["ply"] > state["ply"], acted
        await everyone.wait()
        await released.wait()
        return str(created["code"])


def test_24_players_from_24_forwarded_addresses_all_get_in_and_play(proxied: tuple[str, str, Hall]) -> None:
    front, _url, hall = proxied
    numbers = range(2, 2 + PLAYERS)

    async def main() -> list[str]:
        everyone, released = asyncio.Barrier(PLAYERS + 1), asyncio.Event()
        playing = [asyncio.create_task(plays_a_move(front, n, everyone, released)) for n in numbers]
        await asyncio.wait_for(everyone.wait(), WAIT * 3)
        # every one of them connected at once, each counted against its own address, not nginx's
        assert {f"127.0.0.{n}": hall.doors.by_address.get(f"127.0.0.{n}") for n in numbers} == {
            f"127.0.0.{n}": 1 for n in numbers
        }
        assert hall.doors.by_address.get("127.0.0.1", 0) == 0
        released.set()
        return list(await asyncio.gather(*playing))

    codes = asyncio.run(main())
    assert len(set(codes)) == PLAYERS
    for n, code in zip(numbers, codes, strict=True):
        assert hall.addresses.created_by.get(f"127.0.0.{n}") == {code}
        assert hall.rooms[code].ply >= 1


def test_one_forwarded_address_meets_its_connection_limit_and_another_does_not(
    proxied: tuple[str, str, Hall],
) -> None:
    front, _url, hall = proxied

    async def main() -> None:
        async with AsyncExitStack() as held:
            for _ in range(LIMITS.connections_per_address):
                await welcomed(await held.enter_async_context(opened(front, 30)))
            assert hall.doors.by_address.get("127.0.0.30") == LIMITS.connections_per_address
            with pytest.raises(InvalidStatus) as caught:
                async with opened(front, 30):
                    pass
            assert caught.value.response.status_code == 429  # the server's answer, passed on by nginx
            async with opened(front, 31) as other:
                await welcomed(other)
                await other.send(write("ping", id=1))
                assert (await answer(other, 1))["type"] == "pong"

    asyncio.run(main())


def test_one_forwarded_address_meets_its_limit_of_wrong_codes_and_another_does_not(
    proxied: tuple[str, str, Hall],
) -> None:
    front, _url, hall = proxied

    async def status(ws: ClientConnection, code: str, number: int) -> dict[str, Any]:
        await ws.send(write("status", id=number, code=code))
        return await answer(ws, number)

    async def main() -> None:
        async with opened(front, 32) as guesser, opened(front, 33) as player:
            await welcomed(guesser)
            await welcomed(player)
            await player.send(write("create", id=1, game="tiles", seats=[{"kind": "open"}, {"kind": "open"}]))
            code = str((await answer(player, 1))["code"])
            wrong = "QQQQQQ" if code != "QQQQQQ" else "ZZZZZZ"
            for number in range(LIMITS.codes_per_minute):
                assert (await status(guesser, wrong, 10 + number))["reason"] == "No table has that code."
            refused = (await status(guesser, code, 20))["reason"]  # even the right code
            assert refused.startswith("Too many codes tried from your address")
            assert (await status(player, wrong, 21))["reason"] == "No table has that code."
            assert (await status(player, code, 22))["type"] == "table"
            tries = hall.addresses.tries
            assert len(tries["127.0.0.32"]) == LIMITS.codes_per_minute and len(tries["127.0.0.33"]) == 1

    asyncio.run(main())


def test_a_forged_x_forwarded_for_changes_nothing_through_nginx_or_straight_to_the_server(
    proxied: tuple[str, str, Hall],
) -> None:
    front, url, hall = proxied

    async def main() -> None:
        forged = {"X-Forwarded-For": "127.0.0.99"}
        # through nginx: it appends the true address, the right-most one, and the forged one is passed over
        async with opened(front, 34, **forged) as ws:
            await welcomed(ws)
            assert hall.doors.by_address.get("127.0.0.34") == 1
            assert "127.0.0.99" not in hall.doors.by_address
        # straight to the server from an address it does not trust: the header is not read at all
        async with opened(url, 35, **forged) as ws:
            await welcomed(ws)
            assert hall.doors.by_address.get("127.0.0.35") == 1
            assert "127.0.0.99" not in hall.doors.by_address

    asyncio.run(main())
