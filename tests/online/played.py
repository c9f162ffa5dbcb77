"""Whole games played on a real loopback server by a test's own seats and a spectator, every message each
connection was sent kept: the Joker rule's slips and calls, a take-back, a match, Solitaire, cribbage's
muggins in the show and the play, its three players and partners with crib cards laid before the game
comes to their seats, a game resigned and a table played again. `test_protocol_doc.py` holds the
protocol's page to them (issues 43, 44)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from cribtiles.online.client import Link, Refused
from cribtiles.online.tiles_seat import tile_move
from cribtiles.rules.moves import Play, parse_move
from cribtiles.rules.scoring import score_play
from cribtiles.server.front import Limits
from cribtiles.server.tiles_room import items_json
from cribtiles.table.tiles.joker import items_of
from cribtiles.table.tiles.public import match_from_json
from tests.server.running import running_server

WAIT = 20.0
#: The seats here answer at once: the server's allowance of messages a second is raised for them.
FAST = Limits(per_second=1000, burst=1000)
#: A whole game's acts at most: a loop that never ends is a failure, not a hang.
MOST_STEPS = 2_000


@dataclass
class Conn:
    """One connection at table `code` (a seat, or a spectator while `seat` is None): every message it is
    sent goes to `heard`, and the newest state it was sent is `state`."""

    link: Link
    code: str
    heard: list[dict[str, Any]]
    seat: int | None = None
    state: dict[str, Any] = field(default_factory=dict)

    def take(self, message: dict[str, Any]) -> None:
        self.heard.append(message)
        newer = message["type"] == "state" and (not self.state or message["state"]["ply"] >= self.state["ply"])
        if newer and message["code"] == self.code:
            self.state = message["state"]

    def pump(self, timeout: float) -> None:
        message = self.link.next_message(timeout)
        while message is not None:
            self.take(message)
            message = self.link.next_message(0)

    def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The server's answer to `kind` at this table (Refused in its words)."""
        answer = self.link.request(kind, WAIT, code=self.code, **fields)
        self.take(answer)
        return answer

    def join(self, name: str) -> None:
        answer = self.ask("join", name=name)
        self.link.sit(self.code, answer["token"])
        self.seat = int(answer["seat"])

    def watch(self) -> None:
        self.ask("watch")
        self.link.watch(self.code)


class Table:
    """A table made on the server at `url`: its people (open seats, joined in order), a spectator who
    watches from before the first of them sits, and `heard`, every message any of them was sent."""

    def __init__(self, url: str, game: str, seats: list[dict[str, Any]], **settings: Any) -> None:
        self.url = url
        self.heard: list[dict[str, Any]] = []
        maker = self._connect("")
        created = maker.link.request("create", WAIT, game=game, seats=seats, **settings)
        self.heard.append(created)
        maker.link.close()
        self.code = str(created["code"])
        self.eye = self._connect(self.code)
        self.eye.watch()
        self.eye.ask("status")  # a table still waiting for its people
        self.people: dict[int, Conn] = {}
        for n, seat in enumerate(seats):
            if seat["kind"] == "open":
                person = self._connect(self.code)
                person.join(f"Player {n + 1}")
                self.people[n] = person
        self.rng = random.Random(f"{game}/{settings.get('seed')}")

    def _connect(self, code: str) -> Conn:
        link = Link(self.url, backoff=(0.05, 0.5))
        assert link.wait_connected(WAIT), link.problem
        return Conn(link, code, self.heard)

    @property
    def conns(self) -> list[Conn]:
        return [*self.people.values(), self.eye]

    def newest(self) -> dict[str, Any]:
        """The newest state any person was sent (the spectator's when no one sits yet)."""
        states = [c.state for c in self.conns if c.state]
        return max(states, key=lambda s: int(s["ply"]))

    def settle(self) -> dict[str, Any]:
        """Read what waits on every connection; the newest state."""
        for conn in self.conns:
            conn.pump(0)
        return self.newest()

    def mover(self) -> Conn | None:
        """The person to move who has been sent the table's newest state (None: a bot's turn, or a state
        still on its way)."""
        state = self.settle()
        person = self.people.get(state["to_move"]) if state.get("to_move") is not None else None
        if person is None or person.state.get("ply") != state["ply"]:
            return None
        return person

    def wait(self) -> None:
        """Wait a little for the server (a bot's move, a state on its way)."""
        self.eye.pump(0.05)

    def close(self) -> None:
        self.eye.ask("status")  # and the table's status once it is over
        for conn in self.conns:
            conn.pump(0)
            conn.link.close()


def act(conn: Conn, **fields: Any) -> bool:
    """`conn`'s seat acts on its newest state; False when the table had moved on."""
    try:
        conn.ask("act", ply=conn.state["ply"], **fields)
    except Refused:
        return False
    return True


# --- the tile game ---


def tile_play(table: Table, slips: bool, undo: bool, resign_after: int | None = None) -> None:
    """Play a tile table to the end of its match. With `slips` (the Joker rule): every fifth play is
    declared 2 under its worth with one of its combinations pointed at, every seventh 3 over, and the next
    person calls each; the first fair play after the tenth is called wrongly. With `undo`: the first
    person's turn after the sixth turn is asked back and the next person agrees. With `resign_after`: the
    person to move once that many turns are made resigns."""
    plays = 0
    fair_last = called_wrongly = asked_back = False
    for _ in range(MOST_STEPS):
        state = table.settle()
        if state["phase"] == "over":
            return
        if state.get("to_move", 0) is None and state.get("record") is not None:
            first = next(iter(table.people.values()))
            if first.state.get("ply") == state["ply"]:
                with_refusal(first, "next_round", ply=state["ply"])
            table.wait()
            continue
        person = table.mover()
        if person is None:
            table.wait()
            continue
        if resign_after is not None and len(_turns(person.state)) >= resign_after:
            with_refusal(person, "resign")
            continue
        if slips and fair_last and not called_wrongly and plays > 10 and person.state.get("may_call"):
            called_wrongly = with_refusal(person, "call", ply=person.state["ply"])
            continue
        move = tile_move(person.state, "easy", table.rng)
        fields: dict[str, Any] = {"move": move}
        parsed = parse_move(move)
        slip = False
        if slips and isinstance(parsed, Play):
            plays += 1
            declared, slip = _declared(person.state, parsed, plays)
            fields.update(declared)
        if not act(person, **fields):
            continue
        fair_last = slips and isinstance(parsed, Play) and not slip
        if slip:
            _call_by_next(table, person)
        if undo and not asked_back and person.seat == 0 and len(_turns(person.state)) >= 7:
            asked_back = _ask_back(table, person)


def _turns(state: dict[str, Any]) -> list[Any]:
    turns: list[Any] = state["match"]["game"]["turns"]
    return turns


def _declared(state: dict[str, Any], play: Play, plays: int) -> tuple[dict[str, Any], bool]:
    """What a person declares for the play, and the combinations pointed at (see `tile_play`); whether
    it is a slip."""
    score = score_play(match_from_json(state["match"]).game.board, play)
    if plays % 5 == 0 and score.total >= 2:
        return {"declared": score.total - 2, "claimed": items_json(items_of(score))[:1]}, True
    if plays % 7 == 0:
        return {"declared": score.total + 3}, True
    return {"declared": score.total}, False


def _call_by_next(table: Table, player: Conn) -> None:
    """The next person (another seat) calls Joker on `player`'s play, once the play has reached them."""
    others = [c for s, c in table.people.items() if s != player.seat]
    for _ in range(MOST_STEPS if others else 0):
        newest = table.settle()
        caller = next((c for c in others if c.state.get("may_call")), None)
        if caller is not None:
            with_refusal(caller, "call", ply=caller.state["ply"])
            return
        if newest["ply"] > player.state["ply"] or newest.get("to_move") is None:
            return  # a bot moved on first, or the round is over: the window closed
        table.wait()


def _ask_back(table: Table, asker: Conn) -> bool:
    """`asker` asks to take back its last turn and the next person agrees; whether it was asked."""
    if not asker.state.get("can_undo") or not with_refusal(asker, "undo", ply=asker.state["ply"]):
        return False
    others = [c for s, c in table.people.items() if s != asker.seat]
    for _ in range(MOST_STEPS):
        table.settle()
        other = next((c for c in others if (c.state.get("undo") or {}).get("waiting")), None)
        if other is not None:
            with_refusal(other, "undo_answer", ply=other.state["undo"]["ply"], yes=True)
            return True
        table.wait()
    return True


def with_refusal(conn: Conn, kind: str, **fields: Any) -> bool:
    """`conn` asks `kind`; False when the server refused (the table moved on)."""
    try:
        conn.ask(kind, **fields)
    except Refused:
        return False
    return True


# --- cribbage ---


def cribbage_play(table: Table, resign_after: int | None = None) -> None:
    """Play a cribbage table to its end: each person lays and counts from its view's legal moves; every
    fourth count is said as 0, and under muggins in the play every sixth card laid is said to score 9;
    the other calls muggins on those (by `call` and by `act`, in turn), lets the others stand (`no
    muggins`, once `let stand`), and calls its fourth answer wrongly if it was a fair one. The first
    person asks the coach for a hint once. In the discard, the people lay away from the last seat the
    game comes to back to the first, each before its turn (as people at one table do, all at once)."""
    counts = cards = answers = 0
    slipped = hinted = False
    for _ in range(MOST_STEPS):
        state = table.settle()
        if state["phase"] == "over":
            return
        early = _laying_away(table, state)
        if early is not None:
            act(early, move=table.rng.choice(early.state["view"]["legal"]))
            continue
        person = table.mover()
        if person is None:
            table.wait()
            continue
        mine = person.state
        if resign_after is not None and mine["public"]["ply"] >= resign_after:
            with_refusal(person, "resign")
            continue
        if mine.get("may_call"):
            answers += 1
            if slipped or answers == 4:
                if answers % 2:
                    with_refusal(person, "call", ply=mine["ply"])
                else:
                    act(person, move="muggins")
            else:
                act(person, move="let stand" if answers == 2 else "no muggins")
            slipped = False
            continue
        if not hinted and person.seat == 0:
            hinted = with_refusal(person, "hint")
        legal = [m for m in mine["view"]["legal"] if m.startswith("discard") or not m[-1].isdigit()]
        move = table.rng.choice(legal)
        if move == "count":
            counts += 1
            move = "count 0" if counts % 4 == 0 else move
        elif move.startswith("play "):
            cards += 1
            move = f"{move} 9" if cards % 6 == 0 and mine["public"]["options"]["play_muggins"] else move
        slipped = act(person, move=move) and move.endswith((" 0", " 9"))


def _laying_away(table: Table, newest: dict[str, Any]) -> Conn | None:
    """The person who lays away next before the game comes to them: the last to be asked of those who
    may, sent the newest state (None: none, or only the one the game waits for)."""
    ready = [
        c
        for c in table.people.values()
        if c.state.get("ply") == newest["ply"] and c.seat != newest.get("to_move") and _may_discard(c.state)
    ]
    seats = len(newest["seats"])
    return max(ready, key=lambda c: (int(c.seat or 0) - int(newest.get("to_move") or 0)) % seats, default=None)


def _may_discard(state: dict[str, Any]) -> bool:
    return any(move.startswith("discard") for move in (state.get("view") or {}).get("legal", ()))


@contextmanager
def server() -> Iterator[str]:
    with running_server(limits=FAST) as (url, _hall):
        yield url


def play_again(table: Table) -> None:
    """The first person asks to play the finished table again, and every other person agrees."""
    people = list(table.people.values())
    assert with_refusal(people[0], "rematch")
    for person in people[1:]:
        for _ in range(MOST_STEPS):
            table.settle()
            if (person.state.get("rematch") or {}).get("waiting"):
                break
            table.wait()
        assert with_refusal(person, "rematch_answer", yes=True)
    for _ in range(MOST_STEPS):
        if all((p.state.get("rematch") or {}).get("table") for p in people):
            return
        table.settle()
        table.wait()


def played(
    game: str, seats: list[dict[str, Any]], resign_after: int | None = None, again: bool = False, **settings: Any
) -> list[dict[str, Any]]:
    """Every message the connections at a whole game of `game` were sent (a game its person to move
    resigns once `resign_after` moves are made; one played `again` once over)."""
    with server() as url:
        table = Table(url, game, seats, coach=True, turn_timer=3600, **settings)
        try:
            if game == "tiles":
                rules = str(settings.get("rules", ""))
                undo = len(table.people) == 2 and "rounds" not in rules
                tile_play(table, slips="joker=on" in rules, undo=undo, resign_after=resign_after)
            else:
                cribbage_play(table, resign_after)
            assert table.settle()["phase"] == "over"
            if again:
                play_again(table)
        finally:
            table.close()
        return table.heard
