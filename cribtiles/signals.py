"""Signals in one place for every mode: Ctrl-C held off while a game is saved on the way out, and
handlers for a while (SIGTERM, SIGHUP...) put back afterwards. Only the main thread may change them:
elsewhere these do nothing. Standard library only, below every other layer."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

Handler = Callable[[int, FrameType | None], object]


@contextlib.contextmanager
def handling(names: tuple[str, ...], handler: Handler) -> Iterator[None]:
    """Run the body with `handler` for the signals called `names` (those this system has)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for name in names:
        sig = getattr(signal, name, None)
        if sig is not None:
            previous[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C for a moment: a second one must not break off a save or a clean-up."""
    with handling(("SIGINT",), signal.SIG_IGN):  # type: ignore[arg-type]
        yield
