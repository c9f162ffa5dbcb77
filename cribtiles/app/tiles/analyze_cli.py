"""`cribtiles analyze [BOARD_FILE] --rack "4L 5D 6L KD 9D" [--top N] [--by score|equity] [--rules R] [--json]`:
the best plays for a rack on a board, as the coach sees them.

`--rules` takes the rule options as the game does (`--rules bonuses=off`: the same plays, priced
without bonuses); the default is the standard rules. Solitaire is not analysed (one bag is assumed).

The board is read in the board text of the rules (13 lines of 13 squares: `..` empty, `##` the name
patch, a tile like `5D`) from BOARD_FILE, or from standard input when none is given; an empty board
is the first play of a game. It prints the top N plays (10), best first by score, or by the Hard
bot's equity (score, value of the tiles kept, what the play opens) with `--by equity`, one a line:

    f7=4L g7=5D h7=6L  15  row 7 (4 5 6) 5: fifteen 2, run 3; first play +10

and with `--by equity` a fourth field, `equity +14.2, keeps KD 6D`. Plays that differ only in the
colour order of equal ranks on the same squares (same score, same tiles kept) are one row, the first
of them shown, the others said after its breakdown: `(either colour order, also f7=QD g7=QL)`, or `(any colour
order, 6 plays alike)`; a colour that changes the score (a one-colour bonus) makes another row. By
equity the rows are the coach's (`plays_to_weigh`): Hard's best, always with the plays scoring most
now among them, in Hard's order. The position is a two-player game
whose other rack and bag hold every tile not in sight. A malformed board or rack is said on standard
error, naming the line and the token at fault, and the exit code is 2. With no legal play it says so
and gives the exchange advice (exit code 0).

`--json` prints one JSON document (UTF-8), stable from version to version (new keys may be added):

    {"format": "cribtiles-analysis", "version": 1, "rack": ["4L", "5D", ...], "by": "score" | "equity",
     "top": 10, "first_play": true, "legal_plays": 212, "distinct_plays": 150, "plays": [PLAY, ...],
     "exchange": EXCHANGE | null, "rules": "start=low,...,bonuses=on"}
    PLAY = {"play": "f7=4L g7=5D h7=6L", "alike": [], "placements": [{"square": "f7", "tile": "4L"}, ...],
            "score": 15, "equity": 14.2153, "leave": -0.7847, "kept": ["KD", "6D"],
            "breakdown": "row 7 (4 5 6) 5: fifteen 2, run 3; first play +10",
            "lines": [{"name": "row 7", "squares": ["f7", "g7", "h7"], "tiles": ["4L", "5D", "6L"],
                       "placed": [true, true, true], "score": 5, "fifteens": 2, "pairs": 0, "runs": 3}],
            "bonuses": [{"kind": "first play", "points": 10, "line": null}],
            "opens": "Opens row 7 at e7 and i7, where 29 tiles still out make 10 or more: ..."}
    EXCHANGE (only when there is no legal play; null when the bag is empty) =
              {"move": "exchange 8L QD", "throw": ["8L", "QD"], "keep": [...], "value": 1.25, "why": "..."}
    `plays` are best first in the order asked for, one for each play and its colour orders (`alike`
    lists the others, [] for a play alone); `legal_plays` counts every legal play, `distinct_plays`
    the rows they make; `opens` says what the play opens or closes for the reply, as the coach does
    ("" when nothing worth saying).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cribtiles.bot.coach import (
    BY_EQUITY,
    BY_SCORE,
    ORDERS,
    ExchangeAdvice,
    Suggestion,
    alike_words,
    all_candidates,
    breakdown_words,
    candidates,
    distinct,
    exchange_advice,
    position_view,
)
from cribtiles.rules.board import BLOCKED, SIZE, Board, square_at
from cribtiles.rules.errors import NotationError
from cribtiles.rules.game import RACK_SIZE, PlayerView
from cribtiles.rules.hands import why_invalid
from cribtiles.rules.moves import Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import PlayScore
from cribtiles.rules.tiles import Tile, format_tiles, parse_tile
from cribtiles.terminal import say

from ..files import read_named_file, shown_path

ANALYSIS_FORMAT, JSON_VERSION = "cribtiles-analysis", 1
DEFAULT_TOP = 10
#: A board text is under a kilobyte: a file far larger is not one.
MAX_BYTES = 1024 * 1024
#: A token is quoted at most this long in a message.
MAX_TOKEN = 12


class InputError(ValueError):
    """A board or a rack that cannot be used, said in words that name where."""


def _quoted(token: str) -> str:
    return repr(token if len(token) <= MAX_TOKEN else token[: MAX_TOKEN - 1] + "…")


# --- reading the input ---


def parse_board(text: str, source: str = "the board") -> Board:
    """The board of a board text, or InputError naming the line (of `source`) and the token at fault.
    Blank lines are skipped; a file's line numbers count them.

    >>> parse_board(Board.empty().to_text()) == Board.empty()
    True
    """
    rows = [(n, line) for n, line in enumerate(text.lstrip("\ufeff").splitlines(), 1) if line.strip()]
    if not rows:
        raise InputError(f"{source} is empty: write 13 lines of 13 squares (.. for an empty square)")
    if len(rows) > SIZE:
        n, line = rows[SIZE]
        raise InputError(
            f"{source}, line {n}: a board has {SIZE} rows, and this is row {SIZE + 1} ({_quoted(line.strip())})"
        )
    if len(rows) < SIZE:
        raise InputError(f"{source} has {len(rows)} rows; a board has {SIZE}, one line of {SIZE} squares each")
    cells: list[Tile | None] = []
    for r, (n, line) in enumerate(rows):
        tokens = line.split()
        where = f"{source}, line {n}"
        if len(tokens) > SIZE:
            raise InputError(f"{where}, token {SIZE + 1} {_quoted(tokens[SIZE])}: a row has {SIZE} squares, a to m")
        if len(tokens) < SIZE:
            raise InputError(
                f"{where}: row {r + 1} has {len(tokens)} squares, not {SIZE} (a to m, separated by spaces)"
            )
        for c, token in enumerate(tokens):
            cells.append(_cell(token, r, c, f"{where}, token {c + 1} {_quoted(token)} ({square_at(r, c)})"))
    board = Board(tuple(cells))
    _check_lines(board, rows, source)
    return board


def _cell(token: str, row: int, col: int, where: str) -> Tile | None:
    square = square_at(row, col)
    if square in BLOCKED:
        if token != "##":
            raise InputError(f"{where}: {square} is part of the name patch and must be written ##")
        return None
    if token == "##":
        raise InputError(f"{where}: {square} is not part of the name patch; write .. for an empty square")
    if token == "..":
        return None
    if set(token) <= {".", "#"}:
        raise InputError(f"{where}: write .. for an empty square")
    try:
        return parse_tile(token)
    except NotationError as e:
        raise InputError(f"{where}: {e}") from None


def _check_lines(board: Board, rows: Sequence[tuple[int, str]], source: str) -> None:
    """Every line on the board is a valid hand, as the rules keep it (a board text may not be)."""
    for line in board.lines():
        reason = why_invalid(line.ranks, line.name)
        if reason is None:
            continue
        first, last = rows[line.squares[0].row][0], rows[line.squares[-1].row][0]
        lines = f"line {first}" if first == last else f"lines {first} to {last}"
        squares = f"{line.squares[0]} to {line.squares[-1]}"
        raise InputError(f"{source}, {lines} ({squares}): {reason}; the rules never leave such a line on the board")


def parse_rack_option(text: str) -> tuple[Tile, ...]:
    """The tiles of `--rack`, or InputError naming the token at fault.

    >>> parse_rack_option("4L 5D 9D")
    (Tile(4L), Tile(5D), Tile(6D))
    """
    tokens = text.split()
    if not tokens:
        raise InputError('--rack is empty: give 1 to 5 tiles, like --rack "4L 5D 6L KD 9D"')
    if len(tokens) > RACK_SIZE:
        raise InputError(
            f"--rack, token {RACK_SIZE + 1} {_quoted(tokens[RACK_SIZE])}: a rack holds at most {RACK_SIZE} tiles"
        )
    tiles = []
    for i, token in enumerate(tokens, 1):
        try:
            tiles.append(parse_tile(token).rack_form)
        except NotationError as e:
            raise InputError(f"--rack, token {i} {_quoted(token)}: {e}") from None
    return tuple(tiles)


def read_board(path: Path | None) -> Board:
    """The board of BOARD_FILE, or of standard input when there is none; InputError in words."""
    if path is None:
        if sys.stdin.isatty():
            say("cribtiles: reading the board from standard input (13 lines; Ctrl+D to end)")
        text = sys.stdin.read(MAX_BYTES + 1)
        if len(text) > MAX_BYTES:
            raise InputError(f"standard input holds more than {MAX_BYTES // 1024} KB: far too much to be a board")
        return parse_board(text, "standard input")
    name = shown_path(path)
    try:
        text = read_named_file(path, MAX_BYTES, name, "a board")
    except ValueError as e:
        raise InputError(str(e)) from None
    return parse_board(text, name)


# --- the output ---


def play_line(s: Suggestion, by: str) -> str:
    """`<play>  <score>  <breakdown>`, then `(either colour order ...)` for a row of plays alike, and
    `equity ..., keeps ...` when ordered by equity."""
    assert isinstance(s.move, Play) and s.breakdown is not None
    text = f"{s.move}  {s.score}  {breakdown_words(s.breakdown)}"
    alike = alike_words(s)
    if alike:
        text += f"  ({alike})"
    if by == BY_EQUITY:
        text += f"  equity {s.equity:+.1f}, keeps {format_tiles(s.kept) or 'nothing'}"
    return text


def stuck_text(rack: Sequence[Tile], advice: ExchangeAdvice | None) -> str:
    head = f"No legal play for {format_tiles(rack)} on this board."
    if advice is None:
        return f"{head}\npass: the bag is empty, so no tile can be exchanged."
    return f"{head}\n{advice.move}  {advice.why}"


def _breakdown_json(result: PlayScore) -> dict[str, Any]:
    return {
        "lines": [
            {
                "name": line.name,
                "squares": [str(s) for s in line.line.squares],
                "tiles": [str(t) for t in line.line.tiles],
                "placed": list(line.placed),
                "score": line.total,
                "fifteens": line.hand.fifteens,
                "pairs": line.hand.pairs,
                "runs": line.hand.runs,
            }
            for line in result.lines
        ],
        "bonuses": [
            {"kind": str(b.kind), "points": b.points, "line": b.line.name if b.line is not None else None}
            for b in result.bonuses
        ],
    }


def play_json(s: Suggestion) -> dict[str, Any]:
    assert isinstance(s.move, Play) and s.breakdown is not None
    return {
        "play": str(s.move),
        "alike": [str(m) for m in s.alike],
        "placements": [{"square": str(p.square), "tile": str(p.tile)} for p in s.move.placements],
        "score": s.score,
        "equity": round(s.equity, 4),
        "leave": round(s.leave, 4),
        "kept": [str(t) for t in s.kept],
        "breakdown": breakdown_words(s.breakdown),
        **_breakdown_json(s.breakdown),
        "opens": s.opens,
    }


def analysis_json(
    board: Board,
    rack: Sequence[Tile],
    by: str,
    top: int,
    found: Sequence[Suggestion],
    count: int,
    advice: ExchangeAdvice | None,
    rows: int | None = None,
    options: RuleOptions | None = None,
) -> dict[str, Any]:
    exchange = None
    if advice is not None:
        exchange = {
            "move": str(advice.move),
            "throw": [str(t) for t in advice.throw],
            "keep": [str(t) for t in advice.keep],
            "value": round(advice.value, 4),
            "why": advice.why,
        }
    return {
        "format": ANALYSIS_FORMAT,
        "version": JSON_VERSION,
        "rack": [str(t) for t in rack],
        "by": by,
        "top": top,
        "first_play": board.is_empty(),
        "legal_plays": count,
        "distinct_plays": count if rows is None else rows,
        "plays": [play_json(s) for s in found],
        "exchange": exchange,
        "rules": (options or RuleOptions()).to_text(),
    }


# --- the command ---


def _top(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 10_000:
        raise argparse.ArgumentTypeError(f"{_quoted(text)}: give a whole number of plays from 1 to 10000")
    return int(text)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles analyze`'s arguments on `ap`."""
    ap.description = "Crib Tiles: the best plays for a rack on a board, best first, with their scores and why."
    ap.epilog = (
        "The board text: 13 lines of 13 squares: .. empty, ## the name patch (a1 b1 c1 a2 b2 c2), a tile like 5D."
    )
    ap.add_argument(
        "board", nargs="?", type=Path, metavar="BOARD_FILE", help="the board text (default: standard input)"
    )
    ap.add_argument("--rack", required=True, help='the rack, 1 to 5 tiles, like "4L 5D 6L KD 9D"')
    ap.add_argument(
        "--top", type=_top, default=DEFAULT_TOP, metavar="N", help=f"how many plays to print ({DEFAULT_TOP})"
    )
    ap.add_argument(
        "--by", choices=ORDERS, default=BY_SCORE, help="best by score now, or by the Hard bot's equity (score)"
    )
    ap.add_argument(
        "--rules",
        default="",
        help="rule options the plays are priced under, as the game takes them (bonuses=off: no bonuses)",
    )
    ap.add_argument("--json", action="store_true", help="print a JSON document (see the module's notes)")


def prepare(ap: argparse.ArgumentParser, opts: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles analyze`: its run; ValueError (InputError, or more of a tile than the set holds) for a
    malformed board or rack."""
    rack = parse_rack_option(opts.rack)
    board = read_board(opts.board)
    try:
        options = RuleOptions.parse(opts.rules)
    except ValueError as e:  # NotationError, or a value out of range
        raise InputError(f"--rules: {e}") from None
    return functools.partial(_analyze, board, rack, position_view(board, rack, options=options), opts)


def _analyze(board: Board, rack: Sequence[Tile], view: PlayerView, opts: argparse.Namespace) -> int:
    """The best plays on standard output; 0."""
    every = all_candidates(view, opts.by)
    rows = len(distinct(every, view.rack))
    found = (
        [s if s.breakdown is not None else _scored(view, s) for s in candidates(view, opts.top, opts.by)]
        if every
        else []
    )
    advice = exchange_advice(view) if not every else None
    if opts.json:
        doc = analysis_json(board, rack, opts.by, opts.top, found, len(every), advice, rows, view.options)
        print(json.dumps(doc, indent=1))
    elif found:
        print("\n".join(play_line(s, opts.by) for s in found))
    else:
        print(stuck_text(rack, advice))
    return 0


def _scored(view: PlayerView, s: Suggestion) -> Suggestion:
    assert isinstance(s.move, Play)
    return replace(s, breakdown=view.scorer.score(view.board, s.move))
