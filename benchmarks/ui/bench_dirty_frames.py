"""What a frame costs on both tables, idle and while dragging: `python benchmarks/ui/bench_dirty_frames.py`.

Each table at 1280 x 800, headless (SDL's dummy driver): `--frames` frames with nothing happening (the
frame path sends nothing), then as many with a tile (a card) held and moved a few pixels a frame. A
frame is one `App.frame` (events, update, draw, what is sent to the screen). Prints the median and the
95th percentile in milliseconds, and the pixels a dragging frame sends (the window is 1,024,000).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

if TYPE_CHECKING:
    from cribtiles.ui.window import App


def timed(frame: Callable[[int], None], n: int) -> list[float]:
    out = []
    for i in range(n):
        start = time.perf_counter()
        frame(i)
        out.append((time.perf_counter() - start) * 1000)
    return out


FIGURES: dict[str, dict[str, object]] = {}  # by table, by kind of frame: what the JSON line reports


def show(table: str, name: str, ms: list[float], sent: list[int] | None = None) -> None:
    figures: dict[str, object] = dict(harness.summary(ms))
    pixels = f", {statistics.median(sent):,.0f} pixels sent a frame (median)" if sent else ""
    print(f"  {name:<9} median {figures['median']:6.2f} ms, p95 {figures['p95']:6.2f} ms{pixels}")
    if sent:
        figures["pixels_sent_median"] = statistics.median(sent)
    FIGURES.setdefault(table, {})[name] = figures


def counting_updates() -> list[int]:
    """Wraps pygame.display.update and flip to count the pixels each frame sends (rects may overlap:
    each pixel is counted once)."""
    import pygame

    sent: list[int] = []
    update, flip = pygame.display.update, pygame.display.flip

    def counted_update(rects: object = None) -> None:
        mask = pygame.Mask((1280, 800))
        for r in rects or []:  # type: ignore[attr-defined]
            r = pygame.Rect(r)
            mask.draw(pygame.Mask(r.size, fill=True), r.topleft)
        sent.append(mask.count())
        update(rects)  # type: ignore[arg-type]

    def counted_flip() -> None:
        sent.append(1280 * 800)
        flip()

    pygame.display.update = counted_update  # type: ignore[assignment]
    pygame.display.flip = counted_flip  # type: ignore[assignment]
    return sent


def dragged(app: App, start: tuple[int, int], i: int) -> None:
    """A frame with the held tile (card) moved: to and fro over the table."""
    import pygame

    x, y = start[0] + (i % 40) * 3, start[1] - 60 - (i % 20) * 2  # to and fro over the table
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(1, 0, 0)))
    app.frame(1 / 60)


def tiles(n: int) -> None:
    import pygame

    from cribtiles.rules import new_game
    from cribtiles.table.settings import Preferences
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.geometry import centre
    from cribtiles.ui.window import App

    state = next(s for s in (new_game(2, seed=k, names=("You", "Medium")) for k in range(50)) if s.current == 0)
    app = App(state, Preferences(speed="normal"), NoKeeper(), size=(1280, 800))
    sent = counting_updates()
    for _ in range(90):  # everything settles
        app.frame(1 / 60)
    print("tile table:")
    show("tiles", "idle", timed(lambda i: app.frame(1 / 60), n))
    a = centre(app.layout.slot_rect(0))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    app.frame(1 / 60)
    sent.clear()
    show("tiles", "dragging", timed(lambda i: dragged(app, a, i), n), sent)
    app.close()


def cribbage(n: int) -> None:
    import pygame

    from cribtiles.table import Seat
    from cribtiles.table.cribbage.table import CribbageTable
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.cribbage.scene import CribbageScene
    from cribtiles.ui.geometry import centre
    from cribtiles.ui.window import App

    keeper = NoKeeper()
    keeper.save_cribbage(CribbageTable.new(3, "medium"))
    tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(tiles, Preferences(speed="normal", tutorial_offered=True), keeper, size=(1280, 800), title=True)
    app.menus.open_game("cribbage")
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageScene)
    sent = counting_updates()
    for _ in range(120):  # the deal settles
        app.frame(1 / 60)
    print("cribbage table:")
    show("cribbage", "idle", timed(lambda i: app.frame(1 / 60), n))
    a = centre(scene.hand_rects()[0])
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    app.frame(1 / 60)
    sent.clear()
    show("cribbage", "dragging", timed(lambda i: dragged(app, a, i), n), sent)
    app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args()
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    tiles(args.frames)
    cribbage(args.frames)
    print(f"  load average {os.getloadavg()[0]:.2f}")
    harness.report(__file__, frames=args.frames, frame_ms=FIGURES)


if __name__ == "__main__":
    main()
