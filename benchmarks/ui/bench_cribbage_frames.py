"""Frame times of the cribbage table: `python benchmarks/ui/bench_cribbage_frames.py` prints milliseconds.

A seeded game against the Hard bot at normal animation speed, your seat played by posted events (one
action every `--every` frames), `--frames` frames timed one `App.frame` each (events, update, draw):
cards dealt, gliding to the play and the show, pegs moving, the bot thinking in its thread. Headless
(SDL's dummy driver). Prints the median, the 95th percentile and the slowest frame, and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--every", type=int, default=40, help="frames between your actions")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--variant", default="six-card", help="six-card, five-card, three-player, partnership")
    args = parser.parse_args()
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    from cribtiles.cribbage.options import CribbageOptions, Variant
    from cribtiles.table import Seat
    from cribtiles.table.cribbage.table import CribbageTable
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.cribbage.pilot import CribbagePilot
    from cribtiles.ui.cribbage.scene import CribbageScene
    from cribtiles.ui.window import App

    w, h = (int(v) for v in args.size.split("x"))
    keeper = NoKeeper()
    options = CribbageOptions(variant=Variant(args.variant))
    keeper.save_cribbage(CribbageTable.new(args.seed, "hard", options))
    tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(tiles, Preferences(speed="normal", tutorial_offered=True), keeper, size=(w, h), title=True)
    app.menus.open_game("cribbage")
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageScene)
    pilot = CribbagePilot(scene, seed=1)
    times: list[float] = []
    for i in range(args.frames):
        if i % args.every == 0:
            pilot.step()
        start = time.perf_counter()
        app.frame(1 / 60)
        times.append((time.perf_counter() - start) * 1000)
        if scene.ended:
            break
    app.close()
    first = times.pop(0)  # the felt, the peg board and the first hand drawn: told apart
    times.sort()
    p95 = harness.percentile(times, 0.95)
    state = scene.session.table.state  # type: ignore[attr-defined]
    what = "" if options.variant is Variant.SIX_CARD else f" ({options.variant.words})"
    where = f"{w}x{h}, seed {args.seed}"
    print(f"cribbage table{what} {where}: {len(times)} frames, deal {state.deal_number}, {state.scores}")
    median = statistics.median(times)
    print(f"  first frame {first:.2f} ms; then median {median:.2f} ms, p95 {p95:.2f} ms, slowest {times[-1]:.2f} ms")
    print(f"  load average {os.getloadavg()[0]:.2f}")
    harness.report(
        __file__,
        variant=options.variant.value,
        size=args.size,
        seed=args.seed,
        deal=state.deal_number,
        first_frame_ms=first,
        frame_ms=harness.summary(times),
    )


if __name__ == "__main__":
    main()
