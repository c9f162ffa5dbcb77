"""`cribtiles history` and `cribtiles stats`: the finished games and their statistics, from the history
database in the data folder (`--data-dir DIR`, or the user data folder).

They only read: they take no folder lock, so they work while a game is open on the same folder. A history
that is damaged is set aside (as the game would) and said on standard error; the exit code is then 0,
the history being empty and usable again. The exit code is 1 when the history is there but could not be
read (another program kept it locked, or a damaged one could not be moved), 2 for bad arguments.

`--json` prints one JSON document (UTF-8), stable from version to version (new keys may be added):

    cribtiles history --json
    {"format": "cribtiles-history", "version": 1, "games": [GAME, ...]}        oldest first
    GAME = {"id": 3, "key": "<sha256 hex of the game>", "finished_at": "2026-11-30T14:05:09",
            "mode": "standard" | "solitaire", "options": "start=low,exchange=when-stuck,...",
            "seed": 12, "players": [{"name": "You", "level": null}, {"name": "Hard", "level": "hard"}],
            "scores": [312, 298], "winners": [0], "rounds": 1, "turns": 41, "undos": 0, "hints": 0,
            "best_play": 36, "highest_line": 24, "opponent": "hard",
            "result": "win" | "tie" | "loss" | "people only" | "watched", "marked": false}
    (a game's full record, for replaying it, is kept in the database and not printed)

    cribtiles stats --json
    {"format": "cribtiles-stats", "version": 1, "games": 7, "watched": 1,
     "lines": [LINE, ...], "total": LINE | null, "marked_lines": [LINE, ...], "marked_total": LINE | null}
    LINE = {"mode": "standard", "opponent": "hard", "games": 3, "wins": 2, "losses": 1, "ties": 0,
            "win_rate": 0.6667 | null, "average_score": 301.33, "best_score": 350, "best_play": 36,
            "highest_line": 24, "longest_streak": 2, "best_margin": 12 | null, "matches": 1, "matches_won": 1}
    `lines` are the games without undos or hints, `marked_lines` those with them; "total" lines have mode
    and opponent "all"; `watched` counts games of bots only, which no line counts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from cribtiles.table.ledger import GameSummary, StatLine, Stats, statistics

from .history import History, history_path

HISTORY_FORMAT, STATS_FORMAT, JSON_VERSION = "cribtiles-history", "cribtiles-stats", 1


def _parser(command: str) -> argparse.ArgumentParser:
    what = "list the finished games, oldest first" if command == "history" else "statistics of the finished games"
    ap = argparse.ArgumentParser(prog=f"cribtiles {command}", description=f"Crib Tiles: {what}.")
    ap.add_argument("--json", action="store_true", help="print a JSON document (see the module's notes)")
    ap.add_argument("--data-dir", type=Path, help="the data folder (default: the user data folder)")
    return ap


def main(command: str, args: Sequence[str]) -> int:
    """`cribtiles history ...` or `cribtiles stats ...`; the exit code."""
    try:
        opts = _parser(command).parse_args(list(args))
    except SystemExit as e:  # --help, or arguments argparse refused (it has said why)
        return e.code if isinstance(e.code, int) else 2
    folder = opts.data_dir
    if folder is None:
        from .storage import default_data_dir

        folder = default_data_dir()
    if Path(folder).is_dir():  # never make a folder only to look into it
        from .logs import setup_logging

        setup_logging(Path(folder))
    history = History(history_path(Path(folder)))
    games = history.games()
    history.close()
    for message in history.take_messages():
        print(f"cribtiles: {message}", file=sys.stderr)
    if command == "history":
        print(json.dumps(history_json(games), indent=1) if opts.json else history_text(games))
    else:
        stats = statistics(games)
        print(json.dumps(stats_json(stats), indent=1) if opts.json else stats_text(stats))
    return 0 if history.read_ok else 1


# --- JSON ---


def game_json(g: GameSummary) -> dict[str, object]:
    return {
        "id": g.id,
        "key": g.key,
        "finished_at": g.finished_at,
        "mode": g.mode,
        "options": g.options,
        "seed": g.seed,
        "players": [{"name": name, "level": level} for name, level in g.seats],
        "scores": list(g.scores),
        "winners": list(g.winners),
        "rounds": g.rounds,
        "turns": g.turns,
        "undos": g.undos,
        "hints": g.hints,
        "best_play": g.best_play,
        "highest_line": g.highest_line,
        "opponent": g.opponent,
        "result": str(g.result),
        "marked": g.marked,
    }


def history_json(games: Sequence[GameSummary]) -> dict[str, object]:
    return {"format": HISTORY_FORMAT, "version": JSON_VERSION, "games": [game_json(g) for g in games]}


def line_json(line: StatLine | None) -> dict[str, object] | None:
    if line is None:
        return None
    data: dict[str, object] = asdict(line)
    data["average_score"] = round(line.average_score, 2)
    rate = line.win_rate
    data["win_rate"] = None if rate is None else round(rate, 4)
    return data


def stats_json(stats: Stats) -> dict[str, object]:
    return {
        "format": STATS_FORMAT,
        "version": JSON_VERSION,
        "games": stats.games,
        "watched": stats.watched,
        "lines": [line_json(line) for line in stats.lines],
        "total": line_json(stats.total),
        "marked_lines": [line_json(line) for line in stats.marked],
        "marked_total": line_json(stats.marked_total),
    }


# --- text ---

NO_GAMES = "No games yet: a game is listed here once it is played to its end."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def game_text(g: GameSummary) -> str:
    """One line: number, date, mode, players (bots with their level) and final scores, who won, marks.

    >>> g = GameSummary(4, "k", "2026-11-30T14:05:09", "standard", "", 1, (("You", None), ("Hard", "hard")),
    ...                 (312, 298), (0,), 1, 41, 2, 0, 36, 24, "")
    >>> game_text(g)
    '   4  2026-11-30 14:05  standard   You 312, Hard [hard] 298  -  You won  (2 undos)'
    """
    date = g.finished_at.replace("T", " ")[:16]
    mode = g.mode if g.rounds == 1 else f"{g.mode}, {g.rounds} rounds"
    players = ", ".join(
        f"{name}{'' if level is None else f' [{level}]'} {score}"
        for (name, level), score in zip(g.seats, g.scores, strict=True)
    )
    names = [g.seats[w][0] for w in g.winners]
    won = f"{names[0]} won" if len(names) == 1 else "tie: " + " and ".join(names)
    marks = [_plural(n, word) for n, word in ((g.undos, "undo"), (g.hints, "hint")) if n]
    return f"{g.id:>4}  {date}  {mode:<9}  {players}  -  {won}" + (f"  ({', '.join(marks)})" if marks else "")


def history_text(games: Sequence[GameSummary]) -> str:
    if not games:
        return NO_GAMES
    return "\n".join([f"{_plural(len(games), 'game')}, the newest last:", *(game_text(g) for g in games)])


_COLUMNS = (
    ("mode", "mode"),
    ("opponent", "opponent"),
    ("games", "games"),
    ("won", "wins"),
    ("lost", "losses"),
    ("tied", "ties"),
    ("win %", "win_rate"),
    ("average", "average_score"),
    ("best", "best_score"),
    ("best play", "best_play"),
    ("best line", "highest_line"),
    ("streak", "longest_streak"),
    ("margin", "best_margin"),
    ("matches won", "matches_won"),
)


def _cells(line: StatLine) -> list[str]:
    cells = []
    for _, name in _COLUMNS:
        if name == "win_rate":
            rate = line.win_rate
            cells.append("-" if rate is None else f"{100 * rate:.0f}%")
        elif name == "average_score":
            cells.append(f"{line.average_score:.1f}")
        elif name == "best_margin":
            cells.append("-" if line.best_margin is None else str(line.best_margin))
        elif name == "matches_won":
            cells.append(f"{line.matches_won}/{line.matches}" if line.matches else "-")
        elif name in ("wins", "losses", "ties", "longest_streak") and line.opponent == "people":
            cells.append("-")  # nobody to win against
        else:
            cells.append(str(getattr(line, name)))
    return cells


def _table(lines: Sequence[StatLine], total: StatLine | None) -> list[str]:
    rows = [[head for head, _ in _COLUMNS], *(_cells(line) for line in lines)]
    if total is not None and len(lines) > 1:
        rows.append(_cells(total))
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    out = []
    for row in rows:
        text = "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        out.append(text.rstrip())
    return out


def stats_text(stats: Stats) -> str:
    if not stats.games:
        return NO_GAMES
    out: list[str] = []
    if stats.lines:
        out += ["Games without undos or hints:", *_table(stats.lines, stats.total)]
    if stats.marked:
        out += ["", "Games with undos or hints:"] if out else ["Games with undos or hints:"]
        out += _table(stats.marked, stats.marked_total)
    if stats.watched:
        watched = f"{_plural(stats.watched, 'game')} of bots only {'is' if stats.watched == 1 else 'are'} not counted."
        out += ["", watched] if out else [watched]
    return "\n".join(out)
