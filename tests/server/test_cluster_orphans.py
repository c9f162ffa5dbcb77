"""A table nobody is at, on a real cluster (issue 46): no process holds it while its person's time runs
out. Asked after through the proxy once it has (`status`, as "Your online games" asks), and come back to at
its own address, it is told as a process holding it all along would tell it: the stand-in made when the
time ran out and the bot's reply, in the first state its person is sent.

Real time: the shortest turn timer (10 s) is waited out; every other wait is a hang guard."""

from __future__ import annotations

import time

from cribtiles.server.front import TABLE_SPEAKER

from .cluster import running_cluster
from .players import WAIT, Player, connected
from .test_cluster import LEASE
from .test_orphans import first_state

TIMER = 10


def test_a_table_left_past_its_deadline_is_made_up_when_asked_after_and_come_back_to() -> None:
    with running_cluster(2, LEASE) as cluster:
        maker = connected(cluster.url)
        try:
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
            created = maker.request("create", WAIT, game="tiles", seats=seats, sit=0, turn_timer=TIMER)
        finally:
            maker.close()
        code, token = str(created["code"]), str(created["token"])
        at_table = f"{cluster.url}/t/{code}"
        ann = Player(at_table, code)
        try:
            ann.resume(token)
            before = ann.wait_until(lambda s: s["phase"] == "playing" and s["to_move"] == 0)
        finally:
            ann.close()
        while time.time() < before["deadline"] + 1:  # nobody there when Ann's time runs out
            time.sleep(0.1)
        lobby = connected(cluster.url)
        try:
            told = lobby.request("status", WAIT, code=code)["table"]
        finally:
            lobby.close()
        assert told["ply"] >= before["ply"] + 2 and told["to_move"] == 0, (before["ply"], told)
        ann = Player(at_table, code)
        try:
            ann.resume(token)
            state = first_state(ann)
            assert state["ply"] == told["ply"] and state["to_move"] == 0
            assert state["deadline"] >= before["deadline"] + TIMER
            ann.wait_until(lambda s: any(s_["name"] == TABLE_SPEAKER for s_ in ann.said))
            assert any("Ann's time for the move ran out" in s["text"] for s in ann.said)
        finally:
            ann.close()
