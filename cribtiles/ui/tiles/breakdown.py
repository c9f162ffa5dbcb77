"""A play's score in words, row by row: the heading, each line and its fifteens, pairs (three and four
of a kind as one row) and runs, the bonuses; each row names the squares it lights on the board; under
the Joker rule, only what the table lets be seen of it (`seen_rows`). And
where the side panel's rows sit: every row of the longest breakdown shown, smaller or in two columns."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from cribtiles.counting import Combination, CombinationKind
from cribtiles.rules.board import Square
from cribtiles.rules.scoring import ONE_COLOUR, PlayScore, ScoredLine
from cribtiles.rules.tiles import rank_word
from cribtiles.table.tiles.seen import SeenScore, call_row

from .. import art
from ..geometry import Rect
from ..paint import CREAM, DIM, GOLD, Target, write

Colour = tuple[int, int, int]
#: One row of the side panel's text: (left, right, colour, size step, squares it lights, indent).
RowSpec = tuple[str, str, Colour, int, tuple[Square, ...], int]

#: The smallest text the rows shrink to (a fifteen's row one size smaller) before they are cut short.
SMALLEST = 13
#: Line height, as a multiple of the text size; TIGHT when a long breakdown needs the room (the
#: letters are about 0.65 of the size high, so rows still stand apart).
LEADING, TIGHT = 1.25, 1.0

#: Pairs of one rank in one line, by how many tiles of that rank the line holds.
OF_A_KIND = {3: "three of a kind", 4: "four of a kind"}


def _words(kind: str, ranks: tuple[int, ...], positions: tuple[int, ...]) -> str:
    tiles = [rank_word(ranks[i]) for i in positions]
    if kind == CombinationKind.FIFTEEN:
        return "fifteen " + "+".join(tiles)
    return f"{kind}  " + " ".join(tiles)


def _line_items(sl: ScoredLine) -> list[tuple[str, tuple[int, ...], int]]:
    """A line's combinations as (words, positions, points), the pairs of one rank made one item:
    three 6s are "three of a kind" for 6 points, not three "pair 6 6" rows."""
    ranks = sl.line.ranks
    combinations = sl.combinations  # worked out afresh at each asking
    by_rank: defaultdict[int, list[Combination]] = defaultdict(list)
    for c in combinations:
        if c.kind is CombinationKind.PAIR:
            by_rank[ranks[c.positions[0]]].append(c)
    items: list[tuple[str, tuple[int, ...], int]] = []
    for c in combinations:
        if c.kind is not CombinationKind.PAIR:
            items.append((_words(c.kind, ranks, c.positions), c.positions, c.points))
            continue
        group = by_rank[ranks[c.positions[0]]]
        if c is not group[0]:  # told with the first pair of its rank
            continue
        positions = tuple(sorted({i for p in group for i in p.positions}))
        kind = OF_A_KIND.get(len(positions), str(CombinationKind.PAIR))
        items.append((_words(kind, ranks, positions), positions, sum(p.points for p in group)))
    return items


def _told_apart(
    items: list[tuple[str, tuple[int, ...], int]], squares: tuple[Square, ...]
) -> list[tuple[str, tuple[int, ...], int]]:
    """Every fifteen names its squares ("fifteen 5+K: f7 g7"): a line may hold several that read
    alike, and one alone should not read differently from them. Other rows that would read alike
    (two pairs of one rank cannot, two runs can) name the squares of the tiles only they use."""
    same: defaultdict[str, list[tuple[int, ...]]] = defaultdict(list)
    for words, positions, _ in items:
        same[words].append(positions)
    out = []
    for words, positions, points in items:
        group = same[words]
        if words.startswith(f"{CombinationKind.FIFTEEN} "):  # short: the longest breakdown must fit
            words = f"{words}: {' '.join(str(squares[i]) for i in positions)}"
        elif len(group) > 1:
            shared = set(group[0]).intersection(*group[1:])
            own = [str(squares[i]) for i in positions if i not in shared]
            words = f"{words}  ({' '.join(own)})"
        out.append((words, positions, points))
    return out


def score_rows(score: PlayScore, heading: str) -> list[RowSpec]:
    """The rows of a score breakdown, the heading first."""
    rows: list[RowSpec] = [(heading, str(score.total), GOLD, 2, score.play.squares, 0)]
    for sl in score.lines:
        squares = sl.line.squares
        rows.append(
            (f"{sl.name}:  " + " ".join(rank_word(r) for r in sl.line.ranks), str(sl.total), CREAM, 0, squares, 0)
        )
        for words, positions, points in _told_apart(_line_items(sl), squares):
            rows.append((words, str(points), DIM, -2, tuple(squares[i] for i in positions), 1))
    for b in score.bonuses:
        where = b.line.squares if b.kind is ONE_COLOUR and b.line is not None else score.play.squares
        label = f"bonus: {b.kind}" + (f" ({b.line.name})" if b.line is not None else "")
        rows.append((label, f"+{b.points}", GOLD, 0, where, 0))
    return rows


def seen_rows(seen: SeenScore, who: str, names: Sequence[str], prefix: str = "") -> list[RowSpec]:
    """The rows of a play's score as the table may show it (`cribtiles.table.tiles.seen`): under the Joker
    rule with its call window open, what its player declared and pointed at, never the true total;
    once it closes, the true breakdown with how the declaration stood and the calls made on it."""
    squares = seen.play.squares
    if seen.score is None:
        rows: list[RowSpec] = [(f"{prefix}{who} played", "", GOLD, 2, squares, 0)]
        for c in seen.claimed:
            rows.append((c.words, str(c.points), DIM, -2, c.squares, 1))
        rows.append((f"declared {seen.declared}", "", CREAM, 0, squares, 0))
        return rows
    if not seen.joker:
        return score_rows(seen.score, f"{prefix}{who} scored")
    whose = "Your" if who == "You" else f"{who}'s"
    rows = score_rows(seen.score, f"{prefix}{whose} play was worth")
    rows.insert(1, (seen.standing, "", GOLD, 0, squares, 0))
    for call in seen.calls:
        words, points = call_row(call, seen.player, names)
        rows.append((words, points, GOLD, 0, squares, 0))
    return rows


def breakdown_rows(score: PlayScore) -> int:
    """How many rows the breakdown of `score` has (each is read out in turn)."""
    return len(score_rows(score, ""))


# --- where the rows sit ---


@dataclass(frozen=True)
class InfoRow:
    rect: Rect
    left: str
    right: str = ""
    colour: Colour = CREAM
    size: int = 16
    squares: tuple[Square, ...] = ()
    indent: int = 0
    turn: int | None = None  # a row of the turn list: the turn it names (a click shows it)


def draw_info_rows(surface: Target, rows: Sequence[InfoRow]) -> None:
    """Each row's words on `surface`: the left ones at its indent, the right ones (its points) flush
    right, both centred in the row's height."""
    for row in rows:
        rx, ry, rw, rh = row.rect
        write(surface, row.left, row.size, row.colour, (rx + row.indent * row.size, ry + rh / 2), "midleft")
        if row.right:
            write(surface, row.right, row.size, row.colour, (rx + rw, ry + rh / 2), "midright")


def _fits_across(spec: RowSpec, size: int, width: int) -> bool:
    left, right, _, _, _, indent = spec
    f = art.font(size)
    need = indent * size + f.size(art.clip(left))[0] + (f.size(right)[0] + size // 2 if right else 0)
    return need <= width


def _sizes(spec: list[RowSpec], base: int) -> list[int]:
    return [max(SMALLEST - 1, base + step) for *_, step, _, _ in spec]


def _heights(spec: list[RowSpec], sizes: list[int], pad: int, leading: float) -> list[int]:
    return [round(s * leading) + (pad // 2 if r[3] >= 2 else 0) for r, s in zip(spec, sizes, strict=True)]


def _columns(
    spec: list[RowSpec], box: Rect, pad: int, n: int, base: int, leading: float
) -> tuple[list[InfoRow], int] | None:
    """The heading across the top, the other rows in `n` columns, split where the columns come out
    most even (a column begins with a line rather than with one of its fifteens when it can); None
    when they do not fit."""
    x, y, w, h = box
    head = 1 if spec and spec[0][3] >= 2 else 0
    if len(spec) - head < n:
        return None
    sizes = _sizes(spec, base)
    heights = _heights(spec, sizes, pad, leading)
    gap = max(pad, 8)
    col_w = (w - (n - 1) * gap) // n
    room = h - sum(heights[:head])
    body = heights[head:]
    starts = [0] * (len(body) + 1)
    for i, b in enumerate(body):
        starts[i + 1] = starts[i] + b
    best: tuple[int, int, tuple[int, ...]] | None = None
    for cuts in itertools.combinations(range(1, len(body)), n - 1):
        edges = (0, *cuts, len(body))
        tallest = max(starts[b] - starts[a] for a, b in itertools.pairwise(edges))
        orphans = sum(1 for c in cuts if spec[head + c][5] != 0)
        if tallest <= room and (best is None or (orphans, tallest) < best[:2]):
            best = (orphans, tallest, edges)
    if best is None:  # too tall (measured first: it is cheaper than the widths)
        return None
    if head and not _fits_across(spec[0], sizes[0], w):
        return None
    if not all(_fits_across(r, s, col_w) for r, s in zip(spec[head:], sizes[head:], strict=True)):
        return None
    rows = []
    if head:
        left, right, colour, _, squares, indent = spec[0]
        rows.append(InfoRow((x, y, w, round(sizes[0] * leading)), left, right, colour, sizes[0], squares, indent))
    top = y + sum(heights[:head])
    bottom = top
    for column, (a, b) in enumerate(itertools.pairwise(best[2])):
        cx, cy = x + column * (col_w + gap), top
        for i in range(head + a, head + b):
            left, right, colour, _, squares, indent = spec[i]
            rect = (cx, cy, col_w, round(sizes[i] * leading))
            rows.append(InfoRow(rect, left, right, colour, sizes[i], squares, indent))
            cy += heights[i]
        bottom = max(bottom, cy)
    return rows, bottom


def place(spec: list[RowSpec], box: Rect, base: int, pad: int) -> tuple[list[InfoRow], int]:
    """The rows of `spec` laid out in `box` (x, y, width, height) and the y below them: every row, at
    the largest text that shows them all: in one column (a little smaller or closer first), else in
    two or three side by side where they are narrow enough. Only what cannot fit even so is cut
    short, "... and N more"."""
    rows, y = _place(tuple(spec), box, base, pad)
    return list(rows), y


@lru_cache(maxsize=16)
def _place(spec: tuple[RowSpec, ...], box: Rect, base: int, pad: int) -> tuple[tuple[InfoRow, ...], int]:
    """`place`, remembered: a long breakdown read out row by row is laid out once, not at each row
    (the longest takes about 5 ms to lay out)."""
    if not spec:
        return (), box[1]
    for n in (1, 2, 3):
        smallest = max(SMALLEST, base - 3) if n == 1 else SMALLEST
        for size in range(base, smallest - 1, -1):
            for leading in (LEADING, TIGHT):
                placed = _columns(list(spec), box, pad, n, size, leading)
                if placed is not None:
                    return tuple(placed[0]), placed[1]
    rows, y = _cut(list(spec), box, base, pad)
    return tuple(rows), y


def _cut(spec: list[RowSpec], box: Rect, base: int, pad: int) -> tuple[list[InfoRow], int]:
    x, y, w, h = box
    bottom = y + h
    rows: list[InfoRow] = []
    for i, (left, right, colour, step, squares, indent) in enumerate(spec):
        size = base + step
        lh = round(size * LEADING)
        if y + lh > bottom - (round(base * LEADING) if i < len(spec) - 1 else 0):
            rows.append(InfoRow((x, y, w, lh), f"... and {len(spec) - i} more", "", DIM, base - 2))
            return rows, y + lh
        rows.append(InfoRow((x, y, w, lh), left, right, colour, size, squares, indent))
        y += lh + (pad // 2 if step >= 2 else 0)
    return rows, y
