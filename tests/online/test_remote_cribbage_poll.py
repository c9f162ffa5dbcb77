"""The cribbage remote session answers the game-neutral `poll` and `seats` as the tile game's does: the
other seat's move is announced once it has come (another's crib cards as a discard of no cards: they
are not this seat's to know), and `land` makes that very move (issue 45)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from cribtiles.cribbage.moves import Discard, PlayCard
from cribtiles.cribbage.options import Phase
from cribtiles.online.botclient import SeatBot
from cribtiles.online.client import Link
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.server.front import Hall, Limits
from cribtiles.table.cribbage.public import Act
from tests.server.running import running_server

FAST = Limits(per_second=1000, burst=1000)


@pytest.fixture
def server() -> Iterator[tuple[str, Hall]]:
    with running_server(limits=FAST) as running:
        yield running


def test_poll_announces_the_others_move_and_land_makes_it(server: tuple[str, Hall]) -> None:
    url, _hall = server
    mine, theirs = Link(url), Link(url)
    assert mine.wait_connected(10) and theirs.wait_connected(10)
    made = mine.request("create", game="cribbage", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}],
                        seed=7, sit=0)  # fmt: skip
    mine.sit(made["code"], made["token"])
    bot = SeatBot(theirs, made["code"], "medium", seed=2)
    try:
        assert bot.take_seat("Ben") == 1
        session = RemoteCribbageSession(mine, made["code"], 0)
        assert [s.name for s in session.seats] == ["Ann", "Ben"] and session.poll() is None
        announced: list[tuple[object, Act]] = []
        deadline = time.monotonic() + 60
        while not any(act is Act.PLAY for _, act in announced) and time.monotonic() < deadline:
            state = bot.link.next_message(timeout=0.02)
            if state is not None and state["type"] == "state":
                bot.step(state["state"])
            if session.to_move == 0 and session.poll() is None:
                view = session.view(0)
                if view.phase in (Phase.DISCARD, Phase.PLAY) and view.legal:
                    session.act(0, view.legal[0])
            move = session.poll()
            if move is None:
                continue
            assert session.poll() == move  # announced, not made
            told = session.land()
            assert told.player == 1
            if told.act is Act.DISCARD:
                assert move == Discard(())  # Ben's crib cards stay his
            elif told.act is Act.PLAY:
                assert told.card is not None and move == PlayCard(told.card)
            announced.append((move, told.act))
        assert [act for _, act in announced][:1] == [Act.DISCARD] and announced[-1][1] is Act.PLAY
        session.close()
    finally:
        mine.close()
        theirs.close()
