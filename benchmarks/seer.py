"""What the two seers' benchmarks share (issue 47): reading a candidate's paired games against Hard (the
same seed played twice, seats swapped) as a win rate with its intervals, the luck left to it (the games it
loses, the pairs it loses from both seats) and its gain over another candidate on the same seeds.
`tiles/bench_seer.py` and `cribbage/bench_seer.py` play the games through the arena of their game."""

from __future__ import annotations

import os
import pickle
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import harness

from cribtiles.table.arena_core import wilson_interval


@dataclass(frozen=True)
class Pair:
    """One seed's two games for a candidate: its share of each win (1, a half for a tie, 0) and spread."""

    shares: tuple[float, float]
    spreads: tuple[float, float]

    @property
    def share(self) -> float:
        return sum(self.shares) / 2


def candidate_figures(pairs: Sequence[Pair]) -> dict[str, object]:
    """A candidate's figures over its pairs: games, the win rate with its Wilson interval over games (as
    the arena gives it) and the interval of the mean over pairs (Student's t, which the pairing earns), the
    spread a game, and the luck: the share of games it loses (Wilson), and the pairs it wins from both
    seats, splits, and loses from both seats."""
    games = 2 * len(pairs)
    wins = sum(sum(p.shares) for p in pairs)
    low, high = wilson_interval(wins, games)
    _, half = harness.mean_ci([p.share for p in pairs])
    lost = games - wins
    lost_low, lost_high = wilson_interval(lost, games)
    spread, spread_half = harness.mean_ci([sum(p.spreads) / 2 for p in pairs])
    return {
        "games": games,
        "win_rate": wins / games,
        "ci95_wilson": [low, high],
        "ci95_paired": half,
        "spread": {"mean": spread, "ci95": spread_half},
        "lost": {"share": lost / games, "ci95_wilson": [lost_low, lost_high]},
        "pairs": {
            "won_both": sum(p.shares == (1.0, 1.0) for p in pairs),
            "split": sum(0.0 < sum(p.shares) < 2.0 for p in pairs),
            "lost_both": sum(p.shares == (0.0, 0.0) for p in pairs),
        },
    }


def gain(pairs: Sequence[Pair], base: Sequence[Pair]) -> dict[str, float]:
    """The candidate's win rate less `base`'s, seed by seed (the same seeds, in order), with the 95%
    interval of that mean difference: how far it is above the base beyond the luck both met."""
    if len(pairs) != len(base):
        raise ValueError(f"{len(pairs)} pairs cannot be set beside {len(base)}")
    mean, half = harness.mean_ci([p.share - b.share for p, b in zip(pairs, base, strict=True)])
    return {"mean": mean, "ci95": half}


def line(label: str, figures: dict[str, object]) -> str:
    """One candidate's figures for people (with its seconds a game, `game_seconds` and `game_cpu_seconds`)."""
    f = figures
    low, high = f["ci95_wilson"]  # type: ignore[misc]
    spread = f["spread"]
    lost = f["lost"]
    pairs = f["pairs"]
    assert isinstance(spread, dict) and isinstance(lost, dict) and isinstance(pairs, dict)
    cost = (
        f"{f['game_seconds']:.1f} s, {f['game_cpu_seconds']:.1f} CPU s a game"
        if f.get("played")
        else "all read back from --keep"
    )
    return (
        f"{label:<14} {f['games']:>5} games  won {f['win_rate']:6.1%} [{low:6.1%}, {high:6.1%}] "
        f"(± {f['ci95_paired']:.1%} paired)  spread {spread['mean']:+7.2f} ± {spread['ci95']:.2f}  "
        f"lost {lost['share']:6.1%}  pairs won/split/lost {pairs['won_both']}/{pairs['split']}/{pairs['lost_both']}"
        f"  {cost}"
    )


def phase_figures(
    phases: Sequence[str], nets: Sequence[dict[str, float]], base: Sequence[dict[str, float]] | None
) -> dict[str, dict[str, Any]]:
    """Each phase's net points (the candidate's less Hard's, a pair's mean) with its 95% interval, and,
    given the first candidate's nets on the same seeds (`base`), the gain over it seed by seed: which
    phase of the game the candidate's edge, and the hidden information, pays in."""
    figures: dict[str, dict[str, Any]] = {}
    for phase in phases:
        mean, half = harness.mean_ci([n[phase] for n in nets])
        figures[phase] = {"net": mean, "ci95": half}
        if base is not None:
            g, g_half = harness.mean_ci([n[phase] - b[phase] for n, b in zip(nets, base, strict=True)])
            figures[phase]["gain_over_first"] = {"mean": g, "ci95": g_half}
    return figures


def phase_line(phases: Sequence[str], figures: dict[str, dict[str, Any]]) -> str:
    """The phases' figures for people: the net points against Hard, and the gain over the first."""
    words = []
    for phase in phases:
        f = figures[phase]
        word = f"{phase} {f['net']:+.2f} ± {f['ci95']:.2f}"
        if "gain_over_first" in f:
            word += f" (gain {f['gain_over_first']['mean']:+.2f} ± {f['gain_over_first']['ci95']:.2f})"
        words.append(word)
    return f"{'':<14} " + ";  ".join(words)


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children reaped so far (an arena's workers, once it ends)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


@dataclass(frozen=True)
class Kept:
    """A seed's games (`play(index)`, a worker's unit) kept in `folder` once played, and read back from
    there when asked again: a long run (`--keep DIR`) stopped part way starts again where it stopped, and
    its figures are those of one run. A kept file that cannot be read is played again. The folder is the
    candidate's and the run's (`kept_folder`); clear it when a bot changes."""

    play: Callable[[int], list[Any]]
    folder: Path | None

    def __call__(self, index: int) -> list[Any]:
        if self.folder is None:
            return self.play(index)
        path = self.folder / f"seed-{index}.pickle"
        try:
            with path.open("rb") as f:
                kept = pickle.load(f)
            if isinstance(kept, list):
                return kept
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
            pass
        games = self.play(index)
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=self.folder, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(games, f)
        os.replace(temporary, path)
        return games


def kept_folder(keep: str | None, benchmark: str, label: str, seed: int) -> Path | None:
    """Where a candidate's games of a run are kept under `--keep` (None: not kept)."""
    if keep is None:
        return None
    return Path(keep) / benchmark / f"{label.replace(':', '_')}-seed{seed}"


def kept_count(folder: Path | None) -> int:
    """How many seeds' games were kept in `folder` before this run."""
    return 0 if folder is None or not folder.is_dir() else len(list(folder.glob("seed-*.pickle")))


def add_costs(figures: dict[str, Any], cpu: float, seconds: float, played: int, jobs: int) -> None:
    """What the games played in this run cost (those read back from `--keep` cost nothing): seconds and
    CPU seconds in all, and a game's, of wall time on one worker and of CPU (None when none was played)."""
    figures["played"] = played
    figures["seconds"] = seconds
    figures["cpu_seconds"] = cpu
    figures["game_cpu_seconds"] = cpu / played if played else None
    figures["game_seconds"] = seconds / played * min(jobs, played) if played else None
