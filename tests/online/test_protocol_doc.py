"""docs/protocol.md and the code name the same messages: every message either side sends or accepts
is described there with its fields, and every message the code writes is one of them, with fields it
has (issue 31)."""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import cribtiles
from cribtiles.online.protocol import MESSAGES, ProtocolError, read, write
from cribtiles.server.cribbage_room import CribbageGame
from cribtiles.server.rooms import Place, Room, Settings
from cribtiles.server.tiles_room import TilesGame

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
        elif line.startswith("## "):
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


def state_fields() -> dict[str, set[str]]:
    """The fields "The state" lists: those of every table ("every"), then those each game adds."""
    section = DOC.read_text(encoding="utf-8").split("## The state", 1)[1]
    every, rest = section.split("Once the game has started, the tile game adds:", 1)
    tiles, cribbage = rest.split("And cribbage adds:", 1)
    parts = {"every": every, "tiles": tiles, "cribbage": cribbage}
    return {k: set(re.findall(r"^- `(\w+)`", part, re.MULTILINE)) for k, part in parts.items()}


def keys_in(function: Callable[..., object]) -> set[str]:
    """The keys a `shown` writes: its dict literal's and each `told[...] =`."""
    source = inspect.getsource(function)
    return set(re.findall(r'^\s*"(\w+)":', source, re.MULTILINE)) | set(re.findall(r'told\["(\w+)"\] =', source))


@pytest.mark.parametrize("game", ["tiles", "cribbage"])
def test_the_state_sent_is_described(game: str) -> None:
    places = [Place("person", "Ann", token_hash="a"), Place("person", "Ben", token_hash="b")]
    room, _ = Room.new("ABCDEF", game, places, Settings(rules="joker=on" if game == "tiles" else ""), 3, 0.0)
    fields = state_fields()
    listed = fields["every"] | fields[game]
    for seat in (0, None):
        assert set(room.shown(seat, 1.0)) <= listed, set(room.shown(seat, 1.0)) - listed
    # and every field the page gives the game is one its table writes (some only at times: a call, the end)
    writes = keys_in(TilesGame.shown if game == "tiles" else CribbageGame.shown)
    assert writes == fields[game], writes ^ fields[game]


def test_what_the_cribbage_client_reads_of_a_state_is_described() -> None:
    fields = state_fields()
    source = (ROOT / "online" / "cribbage_remote.py").read_text(encoding="utf-8")
    read_ = set(re.findall(r'state(?:\.get\(|\[)"(\w+)"', source)) | set(re.findall(r'"(\w+)" in state', source))
    assert {"public", "view", "may_call", "after_answer", "record"} <= read_  # the reading is found
    assert read_ <= fields["every"] | fields["cribbage"], read_ - fields["every"] - fields["cribbage"]


@pytest.mark.parametrize("game", ["tiles", "cribbage"])
def test_the_status_of_a_table_is_described(game: str) -> None:
    places = [Place("person", "Ann", token_hash="a"), Place("person", "Ben", token_hash="b")]
    room, _ = Room.new("ABCDEF", game, places, Settings(), 3, 0.0)
    text = DOC.read_text(encoding="utf-8").split("### `table` — server", 1)[1].split("###", 1)[0]
    listed = set(re.findall(r"`(\w+)`", text))
    assert set(room.summary(1.0)) <= listed, set(room.summary(1.0)) - listed


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        ('{"v": 2, "type": "ping"}', "version 1"),
        ('{"v": 1, "type": "launch"}', "unknown message type"),
        ('{"v": 1, "type": "join", "code": "ABCDEF"}', "needs 'name'"),
        ('{"v": 1, "type": "act", "code": "A", "ply": "3", "move": "pass"}', "whole number"),
        ('{"v": 1, "type": "act", "code": "A", "ply": true, "move": "pass"}', "whole number"),
        ('{"v": 1, "type": "ping", "extra": 1}', "no field"),
        ('{"v": 1, "type": "welcome", "server": "x", "version": 1}', "unknown message type"),
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
    assert read(frame, "client") == {"v": 1, "type": "act", "id": 4, "code": "ABCDEF", "ply": 12, "move": "h8=4L"}
    assert read(write("created", code="X", host="h", seat=None), "server")["seat"] is None
