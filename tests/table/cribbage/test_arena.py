"""Tests for the cribbage games of the one arena (cribtiles.table.cribbage.arena, run by
cribtiles.table.arena --game cribbage): paired deals, determinism by seed, the figures' arithmetic."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest

from cribtiles.cribbage import CribbageOptions, Variant, new_game, parse_move
from cribtiles.table import arena
from cribtiles.table.arena import wilson_interval
from cribtiles.table.cribbage import arena as ca


def tiny(levels: tuple[str, str] = ("medium", "easy"), pairs: int = 2, seed: int = 3) -> ca.CribbageArena:
    return ca.CribbageArena(levels, pairs, seed)


def without_timings(results: list[ca.GameResult]) -> list[ca.GameResult]:
    return [replace(g, seats=tuple(replace(s, decision_seconds=()) for s in g.seats)) for g in results]  # type: ignore[arg-type]


def test_games_of_a_pair_share_the_deals_with_the_seats_swapped() -> None:
    arena = tiny(pairs=2)
    results = ca.run(arena)
    assert [g.game for g in results] == [0, 1, 2, 3]
    assert results[0].seed == results[1].seed != results[2].seed == results[3].seed
    assert [tuple(s.bot for s in g.seats) for g in results] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    # the same first deal: each bot holds in one game the six cards the other held in the other game
    assert new_game(results[0].seed).hands == new_game(results[1].seed).hands
    # and the games were played from those deals: their moves replay to the final scores
    for g in results:
        state = new_game(g.seed)
        for move in g.moves:
            state = state.apply(parse_move(move))
        assert state.outcome is not None and state.outcome.scores == tuple(s.final for s in g.seats)


def test_same_seed_same_games_whatever_the_jobs() -> None:
    arena = tiny(pairs=2)
    one = without_timings(ca.run(arena, jobs=1))
    again = without_timings(ca.run(arena, jobs=1))
    two = without_timings(ca.run(arena, jobs=2))
    assert one == again == two
    other = without_timings(ca.run(replace(arena, seed=4), jobs=1))
    assert [g.moves for g in other] != [g.moves for g in one]


def test_the_figures_add_up_on_a_tiny_run() -> None:
    arena = tiny(pairs=3)
    results = ca.run(arena)
    summaries = ca.summarize(arena, results)
    assert [s.games for s in summaries] == [6, 6]
    wins = [sum(s.won for g in results for s in g.seats if s.bot == b) for b in (0, 1)]
    assert [s.wins for s in summaries] == wins and sum(wins) == 6
    for s, w in zip(summaries, wins, strict=True):
        assert s.win_rate == w / 6
        assert s.ci95 == wilson_interval(w, 6)
        assert s.ci95[0] <= s.win_rate <= s.ci95[1]
        assert s.failures == 0
    assert summaries[0].mean_spread == pytest.approx(-summaries[1].mean_spread)
    # every game ends at 121 for its winner
    assert all(max(s.final for s in g.seats) == 121 for g in results)


def test_wilson_interval_of_a_known_case() -> None:
    # 15 wins in 20: the Wilson score interval at 95% is [0.531, 0.888]
    assert [round(x, 3) for x in wilson_interval(15, 20)] == [0.531, 0.888]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert arena.main(["--game", "cribbage", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--bots", "easy,easy", "--games", "3", "--seed", "2", "--jobs", "1")
    assert data["games"] == 4 and data["games_planned"] == 4  # rounded up to whole pairs
    assert list(data["bots"]) == ["easy", "easy#2"]
    a, b = data["bots"].values()
    assert a["wins"] + b["wins"] == 4
    assert a["win_rate"] + b["win_rate"] == pytest.approx(1.0)
    figures = {"ci95", "mean_score", "skunks", "double_skunks", "peg_per_deal", "show_per_deal", "decision_seconds"}
    assert set(a) >= figures


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["--game", "cribbage", "--bots", "medium,easy", "--games", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Crib Tiles cribbage arena: medium vs easy, 2 games (1 paired deals, seats swapped), seed 1")
    assert "95% CI (Wilson)" in out and out.rstrip().splitlines()[-1].startswith("2 games in ")


@pytest.mark.parametrize(
    ("bots", "words"),
    [
        ("hard", "exactly 2 bots"),
        ("hard,beginner", "no cribbage bot level 'beginner'"),
        ("a,b,c", "no cribbage bot"),
        ("hard,easy --rules joker=on", "--rules is for the tile game, not for cribbage"),
        ("hard,easy --clock wall", "--clock is for the tile game"),
    ],
)
def test_bad_arguments_are_refused_in_words(bots: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        arena.parse_arena(["--bots", *bots.split(" ")], game="cribbage")
    assert stop.value.code == 2
    assert words in capsys.readouterr().err


def test_more_jobs_than_the_cores_can_use_are_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        arena.parse_arena(["--bots", "hard,easy", "--jobs", "100000"], game="cribbage")
    assert stop.value.code == 2
    assert "--jobs 100000 is far more than the" in capsys.readouterr().err


def test_the_command_line_runs_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cribtiles", "cribbage", "arena", "--bots", "easy,medium", "--games", "2", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["games"] == 2 and list(data["bots"]) == ["easy", "medium"]


def test_the_one_arena_s_command_and_its_cribbage_alias_give_the_same_games() -> None:
    """`cribtiles arena --game cribbage` and `cribtiles cribbage arena` are one arena: the same setup."""
    args = ["--bots", "hard,medium", "--games", "40", "--seed", "1", "--muggins"]
    one = arena.parse_arena(["--game", "cribbage", *args])
    alias = arena.parse_arena(args, game="cribbage")
    assert one == alias
    assert one[0] == ca.CribbageArena(("hard", "medium"), 20, 1, ca.CribbageOptions(muggins=True))


def test_the_expert_level_is_offered_to_the_cribbage_arena() -> None:
    parsed = arena.parse_arena(["--bots", "expert,hard", "--games", "2000", "--seed", "1"], game="cribbage")
    assert parsed[0] == ca.CribbageArena(("expert", "hard"), 1000, 1)


def test_the_figures_are_those_the_arena_gave_before_it_played_through_the_table() -> None:
    """Run before the one arena (main's cribbage_arena, driving the engine itself) on seed 1:
    hard v medium, 4 games. The same decisions through the table give the same games and points."""
    a = ca.CribbageArena(("hard", "medium"), 2, 1)
    summaries = ca.summarize(a, ca.run(a, jobs=1))
    figures = [(s.wins, s.mean_score, s.peg_per_deal * 19, s.show_per_deal * 19) for s in summaries]
    assert figures == [
        (3, 120.75, pytest.approx(60), pytest.approx(181)),
        (1, 113.75, pytest.approx(43), pytest.approx(183)),
    ]


# --- the variants ---


def test_a_three_player_arena_rotates_three_bots_over_each_deal() -> None:
    options = CribbageOptions(variant=Variant.THREE)
    a = ca.CribbageArena(("medium", "easy", "easy"), 1, 5, options)
    assert a.labels == ("medium", "easy", "easy#2") and a.games == 3
    results = ca.run(a)
    assert [tuple(s.bot for s in g.seats) for g in results] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert len({g.seed for g in results}) == 1
    summaries = ca.summarize(a, results)
    assert [s.games for s in summaries] == [3, 3, 3] and sum(s.wins for s in summaries) == 3
    assert all(s.failures == 0 for s in summaries)


def test_a_partnership_arena_gives_each_bot_a_side() -> None:
    options = CribbageOptions(variant=Variant.PARTNERSHIP)
    a = ca.CribbageArena(("hard", "easy"), 1, 5, options)
    results = ca.run(a)
    assert [tuple(s.bot for s in g.seats) for g in results] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    for g in results:
        assert g.seats[0].final == g.seats[2].final and g.seats[0].won == g.seats[2].won
        state = new_game(g.seed, tuple(f"{a.labels[s.bot]}@{p}" for p, s in enumerate(g.seats)), options)
        for move in g.moves:
            state = state.apply(parse_move(move))
        assert state.outcome is not None and state.outcome.scores == (g.seats[0].final, g.seats[1].final)
    summaries = ca.summarize(a, results)
    assert [s.games for s in summaries] == [2, 2] and sum(s.wins for s in summaries) == 2
    assert summaries[0].mean_spread == -summaries[1].mean_spread


def test_the_variant_is_chosen_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    five = arena.parse_arena(["--bots", "hard,easy", "--variant", "five-card"], game="cribbage")[0]
    assert isinstance(five, ca.CribbageArena)
    assert (five.options.variant, five.options.target) == (Variant.FIVE_CARD, 61)
    three = arena.parse_arena(["--bots", "hard,easy,medium", "--variant", "three-player"], game="cribbage")[0]
    assert isinstance(three, ca.CribbageArena) and three.bots == 3
    data = run_json(capsys, "--bots", "easy,medium", "--games", "2", "--jobs", "1", "--variant", "partnership")
    assert data["variant"] == "partnership" and data["games"] == 2
    plain = run_json(capsys, "--bots", "easy,medium", "--games", "2", "--jobs", "1")
    assert "variant" not in plain  # the two-player report as before
    for args, words in (
        (["--bots", "hard,easy", "--variant", "three-player"], "of three players needs exactly 3 bots, not 2"),
        (["--bots", "hard,easy,easy", "--variant", "partnership"], "needs exactly 2 bots, not 3"),
    ):
        with pytest.raises(SystemExit):
            arena.parse_arena(args, game="cribbage")
        assert words in capsys.readouterr().err
    with pytest.raises(SystemExit):
        arena.parse_arena(["--bots", "hard,easy", "--variant", "five-card"])
    assert "--variant is a variant of classic cribbage" in capsys.readouterr().err


def test_a_variants_text_report_names_it_and_its_lurch(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--game", "cribbage", "--bots", "medium,easy", "--games", "2", "--jobs", "1", "--variant", "five-card"]
    assert arena.main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("Crib Tiles cribbage arena: medium vs easy, 2 games (1 paired deals, seats swapped), seed 1")
    assert ", five-card, to 61" in out.splitlines()[0] and "loser under 31 (no double in a game to 61)" in out
