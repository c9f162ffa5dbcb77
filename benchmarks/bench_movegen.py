"""Move-generation speed: `python benchmarks/bench_movegen.py` prints milliseconds per call.

Positions: the empty board with full racks, and mid-game positions (20-60 tiles on the board)
reached by seeded games of the greedy bot, each with a full rack. Also `has_legal_play`, and
`score_play` on every generated play for scale. Medians are compared against the targets of the
rules engine's issue: mid-game under 20 ms, the empty board under 300 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribtiles.rules import Board, has_legal_play, legal_plays, parse_rack
from cribtiles.rules.game import GameState, new_game
from cribtiles.rules.movegen import scored_plays
from cribtiles.rules.tiles import full_set

EMPTY_RACKS = ["4L 5D 6L JD QL", "AL 2L 3L 4L 5L", "5L 5D 5L 5D JL", "6L 6D 9L 3D TD", "7L 8D 2L KD QL"]


def midgame_positions(count: int, seed: int) -> list[tuple[Board, tuple]]:  # type: ignore[type-arg]
    """Positions with a full rack to move, taken from seeded greedy games at 20-60 tiles."""
    out: list[tuple[Board, tuple]] = []  # type: ignore[type-arg]
    game = 0
    while len(out) < count:
        state: GameState = new_game(2, seed=seed + game)
        rng = random.Random(seed + game)
        target = rng.randrange(20, 61)
        while not state.is_over and len(state.board) < target:
            plays = scored_plays(state.board, state.racks[state.current])
            state = state.apply(max(plays, key=lambda ps: ps[1])[0]) if plays else state.apply(state.legal_actions()[0])
        if not state.is_over and len(state.racks[state.current]) == 5:
            out.append((state.board, state.racks[state.current]))
        game += 1
    return out


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return times


def report(name: str, times: list[float], target: float | None = None) -> None:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    med = statistics.median(times)
    verdict = "" if target is None else f"  target < {target:g} ms: {'met' if med < target else 'MISSED'}"
    print(f"{name:<34} median {med:7.2f} ms   p95 {p95:7.2f} ms   n={len(times)}{verdict}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    assert len(full_set()) == 104
    empty = Board.empty()
    legal_plays(empty, parse_rack(EMPTY_RACKS[0]))  # build the tables once, as a game would at start
    cold, warm, counts = [], [], []
    for text in EMPTY_RACKS:
        rack = parse_rack(text)
        cold += timed(lambda r=rack: legal_plays(Board.empty().place([]), r), 1)
        warm += timed(lambda r=rack: legal_plays(empty, r), 3)
        counts.append(len(legal_plays(empty, rack)))
    positions = midgame_positions(args.positions, args.seed)
    mid_cold, mid_warm, has, mid_counts = [], [], [], []
    for board, rack in positions:
        fresh = Board(board.cells)  # no cached cross-checks: the cost of a new position
        mid_cold += timed(lambda b=fresh, r=rack: legal_plays(b, r), 1)
        mid_warm += timed(lambda b=board, r=rack: legal_plays(b, r), 5)
        fresh = Board(board.cells)
        has += timed(lambda b=fresh, r=rack: has_legal_play(b, r), 1)
        mid_counts.append(len(legal_plays(board, rack)))
    print(f"Crib Tiles move generation, {len(EMPTY_RACKS)} empty-board racks, {len(positions)} mid-game positions")
    report("empty board, full rack", cold, 300)
    report("empty board, same board again", warm)
    report("mid-game, new position", mid_cold, 20)
    report("mid-game, same board again", mid_warm)
    report("has_legal_play, new position", has)
    print(
        f"plays per position: empty board {min(counts)}-{max(counts)}, mid-game {min(mid_counts)}-{max(mid_counts)}"
        f" (median {statistics.median(mid_counts):g})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
