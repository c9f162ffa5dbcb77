"""Migration 5 on a history that the Crib Tiles before it wrote (`data/history_v4.sqlite3`, made by
`data/make_history_v4.py` with that version's code): both games in one `games` table, every game read
back with the summary its own record makes, `history` and `stats` printing what that version printed
(the games of cribbage numbered after the tile games now), and the writes that version kept for later
(`history.pending-game-*`, `history.pending-cribbage-*`) stored still."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from cribtiles.app.history import HISTORY_FILE, MIGRATIONS, History
from cribtiles.app.history_pending import Pending, keep
from cribtiles.cribbage.record import replay
from cribtiles.table.cribbage.ledger import summarize_cribbage
from cribtiles.table.game_summary import Game, GameSummary
from cribtiles.table.ledger import summarize
from cribtiles.table.saves import save_table
from cribtiles.table.tiles.saved import load_table
from tests.app.test_history import integrity
from tests.app.test_history_cli import run

DATA = Path(__file__).parent / "data"
OLD = DATA / "history_v4.sqlite3"
TILE_GAMES, CRIBBAGE_GAMES = 5, 3


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A data folder holding a copy of the version-4 history."""
    shutil.copyfile(OLD, tmp_path / HISTORY_FILE)
    return tmp_path


def expected(command: str, suffix: str) -> str:
    return (DATA / f"history_v4.{command}.{suffix}").read_text(encoding="utf-8")


def tables(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    finally:
        conn.close()


def test_the_fixture_is_a_history_of_schema_4() -> None:
    conn = sqlite3.connect(f"file:{OLD}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 4 < len(MIGRATIONS)
        counts = [conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("games", "cribbage_games")]
        assert counts == [TILE_GAMES, CRIBBAGE_GAMES]
    finally:
        conn.close()


def rebuilt(g: GameSummary) -> GameSummary:
    """The summary `g`'s own record makes again (as when the game ended), numbered as `g`."""
    if g.game is Game.TILES:
        table = load_table(g.record)
        again = summarize(table, g.finished_at, unfinished=g.unfinished)
        # a summary made today writes today's save format: the same game as the older record it was stored in
        assert save_table(load_table(again.record)) == save_table(table)
        again = replace(again, record=g.record)
    else:
        again = summarize_cribbage(replay(json.loads(g.record)), g.person, g.opponent, g.finished_at)
        # schema 6's figures were not stored before it: the counting is known from the muggins mark
        assert g.cribbage.counting is None and g.cribbage.counting_rule is again.cribbage.counting
        again = replace(again, details=replace(again.cribbage, counting=None, muggins_won=None))
    return replace(again, id=g.id)


def test_every_game_is_moved_into_the_one_table_and_reads_back_whole(folder: Path) -> None:
    h = History(folder / HISTORY_FILE)
    games = h.games()
    assert h.messages == [] and h.read_ok
    assert [(g.id, g.game) for g in games] == [
        *((n, Game.TILES) for n in range(1, TILE_GAMES + 1)),  # the tile games keep their numbers
        *((n, Game.CRIBBAGE) for n in range(TILE_GAMES + 1, TILE_GAMES + CRIBBAGE_GAMES + 1)),
    ]
    assert [g for g in games if g.unfinished] == [games[4]] and games[1].tiles.rounds == 2
    assert [g.cribbage.muggins for g in games[TILE_GAMES:]] == [False, True, False]
    assert {g.cribbage.variant for g in games[TILE_GAMES:]} == {"six-card"}  # the only one there was
    for g in games:
        assert rebuilt(g) == g, g.id
    assert h.solved_puzzles() == {"s1t5": 24}
    h.close()
    path = folder / HISTORY_FILE
    assert tables(path) == [
        "cribbage_counts",
        "cribbage_details",
        "cribbage_figures",  # schema 6: empty for the games stored before it
        "cribbage_variants",  # schema 8: empty for six-card games, every game stored before it
        "games",
        "puzzles",
        "seats",
        "tile_details",
    ]
    assert integrity(path) == ["ok"]
    again = History(path)  # opened again: its schema is the one the migrations make
    assert again.games() == games and again.messages == []


def test_history_and_stats_print_what_the_version_before_printed(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, stats, _ = run(capsys, "stats", "--data-dir", str(folder))
    before = expected("stats", "txt")
    assert stats.startswith(before)  # then schema 6's table of hands, pegging and counting
    assert stats[len(before) :].startswith("\nHands, pegging and counting:\nopponent  deals  pegged a deal")
    _, stats_json, _ = run(capsys, "stats", "--json", "--data-dir", str(folder))
    now_stats, old_stats = json.loads(stats_json), json.loads(expected("stats", "json"))
    # issue 32: cribbage's games with undos or hints apart (none were before)
    assert now_stats["cribbage"].pop("marked_lines") == [] and now_stats["cribbage"].pop("marked_total") is None
    for line in (*now_stats["cribbage"]["lines"], now_stats["cribbage"]["total"]):
        assert line["muggins_games"] == 0  # the calls were not stored before schema 7
        for name in ("deals", "average_pegged_deal", "big_hands", "twenty_nines", "muggins_games", "muggins_won",
                     "muggins_lost", "manual_games", "corrected"):  # fmt: skip
            del line[name]
    assert now_stats == old_stats
    # the games of cribbage are numbered after the tile games: one numbering for both
    _, text, _ = run(capsys, "history", "--data-dir", str(folder))
    old = expected("history", "txt").splitlines()
    renumbered = [re.sub(r"^ +(\d) ", lambda m: f"   {int(m[1]) + TILE_GAMES} ", line) for line in old[-3:]]
    assert text.splitlines() == [*old[:-3], *renumbered]
    _, listing, _ = run(capsys, "history", "--json", "--data-dir", str(folder))
    now, before = json.loads(listing), json.loads(expected("history", "json"))
    assert [g.pop("game") for g in now["games"]] == ["tiles"] * TILE_GAMES
    assert [g.pop("game") for g in now["cribbage_games"]] == ["cribbage"] * CRIBBAGE_GAMES
    assert [g.pop("id") for g in now["cribbage_games"]] == [6, 7, 8]
    assert [g.pop("id") for g in before["cribbage_games"]] == [1, 2, 3]
    assert [(g.pop("undos"), g.pop("hints")) for g in now["cribbage_games"]] == [(0, 0)] * CRIBBAGE_GAMES  # issue 32
    assert [g.pop("muggins_won") for g in now["cribbage_games"]] == [None] * CRIBBAGE_GAMES  # not stored then
    assert [g.pop("counting") for g in now["cribbage_games"]] == ["auto", "muggins", "auto"]
    assert now == before


def old_rows(table: str, children: str, order: str) -> list[tuple[tuple[object, ...], list[tuple[object, ...]]]]:
    """Each row of `table` in the version-4 history with its rows of `children` (without the game's id)."""
    conn = sqlite3.connect(f"file:{OLD}?mode=ro", uri=True)
    try:
        out = []
        for row in conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall():
            kids = conn.execute(f"SELECT * FROM {children} WHERE game_id = ? ORDER BY {order}", (row[0],))
            out.append((tuple(row), [tuple(k[1:]) for k in kids.fetchall()]))
        return out
    finally:
        conn.close()


def test_the_writes_the_version_before_kept_for_later_are_stored(folder: Path, tmp_path: Path) -> None:
    """A game that version could not store (a full disk) was kept in a file of its rows as they were then:
    the first history that can be written takes it, as that version's migration would have."""
    migrated = History(folder / HISTORY_FILE).games()
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    tile = old_rows("games", "seats", "seat")
    cribbage = old_rows("cribbage_games", "cribbage_shows", "deal, step")
    # the columns of `games` at version 4: the unfinished mark last, added by migration 4
    for kind, rows in (("game", tile[1:2] + tile[4:5]), ("cribbage", cribbage[1:2])):
        for row, kids in rows:
            keep(fresh, Pending(kind, str(row[1]), row, tuple(kids)))
    assert len(list(fresh.glob("history.pending-*.json"))) == 3
    h = History(fresh / HISTORY_FILE)
    stored = h.games()
    assert h.messages == ["The history of your games can be written again: 3 games kept for it are in it now."]
    assert list(fresh.glob("history.pending-*")) == []
    by_key = {g.key: g for g in migrated}
    assert len(stored) == 3 and all(replace(g, id=by_key[g.key].id) == by_key[g.key] for g in stored)
    assert sorted(g.game for g in stored) == [Game.CRIBBAGE, Game.TILES, Game.TILES]


def test_a_kept_write_that_is_not_a_game_of_either_kind_is_set_aside(tmp_path: Path) -> None:
    keep(tmp_path, Pending("cribbage", "k", (1, 2, 3)))
    keep(tmp_path, Pending("finished", "f", (1, "f", "go", "t", "1", "", 0)))
    (tmp_path / "history.pending-game-deep.json").write_text("[" * 100_000)  # too deep for the JSON reader
    h = History(tmp_path / HISTORY_FILE)
    assert h.games() == [] and h.messages == []
    left = sorted(p.name for p in tmp_path.glob("history.pending-*"))
    assert len(left) == 3 and all(".damaged-" in name for name in left)
