"""Move-generation speed: `python benchmarks/tiles/bench_movegen.py` prints milliseconds per call.

Positions: the empty board with full racks, and mid-game positions (20-60 tiles on the board)
reached by seeded games of the greedy bot, each with a full rack. Also `has_legal_play`, and
`score_play` on every generated play for scale. Medians are compared against the targets of the
rules engine's issue: mid-game under 20 ms, the empty board under 300 ms. The core in use is
printed (`CRIBTILES_CORE=python` forces the pure-Python one).

`--against REV` (for example `--against 52a2ba4`) times this tree's generator side by side with the
one of an older commit, in one run: that commit's `cribtiles/rules` is taken out with
`git archive REV cribtiles/rules` into a temporary folder and imported under another name. Both get
the same boards (from the same board text) and racks, a fresh Board object each call so that no
cached cross-checks carry over, the two called in turn (which goes first alternates); each play list
is checked to be the same, play for play and point for point, and the medians and their ratio are printed.
"""

from __future__ import annotations

import argparse
import importlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the shared harness

import harness

from cribtiles.rules import Board, has_legal_play, legal_plays, parse_rack
from cribtiles.rules.game import GameState, new_game
from cribtiles.rules.movegen import CORE_DESCRIPTION, scored_plays
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


def show(name: str, times: list[float], target: float | None = None) -> dict[str, float | int]:
    """Print the figures of `times` (milliseconds) on one line; returns them."""
    figures = harness.summary(times)
    med = figures["median"]
    verdict = "" if target is None else f"  target < {target:g} ms: {'met' if med < target else 'MISSED'}"
    print(f"{name:<34} median {med:7.2f} ms   p95 {figures['p95']:7.2f} ms   n={len(times)}{verdict}")
    return figures


ROOT = Path(__file__).resolve().parents[2]


def rules_of(rev: str, into: Path) -> ModuleType:
    """The `cribtiles.rules` package of commit `rev`, imported from `into` as `cribtiles_<rev>.rules`."""
    archive = subprocess.run(["git", "archive", rev, "cribtiles/rules"], cwd=ROOT, capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"bench_movegen: git archive {rev} failed: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    name = f"cribtiles_{rev}".replace("-", "_").replace(".", "_")
    (into / "cribtiles").rename(into / name)
    (into / name / "__init__.py").write_text("", encoding="utf-8")
    sys.path.insert(0, str(into))
    return importlib.import_module(f"{name}.rules")


def one_call(fn, board_cls, cells, rack) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    """Milliseconds for one call on a fresh Board (built before the clock starts), and its result."""
    board = board_cls(cells)
    t = time.perf_counter()
    result = fn(board, rack)
    return (time.perf_counter() - t) * 1000, result


def side_by_side(old: ModuleType, rev: str, cases: list[tuple[str, Board, tuple]], repeat: int) -> float:  # type: ignore[type-arg]
    """Time scored_plays (and has_legal_play) of both generators on each (label, board, rack); the ratio."""
    ratios = []
    for label in dict.fromkeys(c[0] for c in cases):
        times: dict[str, list[float]] = {"old": [], "new": [], "old has": [], "new has": []}
        plays = []
        for _, board, rack in (c for c in cases if c[0] == label):
            old_board = old.Board.from_text(board.to_text())
            old_rack = old.parse_rack(" ".join(str(t) for t in rack))
            sides = {
                "old": (old.scored_plays, old.has_legal_play, old.Board, old_board.cells, old_rack),
                "new": (scored_plays, has_legal_play, Board, board.cells, rack),
            }
            reference: list[tuple[str, int]] = []
            for i in range(repeat):
                for side in ("old", "new") if i % 2 == 0 else ("new", "old"):
                    gen, has, board_cls, cells, r = sides[side]
                    ms, result = one_call(gen, board_cls, cells, r)
                    times[side].append(ms)
                    ms, found = one_call(has, board_cls, cells, r)
                    times[side + " has"].append(ms)
                    text = [(str(play), total) for play, total in result]  # type: ignore[attr-defined]
                    if side == "old":
                        reference = text
                    elif text != reference:
                        raise SystemExit(f"bench_movegen: the generators disagree on a {label} position:\n{board}")
                    if found != bool(result):  # type: ignore[arg-type]
                        raise SystemExit(f"bench_movegen: has_legal_play disagrees on a {label} position")
                    del result
            plays.append(len(reference))
        old_ms, new_ms = statistics.median(times["old"]), statistics.median(times["new"])
        old_has, new_has = statistics.median(times["old has"]), statistics.median(times["new has"])
        ratios.append(old_ms / new_ms)
        print(
            f"{label:<24} {rev}: {old_ms:8.3f} ms   this tree: {new_ms:8.3f} ms   ratio {old_ms / new_ms:5.1f}x"
            f"   (n={len(times['new'])} calls, plays per position {min(plays)}-{max(plays)},"
            f" median {statistics.median(plays):g}, identical)"
        )
        print(
            f"{'  has_legal_play':<24} {rev}: {old_has:8.3f} ms   this tree: {new_has:8.3f} ms"
            f"   ratio {old_has / new_has:5.1f}x"
        )
    return ratios[0]


def against(rev: str, positions: int, seed: int, repeat: int) -> int:
    cases: list[tuple[str, Board, tuple]] = []  # type: ignore[type-arg]
    cases += [("mid-game, full rack", b, r) for b, r in midgame_positions(positions, seed)]
    cases += [("empty board, full rack", Board.empty(), parse_rack(t)) for t in EMPTY_RACKS]
    tmp = Path(tempfile.mkdtemp(prefix="bench-movegen-"))
    try:
        old = rules_of(rev, tmp)
        print(
            f"Crib Tiles move generation: {rev}'s pure-Python generator against this tree's ({CORE_DESCRIPTION}),"
            f" scored_plays, median ms per call, a fresh board each call, {repeat} alternating calls each"
        )
        ratio = side_by_side(old, rev, cases, repeat)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"mid-game speed-up: {ratio:.1f}x (target >= 10x: {'met' if ratio >= 10 else 'MISSED'})")
    harness.report(__file__, against=rev, core=CORE_DESCRIPTION, midgame_speedup=ratio, repeat=repeat)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--against", metavar="REV", help="time this commit's generator side by side with this tree's")
    ap.add_argument("--repeat", type=int, default=6, help="calls of each generator per position (--against)")
    args = ap.parse_args()
    if args.against:
        return against(args.against, args.positions, args.seed, args.repeat)
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
    print(
        f"Crib Tiles move generation ({CORE_DESCRIPTION}), {len(EMPTY_RACKS)} empty-board racks,"
        f" {len(positions)} mid-game positions"
    )
    ms = {
        "empty_new": show("empty board, full rack", cold, 300),
        "empty_again": show("empty board, same board again", warm),
        "mid_new": show("mid-game, new position", mid_cold, 20),
        "mid_again": show("mid-game, same board again", mid_warm),
        "has_legal_play_new": show("has_legal_play, new position", has),
    }
    print(
        f"plays per position: empty board {min(counts)}-{max(counts)}, mid-game {min(mid_counts)}-{max(mid_counts)}"
        f" (median {statistics.median(mid_counts):g})"
    )
    harness.report(__file__, core=CORE_DESCRIPTION, positions=len(positions), seed=args.seed, ms=ms)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
