"""docs/protocol.md and the code name the same messages and fields (issue 31), and the page describes,
with its kind, every field of every state and status sent over whole games of both games, to seats and
a spectator, before, during and after the game, and no field that is never sent (issue 43)."""

from __future__ import annotations

import ast
import inspect
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import cribtiles
from cribtiles.online.client import Link
from cribtiles.online.protocol import MESSAGES, VERSION, OtherVersion, ProtocolError, read, read_welcome, write
from cribtiles.server.cribbage_room import CribbageGame
from cribtiles.server.rooms import Room
from cribtiles.server.tiles_room import TilesGame
from tests.online.played import WAIT, played
from tests.server.running import running_server

ROOT = Path(cribtiles.__file__).parent
DOC = ROOT.parent / "docs" / "protocol.md"
HEADING = re.compile(r"^### `(\w+)` — (client|server)$")
FIELD = re.compile(r"^- `(\w+)` \(([^)]*)\)")


def described() -> dict[tuple[str, str], dict[str, bool]]:
    """(type, sender) -> {field: required} as the page describes them."""
    out: dict[tuple[str, str], dict[str, bool]] = {}
    current: dict[str, bool] | None = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        heading = HEADING.match(line)
        if heading:
            current = out.setdefault((heading[1], heading[2]), {})
        elif line.startswith("#"):
            current = None
        elif current is not None:
            field = FIELD.match(line)
            if field:
                current[field[1]] = "required" in field[2]
    return out


def test_every_message_is_described_with_its_fields() -> None:
    page = described()
    code = {
        (kind, spec.sender): {
            **{f: True for f in spec.required},
            **{f: False for f in spec.optional if f != "id"},
        }
        for kind, spec in MESSAGES.items()
    }
    assert page.keys() == code.keys(), page.keys() ^ code.keys()
    for key, fields in code.items():
        assert page[key] == fields, (key, page[key], fields)


def written() -> list[tuple[str, str, str, set[str]]]:
    """Every message the code writes: (file, function called, type, keyword fields)."""
    found = []
    for path in ROOT.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        speaks = "protocol import" in text  # a module that writes the protocol's messages
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if literal and (name in ("request", "send") or (name == "write" and speaks)):
                keywords = {k.arg for k in node.keywords if k.arg is not None}
                found.append((str(path.relative_to(ROOT)), name, str(first.value), keywords))
    return found


def test_every_message_the_code_writes_is_one_of_the_protocol() -> None:
    calls = [c for c in written() if c[0].startswith(("online", "server", "app", "ui"))]
    assert any(c[1] == "request" for c in calls) and any(c[1] == "write" for c in calls)
    for path, function, kind, fields in calls:
        if function == "send" and kind not in MESSAGES:
            continue  # another send (a socket's), not a message of the protocol
        assert kind in MESSAGES, (path, kind)
        spec = MESSAGES[kind]
        sender = "server" if path.startswith("server") else "client"
        if function == "write" and path.startswith("online/client"):
            sender = "client"
        assert spec.sender == sender, (path, kind)
        known = set(spec.required) | set(spec.optional) | {"id"}
        if function == "request":
            known.add("timeout")  # Link.request's own wait, not a field of the message
        assert fields <= known, (path, kind, fields - known)


# --- the fields of states and statuses ---

#: An object's heading: its title, then where it occurs in brackets (`state.match.game`, ...).
OBJECT = re.compile(r"^#{2,4} [^(]*\(((?:`[^`]+`(?:, )?)+)\)$")
BULLET = re.compile(r"^( *)- `(\w+)` \(([^)]*)\)")
#: The JSON kinds of a field's words ("whole number or null": an int or None).
KINDS: dict[str, set[type]] = {
    "whole number": {int},
    "number": {int, float},
    "text": {str},
    "true or false": {bool},
    "list": {list},
    "object": {dict},
    "null": {type(None)},
}


def kinds_of(words: str) -> set[type]:
    """The JSON kinds a field's kind in words allows: "list of objects or null" is a list or None."""
    allowed: set[type] = set()
    for alternative in words.replace("true or false", "true-or-false").split(" or "):
        said = alternative.replace("true-or-false", "true or false")
        kind = "list" if said.startswith("list") else said
        assert kind in KINDS, f"a kind the page's reading does not know: {words!r}"
        allowed |= KINDS[kind]
    return allowed


def documented() -> dict[str, set[type]]:
    """Every field the page lists for an object of a state or a status, as a path from the message's own
    field (`state.match.game.turns[].worth`), with the JSON kinds its words allow."""
    paths: dict[str, set[type]] = {}
    roots: list[str] = []
    above: list[tuple[int, str]] = []  # (indentation, path) of the bullets above the line
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            heading = OBJECT.match(line)
            roots = re.findall(r"`([^`]+)`", heading[1]) if heading else []
            above = []
            continue
        bullet = BULLET.match(line)
        if not roots or not bullet:
            continue
        indent, name, kind = len(bullet[1]), bullet[2], bullet[3]
        while above and above[-1][0] >= indent:
            above.pop()
        path = f"{above[-1][1] if above else ''}.{name}"
        above.append((indent, path + ("[]" if kind.startswith("list") else "")))
        for root in roots:
            paths.setdefault(root + path, set()).update(kinds_of(kind))
    return paths


def walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every field in `value` as (path, value): `[]` for a list's entries; a state's `record` (a save's
    JSON as text) read as the object it holds."""
    if isinstance(value, dict):
        for key, inner in value.items():
            field = f"{path}.{key}"
            yield field, inner
            if key == "record" and isinstance(inner, str):
                inner = json.loads(inner)
            yield from walk(inner, field)
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner, path + "[]")


#: The games whose messages are recorded: the tile game of 2 to 4 seats with the Joker rule (slips,
#: calls, a wrong call), a take-back, a match, Solitaire, bots of the server's; cribbage with muggins in
#: the show and in the play, between two people and against a bot, of three people, and of partners (a
#: bot among them), crib cards laid before their turn; a tile match and a game of cribbage resigned, the
#: match played again. Each is seeded: the same every run.
GAMES: list[tuple[str, list[dict[str, Any]], dict[str, Any]]] = [
    ("tiles", [{"kind": "open"}] * 2, {"seed": 11}),
    ("tiles", [{"kind": "open"}] * 3, {"rules": "joker=on", "seed": 12}),
    ("tiles", [{"kind": "open"}] * 3 + [{"kind": "bot", "level": "easy"}], {"rules": "joker=on", "seed": 13}),
    ("tiles", [{"kind": "open"}, {"kind": "bot", "level": "easy"}], {"rules": "joker=on,rounds=2", "seed": 14}),
    ("tiles", [{"kind": "open"}] * 2, {"rules": "mode=solitaire", "seed": 15}),
    ("cribbage", [{"kind": "open"}] * 2, {"rules": "muggins=on,play_muggins=on,target=61", "seed": 16}),
    ("cribbage", [{"kind": "open"}, {"kind": "bot", "level": "easy"}], {"rules": "muggins=on,target=61", "seed": 17}),
    ("tiles", [{"kind": "open"}] * 2, {"rules": "rounds=2", "seed": 18, "resign_after": 5, "again": True}),
    ("cribbage", [{"kind": "open"}, {"kind": "bot", "level": "easy"}], {"seed": 19, "resign_after": 9}),
    ("cribbage", [{"kind": "open"}] * 3, {"rules": "variant=three-player,muggins=on,target=61", "seed": 18}),
    (
        "cribbage",
        [{"kind": "open"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}, {"kind": "open"}],
        {"rules": "variant=partnership,play_muggins=on,target=61", "seed": 19},
    ),
]


@pytest.fixture(scope="module")
def heard() -> list[dict[str, Any]]:
    """Every message the connections at the recorded games were sent, and a list of open tables."""
    return [message for game, seats, settings in GAMES for message in played(game, seats, **settings)] + listed()


def listed() -> list[dict[str, Any]]:
    """The `tables` a server answers `open_tables` with, while a public table of each game waits (one of
    them with its creator seated, one with a seat the host gave to a bot)."""
    with running_server() as (url, _hall):
        link = Link(url)
        try:
            assert link.wait_connected(WAIT)
            ann = [{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}]
            made = link.request("create", WAIT, game="tiles", seats=ann, sit=0, public=True, rules="joker=on")
            link.request("seat_bot", WAIT, code=made["code"], host=made["host"], seat=2, level="easy")
            link.request("create", WAIT, game="cribbage", seats=[{"kind": "open"}] * 2, public=True)
            link.request("create", WAIT, game="tiles", seats=[{"kind": "open"}] * 2)  # not public: not listed
            answer = link.request("open_tables", WAIT)
        finally:
            link.close()
    assert [(t["game"], t["open"]) for t in answer["tables"]] == [("cribbage", 2), ("tiles", 1)]
    return [answer]


def sent(heard: list[dict[str, Any]]) -> dict[str, set[type]]:
    """Every field of the states and statuses in `heard`, with the JSON kinds of its values."""
    fields: dict[str, set[type]] = {}
    for message in heard:
        if message["type"] in ("state", "table", "tables"):
            root = message["type"]
            for path, value in walk(message[root], root):
                fields.setdefault(path, set()).add(type(value))
    return fields


def test_the_recorded_games_meet_every_kind_of_state(heard: list[dict[str, Any]]) -> None:
    """So that a field sent only at times (a call, a take-back, the end, a spectator's) is met."""
    states = [m["state"] for m in heard if m["type"] == "state"]
    assert {s["phase"] for s in states} == {"waiting", "playing", "over"}
    assert {s["game"] for s in states} == {"tiles", "cribbage"}
    assert any(s["you"] is None and s["phase"] != "waiting" for s in states)  # a spectator's
    assert any((s.get("undo") or {}).get("ended") == "made" for s in states)
    assert any(s.get("claimed") for s in states) and any(s.get("after_answer") for s in states)
    assert any(s.get("may_call") for s in states if s["game"] == "tiles")
    assert any(s["public"]["claim"] for s in states if "public" in s)
    assert any(s["match"]["finished"] for s in states if "match" in s)
    assert {m["table"]["phase"] for m in heard if m["type"] == "table"} == {"waiting", "over"}
    assert {s["game"] for s in states if s["resigned"] is not None} == {"tiles", "cribbage"}
    assert any((s["rematch"] or {}).get("ended") == "made" for s in states)
    assert any((s["rematch"] or {}).get("waiting") for s in states)
    assert any(m["type"] == "rematched" for m in heard)
    assert {len(s["seats"]) for s in states if s["game"] == "cribbage"} == {2, 3, 4}
    assert any(laid_early(s) for s in states), "no person laid their crib cards before the game came to them"


def laid_early(state: dict[str, Any]) -> bool:
    """A cribbage seat's state in the discard whose own crib cards are laid while a seat the game asks
    before it has not laid its own (issue 44)."""
    view = state.get("view")
    if view is None or view["phase"] != "discard" or not view["discards"]:
        return False
    seats, dealer = len(view["names"]), view["dealer"]
    asked_before = [(dealer + k) % seats for k in range(1, 1 + (view["player"] - dealer - 1) % seats)]
    return any(not view["discarded_by"][p] for p in asked_before)


def test_every_field_sent_is_described_with_its_kind(heard: list[dict[str, Any]]) -> None:
    page = documented()
    fields = sent(heard)
    missing = sorted(set(fields) - set(page))
    assert not missing, f"sent but not described in docs/protocol.md: {missing}"
    wrong = {p: sorted(t.__name__ for t in kinds - page[p]) for p, kinds in fields.items() if kinds - page[p]}
    assert not wrong, f"sent with a kind the page does not give it: {wrong}"


def test_every_field_described_is_sent(heard: list[dict[str, Any]]) -> None:
    never = sorted(set(documented()) - set(sent(heard)))
    assert not never, f"described in docs/protocol.md but never sent: {never}"


def test_the_page_is_read_as_it_is_written() -> None:
    """The reading of the page itself, on fields whose paths and kinds are known."""
    page = documented()
    assert page["state.seats[].away"] == {int, type(None)}
    assert page["table.seats[].away"] == {int, type(None)}
    assert page["state.match.finished[].turns[].worth"] == {int, type(None)}
    assert page["state.match.game.outcome.went_out"] == {int, type(None)}
    assert page["state.public.story[].events[].points"] == {int, type(None)}  # null: said, not yet answered
    assert page["state.record.match.rounds[].actions"] == {list}
    assert page["state.record.record.options.joker"] == {str}
    assert page["state.record.record.options.muggins"] == {bool}
    assert page["state.public.counted[].called"] == {bool, type(None)}
    assert page["state.deadline"] == {int, float, type(None)}
    assert "state.match.game.unclaimed" not in page and "state.match.game.start_draws[]" not in page


def keys_in(function: Callable[..., object]) -> set[str]:
    """The keys a `shown` writes: its dict literal's and each `told[...] =`."""
    source = inspect.getsource(function)
    return set(re.findall(r'^\s*"(\w+)":', source, re.MULTILINE)) | set(re.findall(r'told\["(\w+)"\] =', source))


def test_every_field_a_table_writes_in_a_state_is_described() -> None:
    """Those written only at rare times too (the recorded games may not meet them all)."""
    listed = {p.split(".")[1] for p in documented() if p.startswith("state.") and p.count(".") == 1}
    writes = keys_in(Room.shown) | keys_in(TilesGame.shown) | keys_in(CribbageGame.shown)
    assert writes == listed, writes ^ listed


def test_what_the_cribbage_client_reads_of_a_state_is_described() -> None:
    listed = {p.split(".")[1] for p in documented() if p.startswith("state.") and p.count(".") == 1}
    clients = ("cribbage_remote.py", "cribbage_seat.py")  # the session and the seat bot
    source = "".join((ROOT / "online" / name).read_text(encoding="utf-8") for name in clients)
    read_ = set(re.findall(r'(?:state|data)(?:\.get\(|\[)"(\w+)"', source))
    read_ |= set(re.findall(r'"(\w+)" in state', source))
    assert {"public", "view", "may_call", "after_answer", "record"} <= read_  # the reading is found
    assert read_ <= listed, read_ - listed


# --- frames ---


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        ('{"v": 1, "type": "ping"}', "this server speaks version 2 of the Crib Tiles protocol, not 1: update"),
        ('{"v": 3, "type": "ping"}', "speaks version 2 of the Crib Tiles protocol, not 3"),
        ('{"v": true, "type": "ping"}', 'carries "v": 2, .* not the version true'),
        ('{"v": 2.0, "type": "ping"}', "not the version 2.0"),
        ('{"v": "2", "type": "ping"}', 'not the version "2"'),
        ('{"type": "ping"}', "not no version"),
        ('{"v": 2, "type": "launch"}', "unknown message type"),
        ('{"v": 2, "type": "join", "code": "ABCDEF"}', "needs 'name'"),
        ('{"v": 2, "type": "act", "code": "A", "ply": "3", "move": "pass"}', "whole number"),
        ('{"v": 2, "type": "act", "code": "A", "ply": true, "move": "pass"}', "whole number"),
        ('{"v": 2, "type": "act", "code": "A", "ply": 3.0, "move": "pass"}', "whole number"),
        ('{"v": 2, "type": "create", "game": "tiles", "seats": [], "seed": 5.0}', "'seed' must be a whole number"),
        ('{"v": 2, "type": "undo_answer", "code": "A", "ply": 3, "yes": 1}', "true or false"),
        ('{"v": 2, "type": "ping", "extra": 1}', "no field"),
        ('{"v": 2, "type": "welcome", "server": "x", "version": 2}', "unknown message type"),
        ("[1, 2]", "JSON object"),
        ("{", "not JSON"),
        ("[" * 100_000 + "]" * 100_000, "characters"),
    ],
)
def test_a_frame_that_is_not_a_message_is_refused_in_words(frame: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        read(frame, "client", limit=16_384)


def test_a_message_written_is_read_back() -> None:
    frame = write("act", id=4, code="ABCDEF", ply=12, move="h8=4L", declared=None)
    assert read(frame, "client") == {"v": 2, "type": "act", "id": 4, "code": "ABCDEF", "ply": 12, "move": "h8=4L"}
    assert read(write("created", code="X", host="h", seat=None), "server")["seat"] is None


def test_a_welcome_of_another_version_is_told_as_such() -> None:
    assert VERSION == 2
    ours = write("welcome", server="Crib Tiles", version=VERSION)
    assert read_welcome(ours)["version"] == 2
    older = '{"v": 1, "type": "welcome", "server": "Crib Tiles", "version": 1}'
    with pytest.raises(OtherVersion, match=r"^this server speaks version 1 of the online protocol; this Crib Tiles"):
        read_welcome(older)
    with pytest.raises(OtherVersion, match=r"version 3 .* update the older one \(this one\)"):
        read_welcome('{"v": 3, "type": "welcome", "version": 3}')
    with pytest.raises(ProtocolError, match="not its welcome") as caught:
        read_welcome(write("pong"))
    assert not isinstance(caught.value, OtherVersion)
