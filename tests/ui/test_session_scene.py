"""The game scene drives its game only through the `Session` interface: a session that reaches its
table through JSON messages only (as a remote one would) carries a whole game played with posted
events, and the scene never asks it for anything the interface does not offer (issue 30)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import JokerCall, PlayerView
from cribtiles.rules.moves import Move, parse_move, parse_rack
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.tiles import format_tiles
from cribtiles.table.again import EndsAtOneWindow
from cribtiles.table.saves import save_table
from cribtiles.table.seats import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.history import TurnRecord, history_of
from cribtiles.table.tiles.joker import Item
from cribtiles.table.tiles.public import PublicMatch, PublicState, match_from_json, match_json, player_view
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.seen import SeenScore, seen_in
from cribtiles.table.tiles.session import LocalSession, Session
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.tiles.autopilot import play_through
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.window import App

SECRET_KEYS = {"racks", "bags", "seed", "log", "table"}  # what no message may carry while the round is on


def leaks(reply: str, local: LocalSession) -> list[str]:
    """What `reply` tells of the game that this driver's seats may not see while the round is on: a
    rack of another seat, a bag's order, the seed, the record."""
    state = local.table.state
    if state.is_over:
        return []
    found = [f"the key {k!r}" for k in SECRET_KEYS if f'"{k}"' in reply]
    for seat, rack in enumerate(state.racks):
        if seat not in local.mine and len(rack) > 1:
            found += [
                f"seat {seat}'s rack" for text in (format_tiles(rack), format_tiles(sorted(rack))) if text in reply
            ]
    found += ["a bag's order" for bag in state.bags if len(bag) > 1 and format_tiles(bag[-3:]) in reply]
    told = json.loads(reply)
    if "match" in told and any(told["match"]["game"]["end_racks"]):
        found.append("the racks left")
    return found


class Server:
    """The far end: a LocalSession answering JSON messages, as a table behind a socket would. Every
    reply is checked for what the driver's seats may not see while the round is on."""

    def __init__(self, local: LocalSession) -> None:
        self.local = local
        self.messages: list[str] = []
        self.replies: list[str] = []

    def answer(self, text: str) -> str:
        self.messages.append(text)
        reply = self._answer(json.loads(text))
        assert not leaks(reply, self.local), (text, leaks(reply, self.local))
        self.replies.append(reply)
        return reply

    def _answer(self, ask: dict[str, Any]) -> str:
        local, what = self.local, ask["what"]
        try:
            if what == "table":
                return json.dumps(
                    {
                        "seats": [[s.name, s.level] for s in local.seats],
                        "mine": list(local.mine),
                        "hints": local.hints,
                        "match": match_json(local.match),
                        "to_move": local.to_move,
                    }
                )
            if what == "view":
                return json.dumps({"rack": format_tiles(local.view(ask["seat"]).rack)})
            if what == "record":
                return json.dumps({"record": save_table(local.record())})
            if what == "again":
                self.local = local.again(tuple(Seat(n, level) for n, level in ask["seats"]), ask["seed"])
                return json.dumps({})
            if what == "act":
                record = local.act(ask["seat"], parse_move(ask["move"]), ask["declared"])
                return json.dumps({"turn": record.number})
            if what == "poll":
                move = local.poll()
                return json.dumps({"move": None if move is None else str(move), "thinking": local.thinking})
            if what == "land":
                return json.dumps({"turn": local.land().number})
            if what == "call":
                local.call_joker(ask["seat"])
                return json.dumps({})
            if what in ("may_call", "can_undo"):
                return json.dumps({"yes": getattr(local, what)(ask["seat"])})
            if what == "undo_turns":
                return json.dumps({"turns": [r.number for r in local.undo_turns(ask["seat"])]})
            if what == "undo":
                return json.dumps({"turns": [r.number for r in local.undo(ask["seat"])]})
            if what in ("count_hint", "next_round", "save", "finish", "close"):
                getattr(local, what)()
                return json.dumps({})
            if what == "incidents":
                return json.dumps({"incidents": list(local.incidents())})
        except IllegalMove as e:
            return json.dumps({"refused": str(e)})
        raise AssertionError(f"a message the server does not know: {ask}")


class WireSession(EndsAtOneWindow):
    """A Session that holds no table: what it knows of the game came to it as JSON (the public match,
    the seats, its own seats' racks), and every act goes out as a message."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self._match: PublicMatch
        self._history: tuple[TurnRecord, ...] = ()
        self._seats: tuple[Seat, ...] = ()
        self._mine: tuple[int, ...] = ()
        self._hints = 0
        self._to_move: int | None = None
        self._thinking = False
        self._refresh()

    def resign(self, seat: int) -> None:
        raise IllegalMove("resigning is not carried over this wire")

    def _send(self, what: str, **fields: Any) -> dict[str, Any]:
        reply: dict[str, Any] = json.loads(self.server.answer(json.dumps({"what": what, **fields})))
        if "refused" in reply:
            raise IllegalMove(reply["refused"])
        return reply

    def _refresh(self) -> None:
        reply = self._send("table")
        self._match = match_from_json(reply["match"])
        self._seats = tuple(Seat(name, level) for name, level in reply["seats"])
        self._mine, self._hints, self._to_move = tuple(reply["mine"]), reply["hints"], reply["to_move"]
        self._history = history_of(self._match.game)

    # --- what came over the wire ---

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._seats

    @property
    def match(self) -> PublicMatch:
        return self._match

    @property
    def state(self) -> PublicState:
        return self._match.game

    @property
    def history(self) -> Sequence[TurnRecord]:
        return self._history

    @property
    def mine(self) -> tuple[int, ...]:
        return self._mine

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def hints(self) -> int:
        return self._hints

    @property
    def thinking(self) -> bool:
        return self._thinking

    coach_allowed = plays_again = True  # as at a table of this process: nobody away, no turn timer

    def about(self, seat: int) -> tuple[str, ...]:
        return ()

    chat_allowed = False  # nobody elsewhere to write to
    chat_lines = ()
    where = None  # not a table of a server: nobody elsewhere is told who is here
    spectator = False

    def say(self, text: str) -> None:
        raise IllegalMove("no chat over this wire")

    def here(self, present: bool) -> None:
        pass

    def time_left(self) -> float | None:
        return None

    def view(self, seat: int) -> PlayerView:
        rack = tuple(parse_rack(self._send("view", seat=seat)["rack"]))
        return player_view(self.state, seat, rack)

    def seen(self, record: TurnRecord) -> SeenScore | None:
        return seen_in(self.state, record)

    # --- questions and acts sent ---

    def may_call(self, seat: int) -> bool:
        return bool(self._send("may_call", seat=seat)["yes"])

    def can_undo(self, seat: int) -> bool:
        return bool(self._send("can_undo", seat=seat)["yes"])

    def undo_turns(self, seat: int) -> tuple[TurnRecord, ...]:
        return tuple(self._history[n] for n in self._send("undo_turns", seat=seat)["turns"])

    def act(self, seat: int, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> TurnRecord:
        number: int = self._send("act", seat=seat, move=str(move), declared=declared)["turn"]
        self._refresh()
        return self._history[number]

    def call_joker(self, seat: int) -> JokerCall:
        self._send("call", seat=seat)
        self._refresh()
        return self.state.calls[-1][1]

    def undo(self, seat: int) -> tuple[TurnRecord, ...]:
        taken = self.undo_turns(seat)
        self._send("undo", seat=seat)
        self._refresh()
        return taken

    pending_undo = None  # as at a table of this process: its people share the window, nobody is asked

    def undo_request(self, seat: int) -> tuple[TurnRecord, ...]:
        return self.undo(seat)

    def answer_undo(self, seat: int, yes: bool) -> None:
        raise IllegalMove("no one is asking to take back a move at this table")

    def count_hint(self) -> int:
        self._send("count_hint")
        self._refresh()
        return self._hints

    def poll(self) -> Move | None:
        reply = self._send("poll")
        self._thinking = reply["thinking"]
        return None if reply["move"] is None else parse_move(reply["move"])

    def land(self) -> TurnRecord:
        number: int = self._send("land")["turn"]
        self._thinking = False
        self._refresh()
        return self._history[number]

    def next_round(self) -> None:
        self._send("next_round")
        self._refresh()

    def save(self) -> None:
        self._send("save")

    def finish(self) -> None:
        self._send("finish")

    def incidents(self) -> tuple[str, ...]:
        return tuple(self._send("incidents")["incidents"])

    def record(self) -> Table:
        return load_table(self._send("record")["record"])

    def again(self, seats: Sequence[Seat], seed: int) -> WireSession:
        self._send("again", seats=[[s.name, s.level] for s in seats], seed=seed)
        return WireSession(self.server)

    def close(self) -> None:
        self._send("close")


@pytest.fixture
def app() -> Iterator[App]:
    a = App(Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), 5), Preferences(speed="instant"), NoKeeper())
    yield a
    a.close()


def test_the_wire_session_is_a_session() -> None:
    local = LocalSession(Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), 5))
    wire: Session = WireSession(Server(local))  # mypy holds it to the interface, too
    assert wire.state == local.state and wire.seats == local.seats and wire.mine == (0,)
    assert wire.view(0) == local.table.view(0)  # its own rack, the rest rebuilt from the public state
    with pytest.raises(IllegalMove, match="not played here"):
        wire.view(1)  # the bot's rack never crosses
    with pytest.raises(IllegalMove, match="still being played"):
        wire.record()
    assert not hasattr(wire, "table")  # nothing to reach past the interface


def test_the_leak_check_finds_a_rack_and_a_bag() -> None:
    """The check every reply passes would catch the far table telling too much."""
    local = LocalSession(Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), 5))
    state = local.table.state
    assert leaks(json.dumps({"rack": format_tiles(state.racks[1])}), local) == ["seat 1's rack"]
    assert leaks(json.dumps({"rack": format_tiles(state.racks[0])}), local) == []  # its own
    assert leaks(json.dumps({"table": save_table(local.table)}), local) == ["the key 'table'"]
    assert leaks(json.dumps({"tiles": format_tiles(state.bags[0])}), local) == ["a bag's order"]


def test_a_whole_game_through_json_messages(app: App) -> None:
    keeper = app.keeper
    assert isinstance(keeper, NoKeeper)
    table = Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), 11)
    server = Server(LocalSession(table, app.worker, keeper))
    app.take_seat(WireSession(server))
    assert isinstance(app.game, GameScene) and isinstance(app.game.session, WireSession)
    play_through(app, frames_per_step=1, max_seconds=120)
    state = app.game.state
    assert state.is_over and state.turns == table.state.turns  # the far table played every turn shown
    assert len(server.replies) > 100  # every one of them checked for another rack, a bag, the record
    assert len(state.turns) >= 10 and {t.player for t in state.turns} == {0, 1}  # both sides moved
    kinds = {json.loads(m)["what"] for m in server.messages}
    assert {"act", "poll", "land", "save", "table"} <= kinds  # every move went over the wire
    assert isinstance(app.scenes[-1], EndScene) and "finish" in kinds  # its end card, its history
    assert len(keeper.games) == 1 and keeper.games[0].key


def test_the_scene_and_its_controllers_never_import_the_table_model() -> None:
    """The table scene's modules know the game only as a Session (`cribtiles.table.tiles.session`)."""
    import ast
    from pathlib import Path

    import cribtiles.ui

    folder = Path(cribtiles.ui.__file__).parent
    modules = [*sorted((folder / "tiles").glob("game_*.py")), folder / "coach_state.py"]
    assert len(modules) >= 12
    for path in modules:
        package = ".".join(path.relative_to(folder.parent.parent).with_suffix("").parts[:-1])
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):  # a relative import named from the module's own package
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = node.module or ""
                imported.add(f"{base}.{name}".rstrip(".") if node.level else name)
        assert any(m.startswith("cribtiles.") for m in imported), path.name  # the names were resolved
        assert "cribtiles.table.tiles.table" not in imported, path.name
        assert "cribtiles.bot.worker" not in imported, path.name  # the bots think behind the session
