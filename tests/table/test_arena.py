"""Tests for cribtiles.table.arena: paired games, rotation of seats, determinism, the JSON report, errors."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cribtiles.bot import choose_safely, make_bot
from cribtiles.bot.tiles.base import Bot
from cribtiles.bot.tiles.greedy import GreedyBot, greedy_move
from cribtiles.rules import Move, PlayerView, RuleOptions, Scorer, new_game
from cribtiles.rules.moves import Pass, Play
from cribtiles.table import Seat, arena, runner
from cribtiles.table.tiles.table import Table

ROOT = Path(__file__).resolve().parents[2]
BOT_KEYS = {"win_rate", "ci95", "mean_score", "mean_spread", "points_per_turn", "move_seconds", "failures"}

pytestmark = pytest.mark.filterwarnings("ignore:the bots' leave table")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert arena.main([*args, "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)  # exactly one JSON object: anything else on stdout would fail here
    assert isinstance(data, dict)
    return data


def without_timings(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data, seconds=None)
    data["bots"] = {name: dict(b, move_seconds=None) for name, b in data["bots"].items()}
    return data


def test_json_report_has_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--bots", "medium,beginner", "--games", "6", "--seed", "3", "--jobs", "1")
    assert data["games"] == 6 and data["seed"] == 3
    assert data["games_planned"] == 6 and data["interrupted"] is False
    assert set(data["bots"]) == {"medium", "beginner"}
    for b in data["bots"].values():
        assert set(b) >= BOT_KEYS
        low, high = b["ci95"]
        assert 0 <= low <= b["win_rate"] <= high <= 1
        assert set(b["move_seconds"]) == {"median", "p95"}
        assert 0 <= b["move_seconds"]["median"] <= b["move_seconds"]["p95"]
        assert b["failures"] == 0
        assert b["seat_games"] == [3, 3]
    medium, beginner = data["bots"]["medium"], data["bots"]["beginner"]
    assert medium["win_rate"] + beginner["win_rate"] == pytest.approx(1.0)
    assert medium["mean_spread"] == pytest.approx(-beginner["mean_spread"])


def test_games_round_up_to_whole_rotations_and_duplicates_are_numbered(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--bots", "beginner,beginner,easy", "--games", "2", "--jobs", "1")
    assert data["games"] == 3
    assert list(data["bots"]) == ["beginner", "beginner#2", "easy"]


def test_same_seed_same_results_whatever_the_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--bots", "easy,medium", "--games", "4", "--seed", "7")
    one = run_json(capsys, *args, "--jobs", "1")
    again = run_json(capsys, *args, "--jobs", "1")
    two = run_json(capsys, *args, "--jobs", "2")
    assert without_timings(one) == without_timings(again) == without_timings(two)
    other = run_json(capsys, "--bots", "easy,medium", "--games", "4", "--seed", "8", "--jobs", "1")
    assert without_timings(other) != without_timings(one)


def test_three_bots_rotate_through_every_seat_on_the_same_bag() -> None:
    a = arena.Arena(("beginner", "easy", "medium"), seeds=1, seed=5, options=RuleOptions())
    results = arena.run(a, jobs=1)
    assert [r.game for r in results] == [0, 1, 2]
    for seat in range(3):
        assert sorted(r.seats[seat].bot for r in results) == [0, 1, 2]
    summaries = arena.summarize(a, results)
    assert [s.seats for s in summaries] == [(1, 1, 1)] * 3
    assert sum(s.win_rate for s in summaries) == pytest.approx(1.0)
    assert arena.seatings(4) == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]


def test_seats_swapped_on_the_same_bag() -> None:
    bag = new_game(2, seed=arena.game_seed(1, 0))
    again = new_game(2, seed=arena.game_seed(1, 0))
    assert bag.racks == again.racks and bag.bags == again.bags
    assert arena.game_seed(1, 0) != arena.game_seed(1, 1) != arena.game_seed(2, 0)


def test_solitaire_plays_dark_against_light(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--bots", "medium,easy", "--games", "2", "--mode", "solitaire", "--jobs", "1")
    assert "mode=solitaire" in data["rules"]
    assert data["bots"]["medium"]["win_rate"] + data["bots"]["easy"]["win_rate"] == pytest.approx(1.0)


def test_joker_and_other_rules_run(capsys: pytest.CaptureFixture[str]) -> None:
    rules = "start=high,exchange=any-time,joker=on"
    data = run_json(capsys, "--bots", "hard,medium", "--games", "2", "--rules", rules, "--jobs", "1")
    assert data["rules"] == "start=high,exchange=any-time,joker=on,rounds=1,mode=standard"
    assert all(b["failures"] == 0 for b in data["bots"].values())


def test_bonuses_off_runs_in_the_arena_and_bots_score_no_bonus(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--bots", "hard,medium", "--games", "2", "--rules", "bonuses=off", "--jobs", "1")
    assert data["rules"] == "start=low,exchange=when-stuck,joker=off,rounds=1,mode=standard,bonuses=off"
    assert all(b["failures"] == 0 for b in data["bots"].values())
    # a whole seeded game of bots at a table: every play scored, and broken down, without bonuses
    table = Table.new((Seat.bot("hard"), Seat.bot("expert")), RuleOptions(joker=True, bonuses=False), seed=6)
    while table.bot_to_move:
        request = table.bot_request()
        table.play_bot(choose_safely(make_bot(request.level), request.view, random.Random(request.seed)), request)
    assert table.state.is_over
    plays = [r for r in table.history if r.score is not None]
    assert len(plays) > 10 and all(r.score.bonuses == () for r in plays if r.score is not None)
    board_before = [r.board_before for r in plays]
    standard = [Scorer().score(b, r.turn.move).total for b, r in zip(board_before, plays, strict=True)]  # type: ignore[arg-type]
    assert [r.kept for r in plays] == [r.score.total for r in plays if r.score is not None]
    assert sum(r.score.total for r in plays if r.score is not None) < sum(standard)  # the first play's 10 at least


def test_joker_calls_take_unclaimed_points() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("expert"), Seat.bot("expert")), RuleOptions(joker=True), seed=4)
    while table.bot_to_move:
        request = table.bot_request()
        table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
    play = max(table.state.legal_plays(), key=lambda p: len(p.placements))
    before = table.state.scores
    record = table.play(play, declared=0)
    assert record.turn.true_points > 0
    assert [(c.caller, c.points) for c in record.calls] == [(1, record.turn.true_points)]  # the first to call
    assert table.state.scores[2] == before[2]  # nothing left to take: the second bot does not call


def old_loop(
    levels: tuple[str, ...], labels: tuple[str, ...], options: RuleOptions, seed: int, game: int
) -> tuple[str, ...]:
    """The arena's turn loop as it was before the table model, kept as the reference: new_game,
    choose_safely with the move's generator, apply (no Joker: manners only change Joker games)."""
    state = new_game(len(levels), options, seed=seed, names=labels)
    bots = [make_bot(level) for level in levels]
    while not state.is_over:
        p = state.current
        rng = arena.move_rng(7, game, len(state.turns))
        state = state.apply(choose_safely(bots[p], state.view(p), rng))
    return state.log


@pytest.mark.parametrize("rules", ["", "exchange=any-time,start=high"])
def test_the_arena_on_the_table_model_plays_the_games_it_played_before(rules: str) -> None:
    a = arena.Arena(("hard", "medium", "easy"), seeds=2, seed=7, options=RuleOptions.parse(rules))
    for index in range(2):
        for rotation in range(3):
            result = arena.play_game(a, index, rotation)
            seating = arena.seatings(3)[rotation]
            levels = tuple(a.levels[b] for b in seating)
            labels = tuple(a.labels[b] for b in seating)
            seed = arena.game_seed(7, index)
            assert result.log == old_loop(levels, labels, a.options, seed, index * 3 + rotation)


def test_a_seeded_arena_game_and_the_same_game_at_the_table_give_identical_records() -> None:
    a = arena.Arena(("medium", "beginner"), seeds=3, seed=5, options=RuleOptions.parse("joker=on"))
    called = 0
    for index in range(3):
        result = arena.play_game(a, index, 0)
        table = Table.new(
            (Seat("medium", "medium"), Seat("beginner", "beginner")), a.options, arena.game_seed(5, index)
        )
        bots = [make_bot("medium"), make_bot("beginner")]
        while not table.round_over:
            p = table.state.current
            rng = arena.move_rng(5, index * 2, len(table.state.turns))
            table.play_bot(choose_safely(bots[p], table.view(p), rng))
        assert result.log == table.state.log
        called += sum(1 for action in table.state.log if action.startswith("joker"))
    assert called > 0  # the beginner forgot points and the medium bot called


def test_expert_with_a_short_budget(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--bots", "expert,medium", "--games", "2", "--budget", "0.05", "--jobs", "1")
    assert data["bots"]["expert"]["failures"] == 0


class FlakyBot:
    """Raises on every third move and proposes an illegal pass on every fifth."""

    name = "flaky"

    def __init__(self) -> None:
        self.moves = 0

    def choose(self, view: PlayerView, rng: random.Random, budget: float | None = None) -> Move:
        self.moves += 1
        if self.moves % 3 == 0:
            raise RuntimeError("flaky bot")
        move = GreedyBot().choose(view, rng)
        return Pass() if self.moves % 5 == 0 and isinstance(move, Play) else move


def test_a_failing_bot_does_not_stop_the_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def make(level: str, budget: float | None = None) -> Bot:
        return FlakyBot() if level == "easy" else make_bot(level, budget)

    monkeypatch.setattr(arena, "make_bot", make)
    data = run_json(capsys, "--bots", "easy,medium", "--games", "2", "--jobs", "1")
    assert data["bots"]["easy"]["failures"] > 0
    assert data["bots"]["medium"]["failures"] == 0


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["--bots", "medium,beginner", "--games", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "Wilson" in out and "medium" in out and "beginner" in out and "2 games in" in out


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--bots", "medium"],
        ["--bots", "medium,wizard"],
        ["--bots", "easy,easy,easy,easy,easy"],
        ["--bots", "easy,medium", "--games", "0"],
        ["--bots", "easy,medium", "--games", "many"],
        ["--bots", "easy,medium", "--jobs", "0"],
        ["--bots", "easy,medium", "--budget", "-1"],
        ["--bots", "easy,medium", "--budget", "inf"],
        ["--bots", "easy,medium", "--budget", "nan"],
        ["--bots", "easy,medium", "--budget", "1e9"],
        ["--bots", "easy,medium", "--jobs", "100000"],
        ["--bots", "easy,medium", "--rules", "joker=maybe"],
        ["--bots", "easy,medium", "--rules", "colour=red"],
        ["--bots", "easy,medium", "--rules", "rounds=3"],
        ["--bots", "easy,medium,hard", "--mode", "solitaire"],
        ["--bots", "easy,medium", "--mode", "duel"],
    ],
)
def test_bad_arguments_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        arena.main(args)
    assert e.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "error" in captured.err


def test_an_endless_budget_and_more_jobs_than_cores_can_use_are_refused_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for args, words in (
        (["--budget", "inf"], "--budget must be a number of seconds above 0 and at most 600, not inf"),
        (["--jobs", "100000"], "--jobs 100000 is far more than the"),
    ):
        with pytest.raises(SystemExit):
            arena.main(["--bots", "easy,medium", *args])
        assert words in capsys.readouterr().err


def test_the_pool_never_starts_more_workers_than_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked for 8 jobs on a machine of one core, the units are played here, one after another."""
    import cribtiles.table.runner as runner

    monkeypatch.setattr(runner, "cores", lambda: 1)
    monkeypatch.setattr(runner, "_run_in_workers", lambda *a: pytest.fail("a pool was started"))
    played = runner.run_units(3, lambda i: [Game(i)], 3, jobs=8)
    assert [g.game for g in played] == [0, 1, 2]


@dataclass(frozen=True)
class Game:
    game: int


def test_runs_as_a_module_with_workers() -> None:
    command = ["-m", "cribtiles.table.arena", "--bots", "beginner,medium", "--games", "4", "--jobs", "2", "--json"]
    done = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 4


# --- Ctrl-C ---


def interrupt_at_bag(monkeypatch: pytest.MonkeyPatch, bag: int) -> None:
    """Ctrl-C while the bag `bag` is being played (in this process: --jobs 1)."""
    real = arena.play_seed

    def play_seed(a: arena.Arena, index: int, make: arena.SeatBot | None = None) -> list[arena.GameResult]:
        if index == bag:
            raise KeyboardInterrupt
        return real(a, index, make)

    monkeypatch.setattr(arena, "play_seed", play_seed)


def test_ctrl_c_keeps_the_whole_bags_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_at_bag(monkeypatch, 2)
    a = arena.Arena(("easy", "medium"), seeds=5, seed=7, options=RuleOptions())
    with pytest.raises(arena.Interrupted) as stop:
        arena.run(a, jobs=1)
    assert [r.game for r in stop.value.results] == [0, 1, 2, 3]
    monkeypatch.undo()
    assert untimed(stop.value.results) == untimed(arena.run(arena.Arena(a.levels, 2, a.seed, a.options), jobs=1))


def untimed(results: list[arena.GameResult]) -> list[tuple[int, tuple[arena.SeatResult, ...]]]:
    """The games' outcomes without the move times (which depend on the machine)."""
    return [(r.game, tuple(dataclasses.replace(s, move_seconds=()) for s in r.seats)) for r in results]


def test_ctrl_c_prints_the_figures_of_the_games_finished_and_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("--bots", "easy,medium", "--seed", "7", "--jobs", "1", "--json")
    finished = run_json(capsys, *args[:-1], "--games", "4")
    interrupt_at_bag(monkeypatch, 2)
    assert arena.main([*args, "--games", "10"]) == 130
    out, err = capsys.readouterr()
    stopped = json.loads(out)
    assert stopped["games"] == 4 and stopped["games_planned"] == 10 and stopped["interrupted"] is True
    same = dict(without_timings(stopped), games_planned=4, interrupted=False)
    assert same == without_timings(finished)  # the figures of exactly the 4 games that were finished
    assert err.startswith("Interrupted (Ctrl-C) after 4 of 10 games, in ")
    assert err.endswith(" s: the figures are for the 4 games finished.\n")
    assert "Traceback" not in err

    assert arena.main([*args[:-1], "--games", "10"]) == 130
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines()[0].startswith("Crib Tiles arena: easy vs medium, 10 games (5 bags x 2 seatings)")
    assert out.splitlines()[-1].startswith("Interrupted (Ctrl-C) after 4 of 10 games, in ")


def test_ctrl_c_before_the_first_game_finishes(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:  # type: ignore[no-untyped-def]
    interrupt_at_bag(monkeypatch, 0)
    assert arena.main(["--bots", "easy,medium", "--games", "4", "--jobs", "1"]) == 130
    out = capsys.readouterr().out
    assert "Interrupted (Ctrl-C) after 0 of 4 games" in out
    assert "0.0%" in out


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to oneself is POSIX")
def test_ctrl_c_ends_the_worker_pool_at_once() -> None:
    """A real SIGINT once the first bag is in, while two worker processes play: the pool is ended, not drained."""
    a = arena.Arena(("medium", "easy"), seeds=100, seed=3, options=RuleOptions())
    sent: list[float] = []

    def ctrl_c_after_the_first_bag(done: int, total: int) -> None:
        if not sent:
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)

    # Python leaves SIGINT alone when it started ignored (a background job): make it Ctrl-C here
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(arena.Interrupted) as stop:
            arena.run(a, jobs=2, progress=ctrl_c_after_the_first_bag)
    finally:
        signal.signal(signal.SIGINT, previous)
    stopped_after = time.monotonic() - sent[0]
    assert stopped_after < 2, f"the run went on for {stopped_after:.1f} s after Ctrl-C"
    games = [r.game for r in stop.value.results]
    assert len(games) == 2 and games[0] % 2 == 0 and games[1] == games[0] + 1  # the one bag, both seatings
    assert untimed(stop.value.results) == untimed(arena.play_seed(a, games[0] // 2))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_workers_ignore_ctrl_c_end_on_sigterm_and_watch_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker inherits the arena's handlers: SDL's SIGTERM handler, say, under pygame. The pool's
    terminate() sends SIGTERM, so each worker must take it as the end (else the pool waits for ever)."""
    watching: list[bool] = []
    monkeypatch.setattr(runner, "die_with_parent", lambda: watching.append(True) or True)
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        runner.worker_starts()
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)
    assert watching == [True]


def test_the_thinking_bots_budget_is_cpu_time_unless_wall_is_asked_for() -> None:
    """On a shared machine other work would take wall seconds from the Expert and weaken it: by
    default the arena counts its own CPU seconds; --clock wall counts as the window does."""
    cpu, _, _ = arena.parse_arena(["--bots", "expert,hard"])
    wall, _, _ = arena.parse_arena(["--bots", "expert,hard", "--clock", "wall"])
    assert (cpu.clock, wall.clock) == ("cpu", "wall")
    assert arena.arena_bot(cpu, "expert").clock is time.process_time  # type: ignore[attr-defined]
    assert arena.arena_bot(wall, "expert").clock is time.perf_counter  # type: ignore[attr-defined]
    assert "CPU seconds (--clock cpu)" in arena.report_text(cpu, [], 0.0)
    assert arena.report_json(wall, [], 0.0)["clock"] == "wall"
    with pytest.raises(SystemExit):
        arena.parse_arena(["--bots", "expert,hard", "--clock", "sundial"])


@pytest.mark.parametrize("clock", ["cpu", "wall"])
def test_the_seconds_a_move_are_counted_by_the_arena_s_clock(clock: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --clock cpu the s/move column is CPU seconds too (it was wall seconds, which other work on
    a shared machine inflates): each clock here moves one second a reading, the other never moves."""
    ticks = iter(range(10**6))
    still = {"cpu": lambda: 0.0, "wall": lambda: 0.0}
    monkeypatch.setattr(arena, "CLOCKS", {**still, clock: lambda: float(next(ticks))})
    setup, _, _ = arena.parse_arena(["--bots", "medium,easy", "--games", "2", "--clock", clock])
    result = arena.play_game(setup, 0, 0)
    seconds = [t for seat in result.seats for t in seat.move_seconds]
    assert seconds and set(seconds) == {1.0}
    assert f"s/move = {'CPU' if clock == 'cpu' else 'wall'} seconds per move" in arena.report_text(setup, [], 0.0)
