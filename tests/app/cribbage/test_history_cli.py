"""`cribtiles history` and `cribtiles stats` with games of classic cribbage: their own section of the
listing and of the statistics, in text and in JSON, beside the tile games'."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cribtiles.app.history import HISTORY_FILE, History
from cribtiles.cribbage import MarginKind
from cribtiles.table.game_summary import GameSummary, ShowCount
from tests.app.cribbage.test_history import cribbage
from tests.app.test_history_cli import run
from tests.table.cribbage.test_ledger import game, show


def add(folder: Path, *games: GameSummary) -> None:
    h = History(folder / HISTORY_FILE)
    for g in games:
        assert h.add(g) > 0
    h.close()


def made(key: str, scores: tuple[int, int], level: str = "medium", **kw: object) -> GameSummary:
    return replace(game(scores, level=level, **kw), key=key, finished_at="2026-12-01T09:00:00")  # type: ignore[arg-type]


def ruled(g: GameSummary, **details: object) -> GameSummary:
    """`g` with its cribbage details changed."""
    return replace(g, details=replace(g.cribbage, **details))  # type: ignore[arg-type]


def test_the_listing_has_a_section_for_cribbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add(
        tmp_path,
        made("a", (121, 84)),
        ruled(made("b", (100, 121), "hard", person=1), muggins=True),
        ruled(made("c", (61, 60), "easy"), target=61, margin=MarginKind.WIN),
    )
    code, text, err = run(capsys, "history", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        "3 games of classic cribbage, the newest last:",
        "   1  2026-12-01 09:00  cribbage   You 121, Bot [medium] 84  -  You won, a skunk",
        "   2  2026-12-01 09:00  cribbage   Bot [hard] 100, You 121  -  You won  (muggins)",
        "   3  2026-12-01 09:00  cribbage   You 61, Bot [easy] 60  -  You won  (to 61)",
    ]


def test_the_json_listing_holds_every_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = cribbage(0)
    add(tmp_path, g)
    code, text, _ = run(capsys, "history", "--json", "--data-dir", str(tmp_path))
    data = json.loads(text)
    assert code == 0 and data["games"] == []
    (listed,) = data["cribbage_games"]
    assert {k: v for k, v in listed.items() if k != "shows"} == {
        "id": 1, "game": "cribbage", "key": g.key, "finished_at": g.finished_at, "seed": 0, "level": "medium",
        "muggins": False,
        "target": 121, "players": [{"name": "You", "level": None}, {"name": "Medium bot", "level": "medium"}],
        "scores": [121, 93], "winner": 0, "result": "win", "margin": "win", "deals": 10, "pegged": [31, 31],
        "undos": 0, "hints": 0,
        "counting": "auto", "muggins_won": [0, 0],
    }  # fmt: skip
    assert len(listed["shows"]) == 30
    assert listed["shows"][2] == {
        "deal": 1, "step": 2, "owner": 1, "crib": True, "cards": "AH 2C 4C 6C", "starter": "3H", "points": 6,
        "declared": 6,
    }  # fmt: skip


def test_the_statistics_of_cribbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    best = ShowCount(2, 1, 0, False, "7C 8C 8D 9S", "7D", 24, 24)
    add(
        tmp_path,
        made("1", (121, 80), shows=(show(12), best, show(7, crib=True)), pegged=(30, 20)),
        made("2", (55, 121), shows=(show(4), show(3, crib=True)), pegged=(12, 40)),
        made("3", (88, 121), "hard", pegged=(20, 50)),
    )
    code, text, err = run(capsys, "stats", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        "Classic cribbage (hand and crib: your average show; pegged: your points in the play, a game):",
        "opponent  games  won  lost  win %  by the book  skunks given  skunks taken  average score  average hand"
        "  best hand  average crib  pegged a game  streak",
        "medium        2    1     1    50%          2–3             1         1 (1)           88.0          13.3"
        "         24           5.0           21.0       1",
        "hard          1    0     1     0%          0–2             0             1           88.0             -"
        "          -             -           20.0       0",
        "all           3    1     2    33%          2–5             1         2 (1)           88.0          13.3"
        "         24           5.0           20.7       1",
        "By the book: won–lost, a skunk two games, a double skunk three. Skunks 2 (1): two, one double.",
        "Your best hand: 24, 7C 8C 8D 9S with 7D.",
        "",
        "Hands, pegging and counting:",
        "opponent  deals  pegged a deal  hands  cribs  best crib  24 and over  29s  points missed  muggins games"
        "  muggins taken  muggins against  counts corrected",
        # 8 deals a hand-made game; pegged 30 + 12 in 16 deals, 20 in 8, 62 in 24; the 24 of game 1
        "medium       16           2.62      3      2          7            1    0              0              0"
        "              -                -                 -",
        "hard          8           2.50      0      0          -            0    0              0              0"
        "              -                -                 -",
        "all          24           2.58      3      2          7            1    0              0              0"
        "              -                -                 -",
        "Muggins taken: by your calls; against: by the bot's, over the Muggins games stored with them. Corrected:"
        " your wrong counts, counting by hand.",
    ]
    code, text, _ = run(capsys, "stats", "--json", "--data-dir", str(tmp_path))
    data = json.loads(text)["cribbage"]
    assert data["games"] == 3 and [line["level"] for line in data["lines"]] == ["medium", "hard"]
    assert data["total"] == {
        "level": "all", "games": 3, "wins": 1, "losses": 2, "win_rate": 0.3333, "skunks_given": 1,
        "double_skunks_given": 0, "skunks_taken": 2, "double_skunks_taken": 1, "average_score": 88.0, "hands": 3,
        "average_hand": 13.33, "best_hand": 24, "best_hand_cards": "7C 8C 8D 9S with 7D", "cribs": 2,
        "average_crib": 5.0, "best_crib": 7, "average_pegged": 20.67, "missed": 0, "longest_streak": 1,
        "deals": 24, "average_pegged_deal": 2.58, "big_hands": 1, "twenty_nines": 0, "muggins_games": 0,
        "muggins_won": 0, "muggins_lost": 0, "manual_games": 0, "corrected": 0,
    }  # fmt: skip
    assert data["lines"][1]["average_hand"] is None and data["lines"][1]["best_hand"] is None


def test_tile_games_and_cribbage_side_by_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.app.test_history import summary

    h = History(tmp_path / HISTORY_FILE)
    h.add(replace(summary(1), finished_at="2026-11-02T12:01:00"))
    h.close()
    add(tmp_path, made("x", (121, 100)))
    _, text, _ = run(capsys, "history", "--data-dir", str(tmp_path))
    lines = text.splitlines()
    assert lines[0] == "1 game, the newest last:" and lines[2:4] == ["", "1 game of classic cribbage, the newest last:"]
    _, text, _ = run(capsys, "stats", "--data-dir", str(tmp_path))
    assert text.splitlines()[0] == "Games without undos or hints:"
    assert "Classic cribbage (hand and crib: your average show; pegged: your points in the play, a game):" in text


def test_a_game_played_with_hints_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add(tmp_path, ruled(made("h", (121, 84)), hints=2), ruled(made("n", (84, 121)), hints=0))
    _, text, _ = run(capsys, "history", "--data-dir", str(tmp_path))
    lines = [line for line in text.splitlines() if " cribbage " in line]
    assert len(lines) == 2 and lines[0].endswith("(2 hints)") and "hint" not in lines[1]
    _, listing, _ = run(capsys, "history", "--json", "--data-dir", str(tmp_path))
    assert [g["hints"] for g in json.loads(listing)["cribbage_games"]] == [2, 0]
