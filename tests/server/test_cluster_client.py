"""The desktop game's client against a cluster (issue 46): two people, each with the links the window
keeps to a server (`ServerLinks`: the server's own at the proxy's address, one for each table at
/t/CODE), make and join tables through HAProxy and play whole games of both games with the sessions the
window plays them with (`RemoteSession`, `RemoteCribbageSession`), at tables served by different
processes; and the process serving a table is killed (kill -9) mid-game and not restarted: the table's
links come back through the proxy, the other process takes the table, and the game goes on to its end
with every acknowledged move in it.

No timing is asserted: every wait is a hang guard."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.online.client import ServerLinks
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.online.remote import RemoteSession
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.tiles.history import TurnRecord
from tests.online.test_online_history import play_cribbage, play_tiles

from .cluster import Cluster, running_cluster
from .test_cluster import LEASE, _store

WAIT = 30.0
BACKOFF = (0.05, 0.5)  # the links try again soon: the test waits for them, not for their pauses
#: Tables of a game made at most while looking for one the other process serves (a table's process is
#: the hash of its code: each table lands on either of two with even odds).
TRIES = 12
PEOPLE = ("Ann", "Ben")


@contextmanager
def two_people(cluster: Cluster) -> Iterator[list[ServerLinks]]:
    """Ann's and Ben's links to the cluster, through the proxy, as each one's window keeps them."""
    people = [ServerLinks(cluster.url, BACKOFF) for _ in PEOPLE]
    try:
        for links in people:
            assert links.wait_connected(WAIT), links.problem
        yield people
    finally:
        for links in people:
            links.close()


def seated(people: list[ServerLinks], game: str) -> tuple[str, list[str]]:
    """A table of `game` made by Ann (seated as she makes it) and joined by Ben, as the window's Online
    screen does: the code, and each one's seat token once each one's table link is at the seat."""
    ann, ben = people
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
    rules = "target=61" if game == "cribbage" else ""
    made = ann.request("create", WAIT, game=game, seats=seats, sit=0, rules=rules)
    code = str(made["code"])
    joined = ben.request("join", WAIT, code=code, name="Ben")
    tokens = [str(made["token"]), str(joined["token"])]
    ben.sit(code, tokens[1])
    for links, token in zip(people, tokens, strict=True):  # answered once the table's process serves it
        assert links.request("resume", WAIT, code=code, token=token)["type"] == "joined"
    return code, tokens


def serving(cluster: Cluster, code: str) -> int:
    """The index of the server process that holds the table's lease (0: the first)."""
    with psycopg.connect(_store(cluster)) as conn:
        row = conn.execute("SELECT holder FROM leases WHERE code = %s", (code,)).fetchone()
    assert row is not None, f"no process holds table {code}"
    pid = int(str(row[0]).rsplit(":", 2)[1])  # host:pid:random
    return cluster.pids().index(pid)


def elsewhere(cluster: Cluster, people: list[ServerLinks], game: str, taken: int) -> str:
    """A table of `game` that a process other than `taken` serves (those that land on `taken` are aborted)."""
    for _ in range(TRIES):
        code, _tokens = seated(people, game)
        if serving(cluster, code) != taken:
            return code
        people[0].request("abort", WAIT, code=code)
        for links in people:  # its links let go of (closed once idle a while)
            links.table(code).step_away(code)
    raise AssertionError(f"{TRIES} tables of {game} in a row landed on server {taken + 1}")


def test_two_people_play_both_games_through_the_proxy_at_tables_on_different_processes() -> None:
    with running_cluster(2, LEASE) as cluster, two_people(cluster) as people:
        tiles, _ = seated(people, "tiles")
        first = serving(cluster, tiles)
        cribbage = elsewhere(cluster, people, "cribbage", first)
        assert serving(cluster, cribbage) == 1 - first

        tile_sessions = [RemoteSession(links.table(tiles, WAIT), tiles, s) for s, links in enumerate(people)]
        play_tiles(tile_sessions)
        assert tile_sessions[0].state.turns == tile_sessions[1].state.turns
        card_sessions = [
            RemoteCribbageSession(links.table(cribbage, WAIT), cribbage, s) for s, links in enumerate(people)
        ]
        play_cribbage(card_sessions)
        assert all(s.is_over for s in card_sessions)
        records = {s.record() for s in card_sessions}  # the whole game, sent to each seat alike
        assert len(records) == 1 and None not in records

        for code, phase in ((tiles, "over"), (cribbage, "over")):  # as the lobby's Your online games asks
            assert people[0].request("status", WAIT, code=code)["table"]["phase"] == phase
        # each person's messages of a table went on that table's own link, and the lobby's on the server's
        for links in people:
            assert {tiles, cribbage} <= set(links.seats)
            assert all(links.opened(code) is not links.lobby for code in (tiles, cribbage))
        print(f"tiles at server {first + 1}, cribbage at server {2 - first}, both played through HAProxy")


def test_the_process_serving_a_table_killed_mid_game_the_game_goes_on_at_the_other() -> None:
    with running_cluster(2, LEASE) as cluster, two_people(cluster) as people:
        code, _ = seated(people, "tiles")
        sessions = [RemoteSession(links.table(code, WAIT), code, s) for s, links in enumerate(people)]
        made: list[TurnRecord] = []
        told: list[str] = []
        play(sessions, made, told, until=lambda: len(sessions[0].state.turns) >= 6)
        victim = serving(cluster, code)
        cluster.kill(victim)  # and not started again
        play(sessions, made, told, until=lambda: all(s.is_over and s.match.is_over for s in sessions))

        assert serving(cluster, code) == 1 - victim  # the other process took the table
        final = sessions[0].state.turns
        assert sessions[1].state.turns == final
        for record in made:  # every move acknowledged before or after the kill is in the game, in its place
            assert final[record.number] == record.turn
        assert any("connection to the server was lost" in t for t in told), told
        assert all(links.table(code).connects >= 2 for links in people)  # each table link came back
        print(f"server {victim + 1} killed mid-game; {len(made)} acknowledged moves of {len(final)} kept")


def play(sessions: list[RemoteSession], made: list[TurnRecord], told: list[str], until: Any) -> None:
    """Each seat's session plays its own seat (an easy bot chooses) and lands the other's moves until
    `until()`; a move refused or not sent (the table's process gone, its link coming back) is tried again
    once the table is heard from again. The moves acknowledged go to `made`, the sessions' news to `told`."""
    bot, rng = make_bot("easy"), random.Random(46)
    end = time.monotonic() + 240
    while not until():
        assert time.monotonic() < end, "the game did not go on"
        moved = False
        for s in sessions:
            seat = s.mine[0]
            told.extend(s.incidents())
            try:
                if s.is_over:
                    if not s.match.is_over:
                        s.next_round()
                        moved = True
                elif s.to_move == seat:
                    made.append(s.act(seat, choose_safely(bot, s.view(seat), rng)))
                    moved = True
                elif s.poll() is not None:
                    s.land()
                    moved = True
            except IllegalMove:
                time.sleep(0.05)
        if not moved:
            time.sleep(0.005)
