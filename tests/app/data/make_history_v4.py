"""Makes `history_v4.sqlite3`, the history a Crib Tiles of schema 4 (before issue 30 brought both games into
one `games` table) wrote, and what that version's `cribtiles history --json` and `stats --json` (and their
text) printed for it. Run once with that version's code, from a checkout of it (commit 9c2bb8a):

    cd <checkout of 9c2bb8a> && python <this file> <output folder>

It holds tile games (a game against a bot, a match of two rounds, one of bots only, one kept unfinished, a
game with undos and hints), three games of classic cribbage (one with muggins), and a solved puzzle.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from cribtiles.app.history import History, history_path
from cribtiles.rules import RuleOptions
from cribtiles.table.cribbage.ledger import summarize_cribbage
from cribtiles.table.ledger import summarize
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.table import Table
from tests.table.cribbage.test_ledger import played as played_cribbage
from tests.table.test_ledger import greedy_move, played


def unfinished_match() -> Table:
    table = Table.new([Seat.person("You"), Seat.bot("easy")], RuleOptions(rounds=3), 1)
    rng = random.Random(1)
    while not table.round_over:
        move = greedy_move(table.view(table.to_move or 0), rng)
        table.play_bot(move) if table.bot_to_move else table.play(move)
    table.next_round()
    move = greedy_move(table.view(table.to_move or 0), rng)
    table.play_bot(move) if table.bot_to_move else table.play(move)
    return table


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    path = history_path(out)
    h = History(path)
    marked = played([Seat.person("Ann"), Seat.bot("hard")], RuleOptions(), 4)
    marked.undos, marked.hints = 2, 1
    tiles = [
        (played([Seat.person("You"), Seat.bot("medium")], RuleOptions(), 7), "2026-11-20T10:00:00", False),
        (
            played([Seat.person("Ann"), Seat.bot("easy")], RuleOptions.parse("rounds=2"), 5),
            "2026-11-21T11:00:00",
            False,
        ),
        (played([Seat.bot("easy"), Seat.bot("beginner")], RuleOptions(), 2), "2026-11-22T12:00:00", False),
        (marked, "2026-11-23T13:00:00", False),
        (unfinished_match(), "2026-11-24T14:00:00", True),
    ]
    for table, when, left in tiles:
        assert h.add(summarize(table, when, unfinished=left)) > 0
    for n, (seed, person, level, muggins) in enumerate(
        ((3, 0, "easy", False), (8, 1, "hard", True), (11, 0, "medium", False))
    ):
        game = summarize_cribbage(
            played_cribbage(seed, muggins=muggins, short=1 if muggins else 0),
            person,
            level,
            f"2026-11-2{5 + n}T09:00:00",
        )
        assert h.add_cribbage(game) > 0
    assert h.mark_solved("s1t5", 24, "2026-11-28T08:00:00")
    assert h.messages == [], h.messages
    h.close()
    for command in ("history", "stats"):
        for extra, suffix in (([], "txt"), (["--json"], "json")):
            done = subprocess.run(
                [sys.executable, "-m", "cribtiles", command, *extra, "--data-dir", str(out)],
                capture_output=True,
                text=True,
                check=True,
            )
            (out / f"history_v4.{command}.{suffix}").write_text(done.stdout, encoding="utf-8")
    path.rename(out / "history_v4.sqlite3")
    for log in out.glob("*.log"):
        log.unlink()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
