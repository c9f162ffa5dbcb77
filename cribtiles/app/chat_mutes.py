"""The players whose chat this window hides, table by table, kept in the data folder as `chat_mutes.json`
(written atomically, read with a cap; a damaged file is set aside and the window starts with no one
muted). Muting is the window's choice alone: the server and the others never hear of it (issue 44)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from .files import why
from .storage import Unreadable, _set_aside, atomic_write, parse_json, read_capped

FILE = "chat_mutes.json"
CAP = 256 * 1024  # bytes: a mute is about 60
MOST = 2000  # mutes kept: the oldest go first
log = logging.getLogger("cribtiles.chat_mutes")

Where = tuple[str, str]


class ChatMutes:
    """Who is muted at which table (its server and code)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE
        self.note = ""  # what went wrong with the file, in words
        self._muted: list[tuple[str, str, str]] = self._load()  # (server, code, name), oldest first

    def _load(self) -> list[tuple[str, str, str]]:
        try:
            text = read_capped(self.path, CAP)
            if text is None:
                return []
            data = parse_json(text)
            entries = data.get("muted") if isinstance(data, dict) else None
            if not isinstance(entries, list):
                raise Unreadable("it is not a list of mutes")
            muted = []
            for entry in entries:
                fields = tuple(entry.get(k) if isinstance(entry, dict) else None for k in ("server", "code", "name"))
                if not all(isinstance(f, str) and f for f in fields):
                    raise Unreadable("a mute has a server, a code and a name")
                muted.append((str(fields[0]), str(fields[1]), str(fields[2])))
            return muted
        except Unreadable as e:
            aside = _set_aside(self.path)
            self.note = f"The players you muted could not be read ({e}); {aside.words()}."
            log.warning("%s", self.note)
            return []

    def muted(self, where: Where) -> frozenset[str]:
        return frozenset(name for server, code, name in self._muted if (server, code) == where)

    def set_muted(self, where: Where, name: str, muted: bool) -> None:
        entry = (*where, name)
        kept = [m for m in self._muted if m != entry]
        self._muted = [*kept, entry][-MOST:] if muted else kept
        self._write()

    def _write(self) -> None:
        entries = [{"server": s, "code": c, "name": n} for s, c, n in self._muted]
        try:
            atomic_write(self.path, json.dumps({"version": 1, "muted": entries}, indent=1))
        except OSError as e:
            self.note = f"The players you muted could not be saved ({why(e)}); they stay muted until you quit."
            log.warning("%s", self.note)
        else:
            self.note = ""
