"""The cribbage scene drives its game only through its session: a session that reaches a
`CribbageSession` through JSON messages only (as a remote one would) carries several deals, to the end
card, played with posted events; no reply tells a card of the bot's hand before it is shown or laid, a
card it laid in the crib before the crib is counted, the deck's order or the seed (issue 30)."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cribtiles.ui
from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.moves import CribbageError, Discard, Move, parse_move
from cribtiles.cribbage.muggins import Claim
from cribtiles.cribbage.options import CribbageOptions, Phase
from cribtiles.cribbage.view import CribbageView
from cribtiles.rules.errors import IllegalMove
from cribtiles.table import Seat
from cribtiles.table.again import EndsAtOneWindow
from cribtiles.table.cribbage.public import (
    CribbagePublic,
    PublicMove,
    public_from_json,
    public_json,
    told_data,
    told_from_data,
    view_from_json,
    view_json,
)
from cribtiles.table.cribbage.session import CribbageDriver, CribbageSession, InlineThinker
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.cribbage.pilot import CribbagePilot
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.window import App
from tests.card_words import names

SECRET_KEYS = ("seed", "stock", "log", "record", "hands", "deck")  # what no reply may name


def secrets(table: CribbageTable) -> set[Card]:
    """The cards the person may not know now: the bot's hand until it is shown (counted, or said aloud)
    or laid, and the two it laid in the crib until the crib is counted (or turned up for you to count).
    A card seen face up before (the cut for deal, the last show still in sight) is not looked for: its
    name may be told again."""
    state = table.state
    bot = table.bot
    public = {c for _, c in state.played} | {c for counted in table.counted for c in counted.cards}
    if state.claim is not None:
        public |= set(state.claim.cards)
    if state.phase is Phase.SHOW and state.claim is None and table.to_move == table.person:
        public |= set(state.show_cards(state.show_step)[0])  # your crib, turned up for you to count
    if state.starter is not None:
        public.add(state.starter)
    public |= {c for cut in state.cut_for_deal for c in cut}  # cut for the deal at the start, face up
    public |= {counted.score.starter for counted in table.counted}
    return {*state.hands[bot], *state.shown[bot], *state.discards[bot]} - public


def leaks(reply: str, table: CribbageTable) -> list[str]:
    """What `reply` tells that the person may not see now: a hidden card, a secret key, the deck's order."""
    found = [f"the key {k!r}" for k in SECRET_KEYS if f'"{k}":' in reply]
    found += [f"the card {c}" for c in sorted(secrets(table)) if names(reply, c)]
    stock = table.state.stock
    if len(stock) > 2 and json.dumps([str(c) for c in stock[:3]])[1:-1] in reply:
        found.append("the deck's order")
    return found


class Server:
    """The far end: a CribbageSession answering JSON messages; every reply checked for leaks."""

    def __init__(self, local: CribbageSession) -> None:
        self.local = local
        self.messages: list[str] = []
        self.replies: list[str] = []

    def answer(self, text: str) -> str:
        self.messages.append(text)
        reply = self._answer(json.loads(text))
        found = leaks(reply, self.local.table)
        assert not found, (text, found, json.loads(reply))
        self.replies.append(reply)
        return reply

    def _answer(self, ask: dict[str, Any]) -> str:
        local, what = self.local, ask["what"]
        try:
            if what == "public":
                return json.dumps({"public": public_json(local.public()), "mine": list(local.mine)})
            if what == "view":
                return json.dumps({"view": view_json(local.view(ask["seat"]))})
            if what == "why_not":
                return json.dumps({"why": local.why_not(ask["seat"], parse_move(ask["move"]))})
            if what == "call_open":
                claim = local.call_open(ask["seat"])
                return json.dumps({"open": claim is not None})
            if what == "after":
                return json.dumps({"moves": [str(m) for m in local.legal_after_answer(ask["seat"])]})
            if what == "act":
                return json.dumps({"told": told_data(local.act(ask["seat"], parse_move(ask["move"])))})
            if what == "poll":  # whether the bot's move is ready, none of its cards: they are its own until laid
                return json.dumps({"coming": local.poll() is not None, "thinking": local.thinking})
            if what == "land":
                return json.dumps({"told": told_data(local.land())})
            if what == "pending":
                return json.dumps({"told": [told_data(m) for m in local.take_pending()]})
            if what == "changed":
                return json.dumps({"changed": local.changed()})
            if what in ("save", "finish", "close"):
                getattr(local, what)()
                return json.dumps({})
            if what == "incidents":
                return json.dumps({"incidents": list(local.incidents())})
        except CribbageError as e:
            return json.dumps({"refused": str(e)})
        except IllegalMove as e:
            return json.dumps({"illegal": str(e)})
        raise AssertionError(f"a message the server does not know: {ask}")


class WireSession(EndsAtOneWindow):
    """A cribbage session that holds no table: what it knows came to it as JSON."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self._thinking = False
        self._public: CribbagePublic
        self._mine: tuple[int, ...] = ()
        self.public()

    def resign(self, seat: int) -> None:
        raise IllegalMove("resigning is not carried over this wire")

    def _send(self, what: str, **fields: Any) -> dict[str, Any]:
        reply: dict[str, Any] = json.loads(self.server.answer(json.dumps({"what": what, **fields})))
        if "refused" in reply:
            raise CribbageError(reply["refused"])
        if "illegal" in reply:
            raise IllegalMove(reply["illegal"])
        return reply

    @property
    def mine(self) -> tuple[int, ...]:
        return self._mine

    @property
    def to_move(self) -> int | None:
        return self._public.to_move

    @property
    def is_over(self) -> bool:
        return self._public.is_over

    @property
    def thinking(self) -> bool:
        return self._thinking

    def public(self) -> CribbagePublic:
        reply = self._send("public")
        self._public, self._mine = public_from_json(reply["public"]), tuple(reply["mine"])
        return self._public

    def view(self, seat: int) -> CribbageView:
        return view_from_json(self._send("view", seat=seat)["view"])

    def why_not(self, seat: int, move: Move) -> str:
        return str(self._send("why_not", seat=seat, move=str(move))["why"])

    def call_open(self, seat: int) -> Claim | None:
        """The claim is in the public value; whether `seat` may call on it is the far end's to say."""
        return self._public.claim if self._send("call_open", seat=seat)["open"] else None

    def legal_after_answer(self, seat: int) -> tuple[Move, ...]:
        return tuple(parse_move(m) for m in self._send("after", seat=seat)["moves"])

    def act(self, seat: int, action: Move) -> PublicMove:
        return told_from_data(self._send("act", seat=seat, move=str(action))["told"])

    def can_undo(self, seat: int) -> bool:
        return False

    def undo(self, seat: int) -> tuple[Move, ...]:
        raise IllegalMove("no taking back over this wire")

    @property
    def undos(self) -> int:
        return 0

    @property
    def pending_undo(self) -> None:
        return None

    def answer_undo(self, seat: int, yes: bool) -> None:
        raise IllegalMove("no taking back over this wire")

    def poll(self) -> Move | None:
        """The far end says only that the bot's move is ready, none of its cards (they are the bot's until
        laid): announced as a discard of no cards, as a far table announces another's crib cards (the
        scene lands what comes, never reading the announcement)."""
        reply = self._send("poll")
        self._thinking = reply["thinking"]
        return Discard(()) if reply["coming"] else None

    def land(self) -> PublicMove:
        self._thinking = False
        return told_from_data(self._send("land")["told"])

    def take_pending(self) -> list[PublicMove]:
        return [told_from_data(m) for m in self._send("pending")["told"]]

    def changed(self) -> bool:
        return bool(self._send("changed")["changed"])

    def save(self) -> None:
        self._send("save")

    def finish(self) -> None:
        self._send("finish")

    @property
    def coach_allowed(self) -> bool:
        return False  # no review offered over this wire: the end card shows New game and Title

    def finished_table(self) -> None:
        return None

    def incidents(self) -> tuple[str, ...]:
        return tuple(self._send("incidents")["incidents"])

    def about(self, seat: int) -> tuple[str, ...]:
        return ()

    @property
    def chat_allowed(self) -> bool:
        return False

    def say(self, text: str) -> None:
        raise IllegalMove("no chat over this wire")

    @property
    def chat_lines(self) -> tuple[()]:
        return ()

    @property
    def where(self) -> None:
        return None  # not a table of a server: nobody elsewhere is told who is here

    def here(self, present: bool) -> None:
        pass

    @property
    def spectator(self) -> bool:
        return False

    def close(self) -> None:
        self._send("close")


@pytest.fixture
def app() -> Iterator[App]:
    tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(tiles, Preferences(speed="instant"), NoKeeper())
    yield a
    a.close()


def test_the_wire_session_is_a_cribbage_driver() -> None:
    local = CribbageSession(CribbageTable.new(3, "easy"))
    wire: CribbageDriver = WireSession(Server(local))  # mypy holds it to the interface, too
    assert wire.public() == local.public() and wire.mine == (0,)
    assert wire.view(0) == local.view(0)  # its own hand, the unseen cards worked out at this end
    with pytest.raises(IllegalMove, match="not played here"):
        wire.view(1)  # the bot's hand never crosses
    assert not hasattr(wire, "table")


def test_the_leak_check_catches_each_leak() -> None:
    """The check every reply passes would catch the far end telling a hidden card, a key or the deck."""
    local = CribbageSession(CribbageTable.new(3, "easy"), InlineThinker())
    table = local.table
    bot_card = table.state.hands[1][0]
    assert leaks(json.dumps({"hand": [str(bot_card)]}), table) == [f"the card {bot_card}"]
    assert leaks(json.dumps({"words": f"it holds {bot_card}."}), table) == [f"the card {bot_card}"]
    assert leaks(json.dumps({"hand": [str(c) for c in table.state.hands[0]]}), table) == []  # your own
    assert leaks(json.dumps({"seed": 3}), table) == ["the key 'seed'"]
    assert leaks(json.dumps({"cards": [str(c) for c in table.state.stock]}), table)[-1] == "the deck's order"
    local.act(0, local.view(0).legal[0])
    while local.poll() is None:
        pass
    local.land()  # the bot's two are in the crib now
    laid = table.state.discards[1]
    assert len(laid) == 2 and leaks(json.dumps({"crib": [str(laid[0])]}), table) == [f"the card {laid[0]}"]
    assert leaks(public_json(local.public()), table) == [] and leaks(view_json(local.view(0)), table) == []


def test_several_deals_to_the_end_card_through_json_messages(app: App) -> None:
    table = CribbageTable.new(41, "medium", CribbageOptions(muggins=True, play_muggins=True))
    server = Server(CribbageSession(table, InlineThinker(), app.keeper))
    scene = CribbageScene(app, WireSession(server))
    app.push(scene)
    pilot = CribbagePilot(scene, "medium", seed=41)
    for _ in range(60000):
        if scene.ended:
            break
        pilot.step()
        app.frame(1 / 60)
        app.frame(1 / 60)
    assert scene.ended and table.is_over and table.state.deal_number >= 4 and pilot.steps > 40
    assert scene.snapshot().end == table.summary() and scene.pub.scores == table.state.scores
    kinds = {json.loads(m)["what"] for m in server.messages}
    assert {"public", "view", "act", "poll", "land", "pending", "changed", "save", "finish"} <= kinds
    assert len(server.replies) > 200  # every one checked for the bot's hand, its crib cards, the deck
    assert scene.session.incidents() == ()


def test_the_scene_never_imports_the_table_model() -> None:
    """The cribbage scene's modules know the game only through its session (relative imports resolved)."""
    folder = Path(cribtiles.ui.__file__).parent
    modules = [folder / "cribbage" / name for name in ("scene.py", "paint.py", "pilot.py", "layout.py", "cards.py")]
    for path in modules:
        package = ".".join(path.relative_to(folder.parent.parent).with_suffix("").parts[:-1])
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = node.module or ""
                full = f"{base}.{name}".rstrip(".") if node.level else name
                imported |= {full, *(f"{full}.{alias.name}" for alias in node.names)}
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        assert any(m.startswith("cribtiles.") for m in imported), path.name
        assert "cribtiles.table.cribbage.table" not in imported, path.name
