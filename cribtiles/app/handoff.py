"""A table handed to the game that is already open: an invitation clicked (or `cribtiles online play`
run) while a window holds the data folder is not refused but passed to that window, which opens the table
there. The second program writes `open_table.json` into the data folder (atomically, never through a
link) and waits a few seconds for the open window to take it; the window looks for it twice a second,
reads it with a cap, deletes it and checks every field as it would a typed address, code and name.

A window that never takes it (an older version, or one stuck) leaves the file: the second program then
removes it and says the game is already open, as before.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

from cribtiles.names import name_problem

from .files import why
from .storage import Unreadable, atomic_write, parse_json, read_capped

FILE = "open_table.json"
CAP = 4096  # bytes: an address, a code and a name
WAIT = 5.0  # seconds the second program waits for the open window to take the table
LOOK = 0.1  # seconds between its looks
_SERVER = re.compile(r"wss?://[^\s\x00-\x1f\x7f]{1,300}")
_CODE = re.compile(r"[A-Z]{6}")
log = logging.getLogger("cribtiles.handoff")

#: A table to open: (server address, code, the name to sit under or None).
Handed = tuple[str, str, str | None]


def hand_over(folder: Path, table: Handed, wait: float = WAIT, sleep: Callable[[float], None] = time.sleep) -> bool:
    """Give `table` to the game holding `folder`; True once that game took it within `wait` seconds.
    False (and nothing left behind) when it could not be written or was not taken."""
    server, code, name = table
    path = folder / FILE
    try:
        atomic_write(path, json.dumps({"version": 1, "server": server, "code": code, "name": name}))
    except OSError as e:
        log.warning("could not hand the table %s to the open game: %s", code, why(e))
        return False
    for _ in range(round(wait / LOOK)):
        sleep(LOOK)
        if not path.exists():
            return True
    with contextlib.suppress(OSError):  # not taken: never left for a later window to open by surprise
        os.unlink(path)
    return False


def take_handed(folder: Path) -> tuple[Handed | None, str]:
    """The table handed to this game, if any, and what was wrong with the file, in words ("" when
    nothing). The file is deleted whatever it held: a damaged one is never read twice."""
    path = folder / FILE
    try:
        text = read_capped(path, CAP, follow_links=False)
    except Unreadable as e:
        _remove(path)
        return None, f"A table handed to this window could not be read ({e})."
    if text is None:
        return None, ""
    _remove(path)
    try:
        return _table(parse_json(text)), ""
    except (Unreadable, ValueError) as e:
        return None, f"A table handed to this window was not opened: {e}."


def _table(data: object) -> Handed:
    """The table a hand-over file names; ValueError in words when it names none."""
    if not isinstance(data, dict):
        raise ValueError("it is not a table's address and code")
    server, code, name = data.get("server"), data.get("code"), data.get("name")
    if not isinstance(server, str) or _SERVER.fullmatch(server) is None:
        raise ValueError("its server address is not one")
    letters = re.sub(r"[ \-]", "", code).upper() if isinstance(code, str) and len(code) <= 20 else ""
    if _CODE.fullmatch(letters) is None:
        raise ValueError("its table code is not six letters")
    if name is not None and (not isinstance(name, str) or name_problem(name) is not None):
        raise ValueError("its player's name is not one")
    return server, letters, name


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
