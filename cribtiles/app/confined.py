"""Files kept inside the data folder: nothing is written through a symbolic link (or a linked folder)
that could lead out of it, and nothing waits on an entry that is not a regular file (a FIFO, a device).

The data folder itself may be a link (the player chose it); only the entries inside it are checked.
A refusal is a `NotOurs`, an OSError whose words say what the entry is and that nothing goes through it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO opened without it waits for a reader, for good
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
BINARY = getattr(os, "O_BINARY", 0)


class NotOurs(OSError):
    """An entry of the data folder the game does not write through: a link, or not a regular file."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(errno.ELOOP if what == LINK else errno.EINVAL, f"{path.name} is {what}{_WHY.get(what, '')}")
        self.path = path
        self.what = what


LINK = "a symbolic link"
_WHY = {LINK: ", and nothing is written through a link in the data folder"}


def kind(mode: int) -> str:
    """What a file of `mode` is, in words ("a FIFO")."""
    if stat.S_ISLNK(mode):
        return LINK
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse(path: Path, mode: int, want: int = stat.S_IFREG) -> None:
    if stat.S_IFMT(mode) != want:
        raise NotOurs(path, kind(mode) if not (want == stat.S_IFDIR and stat.S_ISREG(mode)) else "not a folder")


def check_entry(path: Path) -> None:
    """Raise `NotOurs` when `path` is there and is a link or not a regular file (never follows a link)."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    _refuse(path, mode)


def inner_folder(folder: Path, name: str) -> Path:
    """The folder `name` inside `folder` (made when missing): a real folder, never a link (`NotOurs`)."""
    path = folder / name
    with contextlib.suppress(FileExistsError):
        os.mkdir(path)
    _refuse(path, os.lstat(path).st_mode, stat.S_IFDIR)
    return path


def open_regular(path: Path, flags: int, mode: int = 0o644) -> int:
    """`os.open` for a file in the data folder that never follows a link at `path`, never waits on a FIFO
    and gives only a regular file: its descriptor, or `NotOurs` (or the OSError of the system)."""
    try:
        fd = os.open(path, flags | NOFOLLOW | NONBLOCK | CLOEXEC | BINARY, mode)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.EMLINK, errno.ENXIO, errno.EISDIR, errno.ENODEV):
            try:
                there = os.lstat(path).st_mode
            except OSError:
                raise e from None
            _refuse(path, there)  # say what it is, in words
        raise
    try:
        _refuse(path, os.fstat(fd).st_mode)
        if NONBLOCK:  # a regular file: back to plain blocking writes
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def create_new(path: Path) -> int:
    """A new regular file at `path`, opened for writing: never an existing file or link (`FileExistsError`)."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC | BINARY, 0o644)
