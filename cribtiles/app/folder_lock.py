"""The lock file that claims a data folder for one running game (`cribtiles.lock`), and the proof, before
each save, that the folder is still this game's own: the lock file at its name is the very file locked.

A lock file that is deleted or replaced under a running game lets a second game take a new one; the
first then finds its file gone and stops saving, so it never writes over the second game's moves.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path
from typing import Protocol

from .confined import open_regular


class InUse(Exception):
    """Another running game holds the lock."""


class FolderLock(Protocol):
    def acquire(self) -> None: ...

    def release(self) -> None: ...

    def still_ours(self) -> str:
        """ "" while the lock file at its name is the one this lock holds, else why not, in words."""
        ...


def folder_lock(path: Path) -> FolderLock:
    """A lock on `path`: `flock` on a file opened without following a link where the system has it
    (Linux, macOS), the `filelock` package elsewhere (Windows)."""
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return _PortableLock(path)
    return _PosixLock(path)


class _PosixLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._held: tuple[int, int] = (0, 0)  # the locked file's device and inode

    def acquire(self) -> None:
        """Take the lock, or raise `InUse`; `NotOurs` when the lock file is a link, a folder, a FIFO …
        (OSError when it cannot be made: a read-only folder)."""
        import fcntl

        try:
            fd = open_regular(self.path, os.O_RDWR | os.O_CREAT)
        except PermissionError:  # a lock file we may only read still locks
            fd = open_regular(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise InUse() from None
            raise
        st = os.fstat(fd)
        self._fd, self._held = fd, (st.st_dev, st.st_ino)

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the only descriptor lets the lock go
            self._fd = None

    def still_ours(self) -> str:
        if self._fd is None:
            return "the folder is not locked"
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            return f"its lock file {self.path.name} was deleted, so another game may use the folder"
        except OSError as e:
            return f"its lock file {self.path.name} cannot be checked ({e.strerror or e})"
        if (st.st_dev, st.st_ino) != self._held:
            return f"its lock file {self.path.name} was replaced, so another game may use the folder"
        return ""


class _PortableLock:
    def __init__(self, path: Path) -> None:
        import filelock

        self.path = path
        self._lock = filelock.FileLock(str(path), timeout=0)

    def acquire(self) -> None:
        import filelock

        if os.path.lexists(self.path):  # `NotOurs` in words for a link or what is not a regular file
            os.close(open_regular(self.path, os.O_RDONLY))
        try:
            self._lock.acquire()
        except filelock.Timeout:  # before OSError: Timeout is a TimeoutError
            raise InUse() from None

    def release(self) -> None:
        with contextlib.suppress(OSError):
            self._lock.release()

    def still_ours(self) -> str:
        return "" if self._lock.is_locked else "the folder is not locked"
