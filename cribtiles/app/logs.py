"""The log: one file, `cribtiles.log`, in the data folder (or standard error when it cannot be written).

What went wrong and what the game did about it (a bot worker replaced, a save that failed, a damaged
file set aside) is written here as well as told to the player, so a bug report can carry it.

The log is never written through a symbolic link, never waits on a FIFO, and a log that cannot be
written (a full disk, a rotation target that is a folder) costs at most one line on standard error:
the game goes on, and no "--- Logging error ---" block reaches the terminal.
"""

from __future__ import annotations

import contextlib
import io
import logging
import logging.handlers
import os
import sys
from pathlib import Path

from cribtiles.terminal import for_terminal

from .confined import open_regular

LOG_FILE = "cribtiles.log"
MAX_BYTES = 256 * 1024  # one old file is kept beside it: the log never grows past half a megabyte
FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"

log = logging.getLogger("cribtiles")


class _ConfinedLog(logging.handlers.RotatingFileHandler):
    """The rotating log file, opened without following a link or waiting on a FIFO; its failures are
    said once, in one line on standard error, and then kept quiet."""

    said = False

    def _open(self) -> io.TextIOWrapper:
        fd = open_regular(Path(self.baseFilename), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        return open(fd, "a", encoding=self.encoding, errors=self.errors)

    def doRollover(self) -> None:
        """Keep the full log as `cribtiles.log.1`: a rename, which replaces a link or a file there (never
        writes through it); when that cannot be (a folder there) the old lines are dropped instead."""
        if self.stream:
            self.stream.close()
            self.stream = None
        try:
            os.replace(self.baseFilename, self.baseFilename + ".1")
        except OSError as e:
            self._say(e)
            with open(open_regular(Path(self.baseFilename), os.O_WRONLY | os.O_TRUNC), "w"):
                pass  # start the log afresh, so that it never grows past its size
        self.stream = self._open()

    def handleError(self, record: logging.LogRecord) -> None:
        self._say(sys.exc_info()[1])

    def _say(self, e: BaseException | None) -> None:
        if self.said:
            return
        self.said = True
        reason = (e.strerror if isinstance(e, OSError) else None) or type(e).__name__
        with contextlib.suppress(OSError, ValueError):  # no terminal either: nothing more to do
            print(f"cribtiles: the log {self.baseFilename} could not be written ({reason})", file=sys.stderr)


class _QuietStream(logging.StreamHandler):  # type: ignore[type-arg]
    """Standard error, for when the log file cannot be used; a closed or full terminal stops nobody."""

    def handleError(self, record: logging.LogRecord) -> None:
        pass


class _Plain(logging.Formatter):
    """A line for the terminal: `cribtiles: what happened`, no traceback, no control character."""

    def format(self, record: logging.LogRecord) -> str:
        return for_terminal(f"cribtiles: {record.getMessage()}")


class _TerminalFormatter(logging.Formatter):
    """The log's lines as they may reach a terminal (on standard error, or a log file read with `cat`):
    a folder's or a file's name in them may hold an escape or a bell, written as its escape here."""

    def format(self, record: logging.LogRecord) -> str:
        return for_terminal(super().format(record))


def setup_logging(folder: Path) -> Path | None:
    """Send the `cribtiles` loggers to the folder's log file; the file's path, or None when it cannot
    be written there (then warnings and errors go to standard error, the first saying why)."""
    for h in list(log.handlers):
        log.removeHandler(h)
        h.close()
    log.setLevel(logging.INFO)
    log.propagate = False
    path: Path | None = Path(folder) / LOG_FILE
    assert path is not None
    why = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = _ConfinedLog(path, maxBytes=MAX_BYTES, backupCount=1, encoding="utf-8")
    except (OSError, ValueError) as e:
        why = (e.strerror if isinstance(e, OSError) else None) or str(e)
        handler = _QuietStream(sys.stderr)
        handler.setLevel(logging.WARNING)
        path = None
    handler.setFormatter(_Plain() if path is None else _TerminalFormatter(FORMAT))
    log.addHandler(handler)
    if why and os.path.lexists(Path(folder) / LOG_FILE):  # a log file that is there but not usable: say so
        log.warning("%s; the log goes to standard error", why)
    log.info("Crib Tiles started (pid %d): %s", os.getpid(), " ".join(sys.argv[1:]) or "no arguments")
    return path
