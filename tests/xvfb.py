"""A virtual X screen for the tests that drive real windows.

Xvfb picks its display number itself (`-displayfd`), taking the first whose lock file it can create, so
two test workers (pytest-xdist) or another X server on the machine never race for the same one.
"""

from __future__ import annotations

import os
import select
import subprocess

import pytest

#: Seconds Xvfb may take to name its display on a loaded machine.
PATIENCE = 30.0


def start_xvfb(width: int, height: int) -> tuple[subprocess.Popen[bytes], str]:
    """A running Xvfb of that size and its display's name (":N"); the caller ends the process."""
    read, write = os.pipe()
    try:
        xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as pipe:
        ready, _, _ = select.select([pipe], [], [], PATIENCE)
        number = pipe.readline().strip() if ready else b""  # an empty line: Xvfb exited first
    if not number.isdigit():
        xvfb.kill()
        xvfb.wait(10)
        said = "stayed silent" if not ready else f"exited with code {xvfb.returncode}"
        pytest.fail(f"Xvfb {said} before it named a display")
    return xvfb, f":{number.decode()}"
