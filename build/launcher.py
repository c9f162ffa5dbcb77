"""The frozen program's entry point (PyInstaller starts here): the `cribtiles` command.

With CRIBTILES_EXIT_AT_FIRST_FRAME=1 in the environment the program prints `first frame` once the
window's first frame is drawn and exits at once, so that `benchmarks/ui/bench_frozen_start.py` can time
a frozen start from outside (the bootloader and the unpacking of Python included).
"""

from __future__ import annotations

import os
import sys

from cribtiles.app.main import main


def _exit_at_first_frame() -> None:
    from cribtiles.ui.window import App

    frame = App.frame

    def first(self: App, dt: float) -> None:
        frame(self, dt)
        print("first frame", flush=True)
        os._exit(0)  # no saves, no worker shutdown: only the time to the first frame matters

    App.frame = first  # type: ignore[method-assign]


if __name__ == "__main__":  # a bot's worker process also starts here; main() hands it over
    if os.environ.get("CRIBTILES_EXIT_AT_FIRST_FRAME") and "--multiprocessing-fork" not in sys.argv:
        _exit_at_first_frame()
    raise SystemExit(main())
