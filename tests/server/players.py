"""People at a server's table in tests: a `Link` that holds one seat (or watches), keeps the newest state
it was sent, and waits for a state it wants, always with a timeout (issue 31); a cribbage seat bot that
lays its crib cards as soon as they are dealt, as people may (issue 44)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from cribtiles.online.botclient import SeatBot
from cribtiles.online.client import Link, NotConnected, Refused
from cribtiles.online.cribbage_seat import bot_move as cribbage_move

WAIT = 20.0


def new_table(link: Link, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """Create a table over `link`: the server's `created` answer (code, host and maybe seat, token)."""
    return link.request("create", WAIT, game="tiles", seats=seats, **options)


def connected(url: str) -> Link:
    link = Link(url, backoff=(0.05, 0.5))
    assert link.wait_connected(WAIT), link.problem
    return link


class Player:
    """One seat (or a spectator: `seat` None) at table `code` over its own link."""

    def __init__(self, url: str, code: str) -> None:
        self.link = connected(url)
        self.code = code
        self.seat: int | None = None
        self.state: dict[str, Any] = {}
        self.said: list[dict[str, Any]] = []
        self.other: list[dict[str, Any]] = []  # any other message the server sent by itself (`rematched`)

    def join(self, name: str, seat: int | None = None) -> int:
        answer = self.link.request("join", WAIT, code=self.code, name=name, seat=seat)
        self.link.sit(self.code, answer["token"])
        self.seat = int(answer["seat"])
        return self.seat

    def resume(self, token: str) -> int:
        answer = self.link.request("resume", WAIT, code=self.code, token=token)
        self.link.sit(self.code, token)
        self.seat = int(answer["seat"])
        return self.seat

    def watch(self) -> None:
        self.link.request("watch", WAIT, code=self.code)
        self.link.watch(self.code)

    def take(self, state: dict[str, Any]) -> None:
        """Keep `state` if it is newer than the one kept (answers and broadcasts may cross)."""
        if not self.state or state["ply"] >= self.state["ply"]:
            self.state = state

    def pump(self, timeout: float = 0.2) -> None:
        message = self.link.next_message(timeout)
        while message is not None:
            if message["type"] == "state" and message["code"] == self.code:
                self.take(message["state"])
            elif message["type"] == "said":
                self.said.append(message)
            else:
                self.other.append(message)
            message = self.link.next_message(0)

    def wait_until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not (self.state and wanted(self.state)):
            if time.monotonic() > end:
                last = {k: self.state.get(k) for k in ("phase", "ply", "you", "to_move", "seats")}
                raise AssertionError(
                    f"no state came that was wanted; the last: {last}, record: {'record' in self.state}"
                )
            self.pump()
        return self.state

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        answer = self.link.request(kind, WAIT, code=self.code, **fields)
        if answer["type"] == "state":
            self.take(answer["state"])
        return answer

    def close(self) -> None:
        self.link.close()


def turn_of(state: dict[str, Any]) -> tuple[int, int]:
    """(round index, turns made in it) of a tile table's state."""
    match = state["match"]
    return len(match["finished"]), len(match["game"]["turns"])


class Eager(SeatBot):
    """A seat bot that lays its crib cards the moment they are dealt, as a person may, whoever the game
    waits for (issue 44): `early` counts those laid before the game came to its seat."""

    early = 0

    def step(self, state: dict[str, Any]) -> None:
        view = state.get("view") or {}
        mine = state.get("phase") == "playing" and state.get("you") == self.seat
        if mine and state.get("to_move") != self.seat and any(m.startswith("discard") for m in view["legal"]):
            move = cribbage_move(state, self.level, self._rng(state["ply"], "early"))
            try:
                answer = self.link.request("act", code=self.code, ply=state["ply"], move=move)
            except (Refused, NotConnected):
                return  # another's move came first: the next state says what now
            self.early += 1
            self.step(answer["state"])
            return
        super().step(state)
