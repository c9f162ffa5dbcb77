"""The games of classic cribbage in the one history (schema 5: a row of `games`, its seats, its details
and counts): stored once each in one transaction and read back whole beside the tile games, a version-2
history upgraded with its games and puzzles kept, rows edited by hand left out and said, a damaged
history set aside without losing the game being recorded."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

from cribtiles.app.history import HISTORY_FILE, MIGRATIONS, History
from cribtiles.cribbage.events import MarginKind
from cribtiles.table.cribbage.ledger import cribbage_statistics, summarize_cribbage
from cribtiles.table.game_summary import Counting, CribbageDetails, Game, GameSummary, Result, ShowCount
from tests.app.test_history import asides, integrity, store_as_before_unfinished, summary
from tests.table.cribbage.test_ledger import played


def cribbage(n: int, level: str = "medium") -> GameSummary:
    """Game number `n`: a whole game of seed `n`, the person at seat n % 2."""
    return summarize_cribbage(played(n), n % 2, level, f"2026-12-{1 + n % 28:02d}T09:{n % 60:02d}:00")


def sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()


def version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_games_of_cribbage_are_stored_once_and_read_back_whole(tmp_path: Path) -> None:
    h = History(tmp_path / HISTORY_FILE)
    games = [cribbage(n, ("easy", "medium", "hard")[n % 3]) for n in range(5)]
    assert [h.add(g) for g in games] == [1, 2, 3, 4, 5]
    assert h.add(games[2]) == 3  # the same game again: the stored one's id, nothing added
    assert h.add(replace(games[3], finished_at="2027-01-01T00:00:00")) == 4  # its key, not its time
    assert h.add(summary(1)) == 6  # a tile game beside them, numbered after them
    assert h.games() == [*(replace(g, id=i) for i, g in enumerate(games, 1)), replace(summary(1), id=6)]
    assert h.game(2) == replace(games[1], id=2) and h.game(7) is None
    assert h.stats().cribbage == cribbage_statistics(games) and h.stats().games == 1
    assert h.messages == [] and h.read_ok
    conn = sqlite3.connect(tmp_path / HISTORY_FILE)
    assert conn.execute("SELECT count(*) FROM games WHERE game = 'cribbage'").fetchone()[0] == 5
    assert conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 2 * 5 + len(summary(1).seats)
    counts = sum(len(g.cribbage.shows) for g in games)
    assert conn.execute("SELECT count(*) FROM cribbage_counts").fetchone()[0] == counts
    conn.close()
    assert integrity(tmp_path / HISTORY_FILE) == ["ok"]


def test_a_version_2_history_is_upgraded_and_keeps_its_games_and_puzzles(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    store_as_before_unfinished(path, [summary(n) for n in range(4)], version=2)  # before classic cribbage
    old = History(path, migrations=MIGRATIONS[:2])
    old.mark_solved("p-7", 24, "2026-10-01T10:00:00")
    old.close()
    assert version(path) == 2

    new = History(path)
    assert new.games() == [replace(summary(n), id=n + 1) for n in range(4)]
    assert version(path) == len(MIGRATIONS)
    assert new.solved_puzzles() == {"p-7": 24}
    assert new.add(cribbage(1)) == 5 and new.add(summary(4)) == 6
    assert [g.game for g in new.games()] == [Game.TILES] * 4 + [Game.CRIBBAGE, Game.TILES]
    assert new.game(5) == replace(cribbage(1), id=5)
    assert new.messages == [] and asides(tmp_path) == []
    new.close()
    assert integrity(path) == ["ok"]


def test_a_cribbage_game_written_wrong_by_hand_is_left_out_and_said(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    h = History(path)
    for n in range(5):
        h.add(cribbage(n))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE cribbage_details SET margin = 'trounced' WHERE game_id = 2")
    conn.execute("UPDATE cribbage_counts SET cards = '5H 5D' WHERE game_id = 3 AND deal = 1 AND step = 0")
    conn.execute("UPDATE seats SET score = 'lots' WHERE game_id = 4 AND seat = 0")
    conn.commit()
    conn.close()
    assert h.games() == [replace(cribbage(0), id=1), replace(cribbage(4), id=5)]
    assert h.messages == [
        "Game 2 of the history could not be read (its margin 'trounced' is not win, skunk or double skunk); "
        "it is left out.",
        "Game 3 of the history could not be read "
        "(a count of its show does not name three or four cards and a starter); it is left out.",
        "Game 4 of the history could not be read (its score is not a whole number); it is left out.",
    ]
    sql(path, "UPDATE games SET game = 'go' WHERE id = 1", "DELETE FROM cribbage_details WHERE game_id = 5")
    assert h.take_messages() and h.games() == []
    assert h.messages == [
        "5 games of the history could not be read "
        "(game 1: its game 'go' is not one this version of Crib Tiles knows, …); they are left out."
    ]
    sql(path, "UPDATE games SET game = 'cribbage' WHERE id = 1", "DELETE FROM games WHERE id IN (2, 3, 4)")
    assert h.take_messages() and h.games() == [replace(cribbage(0), id=1)]
    assert h.messages == [
        "Game 5 of the history could not be read (it has 0 rows of cribbage_details, not one); it is left out."
    ]
    assert h.read_ok and asides(tmp_path) == []


def test_a_damaged_history_is_set_aside_and_the_cribbage_game_goes_into_a_fresh_one(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    h = History(path)
    h.add(summary(0))
    h.close()
    path.write_bytes(b"this is not a database, it was a history once" * 100)
    again = History(path)
    assert again.add(cribbage(2)) == 1
    assert len(asides(tmp_path)) == 1
    assert again.messages[0].startswith("The history of your games could not be used (it is not a database)")
    assert again.games() == [replace(cribbage(2), id=1)]


def test_a_game_whose_storing_fails_is_stored_whole_or_not_at_all(tmp_path: Path) -> None:
    """One transaction per game: a show row that breaks the table's key rolls the game's row back too."""
    path = tmp_path / HISTORY_FILE
    h = History(path)
    g = cribbage(5)
    d = g.cribbage
    twice = replace(g, details=replace(d, shows=(*d.shows, d.shows[0])))  # (game, deal, step) twice: it fails
    assert h.add(twice) == 0
    assert h.messages == [
        "This game of cribbage could not be added to the history of your games "
        "(UNIQUE constraint failed: cribbage_counts.game_id, cribbage_counts.deal, cribbage_counts.step)."
    ]
    assert h.games() == [] and asides(tmp_path) == []
    conn = sqlite3.connect(path)
    assert [conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("games", "seats")] == [0, 0]
    conn.close()
    assert h.add(g) == 1 and h.games() == [replace(g, id=1)]


# --- the Store and the NoKeeper around it ---


def test_the_store_records_a_finished_game_once_and_a_game_in_play_never(tmp_path: Path) -> None:
    from cribtiles.app.storage import Store
    from cribtiles.cribbage import new_game
    from cribtiles.ui.config import NoKeeper

    state = played(0)
    for keeper in (Store(tmp_path), NoKeeper()):
        keeper.record_cribbage(new_game(3), 0, "medium")  # still being played: nothing
        keeper.record_cribbage(state, 0, "medium")
        keeper.record_cribbage(state, 0, "medium")  # resumed at its end and recorded again: known by its key
        (g,) = keeper.past_games()
        assert (g.id, g.game, g.scores, g.opponent, g.person) == (1, "cribbage", (121, 93), "medium", 0)
        assert keeper.statistics().cribbage.games == 1 and keeper.statistics().games == 0
        total = keeper.statistics().cribbage.total
        assert total is not None and (total.games, total.wins, total.average_score) == (1, 1, 121.0)
        assert getattr(keeper, "errors", []) == []


def test_a_game_of_cribbage_that_cannot_be_stored_just_now_is_kept_and_stored_later(tmp_path: Path) -> None:
    """Another program holds the lock: the game is kept in a file of its rows (kind 'finished', as a tile
    game's), and goes in whole, counts and all, at the next read that can write."""
    path = tmp_path / HISTORY_FILE
    History(path).add(summary(0))
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    h = History(path, timeout=0.2)
    try:
        assert h.add(cribbage(3)) == 0
        assert h.take_messages()[0].startswith("This game of cribbage could not be added to the history")
        (kept,) = tmp_path.glob("history.pending-finished-*.json")
        assert '"cribbage_counts"' in kept.read_text(encoding="utf-8")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert h.games() == [replace(summary(0), id=1), replace(cribbage(3), id=2)]
    assert h.messages == ["The history of your games can be written again: 1 game kept for it is in it now."]
    assert list(tmp_path.glob("history.pending-*")) == []


def test_hints_are_kept_and_a_write_kept_before_schema_6_reads_without_them(tmp_path: Path) -> None:
    from cribtiles.app.history_rows import rows_of, summary_of

    game = cribbage(4)
    game = replace(game, details=replace(game.cribbage, hints=2))
    h = History(tmp_path / HISTORY_FILE)
    stored = h.add(game)
    assert h.game(stored) == replace(game, id=stored) and h.game(stored).cribbage.hints == 2  # type: ignore[union-attr]
    row, children = rows_of(game)
    old = {**children, "cribbage_details": tuple(r[:-2] for r in children["cribbage_details"])}  # no marks then
    assert (summary_of(row, old).cribbage.undos, summary_of(row, old).cribbage.hints) == (0, 0)
    assert summary_of(row, children) == game


def test_a_game_of_cribbage_with_undos_is_marked_and_counted_apart(tmp_path: Path) -> None:
    """Issue 32: the moves taken back and hints asked for are kept with the game (schema 6), shown beside
    it, and its figures are counted apart from the games without them, as the tile game's."""
    from cribtiles.app.history_cli import cribbage_text, stats_text
    from cribtiles.app.storage import Store
    from cribtiles.ui.cribbage.history_row import cribbage_marks

    keeper = Store(tmp_path)
    keeper.record_cribbage(played(0), 0, "medium", (2, 1))
    keeper.record_cribbage(played(2), 0, "medium")
    marked, clean = sorted(keeper.past_games(), key=lambda g: g.cribbage.undos, reverse=True)
    assert (marked.cribbage.undos, marked.cribbage.hints, marked.cribbage.marked) == (2, 1, True)
    assert not clean.cribbage.marked
    assert "2 undos, 1 hint" in cribbage_text(marked) and cribbage_marks(marked).endswith("2 undos, 1 hint")
    stats = keeper.statistics().cribbage
    assert stats.total is not None and stats.marked_total is not None
    assert (stats.games, stats.total.games, stats.marked_total.games) == (2, 1, 1)
    assert "Games of cribbage with undos or hints:" in stats_text(keeper.statistics())
    assert version(tmp_path / HISTORY_FILE) == len(MIGRATIONS) == 8


# --- schema 7: the counting and the muggins calls beside a game's details ---


def test_the_counting_and_the_calls_are_stored_and_read_back(tmp_path: Path) -> None:
    from cribtiles.cribbage import CribbageOptions, new_game
    from cribtiles.table.game_summary import Counting
    from tests.table.cribbage.test_ledger_figures import FIRST_DEAL, finished

    muggins = finished(new_game(1, options=CribbageOptions(muggins=True)), *FIRST_DEAL, "count 1", "muggins")
    by_hand = finished(new_game(2, options=CribbageOptions(manual_count=True)))
    games = [summarize_cribbage(s, 0, "hard", "2026-12-03T10:00:00") for s in (muggins, by_hand)]
    h = History(tmp_path / HISTORY_FILE)
    assert [h.add(g) for g in games] == [1, 2]
    back = h.games()
    assert back == [replace(g, id=i) for i, g in enumerate(games, 1)]
    assert [(g.cribbage.counting, g.cribbage.muggins_won) for g in back] == [
        (Counting.MUGGINS, (0, 1)),
        (Counting.MANUAL, (0, 0)),
    ]
    h.close()
    sql(tmp_path / HISTORY_FILE, "UPDATE cribbage_figures SET counting = 'guess' WHERE game_id = 2")
    again = History(tmp_path / HISTORY_FILE)
    assert [g.id for g in again.games()] == [1]  # a row edited by hand: that game left out, and said
    assert again.messages and "counting" in again.messages[0]


def test_a_history_of_schema_6_gains_the_figures_table_and_its_games_count_where_they_can(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    old = History(path, migrations=MIGRATIONS[:6])  # schema 6 (the marks): the last before the figures
    before = [
        replace(cribbage(n), details=replace(cribbage(n).cribbage, counting=None, muggins_won=None)) for n in (1, 2)
    ]
    before = [replace(before[0], details=replace(before[0].cribbage, muggins=True)), before[1]]
    assert [old.add(g) for g in before] == [1, 2]
    old.close()
    assert version(path) == 6
    h = History(path)
    new = cribbage(3)
    assert h.add(new) == 3 and h.messages == []
    games = h.games()
    assert version(path) == len(MIGRATIONS) == 8 and integrity(path) == ["ok"]
    assert games == [*(replace(g, id=i) for i, g in enumerate(before, 1)), replace(new, id=3)]
    assert [g.cribbage.muggins_won for g in games] == [None, None, (0, 0)]
    total = h.stats().cribbage.total
    assert total is not None and total.games == 3 and total.muggins_games == 0  # no calls kept before schema 7
    h.close()
    assert History(path).games() == games  # opened again: the schema check passes


# --- schema 8: the variants ---


def variant_game(n: int, variant: str) -> GameSummary:
    """A hand-made finished game of `variant` (its figures made up, each seat's its own), the person at 0."""
    seats: tuple[tuple[str, str | None], ...] = (("You", None), ("Easy bot", "easy"))
    scores: tuple[int, ...] = (61, 40)
    winners: tuple[int, ...] = (0,)
    cards = "5H 5D JC" if variant == "five-card" else "5H 5D 5S JC"
    if variant == "three-player":
        seats, scores = (*seats, ("Hard bot", "hard")), (121, 90, 100)
    elif variant == "partnership":
        seats = (*seats, ("North", "medium"), ("Hard bot", "hard"))
        scores, winners = (121, 80, 121, 80), (0, 2)
    players = len(seats)
    shows = tuple(
        ShowCount(1, step, (1 + step) % players, step == players, cards if step < players else "5H 5D 5S JC",
                  "5C", 12 + step, 12 + step)
        for step in range(players + 1)
    )  # fmt: skip
    details = CribbageDetails(
        False,
        61 if variant == "five-card" else 121,
        MarginKind.SKUNK if variant == "five-card" else MarginKind.WIN,
        5 + n,
        tuple(10 + seat for seat in range(players)),
        shows,
        counting=Counting.MUGGINS,
        muggins_won=tuple(seat for seat in range(players)),
        variant=variant,
    )
    return GameSummary(0, f"v{n}", Game.CRIBBAGE, f"2026-12-03T10:{n:02d}:00", n, seats, scores, winners, "{}", details)


def test_a_history_of_schema_7_gains_the_variants_and_its_games_stay_six_card(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    old = History(path, migrations=MIGRATIONS[:7])  # schema 7 (the figures): the last before the variants
    assert [old.add(cribbage(n)) for n in (1, 2)] == [1, 2]
    old.close()
    assert version(path) == 7
    h = History(path)
    variants = [variant_game(n, v) for n, v in enumerate(("three-player", "partnership", "five-card"), 3)]
    assert [h.add(g) for g in variants] == [3, 4, 5] and h.messages == []
    assert version(path) == len(MIGRATIONS) == 8 and integrity(path) == ["ok"]
    games = h.games()
    assert games == [replace(cribbage(1), id=1), replace(cribbage(2), id=2), *(
        replace(g, id=i) for i, g in enumerate(variants, 3))]  # fmt: skip
    assert [g.cribbage.variant for g in games] == ["six-card", "six-card", "three-player", "partnership", "five-card"]
    assert games[3].cribbage.pegged == (10, 11, 12, 13) and games[3].cribbage.muggins_won == (0, 1, 2, 3)
    assert [g.result for g in games[2:]] == [Result.WIN] * 3  # partners win together: the person's side won
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT game_id, variant FROM cribbage_variants ORDER BY game_id").fetchall() == [
        (3, "three-player"), (4, "partnership"), (5, "five-card")]  # fmt: skip
    conn.close()
    stats = h.stats().cribbage
    assert stats.games == 5 and stats.total is not None and stats.total.games == 2  # six-card figures alone
    assert stats == replace(cribbage_statistics(games[:2]), games=5, variants=stats.variants)
    assert [(line.level, line.games, line.wins) for line in stats.variants] == [
        ("five-card", 1, 1), ("three-player", 1, 1), ("partnership", 1, 1)]  # fmt: skip
    assert stats.variants[1].average_pegged == 10 and stats.variants[2].muggins_won == 0
    assert stats.variants[2].muggins_lost == 1 + 3  # the other side's calls, not the partner's
    h.close()
    assert History(path).games() == games  # opened again: the schema check passes


def test_a_variant_row_written_wrong_by_hand_is_left_out_and_said(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    h = History(path)
    h.add(variant_game(1, "three-player"))
    sql(path, "UPDATE cribbage_variants SET variant = 'six-card'")
    assert h.games() == [] and "is not one besides six-card" in h.messages[0]
