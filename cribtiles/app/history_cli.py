"""`cribtiles history` and `cribtiles stats`: the finished games and their statistics, from the history
database in the data folder (`--data-dir DIR`, or the user data folder).

They only read: they take no folder lock, so they work while a game is open on the same folder. A history
that is damaged is set aside (as the game would) and said on standard error; the exit code is then 0,
the history being empty and usable again. When the history is there but could not be read (another
program kept it locked past the timeout, it is a link out of the data folder, a damaged one could not be
moved), that is said in a line on standard error, nothing is printed on standard output (never "No
games yet" or zero games for a history that could not be seen) and the exit code is 1; 2 for bad
arguments. Games that could not be read (rows edited by hand) are left out and said, in one line when
they are many.

`--json` prints one JSON document (UTF-8), stable from version to version (new keys may be added):

    cribtiles history --json
    {"format": "cribtiles-history", "version": 1, "games": [GAME, ...]}        oldest first
    GAME = {"id": 3, "game": "tiles", "key": "<sha256 hex of the game>", "finished_at": "2026-11-30T14:05:09",
            "mode": "standard" | "solitaire", "options": "start=low,exchange=when-stuck,...",
            "seed": 12, "players": [{"name": "You", "level": null}, {"name": "Hard", "level": "hard"}],
            "scores": [312, 298], "winners": [0], "rounds": 1, "turns": 41, "undos": 0, "hints": 0,
            "best_play": 36, "highest_line": 24, "opponent": "hard",
            "result": "win" | "tie" | "loss" | "people only" | "watched" | "unfinished", "marked": false,
            "unfinished": false}
    (a game's full record, for replaying it, is kept in the database and not printed; a game that a
    command line's new game replaced before its end is kept with "unfinished": true, its scores as they
    stood, the leaders as "winners", "finished_at" the time it was left; no statistics count it)

    cribtiles stats --json
    {"format": "cribtiles-stats", "version": 1, "games": 7, "watched": 1,
     "lines": [LINE, ...], "total": LINE | null, "marked_lines": [LINE, ...], "marked_total": LINE | null}
    LINE = {"mode": "standard", "opponent": "hard", "games": 3, "wins": 2, "losses": 1, "ties": 0,
            "win_rate": 0.6667 | null, "average_score": 301.33, "best_score": 350, "best_play": 36,
            "highest_line": 24, "longest_streak": 2, "best_margin": 12 | null, "matches": 1, "matches_won": 1}
    `lines` are the games without undos or hints, `marked_lines` those with them; "total" lines have mode
    and opponent "all"; `watched` counts games of bots only, which no line counts.

Games of classic cribbage (you against a bot) are listed and counted apart, under their own key (both games
share one numbering: a game's id is its own whatever its game):

    cribtiles history --json: "cribbage_games": [CRIBBAGE, ...]                      oldest first
    CRIBBAGE = {"id": 2, "game": "cribbage", "key": "<sha256 hex>", "finished_at": "2026-12-01T09:00:00", "seed": 7,
                "level": "easy" | "medium" | "hard", "muggins": false, "target": 121,
                "players": [{"name": "You", "level": null}, {"name": "Medium bot", "level": "medium"}],
                "scores": [121, 84], "winner": 0, "result": "win" | "loss",
                "margin": "win" | "skunk" | "double skunk", "deals": 9, "pegged": [31, 24],
                "shows": [{"deal": 1, "step": 0, "owner": 1, "crib": false, "cards": "5H 5D 5S JC",
                           "starter": "5C", "points": 29, "declared": 29}, ...], "undos": 0, "hints": 0,
                "counting": "auto" | "manual" | "muggins", "muggins_won": [4, 0] | null}
    (step 0 is the non-dealer's hand, 1 the dealer's, 2 the crib; points are what the cards make,
    declared what their owner counted, less under muggins; `counting` how the show was counted (a game
    stored before schema 7: from its muggins mark), `muggins_won` the points each seat took by calling
    muggins, null for a game stored before schema 7). A game of another variant than six-card says which,
    and all its winners (partners win together): "variant": "five-card" | "three-player" | "partnership",
    "winners": [0, 2]; its lists have an entry a seat, its `scores` each seat's side's score, and its show's
    steps go round the table from the dealer's left, the crib last.

    cribtiles stats --json: "cribbage": {"games": 3, "lines": [CLINE, ...], "total": CLINE | null}
    CLINE = {"level": "medium" | ... | "all", "games": 3, "wins": 2, "losses": 1, "win_rate": 0.6667,
             "skunks_given": 1, "double_skunks_given": 0, "skunks_taken": 0, "double_skunks_taken": 0,
             "average_score": 112.33, "hands": 24, "average_hand": 7.42 | null, "best_hand": 24 | null,
             "best_hand_cards": "7C 8C 8D 9S with 7D", "cribs": 12, "average_crib": 4.5 | null,
             "best_crib": 14 | null, "average_pegged": 27.67, "missed": 0, "longest_streak": 2,
             "deals": 27, "average_pegged_deal": 9.22 | null, "big_hands": 1, "twenty_nines": 0,
             "muggins_games": 2, "muggins_won": 6, "muggins_lost": 2, "manual_games": 1, "corrected": 3}
    Hands are your own four-card hands counted in the show, cribs the cribs you dealt; `missed` the
    points your own counts fell short (muggins); `big_hands` and `twenty_nines` your hands and cribs of
    24 or more and of 29. `muggins_won` (your calls) and `muggins_lost` (the bot's on your counts) are over
    the `muggins_games` games played with muggins whose calls were stored (from schema 7); `corrected` is
    your wrong counts in the `manual_games` counted by hand (corrected, no points lost). The lines and
    totals are of six-card games alone; once another variant was played, "variants": [CLINE, ...] has a
    line for each (its "level" the variant: "five-card", "three-player", "partnership"), over all its games
    against bots, with undos and hints or without.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

from cribtiles.cribbage.events import MarginKind
from cribtiles.table.cribbage.ledger import CribbageLine, CribbageStats
from cribtiles.table.game_summary import SIX_CARD, VARIANT_WORDS, Game, GameSummary, Result
from cribtiles.table.ledger import StatLine, Stats, statistics
from cribtiles.table.stat_columns import (
    BY_THE_BOOK,
    COUNTS_NOTE,
    CRIBBAGE_COLUMNS,
    CRIBBAGE_COUNT_COLUMNS,
    TILE_COLUMNS,
    shown_lines,
)
from cribtiles.terminal import json_for_terminal, say

from .files import brief, folder_named, for_terminal, why
from .history import History, history_path

HISTORY_FORMAT, STATS_FORMAT, JSON_VERSION = "cribtiles-history", "cribtiles-stats", 1
TARGET = 121  # a game of cribbage to another target says so in the listing


def add_history_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles history`'s arguments on `ap`."""
    _add_arguments(ap, "history")


def add_stats_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles stats`'s arguments on `ap`."""
    _add_arguments(ap, "stats")


def _add_arguments(ap: argparse.ArgumentParser, command: str) -> None:
    what = "list the finished games, oldest first" if command == "history" else "statistics of the finished games"
    ap.description = f"Crib Tiles: {what}."
    ap.add_argument("--json", action="store_true", help="print a JSON document (see the module's notes)")
    ap.add_argument("--data-dir", type=folder_named, help="the data folder (default: the user data folder)")
    ap.set_defaults(listing=command)


def prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles history ...` or `cribtiles stats ...`: its run (they take nothing more to check)."""
    return functools.partial(_run, args.listing, args)


def _run(command: str, opts: argparse.Namespace) -> int:
    """`cribtiles history ...` or `cribtiles stats ...`; the exit code."""
    folder = opts.data_dir
    if folder is None:
        from .storage import default_data_dir

        folder = default_data_dir()
    try:
        there = Path(folder).is_dir()
    except OSError as e:  # a name too long, a folder inside one we may not enter: one line, no traceback
        shown = for_terminal(brief(f"'{folder}'"))  # at most a short excerpt of the name
        say(f"cribtiles {command}: the data folder {shown} cannot be read ({why(e)})")
        return 2
    if there:  # never make a folder only to look into it
        from .logs import setup_logging

        setup_logging(Path(folder))
    history = History(history_path(Path(folder)))
    games = history.games()
    read_ok = history.read_ok
    history.close()
    for message in history.take_messages():
        say(f"cribtiles: {message}")
    if not read_ok:  # never an empty listing or zero games for a history that could not be seen
        return 1
    if command == "history":
        doc, text = (history_json(games), "") if opts.json else (None, history_text(games))
    else:
        stats = statistics(games)
        doc, text = (stats_json(stats), "") if opts.json else (None, stats_text(stats))
    # names come from the database: no control character reaches the terminal, and the JSON stays JSON
    print(for_terminal(text) if doc is None else json_for_terminal(json.dumps(doc, indent=1)))
    return 0


# --- JSON ---


def game_json(g: GameSummary) -> dict[str, object]:
    """A tile game as `cribtiles history --json` lists it."""
    d = g.tiles
    return {
        "id": g.id,
        "game": g.game.value,
        "key": g.key,
        "finished_at": g.finished_at,
        "mode": d.mode,
        "options": d.options,
        "seed": g.seed,
        "players": [{"name": name, "level": level} for name, level in g.seats],
        "scores": list(g.scores),
        "winners": list(g.winners),
        "rounds": d.rounds,
        "turns": d.turns,
        "undos": d.undos,
        "hints": d.hints,
        "best_play": d.best_play,
        "highest_line": d.highest_line,
        "opponent": g.opponent,
        "result": str(g.result),
        "marked": d.marked,
        "unfinished": g.unfinished,
    } | _resigned_json(g)


def cribbage_json(g: GameSummary) -> dict[str, object]:
    """A game of cribbage as `cribtiles history --json` lists it."""
    d = g.cribbage
    data: dict[str, object] = {
        "id": g.id,
        "game": g.game.value,
        "key": g.key,
        "finished_at": g.finished_at,
        "seed": g.seed,
        "level": g.opponent,
        "muggins": d.muggins,
        "target": d.target,
        "players": [{"name": name, "level": level} for name, level in g.seats],
        "scores": list(g.scores),
        "winner": g.winners[0],
        "result": "win" if g.result is Result.WIN else "loss",
        "margin": d.margin.value,
        "deals": d.deals,
        "pegged": list(d.pegged),
        "shows": [asdict(s) for s in d.shows],
        "undos": d.undos,
        "hints": d.hints,
        "counting": d.counting_rule.value,
        "muggins_won": None if d.muggins_won is None else list(d.muggins_won),
    }
    if d.variant != SIX_CARD:  # said only for another variant: a six-card game's listing as before
        data |= {"variant": d.variant, "winners": list(g.winners)}
    return data | _resigned_json(g)


def _resigned_json(g: GameSummary) -> dict[str, object]:
    """The seat that gave the game up, said only of a game given up (every other listing as before)."""
    return {} if g.resigned is None else {"resigned": g.resigned}


def _gave_up(g: GameSummary) -> str:
    """', Ben resigned' after who won, for a game given up."""
    return "" if g.resigned is None else f", {g.seats[g.resigned][0]} resigned"


def of_game(games: Sequence[GameSummary], game: Game) -> list[GameSummary]:
    """The games of `game` among `games`, in their order."""
    return [g for g in games if g.game is game]


def history_json(games: Sequence[GameSummary]) -> dict[str, object]:
    """Both games' games, each listed under its own key."""
    return {
        "format": HISTORY_FORMAT,
        "version": JSON_VERSION,
        "games": [game_json(g) for g in of_game(games, Game.TILES)],
        "cribbage_games": [cribbage_json(g) for g in of_game(games, Game.CRIBBAGE)],
    }


def line_json(line: StatLine | None) -> dict[str, object] | None:
    if line is None:
        return None
    data: dict[str, object] = asdict(line)
    data["average_score"] = round(line.average_score, 2)
    rate = line.win_rate
    data["win_rate"] = None if rate is None else round(rate, 4)
    return data


def cribbage_line_json(line: CribbageLine | None) -> dict[str, object] | None:
    if line is None:
        return None
    data: dict[str, object] = asdict(line)
    for name in ("average_score", "average_hand", "average_crib", "average_pegged", "average_pegged_deal"):
        value = data[name]
        data[name] = None if value is None else round(float(str(value)), 2)
    data["win_rate"] = round(line.win_rate, 4)
    return data


def stats_json(stats: Stats) -> dict[str, object]:
    cribbage = stats.cribbage
    return {
        "format": STATS_FORMAT,
        "version": JSON_VERSION,
        "games": stats.games,
        "watched": stats.watched,
        "lines": [line_json(line) for line in stats.lines],
        "total": line_json(stats.total),
        "marked_lines": [line_json(line) for line in stats.marked],
        "marked_total": line_json(stats.marked_total),
        "cribbage": {
            "games": cribbage.games,
            "lines": [cribbage_line_json(line) for line in cribbage.lines],
            "total": cribbage_line_json(cribbage.total),
            "marked_lines": [cribbage_line_json(line) for line in cribbage.marked],
            "marked_total": cribbage_line_json(cribbage.marked_total),
            **({"variants": [cribbage_line_json(line) for line in cribbage.variants]} if cribbage.variants else {}),
        },
    }


# --- text ---

NO_GAMES = "No games yet: a game is listed here once it is played to its end."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def game_text(g: GameSummary) -> str:
    """One line of a tile game: number, date, mode, players (bots with their level) and final scores, who
    won, marks.

    >>> from cribtiles.table.game_summary import TileDetails
    >>> g = GameSummary(4, "k", Game.TILES, "2026-11-30T14:05:09", 1, (("You", None), ("Hard", "hard")),
    ...                 (312, 298), (0,), "", TileDetails("standard", "", 1, 41, 2, 0, 36, 24))
    >>> game_text(g)
    '   4  2026-11-30 14:05  standard   You 312, Hard [hard] 298  -  You won  (2 undos)'
    >>> from dataclasses import replace
    >>> game_text(replace(g, unfinished=True)).split("  -  ")[1]
    'unfinished, You leading  (2 undos)'
    """
    date, d = g.finished_at.replace("T", " ")[:16], g.tiles
    mode = d.mode if d.rounds == 1 else f"{d.mode}, {d.rounds} rounds"
    if g.unfinished and d.planned_rounds > 1:
        mode = f"{d.mode}, {g.rounds_words}"
    players = ", ".join(
        f"{name}{'' if level is None else f' [{level}]'} {score}"
        for (name, level), score in zip(g.seats, g.scores, strict=True)
    )
    names = [g.seats[w][0] for w in g.winners]
    won = f"{names[0]} won" if len(names) == 1 else "tie: " + " and ".join(names)
    if g.unfinished:
        won = "unfinished, " + (f"{names[0]} leading" if len(names) == 1 else "level")
    won += _gave_up(g)
    marks = [_plural(n, word) for n, word in ((d.undos, "undo"), (d.hints, "hint")) if n]
    return f"{g.id:>4}  {date}  {mode:<9}  {players}  -  {won}" + (f"  ({', '.join(marks)})" if marks else "")


def cribbage_text(g: GameSummary) -> str:
    """One line of a game of cribbage: number, date, "cribbage", players (the bot with its level) and final
    scores, who won how.

    >>> from cribtiles.table.game_summary import CribbageDetails
    >>> d = CribbageDetails(True, 121, MarginKind.SKUNK, 9, (31, 24), ())
    >>> g = GameSummary(2, "k", Game.CRIBBAGE, "2026-12-01T09:00:00", 7, (("You", None), ("Medium bot", "medium")),
    ...                 (121, 84), (0,), "", d)
    >>> cribbage_text(g)
    '   2  2026-12-01 09:00  cribbage   You 121, Medium bot [medium] 84  -  You won, a skunk  (muggins)'
    """
    date, d = g.finished_at.replace("T", " ")[:16], g.cribbage
    players = ", ".join(
        f"{name}{'' if level is None else f' [{level}]'} {score}"
        for (name, level), score in zip(g.seats, g.scores, strict=True)
    )
    how = "" if d.margin is MarginKind.WIN else f", a {d.margin.value}"
    rules = [word for word, on in ((d.variant_words, bool(d.variant_words)), ("muggins", d.muggins)) if on]
    rules += [f"to {d.target}"] if d.target != TARGET else []
    rules += [_plural(n, word) for n, word in ((d.undos, "undo"), (d.hints, "hint")) if n]
    winners = " and ".join(g.seats[w][0] for w in g.winners)  # partners win together
    return f"{g.id:>4}  {date}  {'cribbage':<9}  {players}  -  {winners} won{how}{_gave_up(g)}" + (
        f"  ({', '.join(rules)})" if rules else ""
    )


def history_text(everything: Sequence[GameSummary]) -> str:
    """The tile games, then the games of classic cribbage, each oldest first."""
    games, cribbage = of_game(everything, Game.TILES), of_game(everything, Game.CRIBBAGE)
    if not games and not cribbage:
        return NO_GAMES
    out = []
    if games:
        out += [f"{_plural(len(games), 'game')}, the newest last:", *(game_text(g) for g in games)]
    if cribbage:
        if out:
            out.append("")
        out.append(f"{_plural(len(cribbage), 'game')} of classic cribbage, the newest last:")
        out += [cribbage_text(g) for g in cribbage]
    return "\n".join(out)


Row = list[str]


def _table(lines: Sequence[StatLine], total: StatLine | None) -> list[Row]:
    """The tile game's statistics as rows: the mode and the opponent, then the columns of the Statistics screen."""
    return [[line.mode, line.opponent, *(c.cell(line) for c in TILE_COLUMNS)] for line in shown_lines(lines, total)]


def _aligned(heads: Sequence[str], rows: Sequence[Row], left: int) -> list[str]:
    """Rows under their headings, the first `left` columns aligned left and the others right; an empty
    cell (nothing to show) as '-'."""
    table = [list(heads), *([cell or "-" for cell in row] for row in rows)]
    widths = [max(len(row[i]) for row in table) for i in range(len(heads))]
    out = []
    for row in table:
        cells = (c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        out.append("  ".join(cells).rstrip())
    return out


def _tile_table(lines: Sequence[StatLine], total: StatLine | None) -> list[str]:
    return _aligned(["mode", "opponent", *(c.one_line for c in TILE_COLUMNS)], _table(lines, total), 2)


def cribbage_table(stats: CribbageStats) -> list[str]:
    """The statistics of classic cribbage as a table, a line per bot level and the total (the games with
    undos or hints in a table of their own after it), what its marks mean, then the best hand."""
    out: list[str] = []
    for lines, total, title in (
        (stats.lines, stats.total, ""),
        (stats.marked, stats.marked_total, "Games of cribbage with undos or hints:"),
    ):
        if not lines:
            continue
        rows = [[line.level, *(c.cell(line) for c in CRIBBAGE_COLUMNS)] for line in shown_lines(lines, total)]
        out += [title] if title else []
        out += _aligned(["opponent", *(c.one_line for c in CRIBBAGE_COLUMNS)], rows, 1)
    out.append(BY_THE_BOOK)
    total = stats.total
    if total is not None and total.best_hand is not None:
        out.append(f"Your best hand: {total.best_hand}, {total.best_hand_cards}.")
    counts = [
        [line.level, *(c.cell(line) for c in CRIBBAGE_COUNT_COLUMNS)] for line in shown_lines(stats.lines, stats.total)
    ]
    out += ["", "Hands, pegging and counting:"]
    out += _aligned(["opponent", *(c.one_line for c in CRIBBAGE_COUNT_COLUMNS)], counts, 1)
    out.append(COUNTS_NOTE)
    if stats.variants:  # said only when played: a history of six-card games reads as before
        rows = [[VARIANT_WORDS.get(line.level, line.level), *(c.cell(line) for c in CRIBBAGE_COLUMNS)]
                for line in stats.variants]  # fmt: skip
        out += ["", VARIANTS_TITLE]
        out += _aligned(["variant", *(c.one_line for c in CRIBBAGE_COLUMNS)], rows, 1)
    return out


#: The title of the other variants' lines, apart from the six-card game's by level.
VARIANTS_TITLE = "The other variants, each on its own (every bot level, with undos and hints or without):"


def stats_text(stats: Stats) -> str:
    cribbage = stats.cribbage
    if not stats.games and not cribbage.games:
        return NO_GAMES
    out: list[str] = []
    if stats.lines:
        out += ["Games without undos or hints:", *_tile_table(stats.lines, stats.total)]
    if stats.marked:
        out += ["", "Games with undos or hints:"] if out else ["Games with undos or hints:"]
        out += _tile_table(stats.marked, stats.marked_total)
    if stats.watched:
        watched = f"{_plural(stats.watched, 'game')} of bots only {'is' if stats.watched == 1 else 'are'} not counted."
        out += ["", watched] if out else [watched]
    if cribbage.games:
        if out:
            out.append("")
        out.append("Classic cribbage (hand and crib: your average show; pegged: your points in the play, a game):")
        out += cribbage_table(cribbage)
    return "\n".join(out)
