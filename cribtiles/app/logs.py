"""The log: one file, `cribtiles.log`, in the data folder (or standard error when it cannot be written).

What went wrong and what the game did about it (a bot worker replaced, a save that failed, a damaged
file set aside) is written here as well as told to the player, so a bug report can carry it.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path

from cribtiles.terminal import for_terminal

LOG_FILE = "cribtiles.log"
MAX_BYTES = 256 * 1024  # one old file is kept beside it: the log never grows past half a megabyte
FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"

log = logging.getLogger("cribtiles")


class _TerminalFormatter(logging.Formatter):
    """The log's lines as they may reach a terminal (on standard error, or a log file read with `cat`):
    a folder's or a file's name in them may hold an escape or a bell, written as its escape here."""

    def format(self, record: logging.LogRecord) -> str:
        return for_terminal(super().format(record))


def setup_logging(folder: Path) -> Path | None:
    """Send the `cribtiles` loggers to the folder's log file; the file's path, or None when it cannot
    be written there (then warnings and errors go to standard error)."""
    for h in list(log.handlers):
        log.removeHandler(h)
        h.close()
    log.setLevel(logging.INFO)
    log.propagate = False
    path = Path(folder) / LOG_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=1, encoding="utf-8", delay=False
        )
    except (OSError, ValueError):
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.WARNING)
        path = None  # type: ignore[assignment]
    handler.setFormatter(_TerminalFormatter(FORMAT))
    log.addHandler(handler)
    log.info("Crib Tiles started (pid %d): %s", os.getpid(), " ".join(sys.argv[1:]) or "no arguments")
    return path
