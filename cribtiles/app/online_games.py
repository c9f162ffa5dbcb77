"""The seats this player holds at online tables, kept in the data folder as `online_games.json` (written
atomically, read with a cap; a damaged file is set aside, never a crash). The seat tokens in it are
secrets: they are written only there, never printed or logged (issue 31)."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
from pathlib import Path
from typing import Any

from cribtiles.ui.online.services import HeldSeat, OnlineServices

from .files import why
from .storage import Unreadable, _set_aside, atomic_write, parse_json, read_capped

FILE = "online_games.json"
SERVER_FOLDER = "server"  # where a server hosted by this computer keeps its tables
CAP = 1024 * 1024  # bytes: a seat is about 200, and nobody sits at 5,000 tables
MOST = 200  # seats kept: the oldest go first
log = logging.getLogger("cribtiles.online_games")


def _held(entry: object) -> HeldSeat:
    """One seat as written; ValueError when it is not one."""
    if not isinstance(entry, dict):
        raise ValueError("a seat is an object")
    text = {k: entry.get(k) for k in ("server", "code", "name", "game", "token", "host_token")}
    if not all(isinstance(v, str) for v in text.values()) or not isinstance(entry.get("seat"), int):
        raise ValueError("a seat has a server, a code, a seat number, a name, a game and a token")
    held = HeldSeat(
        str(text["server"]),
        str(text["code"]),
        int(entry["seat"]),
        str(text["name"]),
        str(text["game"]),
        str(text["token"]),
        str(text["host_token"]),
    )
    if not (held.server and held.code and held.token):
        raise ValueError("a seat without its server, code or token")
    return held


def _entry(held: HeldSeat) -> dict[str, Any]:
    return {
        "server": held.server,
        "code": held.code,
        "seat": held.seat,
        "name": held.name,
        "game": held.game,
        "token": held.token,
        "host_token": held.host_token,
    }


class OnlineGames:
    """The seats held, in the order they were taken (the newest last)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE
        self.note = ""  # what went wrong with the file, in words
        self._seats = self._load()

    def _load(self) -> list[HeldSeat]:
        try:
            text = read_capped(self.path, CAP)
            if text is None:
                return []
            data = parse_json(text)
            if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
                raise Unreadable("it is not a list of seats")
            return [_held(e) for e in data["seats"]]
        except (Unreadable, ValueError) as e:
            aside = _set_aside(self.path)
            self.note = f"Your list of online games could not be read ({e}); {aside.words()}."
            log.warning("%s", self.note)
            return []

    def seats(self) -> list[HeldSeat]:
        return list(self._seats)

    def add(self, held: HeldSeat) -> None:
        """Keep `held` (in place of a seat kept before at the same table)."""
        kept = [s for s in self._seats if s.key != held.key]
        self._seats = [*kept[-(MOST - 1) :], held]
        self._write()

    def remove(self, server: str, code: str) -> None:
        self._seats = [s for s in self._seats if s.key != (server, code)]
        self._write()

    def _write(self) -> None:
        text = json.dumps({"version": 1, "seats": [_entry(s) for s in self._seats]}, indent=1)
        try:
            atomic_write(self.path, text)
            with contextlib.suppress(OSError):  # the tokens are this player's alone (where modes exist)
                os.chmod(self.path, 0o600)
        except OSError as e:
            self.note = f"Your list of online games could not be saved ({why(e)})."
            log.warning("%s", self.note)
        else:
            self.note = ""


def online_services(folder: Path) -> OnlineServices:
    """What the window's Online screens use: the seats kept in `folder`, a server hosted from its
    `server` folder, a look-out for servers on the local network, and whose chat is muted."""
    from cribtiles.online.lan import Browser

    from .chat_mutes import ChatMutes
    from .handoff import take_handed
    from .hosting import HostedServer

    return OnlineServices(
        OnlineGames(folder),
        HostedServer(folder / SERVER_FOLDER),
        Browser,
        mutes=ChatMutes(folder),
        handed=functools.partial(take_handed, folder),
    )


HOSTED_FILE = "hosted_tables.json"  # the host tokens of the tables made with `cribtiles online new`
HOSTED_MOST = 200  # tables kept: the oldest go first


class HostTokens:
    """The host tokens of tables made from the command line (`cribtiles online new`), kept in the data folder
    as `hosted_tables.json` so that `online seat-bot` finds them (the window keeps those of the tables it
    makes with their seats, in `online_games.json`). Secrets: written only there, never printed again."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / HOSTED_FILE
        self.note = ""  # what went wrong with the file, in words

    def tables(self) -> list[tuple[str, str, str]]:
        """(server, code, host token) of each table kept, the oldest first."""
        try:
            text = read_capped(self.path, CAP)
            data = parse_json(text) if text is not None else {"tables": []}
            rows = data.get("tables") if isinstance(data, dict) else None
            if not isinstance(rows, list):
                raise Unreadable("it is not a list of tables")
            return [_hosted(row) for row in rows]
        except (Unreadable, ValueError) as e:
            aside = _set_aside(self.path)
            self.note = f"The host tokens of your tables could not be read ({e}); {aside.words()}."
            log.warning("%s", self.note)
            return []

    def add(self, server: str, code: str, token: str) -> None:
        kept = [t for t in self.tables() if t[:2] != (server, code)][-(HOSTED_MOST - 1) :]
        rows = [{"server": s, "code": c, "host_token": h} for s, c, h in [*kept, (server, code, token)]]
        atomic_write(self.path, json.dumps({"version": 1, "tables": rows}, indent=1))
        with contextlib.suppress(OSError):  # the tokens are this player's alone (where modes exist)
            os.chmod(self.path, 0o600)


def _hosted(row: object) -> tuple[str, str, str]:
    if not isinstance(row, dict) or not all(isinstance(row.get(k), str) for k in ("server", "code", "host_token")):
        raise ValueError("a table has a server, a code and a host token")
    return str(row["server"]), str(row["code"]), str(row["host_token"])


def host_token(folder: Path, server: str, code: str) -> str | None:
    """The host token kept in `folder` for the table `code` at `server`: one the window made (with your
    seat there), or one `online new` made; None when neither is kept."""
    held = next((s for s in OnlineGames(folder).seats() if s.key == (server, code) and s.host_token), None)
    if held is not None:
        return held.host_token
    return next((h for s, c, h in reversed(HostTokens(folder).tables()) if (s, c) == (server, code)), None)
