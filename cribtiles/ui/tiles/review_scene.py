"""The review of a finished tile game in the window: every turn of every player against the best play
found, in the review frame both games share (`..review_frame`: the analysis polled, the list, the
chart, the keys); a turn opened shows the board at that moment with the play made and the best play
side by side, each with its score and breakdown.

The analysis is `cribtiles.table.tiles.review`'s, run by its `ReviewWorker` in a process of its own; this
module only says what a turn is and draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from cribtiles.bot.opens import ahead
from cribtiles.rules.board import SIZE, Board, Square
from cribtiles.rules.moves import Exchange, Move, Pass, Play, format_move, format_rack
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.scoring import PlayScore
from cribtiles.table.misses import misses_first as misses_first_of
from cribtiles.table.tiles.table import Table

from .. import art
from ..geometry import Layout, Rect, contains
from ..paint import CREAM, DIM, GOLD, RED, blit_tile, board_grid, button, rounded_panel, scaled, wrap, write
from ..review_chart import Series
from ..review_frame import (
    BEST,
    CARD,
    Mode,
    Order,
    ReviewFrame,
    ReviewHost,
    Worker,
    chart_file,
    list_layout,
    turn_layout,
)
from ..screens import backdrop, card, fit, heading
from .breakdown import draw_info_rows, place, score_rows

if TYPE_CHECKING:
    from cribtiles.table.tiles.review import Review, TurnReview

__all__ = ["CARD", "Mode", "Order", "ReviewScene", "chart_file", "list_layout", "turn_layout"]

FIELD = (34, 22, 14, 170)  # the recessed field the boards sit in, as on the rules pages
#: The fewest rows and columns of the board a turn shows (more when its tiles spread wider).
LEAST_REGION = 7
#: Evaluation lost from which a miss is shown in red (points: about a fifteen and a pair).
BIG_MISS = 5.0


def start_worker(table: Table) -> Worker[Review]:
    """The review runner of the table layer, started on `table`."""
    from cribtiles.table.tiles.review_worker import ReviewWorker

    worker = ReviewWorker()
    worker.start(table)
    return worker


# --- what the review says, in values the drawing reads ---


def series_of(review: Review) -> Series:
    """The chart's scores: each player's score after each turn, and where each new round began."""
    starts = tuple(k for k in range(1, len(review.turns)) if review.turns[k].round != review.turns[k - 1].round)
    finals = tuple(sum(f[p] for f in review.finals) for p in range(len(review.names)))
    return Series.of(tuple(review.names), review.scores, starts, finals)


def move_words(move: Move) -> str:
    """A move as the notation writes it ('pass' for a pass)."""
    return "pass" if isinstance(move, Pass) else format_move(move)


def misses_first(review: Review) -> list[int]:
    """The indices of the review's turns, the biggest misses first (as `Review.biggest_misses` orders
    them), each turn once."""
    return misses_first_of(review.turns, review.biggest_misses(len(review.turns)))


def region(squares: Sequence[Square], least: int = LEAST_REGION) -> tuple[int, int, int, int]:
    """The rows r0..r1 and columns c0..c1 of the board worth showing for `squares`: a free square round
    them, at least `least` each way, kept on the board (the whole board when there are none).

    >>> region([Square(6, 5), Square(6, 7)])
    (3, 9, 3, 9)
    >>> region([Square(0, 12)])
    (0, 6, 6, 12)
    """
    if not squares:
        return 0, SIZE - 1, 0, SIZE - 1
    r0, r1 = min(s.row for s in squares) - 1, max(s.row for s in squares) + 1
    c0, c1 = min(s.col for s in squares) - 1, max(s.col for s in squares) + 1
    return (*_span(r0, r1, least), *_span(c0, c1, least))


def turn_region(turn: TurnReview) -> tuple[int, int, int, int]:
    """The part of the board a turn is shown on: every tile on it (none is hidden: the plays are read
    against the whole board), both plays and every line either of them scores, whole."""
    squares: list[Square] = [square for square, _ in turn.board_before.tiles()]
    for move in (turn.played, turn.best):
        if isinstance(move, Play):
            squares.extend(move.squares)
            score = _score_of(turn.scorer, turn.board_before, move)
            if score is not None:
                squares.extend(sq for sl in score.lines for sq in sl.line.squares)
    return region(squares)


def _score_of(scorer: Scorer, board: Board, play: Play) -> PlayScore | None:
    try:
        return scorer.score(board, play)
    except ValueError:  # not a legal play there (a damaged review): shown without a breakdown
        return None


def evaluation_words(turn: TurnReview) -> str:
    """What the turn's evaluation figures are, in words, shown over them."""
    if str(turn.method) == "endgame":
        return "Evaluation: the points a play wins on the other player from here to the end of the game."
    if str(turn.method) == "simulated":
        return "Evaluation: the points a play wins on the others over the next turns, its kept tiles counted."
    return "Evaluation: Hard's, the points now with what the tiles kept are worth and what the play opens."


def cost_words(name: str, turn: TurnReview) -> str:
    """What a turn cost, in a sentence; a best play that scores less now says why it is the best."""
    if turn.is_best:
        return f"{name} made the best play found ({turn.played_score} points)."
    said = f"{name} scored {turn.played_score}; the best play found scores {turn.best_score}"
    if turn.points_lost > 0:
        if turn.value_lost <= 0:
            return f"{said}: {turn.points_lost} points lost now; later turns cannot tell the two apart."
        return f"{said}: {turn.points_lost} points and {turn.value_lost:.1f} of evaluation lost."
    fewer = "as much" if turn.points_lost == 0 else f"{-turn.points_lost} fewer"
    return f"{said}, {fewer} now but {turn.value_lost:.1f} more in evaluation (the tiles kept, what follows)."


def lost_reason(turn: TurnReview) -> str:
    """Why a best play that scores less now is the best, after it in the list: ': 3 fewer now, more
    later' ("" when it scores as much or more)."""
    return f": {-turn.points_lost} fewer now, more later" if turn.points_lost < 0 else ""


def side_notes(name: str, opens: str, after: float | None) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    """What the learned value reads in one side of a turn, each a sentence (with its colour) under its
    breakdown: what the play opens or closes for the reply, and where the player can expect to finish
    after it."""
    notes = [(opens, CREAM)] if opens else []
    if after is not None:
        notes.append((f"Learned value: {name} can expect to finish {ahead(after)} after this play.", DIM))
    return tuple(notes)


def method_words(turn: TurnReview) -> str:
    """How the turn's moves were weighed."""
    method = str(turn.method)
    if method == "simulated":
        rounds = "round" if turn.samples == 1 else "rounds"
        return f"weighed over {turn.samples} {rounds} of the Expert's continuations"
    if method == "endgame":
        return "the endgame searched to the end" if turn.exact else "the endgame searched as far as time allowed"
    if method == "static":
        return "weighed by the Hard bot's evaluation (no time for continuations)"
    return "the only move worth weighing"


def _span(a: int, b: int, least: int) -> tuple[int, int]:
    """a..b kept on the board and widened, a square each side in turn, to at least `least` squares."""
    a, b = max(0, a), min(SIZE - 1, b)
    while b - a + 1 < least:
        if a > 0:
            a -= 1
        if b - a + 1 < least and b < SIZE - 1:
            b += 1
    return a, b


def chart_title(review: Review) -> str:
    """A saved chart's title: the final scores (a match's totals)."""
    series = series_of(review)
    finals = " · ".join(f"{n} {series.legend_score(p)}" for p, n in enumerate(series.names))
    what = "the match's totals" if len(review.finals) > 1 else "final scores"
    return f"Crib Tiles — scores turn by turn ({what}: {finals})"


class ReviewScene(ReviewFrame["Review"]):
    """The review of `table`'s tile game; `on_close()` when the player is done. `worker` runs the
    analysis (None: the table layer's `ReviewWorker`, started here)."""

    def __init__(
        self,
        host: ReviewHost,
        table: Table,
        on_close: Callable[[], None],
        worker: Worker[Review] | None = None,
    ) -> None:
        self.table = table
        super().__init__(host, on_close, worker if worker is not None else start_worker(table))

    def count(self, review: Review) -> int:
        return len(review.turns)

    def misses_first(self, review: Review) -> list[int]:
        return misses_first(review)

    def player_of(self, review: Review, index: int) -> int:
        return review.turns[index].player

    def names_of(self, review: Review) -> tuple[str, ...]:
        return review.names

    def series(self, review: Review) -> Series:
        return series_of(review)

    def chart_title(self, review: Review) -> str:
        return chart_title(review)

    @property
    def turn(self) -> TurnReview | None:
        """The turn chosen in the list (and shown when one is opened)."""
        i = self.index
        return None if i is None or self.review is None else self.review.turns[i]

    def draw_row(self, surface: pygame.Surface, index: int, rect: Rect, columns: tuple[int, ...], s: int) -> None:
        review = self.review
        assert review is not None
        turn = review.turns[index]
        several = len(review.finals) > 1
        _draw_row(surface, turn, review.names[turn.player], rect, columns, s, several)

    def draw_summary(self, surface: pygame.Surface, box: Rect, s: int) -> None:
        assert self.review is not None
        _draw_summary(surface, self.review, box, s)

    def draw_turn(self, surface: pygame.Surface) -> None:
        turn = self.turn
        assert turn is not None and self.review is not None
        lay = turn_layout(surface.get_size())
        s = lay.text
        backdrop(surface)
        card(surface, lay.card)
        name = self.review.names[turn.player]
        rounds = len({t.round for t in self.review.turns}) > 1
        where = f"Round {turn.round + 1}, turn {turn.number + 1}" if rounds else f"Turn {turn.number + 1}"
        heading(surface, f"{where} · {name}", lay.card, s, self.hint_turn)
        x, _, w, _ = lay.card
        said, colour = cost_words(name, turn), BEST if turn.is_best else CREAM
        write(surface, fit(said, s - 2, w - 2 * s), s - 2, colour, (x + w // 2, lay.headline), "midtop")
        rack = f"Rack before the turn: {format_rack(turn.rack)} · {method_words(turn)}"
        write(surface, fit(rack, s - 5, w - 2 * s), s - 5, DIM, (x + w // 2, lay.headline + round(s * 1.35)), "midtop")
        at = (x + w // 2, lay.headline + round(s * 2.35))
        write(surface, fit(evaluation_words(turn), s - 6, w - 2 * s), s - 6, DIM, at, "midtop")
        cell_from = Layout.of(*surface.get_size()).tile_rect(Square(0, 0))[2]
        area = turn_region(turn)
        sides = (
            ("Played", turn.played, turn.played_score, turn.played_value, GOLD, GOLD),
            ("Best found", turn.best, turn.best_score, turn.best_value, BEST, BEST),
        )
        notes = (
            side_notes(name, turn.played_opens, turn.played_after),
            side_notes(name, turn.best_opens, turn.best_after),
        )
        for rect, (title, move, points, value, colour, frame), read in zip(lay.panels, sides, notes, strict=True):
            _draw_side(
                surface,
                rect,
                s,
                turn.board_before,
                turn.scorer,
                area,
                cell_from,
                title,
                move,
                points,
                value,
                colour,
                frame,
                read,
            )
        labels = {"previous": "Previous", "list": "Back to list", "next": "Next"}
        for bname, rect in lay.buttons.items():
            enabled = bname == "list" or (self.chosen > 0 if bname == "previous" else self.chosen < len(self.shown) - 1)
            button(surface, rect, labels[bname], enabled, contains(rect, self.mouse), strong=bname == "list")


def _draw_row(
    surface: pygame.Surface,
    turn: TurnReview,
    name: str,
    r: Rect,
    columns: tuple[int, ...],
    s: int,
    several_rounds: bool,
) -> None:
    """One turn of the list: when, who, what it scored against the best, what it cost; under it the
    two plays in notation."""
    x, y, w, _h = r
    big, small = s - 3, max(14, s - 7)
    y1 = y + 3
    y2 = y1 + round(big * 1.2)
    when = f"R{turn.round + 1} · turn {turn.number + 1}" if several_rounds else f"turn {turn.number + 1}"
    write(surface, when, big, DIM, (columns[0], y1), "topleft")
    colour = art.PLAYER_COLOURS[turn.player % len(art.PLAYER_COLOURS)]
    pygame.draw.circle(surface, colour, (columns[1] + 6, y1 + big // 3), 6)
    scored = f"{turn.played_score} / {turn.best_score}"
    room = columns[2] - columns[1] - 24 - art.font(big).size(scored)[0]
    write(surface, fit(name, big, room), big, CREAM, (columns[1] + 18, y1), "topleft")
    write(surface, scored, big, CREAM, (columns[2], y1), "topright")
    if turn.is_best:
        write(surface, "the best play", big, BEST, (columns[4], y1), "topright")
    else:
        colour = RED if turn.value_lost >= BIG_MISS else GOLD
        points = colour if turn.points_lost > 0 else DIM  # the best may score less now and gain it later
        write(surface, str(turn.points_lost), big, points, (columns[3], y1), "topright")
        write(surface, f"{turn.value_lost:.1f}", big, colour, (columns[4], y1), "topright")
    half = (w - 24) // 2
    played = fit(move_words(turn.played), small, half - 8)
    write(surface, played, small, DIM, (columns[0], y2), "topleft")
    if not turn.is_best:
        reason = lost_reason(turn)  # kept whole: the play's notation gives way to it
        best = fit("best " + move_words(turn.best), small, half - 8 - art.font(small).size(reason)[0]) + reason
        write(surface, best, small, BEST, (x + 16 + half, y2), "topleft")


def _draw_summary(surface: pygame.Surface, review: Review, box: Rect, s: int) -> None:
    """Each player over the game: the best play found on how many turns, the points and evaluation
    lost; two lines a player where there is room, else one."""
    x, y, w, h = box
    size = max(14, s - 5)
    lh = round(size * 1.3)
    totals = review.totals()
    roomy = lh + len(totals) * (2 * lh + 4) <= h
    write(surface, "Over the game", size, DIM, (x, y), "topleft")
    y += lh
    for row in totals:
        if y + lh > box[1] + h:
            break
        colour = art.PLAYER_COLOURS[row.player % len(art.PLAYER_COLOURS)]
        pygame.draw.circle(surface, colour, (x + 6, y + size // 3), 6)
        name = fit(review.names[row.player], size, w // 3 if not roomy else w - 20)
        shown = write(surface, name, size, CREAM, (x + 18, y), "topleft")
        said = (
            f"the best play on {row.best_found} of {row.turns} turns · {row.points_lost} points"
            f" and {row.value_lost:.1f} of evaluation lost"
        )
        small = max(14, size - 2)
        if roomy:
            write(surface, fit(said, small, w - 18), small, DIM, (x + 18, y + lh), "topleft")
            y += 2 * lh + 4
        else:
            left = shown[0] + shown[2] + size // 2
            write(surface, fit(said, small, x + w - left), small, DIM, (left, y + (size - small) // 2), "topleft")
            y += lh


def _draw_side(
    surface: pygame.Surface,
    rect: Rect,
    s: int,
    before: Board,
    scorer: Scorer,
    area: tuple[int, int, int, int],
    cell_from: int,
    title: str,
    move: Move,
    points: int,
    value: float,
    colour: tuple[int, int, int],
    frame: tuple[int, int, int],
    notes: Sequence[tuple[str, tuple[int, int, int]]] = (),
) -> None:
    """One side of a turn: its title and score, the board with the move on it, its breakdown, and under
    it the learned value's `notes` (what the play opens, where it leaves the player)."""
    x, y, w, h = rect
    rounded_panel(surface, rect, FIELD, 8)
    pad = max(6, s // 2)
    write(surface, title, s, colour, (x + pad, y + pad), "topleft")
    write(surface, f"{points}", s, colour, (x + w - pad, y + pad), "topright")
    words = fit(move_words(move), s - 4, w - 2 * pad)
    write(surface, words, s - 4, CREAM, (x + pad, y + pad + round(s * 1.3)), "topleft")
    write(surface, f"evaluation {value:.1f}", s - 6, DIM, (x + w - pad, y + pad + round(s * 1.3)), "topright")
    top = y + pad + round(s * 2.7)
    body = (x + pad, top, w - 2 * pad, y + h - pad - top)
    body = _draw_notes(surface, body, notes, max(13, s - 6))
    r0, r1, c0, c1 = area
    rows, cols = r1 - r0 + 1, c1 - c0 + 1
    beside = int(min(body[2] * 0.6 / (cols + 0.7), body[3] / (rows + 0.7)))  # the breakdown right of it
    above = int(min(body[2] / (cols + 0.7), body[3] * 0.62 / (rows + 0.7)))  # the breakdown under it
    cell = max(beside, above)
    bw, bh = round(cell * (cols + 0.7)), round(cell * (rows + 0.7))
    placed = move.placements if isinstance(move, Play) else ()
    if beside >= above:
        draw_board_part(surface, (body[0], body[1], bw, bh), cell, before, area, placed, frame, cell_from)
        bx = body[0] + bw + pad
        box = (bx, body[1], body[0] + body[2] - bx, body[3])
    else:
        left = body[0] + (body[2] - bw) // 2
        draw_board_part(surface, (left, body[1], bw, bh), cell, before, area, placed, frame, cell_from)
        by = body[1] + bh + pad
        box = (body[0], by, body[2], body[1] + body[3] - by)
    score = _score_of(scorer, before, move) if isinstance(move, Play) else None
    if score is not None:
        draw_info_rows(surface, place(score_rows(score, "Breakdown"), box, max(13, s - 6), max(4, s // 3))[0])
    elif isinstance(move, Play):
        write(surface, "This play does not score here.", s - 5, RED, box[:2], "topleft")
    elif isinstance(move, Exchange):
        write(surface, fit(f"Exchanged {len(move.tiles)} tiles: no points.", s - 5, box[2]), s - 5, DIM, box[:2])
    else:
        write(surface, "A pass: no points.", s - 5, DIM, box[:2], "topleft")


def _draw_notes(
    surface: pygame.Surface, box: Rect, notes: Sequence[tuple[str, tuple[int, int, int]]], size: int
) -> Rect:
    """`notes` wrapped at the foot of `box`, each in its colour; the box left above them. Notes that
    would take more than a third of the box from the board and its breakdown are left out, the last
    first."""
    x, y, w, h = box
    lh = round(size * 1.25)
    blocks = [(wrap(text, size, w), colour) for text, colour in notes]
    while blocks and sum(len(b) for b, _ in blocks) * lh + size > h // 3:
        blocks.pop()
    if not blocks:
        return box
    used = sum(len(b) for b, _ in blocks) * lh + size // 2 * (len(blocks) - 1)
    ty = y + h - used
    for lines, colour in blocks:
        for line in lines:
            write(surface, line, size, colour, (x, ty), "topleft")
            ty += lh
        ty += size // 2
    return (x, y, w, max(0, h - used - size))


def draw_board_part(
    surface: pygame.Surface,
    rect: Rect,
    c: int,
    before: Board,
    area: tuple[int, int, int, int],
    placed: Sequence[tuple[Square, object]],
    frame: tuple[int, int, int],
    face_size: int,
) -> None:
    """The rows and columns `area` of the board, `c` pixels a square, with their names, the tiles on
    `before` and the `placed` ones framed in `frame`. Tile faces are the table's (drawn at `face_size`,
    already made for the game) scaled, so opening a turn never waits for wood to be drawn."""
    r0, r1, c0, c1 = area
    gx, gy = board_grid(surface, (rect[0], rect[1]), c, area, label=0.7, names=0.42)
    side = max(4, c - 2)
    for square, tile in [*before.tiles(), *placed]:
        if not (r0 <= square.row <= r1 and c0 <= square.col <= c1):
            continue
        face = art.tile_face(tile, face_size)  # type: ignore[arg-type]
        sx, sy = gx + (square.col - c0) * c, gy + (square.row - r0) * c
        blit_tile(surface, scaled(face, side, side), sx + 1, sy + 1, side)
    width = max(2, c // 12)
    for square, _ in placed:
        sx, sy = gx + (square.col - c0) * c, gy + (square.row - r0) * c
        pygame.draw.rect(surface, frame, (sx - 1, sy - 1, c + 2, c + 2), width, border_radius=max(3, c // 8))
