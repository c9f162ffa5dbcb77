"""Every frame the server sends, to every connection, over whole games of every tile mode (2, 3 and 4
seats, the Joker rule, a Servant match, Solitaire), played by seat bots over their own links beside a
server bot and a spectator: each frame is read as the table stood when it was sent, and none tells a
seat what it may not see (issue 31), nor, while "Joker" may still be called on a play, what it was
worth (issue 43)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cribtiles.online.botclient import Outcome, SeatBot
from cribtiles.rules.errors import RecordError
from cribtiles.rules.game import GameState, call_window_open
from cribtiles.rules.match import Match, round_seed
from cribtiles.rules.moves import Exchange
from cribtiles.rules.tiles import format_tiles
from cribtiles.server.front import Client, Hall
from cribtiles.server.tiles_room import TilesGame
from cribtiles.table.tiles.saved import load_table

from .players import WAIT, Player, connected, new_table
from .running import running_server

#: Keys no frame may hold anywhere: the table's innards and what the server keeps to itself.
SECRET_KEYS = {"racks", "bags", "bag", "seed", "log", "token_hash", "host_hash", "places", "done"}
#: Keys that would say how a play's declaration stands against its worth (what a Joker call decides).
MISCOUNT_KEYS = {"unclaimed", "overclaimed"}
NOT_SEATED = -2  # a connection's seat before it has taken one


@dataclass(frozen=True)
class Frame:
    """One frame as sent: to which connection, that connection's seat at the frame's table then, and the
    match as it stood then (None: no game yet)."""

    to: int
    seat: int | None
    at_table: bool
    text: str
    match: Match | None


def record_frames(hall: Hall) -> list[Frame]:
    """Record every frame `hall` sends from now on (the front's one way out: `_post`)."""
    frames: list[Frame] = []
    post = hall.tables.post

    def recording(client: Client, text: str) -> None:
        code = json.loads(text).get("code")
        room = hall.rooms.get(code) if isinstance(code, str) else None
        match = room.game.table.match if room is not None and isinstance(room.game, TilesGame) else None
        seat = client.seats.get(code, NOT_SEATED) if isinstance(code, str) else NOT_SEATED
        frames.append(Frame(id(client), seat, isinstance(code, str) and code in client.seats, text, match))
        post(client, text)

    hall.tables.post = recording  # type: ignore[method-assign]
    return frames


def keys_of(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner)


class Leaks:
    """What the frames told that their seats may not see, in words; and what was checked, so that a
    check that never met its case does not pass unseen."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.met: dict[str, int] = {}

    def see(self, what: str) -> None:
        self.met[what] = self.met.get(what, 0) + 1

    def check(self, frame: Frame) -> None:
        message = json.loads(frame.text)
        if message["type"] == "state":
            self._state(frame, message["state"])
        if frame.match is not None:
            self._text(frame, message)

    def _state(self, frame: Frame, state: dict[str, Any]) -> None:
        """The frame read as a state: its seat's own, and nothing of what is hidden from it."""
        self.see("state")
        if not frame.at_table or state["you"] != frame.seat:
            self.found.append(f"a state for seat {state['you']} went to seat {frame.seat}")
        if bad := SECRET_KEYS & set(keys_of(state)):
            self.found.append(f"the keys {sorted(bad)}")
        if bad := MISCOUNT_KEYS & set(keys_of(state)):
            self.found.append(f"how a declaration stands: the keys {sorted(bad)}")
        match = frame.match
        if match is None:
            return
        game = match.game
        seat = state["you"]
        if seat is None:
            self.see("spectator")
            if "rack" in state or "may_call" in state or "claimed" in state:
                self.found.append("a spectator's state with a seat's own part")
        elif state.get("rack") != format_tiles(game.racks[seat]):
            self.found.append(f"seat {seat} sent a rack not its own: {state.get('rack')!r}")
        told = state["match"]["game"]
        self._worths(told, game)
        for sent, finished in zip(state["match"]["finished"], match.finished, strict=True):
            self._worths(sent, finished)
        if not game.is_over:
            self.see("round on")
            if any(told["end_racks"]):
                self.found.append("the racks left before the round is over")
            if "record" in state:
                self.found.append("the record before the round is over")
            for turn in told["turns"]:
                player, move = turn["player"], turn["move"]
                if player != seat and move.startswith("exchange"):
                    self.see("another's exchange")
                    if move != "exchange ?":
                        self.found.append(f"seat {player}'s exchanged tiles: {move!r}")
        if "record" in state:
            self.see("record")
            record = json.loads(state["record"])
            kept_seed = (record.get("match") or record.get("record") or {}).get("seed")
            if not match.is_over and kept_seed == match.seed:
                self.found.append("a record with the match's seed before the match is over")
            if not match.is_over:
                self.see("record between rounds")
            try:  # and every record a client is sent loads there (issue 31: one between rounds did not)
                load_table(state["record"])
            except RecordError as e:
                self.found.append(f"a record the client cannot load: {e}")

    def _worths(self, told: dict[str, Any], game: GameState) -> None:
        """A round as sent beside the round at the table: while "Joker" may still be called on its last
        play, no worth of that play; every other worth as it is, and the last play's too once the call
        window has closed (a call, the next action, the end of the round)."""
        turns = told["turns"]
        if len(turns) != len(game.turns):
            self.found.append(f"{len(turns)} turns sent of a round of {len(game.turns)}")
            return
        window = call_window_open(game.options, game.turns, game.calls, game.is_over)
        if window:
            self.see("call window open")
            if game.unclaimed or game.overclaimed:
                self.see("call window open on a wrong declaration")
            if turns[-1].get("worth") is not None:
                self.found.append(f"the worth of a play that may still be called: {turns[-1]['worth']}")
        elif game.options.joker and game.turns and game.turns[-1].is_play:
            self.see("call window closed on a play")
            if any(n == len(game.turns) for n, _ in game.calls):
                self.see("call window closed by a call")
        shown = turns[:-1] if window else turns
        for n, (sent, turn) in enumerate(zip(shown, game.turns, strict=False)):
            if sent.get("worth") != turn.true_points:
                self.found.append(f"turn {n + 1}'s worth sent as {sent.get('worth')!r}, not {turn.true_points}")

    def _text(self, frame: Frame, message: dict[str, Any]) -> None:
        """The frame read as text (its own rack left out): no hidden rack, bag, exchange or seed in it."""
        match = frame.match
        assert match is not None
        game = match.game
        seat = frame.seat if frame.at_table else None
        if message["type"] == "state":
            message = {**message, "state": {**message["state"], "rack": ""}}
        text = json.dumps(message)
        done = len(match.finished) + (1 if game.is_over else 0)
        secrets = {f"round {k + 1}'s seed": round_seed(match.seed, k) for k in range(done, match.options.rounds)}
        if not match.is_over:
            secrets["the match's seed"] = match.seed
        for what, number in secrets.items():
            if match.options.rounds > 1 or what == "the match's seed":
                self.see("seed")
                if str(number) in text:
                    self.found.append(what)
        if game.is_over:
            return
        for other, rack in enumerate(game.racks):
            if other != seat and len(rack) >= 3:
                self.see("another's rack")
                if format_tiles(rack) in text or format_tiles(sorted(rack)) in text:
                    self.found.append(f"seat {other}'s rack")
        for bag in game.bags:
            if len(bag) >= 4:
                self.see("a bag")
                if format_tiles(bag[-4:]) in text or format_tiles(bag[:4]) in text:
                    self.found.append("a bag's order")
        for turn in game.turns:
            exchanged = turn.move.tiles if isinstance(turn.move, Exchange) else ()
            if turn.player != seat and len(exchanged) >= 3 and format_tiles(exchanged) in text:
                self.found.append(f"seat {turn.player}'s exchanged tiles")


def play_watched(seats: list[dict[str, Any]], rules: str, seed: int) -> tuple[list[Frame], list[Outcome]]:
    """A whole game of `seats` (each open seat a seat bot over its own link) with a spectator: every frame."""
    with running_server() as (url, hall):
        frames = record_frames(hall)
        maker = connected(url)
        code = new_table(maker, seats, rules=rules, seed=seed)["code"]
        maker.close()
        eye = Player(url, code)
        eye.watch()
        bots = []
        for n, entry in enumerate(seats):
            if entry["kind"] == "open":
                bot = SeatBot(connected(url), code, "easy" if n % 2 else "beginner", seed=seed + n)
                bot.take_seat(f"Bot {n}")
                bots.append(bot)
        outcomes: list[Outcome] = []
        threads = [threading.Thread(target=lambda b=b: outcomes.append(b.play(timeout=60))) for b in bots]
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(70)
            eye.wait_until(lambda s: s["phase"] == "over", timeout=WAIT)
        finally:
            eye.close()
            for bot in bots:
                bot.link.close()
        return list(frames), outcomes


GAMES = [
    ("two seats", [{"kind": "open"}] * 2, "", 1_234_567_891),
    (
        "three seats, a server bot",
        [{"kind": "open"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}],
        "",
        987_654_321,
    ),
    ("four seats", [{"kind": "open"}] * 3 + [{"kind": "bot", "level": "beginner"}], "", 1_122_334_455),
    ("Joker", [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}], "joker=on", 1_029_384_758),
    ("Joker, two seats", [{"kind": "open"}, {"kind": "bot", "level": "easy"}], "joker=on", 1_928_374_650),
    ("Joker, four seats", [{"kind": "open"}] * 3 + [{"kind": "bot", "level": "easy"}], "joker=on", 1_212_343_456),
    ("a Joker match", [{"kind": "bot", "level": "easy"}, {"kind": "open"}], "joker=on,rounds=2", 1_098_765_432),
    ("a Servant match", [{"kind": "open"}, {"kind": "bot", "level": "easy"}], "rounds=3", 1_357_924_680),
    ("Solitaire", [{"kind": "open"}] * 2, "mode=solitaire", 1_470_258_369),
]


@pytest.mark.parametrize(("seats", "rules", "seed"), [g[1:] for g in GAMES], ids=[g[0] for g in GAMES])
def test_no_frame_tells_a_seat_what_it_may_not_see(seats: list[dict[str, Any]], rules: str, seed: int) -> None:
    frames, outcomes = play_watched(seats, rules, seed)
    assert len(outcomes) == sum(1 for s in seats if s["kind"] == "open") and all(o.over for o in outcomes)
    leaks = Leaks()
    for frame in frames:
        leaks.check(frame)
    assert not leaks.found, sorted(set(leaks.found))[:10]
    for what in ("state", "spectator", "round on", "another's rack", "a bag", "record", "seed"):
        assert leaks.met.get(what), f"no frame met the check of {what}"
    if "rounds" in rules:
        assert leaks.met.get("record between rounds")
    if "joker" in rules:
        for what in ("call window open", "call window open on a wrong declaration", "call window closed on a play"):
            assert leaks.met.get(what), f"no frame met the check of {what}"
        match = frames[-1].match
        assert match is not None and match.is_over
        callers = {c.caller for g in (*match.finished, match.game) for _, c in g.calls}
        # the seat bots call too, from their own count: the states never told them a worth to call on.
        # In every game here the seat after the server bot's (the only one to declare wrong) is a seat
        # bot that calls before it moves, so whichever seat bot's call comes first, one is made.
        assert callers & {n for n, s in enumerate(seats) if s["kind"] == "open"}, callers


def test_a_seat_token_goes_only_to_its_own_connection() -> None:
    with running_server() as (url, hall):
        frames = record_frames(hall)
        maker = connected(url)
        created = new_table(maker, [{"kind": "person", "name": "Ann"}, {"kind": "open"}], seed=5, sit=0)
        ben, eye = Player(url, created["code"]), Player(url, created["code"])
        eye.watch()
        ben.join("Ben")
        ben.wait_until(lambda s: s["phase"] == "playing")
        eye.wait_until(lambda s: s["phase"] == "playing")
        for who in (ben, eye):
            who.close()
        maker.close()
    tokens = {
        json.loads(f.text).get("token"): f.to for f in frames if json.loads(f.text)["type"] in ("joined", "created")
    }
    host = next(json.loads(f.text)["host"] for f in frames if json.loads(f.text)["type"] == "created")
    tokens[host] = next(f.to for f in frames if json.loads(f.text)["type"] == "created")
    tokens.pop(None, None)
    assert len(tokens) == 3
    for token, owner in tokens.items():
        assert all(f.to == owner for f in frames if token in f.text)


def test_the_checks_find_a_planted_leak() -> None:
    """The checks themselves: frames made to leak, one way each, are each caught."""
    frames, _ = play_watched([{"kind": "open"}, {"kind": "bot", "level": "easy"}], "", 24_681_357)
    seated = next(
        f
        for f in frames
        if f.seat == 0 and f.match and f.match.game.turns and not f.match.game.is_over and '"type":"state"' in f.text
    )
    watching = next(f for f in frames if f.seat is None and f.match and '"type":"state"' in f.text)
    assert seated.match is not None
    game = seated.match.game
    message = json.loads(seated.text)
    state = message["state"]

    def planted(frame: Frame, **changes: Any) -> list[str]:
        told = json.loads(frame.text)
        told["state"] = {**told["state"], **changes}
        leaks = Leaks()
        leaks.check(Frame(frame.to, frame.seat, frame.at_table, json.dumps(told), frame.match))
        return leaks.found

    assert not planted(seated)
    assert planted(seated, rack=format_tiles(game.racks[1]))
    assert planted(seated, hint=format_tiles(sorted(game.racks[1])))
    assert planted(seated, bags=[])
    assert planted(seated, note=format_tiles(game.bags[0][-4:]))
    assert planted(seated, note=str(seated.match.seed))
    assert planted(seated, record="{}")
    assert planted(seated, you=1)
    end_racks = {**state["match"], "game": {**state["match"]["game"], "end_racks": ["5S"]}}
    assert planted(seated, match=end_racks)
    sent = state["match"]["game"]["turns"]
    exchange = {**sent[0], "player": 1, "move": "exchange 5S"}
    turns = {**state["match"], "game": {**state["match"]["game"], "turns": [exchange, *sent[1:]]}}
    assert planted(seated, match=turns) == ["seat 1's exchanged tiles: 'exchange 5S'"]
    assert planted(watching, rack="")


def test_the_worth_check_finds_a_planted_leak() -> None:
    """The check of issue 43 itself: a worth sent while the play may still be called, a key saying how a
    declaration stands, and a worth kept back once the window has closed are each caught."""
    frames, _ = play_watched([{"kind": "open"}, {"kind": "bot", "level": "easy"}], "joker=on", 24_681_357)

    def window(frame: Frame) -> bool | None:
        """Whether the call window of the frame's table was open (None: no play to call on, no state)."""
        game = frame.match.game if frame.match is not None else None
        if game is None or '"type":"state"' not in frame.text or not game.turns or not game.turns[-1].is_play:
            return None
        return call_window_open(game.options, game.turns, game.calls, game.is_over)

    during = next(f for f in frames if f.seat == 0 and window(f) is True)
    watched = next(f for f in frames if f.seat is None and window(f) is True)
    after = next(f for f in frames if f.seat == 0 and window(f) is False)

    def planted(frame: Frame, last: dict[str, Any] | None = None, **keys: Any) -> list[str]:
        told = json.loads(frame.text)
        game = told["state"]["match"]["game"]
        if last is not None:
            game["turns"][-1] = {**game["turns"][-1], **last}
        game.update(keys)
        leaks = Leaks()
        leaks.check(Frame(frame.to, frame.seat, frame.at_table, json.dumps(told), frame.match))
        return leaks.found

    assert not planted(during) and not planted(watched) and not planted(after)
    for frame in (during, watched):
        assert frame.match is not None
        worth = frame.match.game.turns[-1].true_points
        assert planted(frame, {"worth": worth}) == [f"the worth of a play that may still be called: {worth}"]
        assert planted(frame, unclaimed=0) == ["how a declaration stands: the keys ['unclaimed']"]
    assert planted(after, overclaimed=0) == ["how a declaration stands: the keys ['overclaimed']"]
    assert after.match is not None
    n, worth = len(after.match.game.turns), after.match.game.turns[-1].true_points
    assert planted(after, {"worth": None}) == [f"turn {n}'s worth sent as None, not {worth}"]
