"""The messages of online play: JSON objects in WebSocket text frames, each with the protocol's version
`v` and its `type`. `MESSAGES` names every message either side sends, with its fields and their kinds;
`docs/protocol.md` describes each (a test holds the two together). `read` checks a frame before anything
acts on it: a message of another version, an unknown type, a missing or mistyped field is refused in
words, never half-read (issue 31)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from cribtiles.table.chat import CHAT_LIMIT

#: The protocol's version. 2 (issue 43): a tile round's turns and Joker calls are objects with named
#: fields, a play's worth is held back while it may be called, and a tile seat is told its legal verbs.
VERSION = 2
#: The largest frame either side accepts (a whole match's state is a few tens of KB).
MAX_FRAME = 256 * 1024
#: The largest frame a client may send: its messages are small.
MAX_CLIENT_FRAME = 16 * 1024
MAX_CHAT = CHAT_LIMIT  # the longest chat line (the window's field holds no more)
GAMES = ("tiles", "cribbage")

Side = Literal["client", "server"]
Kind = type | tuple[type, ...]

_INT = int
_OPT_INT = (int, type(None))
_STR = str


@dataclass(frozen=True)
class Spec:
    """One message: who sends it, its required fields and their kinds, its optional ones."""

    sender: Side
    required: dict[str, Kind]
    optional: dict[str, Kind]


def _spec(sender: Side, required: dict[str, Kind] | None = None, optional: dict[str, Kind] | None = None) -> Spec:
    return Spec(sender, required or {}, {"id": int, **(optional or {})} if sender == "client" else optional or {})


#: Every message of the protocol. A client's request may carry an `id`; the server's answer to it carries
#: the same number as `re`.
MESSAGES: dict[str, Spec] = {
    # the client's
    "hello": _spec("client", {"client": str}),
    "create": _spec(
        "client",
        {"game": str, "seats": list},
        {
            "rules": str,
            "seed": int,
            "sit": int,
            "coach": bool,
            "turn_timer": _OPT_INT,
            "on_timeout": str,
            "absent_bot": _OPT_INT,
            "public": bool,
        },
    ),
    "join": _spec("client", {"code": str, "name": str}, {"seat": int}),
    "resume": _spec("client", {"code": str, "token": str}),
    "watch": _spec("client", {"code": str}),
    "leave": _spec("client", {"code": str}),
    "act": _spec("client", {"code": str, "ply": int, "move": str}, {"declared": int, "claimed": list}),
    "call": _spec("client", {"code": str, "ply": int}),
    "next_round": _spec("client", {"code": str, "ply": int}),
    "undo": _spec("client", {"code": str, "ply": int}),
    "undo_answer": _spec("client", {"code": str, "ply": int, "yes": bool}),
    "hint": _spec("client", {"code": str}),
    "chat": _spec("client", {"code": str, "text": str}),
    "status": _spec("client", {"code": str}),
    "seat_bot": _spec("client", {"code": str, "host": str, "seat": int, "level": str}),
    "open_tables": _spec("client", {}, {"game": str}),
    "resign": _spec("client", {"code": str}),
    "abort": _spec("client", {"code": str}, {"host": str}),
    "rematch": _spec("client", {"code": str}),
    "rematch_answer": _spec("client", {"code": str, "yes": bool}),
    "ping": _spec("client"),
    # the server's
    "welcome": _spec("server", {"server": str, "version": int}),
    "created": _spec("server", {"code": str, "host": str}, {"re": int, "seat": _OPT_INT, "token": str}),
    "joined": _spec("server", {"code": str, "seat": int, "token": str}, {"re": int}),
    "watching": _spec("server", {"code": str}, {"re": int}),
    "state": _spec("server", {"code": str, "state": dict}, {"re": int}),
    "table": _spec("server", {"code": str, "table": dict}, {"re": int}),
    "tables": _spec("server", {"tables": list}, {"re": int}),
    "ok": _spec("server", {}, {"re": int}),
    "refused": _spec("server", {"reason": str}, {"re": int}),
    "said": _spec("server", {"code": str, "seat": _OPT_INT, "name": str, "text": str, "at": float}),
    "rematched": _spec("server", {"code": str, "table": str, "seat": int, "token": str}),
    "pong": _spec("server", {}, {"re": int}),
    "bye": _spec("server", {"reason": str}),
}


class ProtocolError(ValueError):
    """A frame that is not a message of this protocol; its words say why, quoting nothing of it."""


class OtherVersion(ProtocolError):
    """A server that speaks another version of the protocol: its words say which, and what to update."""


def _kind_name(kind: Kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    words = {int: "a whole number", str: "text", bool: "true or false", list: "a list", dict: "an object"}
    return " or ".join(words.get(k, "null") for k in kinds)


def _fits(value: object, kind: Kind) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:  # JSON's true is not a number here
        return False
    # and 3.0 is not a whole number: JSON reads it as a float, which `int` does not take
    if isinstance(value, int) and float in kinds:
        return True
    return isinstance(value, kinds)


def is_whole(value: object) -> bool:
    """Whether `value` is a JSON whole number: not true or false, not 2.0 (Python's `True == 1 == 1.0`)."""
    return type(value) is int


def other_version(theirs: object, sender: Side) -> str:
    """The words that refuse a message of version `theirs` from `sender`: which version this side speaks,
    and what to do (a client told by its server, a person told by their Crib Tiles)."""
    if not is_whole(theirs):
        told = "no version" if theirs is None else f"the version {json.dumps(theirs)[:20]}"
        return f'a message carries "v": {VERSION}, the protocol\'s version as a whole number, not {told}'
    assert isinstance(theirs, int)
    if sender == "server":
        return mismatch(theirs)
    return (
        f"this server speaks version {VERSION} of the Crib Tiles protocol, not {theirs}: "
        f"update Crib Tiles (or your client) to one that speaks version {VERSION}"
    )


def mismatch(theirs: int) -> str:
    """What the project's client says of a server that speaks version `theirs` (not this one's)."""
    older = "the server's" if theirs < VERSION else "this one"
    return (
        f"this server speaks version {theirs} of the online protocol; this Crib Tiles speaks version "
        f"{VERSION}: update the older one ({older}) to the newest Crib Tiles"
    )


def check(message: dict[str, Any], sender: Side) -> str | None:
    """Why `message` is not one `sender` may send (None: it is)."""
    version = message.get("v")
    if not is_whole(version) or version != VERSION:
        return other_version(version, sender)
    kind = message.get("type")
    spec = MESSAGES.get(kind) if isinstance(kind, str) else None
    if spec is None or spec.sender != sender:
        return "an unknown message type"
    for name, field_kind in spec.required.items():
        if name not in message:
            return f"a {kind} message needs {name!r}"
        if not _fits(message[name], field_kind):
            return f"{kind}: {name!r} must be {_kind_name(field_kind)}"
    for name, value in message.items():
        if name in ("v", "type") or name in spec.required:
            continue
        if name not in spec.optional:
            return f"{kind}: there is no field {name[:20]!r}"
        if not _fits(value, spec.optional[name]):
            return f"{kind}: {name!r} must be {_kind_name(spec.optional[name])}"
    return None


def read(frame: str | bytes, sender: Side, limit: int = MAX_FRAME) -> dict[str, Any]:
    """The message in `frame`, sent by `sender`; ProtocolError in words when it is not one."""
    if isinstance(frame, bytes):
        raise ProtocolError("messages are JSON text, not binary frames")
    if len(frame) > limit:
        raise ProtocolError(f"a message of {len(frame):,} characters; at most {limit:,}")
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("a message that is not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message is a JSON object")
    problem = check(message, sender)
    if problem is not None:
        raise ProtocolError(problem)
    return message


def read_welcome(frame: str | bytes) -> dict[str, Any]:
    """The server's first message, a `welcome` of this version; OtherVersion in words when the server
    speaks another (read from its `version`, else its `v`), ProtocolError when it is no welcome at all."""
    try:
        message = read(frame, "server")
    except ProtocolError:
        told = _json_object(frame)
        theirs = told.get("version", told.get("v")) if told.get("type") == "welcome" else None
        if is_whole(theirs) and theirs != VERSION:
            assert isinstance(theirs, int)
            raise OtherVersion(mismatch(theirs)) from None
        raise
    if message["type"] != "welcome":
        raise ProtocolError("the server's first message is not its welcome")
    if message["version"] != VERSION:
        raise OtherVersion(mismatch(message["version"]))
    return message


def _json_object(frame: str | bytes) -> dict[str, Any]:
    """`frame` read as a JSON object ({} when it is none)."""
    try:
        told = json.loads(frame)
    except (ValueError, RecursionError):
        return {}
    return told if isinstance(told, dict) else {}


def write(kind: str, **fields: Any) -> str:
    """The frame of the message `kind` with `fields` (a None left out, unless the field may be null)."""
    spec = MESSAGES[kind]
    kinds = {**spec.required, **spec.optional}

    def kept(name: str, value: object) -> bool:
        return value is not None or _fits(None, kinds.get(name, str))

    message = {"v": VERSION, "type": kind, **{k: v for k, v in fields.items() if kept(k, v)}}
    return json.dumps(message, separators=(",", ":"))
