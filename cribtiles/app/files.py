"""Helpers for the files the game keeps: short, plain reasons for what went wrong, and damaged files
moved out of the way under a name of their own (`game.damaged-20261130-120000.json`), never over another.

Shared by the store of saves and settings (`storage`) and the history database (`history`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import time
from dataclasses import dataclass
from pathlib import Path

from cribtiles.terminal import cut_quotes
from cribtiles.terminal import for_terminal as for_terminal  # here too, for the app's modules

QUOTE = 60  # characters: the most of anything from a file that a message quotes
DETAIL = 120  # characters: the most of an error's own words that a message carries
MAX_ASIDE = 1000  # damaged copies of one file kept side by side
MAX_SHOWN = 80  # characters: the most of a path that a message shows


# --- a file named on the command line ---


def folder_named(text: str) -> Path:
    """`--data-dir`'s folder, for argparse: an empty name is refused in words, since it would quietly
    mean the current folder.

    >>> folder_named("games")
    PosixPath('games')
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("give a folder's name: an empty one would mean the current folder")
    return Path(text)


def shown_path(path: Path) -> str:
    r"""A path as a message writes it: control characters as their escapes, cut short in the middle
    when long (a name typed or pasted on the command line may be anything).

    >>> shown_path(Path("games/crib.json")), shown_path(Path("a\x1b[2J")), len(shown_path(Path("x" * 5000)))
    ('games/crib.json', 'a\\x1b[2J', 79)
    """
    text = for_terminal(str(path))
    if len(text) <= MAX_SHOWN:
        return text
    half = MAX_SHOWN // 2 - 1
    return f"{text[:half]}…{text[-half:]}"


def _size_words(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


def read_named_file(path: Path, cap: int, name: str, what: str) -> str:
    """The text of a file the player named (a board, a game record), at most `cap` bytes; ValueError in
    words that name it (`name`, as it may be shown) and say what it should have been (`what`)."""
    try:
        with path.open("rb") as f:
            data = f.read(cap + 1)
    except FileNotFoundError:
        raise ValueError(f"there is no file {name}") from None
    except IsADirectoryError:
        raise ValueError(f"{name} is a folder, not {what}") from None
    except PermissionError:
        raise ValueError(f"{name} cannot be read: permission denied") from None
    except OSError as e:
        raise ValueError(f"{name} cannot be read: {e.strerror or e}") from None
    if len(data) > cap:
        raise ValueError(f"{name} is larger than {_size_words(cap)}: far too large to be {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{name} is not a text file, so it is not {what}") from None


# --- short, plain reasons ---


def brief(text: str) -> str:
    """`text` short enough for a message: each quoted part cut to QUOTE characters, the whole to DETAIL."""
    text = cut_quotes(text, QUOTE)
    return text if len(text) <= DETAIL else f"{text[: DETAIL - 1]}…"


def why(e: BaseException) -> str:
    """What went wrong, in the system's words ("Permission denied"), never a traceback."""
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return brief(str(e)) or type(e).__name__


# --- damaged files ---


@dataclass(frozen=True)
class SetAside:
    """Where a damaged file went: `kept` is its new path, or None when it could not be moved (`reason`)."""

    original: Path
    kept: Path | None
    reason: str = ""

    def words(self) -> str:
        """The second half of a message: "it was kept as …" or what happened instead."""
        if self.kept is not None:
            return f"it was kept as {self.kept.name}"
        return f"it could not be set aside ({self.reason}), so it was left where it is"


def aside_names(path: Path) -> list[Path]:
    """The names a damaged `path` may take, the first free one wins: `NAME.damaged-STAMP.EXT`, then `-2` …"""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    first = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    return [first] + [path.with_name(f"{path.stem}.damaged-{stamp}-{n}{path.suffix}") for n in range(2, MAX_ASIDE)]


def move_to_free_name(path: Path, names: list[Path]) -> Path:
    """Move `path` to the first of `names` that is free (never over another file); raises OSError."""
    for name in names:
        try:
            os.link(path, name)  # fails if `name` is taken: no race, nothing overwritten
        except FileExistsError:
            continue
        except OSError as e:
            if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
                raise
            if os.path.lexists(name):  # no hard links here (a folder, FAT): rename to a free name
                continue
            os.replace(path, name)
            return name
        try:
            os.unlink(path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise
        return name
    raise OSError(errno.EEXIST, f"{len(names)} damaged copies are there already")
