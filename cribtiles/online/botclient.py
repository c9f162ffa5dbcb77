"""A bot that plays a seat at an online table from wherever it runs (`cribtiles online bot`): it takes a
seat with the table's code, sees what that seat is sent and nothing more, answers each of its turns,
comes back by itself after a dropped connection, and is done once the game is over (issue 31). It holds
no game's code: each game's bot at a seat is its `SeatPlay`, asked of the registry (`tiles_seat.py`,
`cribbage_seat.py`; issue 45)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cribtiles.games import SEAT_BOT, game_named

from .client import Link, NotConnected, Refused


@dataclass(frozen=True)
class Outcome:
    """How a bot's game at an online table ended."""

    seat: int
    over: bool
    state: dict[str, Any]


@dataclass(frozen=True)
class SeatPlay:
    """How a game's bot plays a seat online from what the seat was sent (the registry's `SEAT_BOT` part
    of each game): its move, and whether it calls the last play (the tile game's "Joker")."""

    move: Callable[[dict[str, Any], str, random.Random], str]
    calls: Callable[[dict[str, Any], str, random.Random], bool]


def seat_play(game: object) -> SeatPlay:
    """The seat bot of the game a state names (ValueError in words for a game this version does not know)."""
    play: SeatPlay = game_named(game).part(SEAT_BOT)
    return play


class SeatBot:
    """A bot at one seat of one table, over `link`."""

    def __init__(self, link: Link, code: str, level: str, seed: int | None = None) -> None:
        self.link = link
        self.code = code
        self.level = level
        self.seed = seed
        self.seat: int | None = None
        self.state: dict[str, Any] | None = None
        self.moves = 0
        self.latencies: list[float] = []
        self.acknowledged: list[tuple[int, str]] = []  # (ply, move) of each act the server answered with its state
        self.calls = 0  # Joker calls the server took
        self._call_weighed: tuple[int, bool] | None = None  # (ply, whether to call) once weighed

    def take_seat(self, name: str, seat: int | None = None) -> int:
        answer = self.link.request("join", code=self.code, name=name, seat=seat)
        self.code = str(answer["code"])
        self.seat = int(answer["seat"])
        self.link.sit(self.code, answer["token"])
        return self.seat

    def resume(self, token: str) -> int:
        answer = self.link.request("resume", code=self.code, token=token)
        self.seat = int(answer["seat"])
        self.link.sit(self.code, token)
        return self.seat

    def _rng(self, ply: int, what: str = "") -> random.Random:
        key = f"{self.seed}/{self.seat}/{ply}" + (f"/{what}" if what else "")
        return random.Random(key) if self.seed is not None else random.Random()

    def _calls(self, state: dict[str, Any]) -> bool:
        """Whether to call "Joker" now (the tile game, when this seat may): by its own count, weighed
        once a ply, so that a state answered again (a quiet second) is not a second chance to call."""
        if not state.get("may_call"):
            return False
        ply = state["ply"]
        if self._call_weighed is None or self._call_weighed[0] != ply:
            calls = seat_play(state.get("game")).calls
            self._call_weighed = (ply, calls(state, self.level, self._rng(ply, "call")))
        return self._call_weighed[1]

    def step(self, state: dict[str, Any]) -> None:
        """Answer `state` if it is this seat's turn (or the round is over and the next is to start, or a
        person asks to take back a move, or it calls "Joker" on the last play)."""
        self.state = state
        if state.get("phase") != "playing" or state.get("you") != self.seat:
            return
        ply = state["ply"]
        asked = state.get("undo")
        try:
            if isinstance(asked, dict) and asked.get("ended") is None and self.seat in (asked.get("waiting") or ()):
                # a person asks to take back a move: a bot, like the server's own, lets them
                answer = self.link.request("undo_answer", code=self.code, ply=asked["ply"], yes=True)
            elif state.get("record") is not None and state.get("to_move") is None:
                answer = self.link.request("next_round", code=self.code, ply=ply)
            elif self._calls(state):  # before moving: its own move would close the call's window
                answer = self.link.request("call", code=self.code, ply=ply)
                self.calls += 1
            elif state.get("to_move") == self.seat:
                move = seat_play(state.get("game")).move(state, self.level, self._rng(ply))
                sent = time.perf_counter()
                answer = self.link.request("act", code=self.code, ply=ply, move=move)
                self.latencies.append(time.perf_counter() - sent)
                self.moves += 1
                if answer.get("type") == "state":
                    self.acknowledged.append((ply, move))
            else:
                return
        except Refused:
            return  # the table moved on (another seat, a stand-in): its next state says what now
        except NotConnected:
            return  # the link comes back by itself, and the server sends the state again
        if answer.get("type") == "state":
            self.step(answer["state"])

    def play(self, timeout: float = 3600.0) -> Outcome:
        """Play until the game is over, or until the table has stood still `timeout` seconds (no new ply
        reached this seat): a slow game that goes on, on a loaded machine or across a server's restart,
        is played to its end."""
        end, ply = time.monotonic() + timeout, None
        while time.monotonic() < end:
            message = self.link.next_message(timeout=1.0)
            if message is None and self.state is not None:
                # a quiet second: its last try may have been refused (too many messages) or lost; try
                # again, the server judges it by its ply
                self.step(self.state)
            elif message is not None and message["type"] == "state" and message["code"] == self.code:
                self.step(message["state"])
            # the last move's answer is this seat's own (no other state follows it): over is seen there too
            if self.state is not None and self.state.get("phase") == "over":
                return Outcome(self.seat if self.seat is not None else -1, True, self.state)
            if self.state is not None and self.state.get("ply") != ply:
                end, ply = time.monotonic() + timeout, self.state.get("ply")
        return Outcome(self.seat if self.seat is not None else -1, False, self.state or {})
