"""Writes the history could not make just now (a full disk, `ulimit -f`, a read-only file, a lock held past
the timeout, the history a link out of the data folder), kept to be made later: one small JSON file per
game, `history.pending-<kind>-<digest>.json` beside the history, written atomically (a temporary file
renamed over it), never through a symbolic link. `History` keeps them in memory too (for when even these
cannot be written) and stores them, then deletes their files, at its next write or read.

A kept write is the rows it makes, in the history's own form, so that it is checked by kind when read
back, exactly as a row of the database is (a file may have been edited by hand or cut short).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .files import aside_names, move_to_free_name, why

log = logging.getLogger("cribtiles.history")

PREFIX = "history.pending-"
FINISHED = "finished"  # a finished game of either game, in the rows of schema 5 (`history_rows`)
#: What a kept write may be: a finished game, a solved puzzle, and the games kept before schema 5 (a tile
#: game's or cribbage's rows as they were then), which are read still.
KINDS = (FINISHED, "puzzle", "game", "cribbage")
CAP = 16 * 1024 * 1024  # bytes: far more than a game's rows (a long match's record is a few KB)

Row = tuple[object, ...]


@dataclass(frozen=True)
class Pending:
    """A write kept for later: what it is (`kind`), the key it is known by, its row and its child rows."""

    kind: str
    key: str
    row: Row
    children: tuple[Row, ...] = ()

    @property
    def name(self) -> str:
        """Its file's name: one per game (by its key), so that keeping it twice keeps one file."""
        return f"{PREFIX}{self.kind}-{hashlib.sha256(self.key.encode()).hexdigest()[:32]}.json"

    def to_json(self) -> str:
        data = {"kind": self.kind, "key": self.key, "row": list(self.row), "children": [list(c) for c in self.children]}
        return json.dumps(data)

    @staticmethod
    def from_json(text: str) -> Pending:
        """ValueError in words when it is not a kept write."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise ValueError("it is nested too deeply to be a kept write") from None
        if not isinstance(data, dict) or data.get("kind") not in KINDS or not isinstance(data.get("key"), str):
            raise ValueError("it is not a game kept for the history")
        row, children = data.get("row"), data.get("children")
        if (
            not isinstance(row, list)
            or not isinstance(children, list)
            or not all(isinstance(c, list) for c in children)
        ):
            raise ValueError("its rows are not lists")
        return Pending(data["kind"], data["key"], tuple(row), tuple(tuple(c) for c in children))


def keep(folder: Path, pending: Pending) -> Path:
    """Write `pending` to its file in `folder`, atomically; raises OSError."""
    path = folder / pending.name
    tmp = folder / f".{pending.name}.{os.getpid()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(tmp, flags, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(pending.to_json())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # over a link named so, never through it
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return path


def kept(folder: Path) -> list[tuple[Path, Pending]]:
    """The writes kept in `folder`, oldest file first; a file that is not one (edited by hand, cut short) is
    set aside under a name of its own and logged; a link or anything but a plain file is left alone."""
    try:
        paths = sorted(folder.glob(f"{PREFIX}*.json"), key=_age)
    except OSError:
        return []
    out = []
    for path in paths:
        if ".damaged-" in path.name:
            continue
        try:
            out.append((path, Pending.from_json(_read(path))))
        except OSError as e:
            log.warning("the kept write %s could not be read (%s)", path.name, why(e))
        except ValueError as e:  # not JSON, not UTF-8, not a kept write
            reject(path, why(e))
    return out


def forget(path: Path) -> None:
    """Delete a kept write once it is in the history (a file gone already is fine)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as e:  # stored already: storing it again changes nothing (by its key)
        log.warning("the kept write %s could not be deleted (%s)", path.name, why(e))


def _read(path: Path) -> str:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))  # a link or a FIFO: never
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise OSError(0, "it is not a file")
        data = f.read(CAP + 1)
    if len(data) > CAP:
        raise ValueError("it is far too large")
    return data.decode("utf-8")


def _age(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def reject(path: Path, reason: str) -> None:
    """Set aside a file that is not a kept write, under a name of its own (logged)."""
    try:
        kept_as = move_to_free_name(path, aside_names(path))
    except OSError as e:
        log.warning("the kept write %s is not one (%s) and could not be set aside (%s)", path.name, reason, why(e))
        return
    log.warning("the kept write %s is not one (%s); it was set aside as %s", path.name, reason, kept_as.name)
