"""The coach drawn at the table: its buttons at the top of the side panel's text box, the tiles still
out, the exchange advice with a button that marks those tiles, the candidate plays with the Expert's
progress bar, and the hint ghosted on the board. `coach_layout` says where each part sits (the scene
asks it what a click is on); drawing reads the snapshot and changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from cribtiles.bot.coach import Suggestion, alike_words
from cribtiles.rules.moves import Exchange, Play
from cribtiles.rules.tiles import Colour, Tile, format_tiles

from . import art
from .geometry import Rect, contains
from .paint import CREAM, DIM, GOLD, Target, badge, button, draw_rect, face_of, fit_width, rounded_panel, wrap, write
from .tiles.snapshot import CoachView, TableSnapshot

#: The coach's own colour: its ghosted tiles, its frames.
COACH = (140, 220, 255)
GHOST_ALPHA = 125


@dataclass(frozen=True)
class CoachLayout:
    """Where the coach's parts sit in the side panel's text box at one moment."""

    buttons: tuple[tuple[str, Rect, str, bool], ...]  # (name, where, label, enabled)
    tiles: Rect | None  # the tiles still out
    advice: Rect | None
    mark: Rect | None  # the advice's button: mark those tiles
    panel: Rect | None  # the candidate plays
    rows: tuple[tuple[int, Rect], ...]  # each candidate shown: (its index, where)
    top: int  # where the panel's other rows begin


def sizes(snap: TableSnapshot) -> tuple[int, int]:
    """The side panel's text size and padding (as `panel._info_rows` has them)."""
    base = max(15, round(snap.layout.height * 0.025))
    return base, base // 2


def _labels(coach: CoachView, exchanging: bool) -> tuple[tuple[str, str, str], ...]:
    """Each button's name, long label and short label."""
    advice = coach.stuck or exchanging
    return (
        ("hint", "Exchange advice (I)" if advice else "Hint (I)", "Advice (I)" if advice else "Hint (I)"),
        ("plays", "Best plays (B)", "Plays (B)"),
        ("out", "Tiles out (T)", "Tiles (T)"),
    )


def _tiles_height(snap: TableSnapshot, w: int) -> tuple[int, int]:
    """The tiles-out box's height, and the side of its little tiles."""
    base, pad = sizes(snap)
    side = max(18, min(34, (w - 11 * 3) // 12))
    return (base - 2) + pad // 2 + 2 * side + 4 + pad, side


def _advice_lines(snap: TableSnapshot, w: int) -> tuple[str, list[str]]:
    coach = snap.coach
    assert coach is not None and coach.advice is not None
    base, _ = sizes(snap)
    a = coach.advice
    head = f"Throw back {format_tiles(a.throw)}" + (f", keep {format_tiles(a.keep)}" if a.keep else "")
    return head, wrap(a.why, base - 3, w)


def coach_layout(snap: TableSnapshot, bottom: int, bar: bool = True) -> CoachLayout | None:
    """Where the coach's parts sit (None when there is no coach at this table); `bottom`: where the
    text box's room ends (above the messages); `bar`: its buttons are shown."""
    coach = snap.coach
    if coach is None:
        return None
    base, pad = sizes(snap)
    x, y, w, _ = snap.layout.info
    x, w, y = x + pad, w - 2 * pad, y + pad
    if snap.help:  # how to play fills the box (H puts it away)
        return CoachLayout((), None, None, None, None, (), y)
    buttons = []
    if bar and coach.hints_on:  # with hints off there is nothing to press (T still shows the tiles out)
        bh = max(26, round(base * 1.6))
        gap = max(4, pad // 2)
        bw = (w - 2 * gap) // 3
        size = max(16, round(bh * 0.52))
        for i, (name, long, short) in enumerate(_labels(coach, snap.exchanging)):
            label = long if art.font(size).size(long)[0] <= bw - 10 else short
            # the tiles out are the uncovered rack's: under the hot seat's curtain there is none to show
            enabled = coach.may_ask if name != "out" else snap.curtain is None
            buttons.append((name, (x + i * (bw + gap), y, bw, bh), label, enabled))
        y += bh + pad
    tiles = None
    if coach.tiles_out is not None:
        h, _ = _tiles_height(snap, w)
        tiles = (x, y, w, h)
        y += h + pad // 2
    advice = mark = None
    if coach.advice is not None:
        _, lines = _advice_lines(snap, w)
        mh = max(26, round(base * 1.5))
        h = round(base * 1.3) + len(lines) * round((base - 3) * 1.25) + pad // 2 + mh + pad
        advice = (x - pad // 2, y, w + pad, h)
        mark = (x, y + h - mh - pad // 2, min(w, max(180, w // 2)), mh)
        y += h + pad // 2
    panel = None
    rows: list[tuple[int, Rect]] = []
    if coach.candidates is not None:
        panel = (x, y, w, max(0, bottom - y))
        top = y + _head_height(base, pad)
        row_h = _row_height(base)
        room = bottom - _foot_height(base, foot_lines(coach.candidates))  # the foot: the play pointed at
        for i in range(len(coach.candidates)):
            if top + row_h > room:
                break
            rows.append((i, (x - pad // 2, top, w + pad, row_h)))
            top += row_h
        y = bottom
    return CoachLayout(tuple(buttons), tiles, advice, mark, panel, tuple(rows), y)


def _row_height(base: int) -> int:
    return round((base - 2) * 1.45)


def _head_height(base: int, pad: int) -> int:
    """The candidate panel's heading, the Expert's progress and the columns' names."""
    return round(base * 1.4) + round(max(12, base - 5) * 1.3) + pad // 4


def foot_lines(found: Sequence[Suggestion]) -> int:
    """The lines under the list: two for the figures in words, or the play pointed at; one more for
    what a play opens, when one of them opens or closes something worth saying."""
    return 3 if any(s.opening is not None for s in found) else 2


def _foot_height(base: int, lines: int = 2) -> int:
    """`lines` lines under the list: the figures in words, or the play pointed at."""
    return round(max(12, base - 4) * 1.2) * (lines - 1) + round(max(12, base - 4) * 1.3) + 4


def hit(layout: CoachLayout | None, point: tuple[float, float]) -> tuple[str, int] | None:
    """What of the coach's is under a point: ("button", i), ("mark", 0), ("candidate", index)."""
    if layout is None:
        return None
    for i, (_, rect, _, _) in enumerate(layout.buttons):
        if contains(rect, point):
            return "button", i
    if layout.mark is not None and contains(layout.mark, point):
        return "mark", 0
    for index, rect in layout.rows:
        if contains(rect, point):
            return "candidate", index
    return None


# --- drawing ---


def draw_coach(surf: Target, snap: TableSnapshot, layout: CoachLayout | None) -> None:
    """The coach's buttons, the tiles still out, the advice and the candidate plays."""
    coach = snap.coach
    if coach is None or layout is None:
        return
    for name, rect, label, enabled in layout.buttons:
        on = {
            "hint": coach.hint is not None or coach.advice is not None,
            "plays": coach.candidates is not None,
            "out": coach.tiles_out is not None,
        }[name]
        button(surf, rect, label, enabled, contains(rect, snap.mouse), strong=on)
    if layout.tiles is not None and coach.tiles_out is not None:
        _draw_tiles_out(surf, snap, coach, layout.tiles)
    if layout.advice is not None:
        _draw_advice(surf, snap, layout)
    if layout.panel is not None:
        _draw_candidates(surf, snap, coach, layout)


def _draw_tiles_out(surf: Target, snap: TableSnapshot, coach: CoachView, rect: Rect) -> None:
    assert coach.tiles_out is not None
    base, pad = sizes(snap)
    x, y, w, _ = rect
    _, side = _tiles_height(snap, w)
    total = sum(t.count for t in coach.tiles_out)
    bag = snap.state.bag_size(snap.human)
    title = f"Tiles still out: {total}"
    detail = f"{bag} in the bag, {total - bag} on other racks"
    r = write(surf, title, base - 2, GOLD, (x, y), "topleft")
    write(surf, fit_width(detail, base - 4, w - r[2] - 12), base - 4, DIM, (x + w, y + 2), "topright")
    kinds = [t for t in coach.tiles_out if t.colour is Colour.LIGHT]
    step = (w - side) / max(1, len(kinds) - 1)
    for row, colour in enumerate((Colour.LIGHT, Colour.DARK)):
        ty = y + (base - 2) + pad // 2 + row * (side + 4)
        for k, kind in enumerate(t for t in coach.tiles_out if t.colour is colour):
            tx = round(x + k * step)
            face = face_of(snap, Tile(kind.rank, colour), side)
            if kind.count == 0:  # all seen: faded
                face = face.copy()
                face.set_alpha(60)
            surf.blit(face, (tx, ty))
            if kind.count:
                small = max(10, side // 2 - 3)
                badge(surf, str(kind.count), (tx + side - 3, ty + side - 4), GOLD, small)


def _draw_advice(surf: Target, snap: TableSnapshot, layout: CoachLayout) -> None:
    assert layout.advice is not None and layout.mark is not None
    base, pad = sizes(snap)
    x, y, w, _ = layout.advice
    rounded_panel(surf, layout.advice, (20, 40, 52, 200), 8)
    draw_rect(surf, COACH, layout.advice, 1, border_radius=8)
    head, lines = _advice_lines(snap, w - pad)
    write(surf, fit_width(f"Coach: {head}", base, w - pad), base, COACH, (x + pad // 2, y + pad // 2), "topleft")
    ly = y + pad // 2 + round(base * 1.3)
    for line in lines:
        write(surf, line, base - 3, CREAM, (x + pad // 2, ly), "topleft")
        ly += round((base - 3) * 1.25)
    label = "Mark these tiles" if snap.exchanging else "Exchange these"
    button(surf, layout.mark, label, snap.my_turn, contains(layout.mark, snap.mouse))


def _columns(base: int) -> tuple[int, int, int]:
    """The widths of the columns at the right: the value of the tiles kept, the Expert's, the points."""
    f = art.font(max(12, base - 2))
    kept = max(f.size("kept")[0], f.size("-10.0")[0]) + base
    expert = max(f.size("Expert")[0], f.size("+100.0")[0]) + base
    points = max(f.size("pts")[0], f.size("888")[0]) + base // 2
    return kept, expert, points


def _draw_candidates(surf: Target, snap: TableSnapshot, coach: CoachView, layout: CoachLayout) -> None:
    assert layout.panel is not None and coach.candidates is not None
    base, pad = sizes(snap)
    x, y, w, h = layout.panel
    bottom = y + h
    small = max(12, base - 4)
    head = write(surf, "Best plays", base, GOLD, (x, y), "topleft")
    if not coach.candidates:
        write(surf, "No play: pass or exchange.", base - 2, CREAM, (x, y + round(base * 1.4)), "topleft")
        return
    mid = y + head[3] / 2
    after = head[0] + head[2] + base
    if coach.progress is not None:  # the Expert at work: a bar that fills
        done, total = coach.progress
        words = f"Expert {done}/{total}" if total else "Expert starting"
        r = write(surf, words, small, CREAM, (after, mid), "midleft")
        bx = r[0] + r[2] + 8
        bar = (bx, round(mid - small / 3), max(20, x + w - bx), max(8, round(small * 0.66)))
        draw_rect(surf, (30, 46, 40), bar, 0, border_radius=4)
        if total:
            fill = round(bar[2] * min(1.0, done / total))
            if fill > 0:
                draw_rect(surf, COACH, (bar[0], bar[1], fill, bar[3]), 0, border_radius=4)
        draw_rect(surf, (90, 120, 110), bar, 1, border_radius=4)
    else:
        by = "the Expert's evaluation" if coach.expert_ran and not coach.failure else "Hard's equity"
        words = f"best first by {by}; click one to lay it"
        if coach.failure:
            words = f"the Expert could not run: {coach.failure}"
        write(surf, fit_width(words, small, x + w - after), small, DIM, (x + w, mid), "midright")
    y += round(base * 1.4)
    size = max(12, base - 2)
    kw, ew, pw = _columns(base)
    right = x + w
    tiny = max(12, base - 5)
    for label, at in (("kept", right - pw - ew), ("Expert", right - pw), ("pts", right)):
        write(surf, label, tiny, DIM, (at, y), "topright")
    write(surf, "play", tiny, DIM, (x + pad // 2, y), "topleft")
    pointed = coach.chosen
    for index, rect in layout.rows:
        s = coach.candidates[index]
        rx, ry, rw, rh = rect
        if index == coach.chosen:
            rounded_panel(surf, rect, (140, 220, 255, 60), 6)
        elif contains(rect, snap.mouse):
            rounded_panel(surf, rect, (255, 214, 102, 40), 6)
            pointed = index
        colour = COACH if index == coach.chosen else CREAM
        mid = ry + rh / 2
        write(surf, str(s.score), size, GOLD if index != coach.chosen else COACH, (right, mid), "midright")
        expert = (
            "..." if s.expert is None and coach.progress is not None else "" if s.expert is None else f"{s.expert:+.1f}"
        )
        write(surf, expert, size, colour, (right - pw, mid), "midright")
        write(
            surf, f"{s.leave:+.1f}", size, DIM if index != coach.chosen else COACH, (right - pw - ew, mid), "midright"
        )
        what = fit_width(f"{index + 1}. {_row_words(s)}", size, rw - pad - kw - ew - pw)
        write(surf, what, size, colour, (rx + pad // 2, mid), "midleft")
    lines = foot_lines(coach.candidates)
    foot = bottom - _foot_height(base, lines) + 4
    more = len(coach.candidates) - len(layout.rows)
    if pointed is not None and 0 <= pointed < len(coach.candidates):
        s = coach.candidates[pointed]
        opens = wrap(s.opening.short, small, w)[: lines - 1] if s.opening is not None else []
        detail = wrap(point_words(s, pointed), small, w)
        room = lines - len(opens)
        if len(detail) > room:  # the figures give way to what the play opens: cut short, said so
            detail = [*detail[: room - 1], fit_width(" ".join(detail[room - 1 :]), small, w)]
        said = [(line, CREAM) for line in detail] + [(line, COACH) for line in opens]
        for k, (line, colour) in enumerate(said):
            write(surf, line, small, colour, (x, foot + k * round(small * 1.2)), "topleft")
    elif layout.rows:
        point = "Point at a play: what it keeps, what it opens, and why"
        told = [FIGURES, f"{more} more in a taller window" if more > 0 else point]
        for k, line in enumerate(told):
            write(surf, fit_width(line, small, w), small, DIM, (x, foot + k * round(small * 1.2)), "topleft")


#: The Best plays' figures in words, under the list.
FIGURES = "kept: the tiles kept, worth later (bots' table) · Expert: points won on the others, next turns"


def _row_words(s: Suggestion) -> str:
    """A row's play: its notation, or for a play with others alike 'f7=Q g7=Q, either colour order'."""
    return s.label if isinstance(s.move, Play) else _move_words(s.move)


def point_words(s: Suggestion, index: int) -> str:
    """The play pointed at, its figures in words: what it keeps and what the bots' table makes of
    them, Hard's equity and what it is made of, the plays alike (the Expert's column is said under
    the list when nothing is pointed at)."""
    kept = format_tiles(s.kept) or "nothing"
    said = (
        f"{index + 1}. keeps {kept}: {s.leave:+.1f} on later turns (bots' table) · Hard's equity {s.equity:.1f}"
        f" = {s.score} points {s.leave:+.1f} kept {s.threat:+.1f} for what it opens or blocks"
    )
    alike = alike_words(s)
    return f"{said} · {alike}" if alike else said


def _move_words(move: object) -> str:
    if isinstance(move, Exchange):
        return f"exchange {format_tiles(move.tiles)}"
    return str(move)


def draw_ghost(surf: Target, snap: TableSnapshot) -> None:
    """The hint on the board: its tiles drawn translucent on their squares, each outlined, and its
    score at the end of the play."""
    coach = snap.coach
    if coach is None or coach.hint is None or not isinstance(coach.hint.move, Play):
        return
    lay = snap.layout
    play = coach.hint.move
    width = max(2, lay.cell // 18)
    for p in play.placements:
        x, y, w, _ = lay.tile_rect(p.square)
        face = face_of(snap, p.tile, w).copy()
        face.set_alpha(GHOST_ALPHA)
        surf.blit(face, (x, y))
        draw_rect(surf, COACH, lay.square_rect(p.square), width, border_radius=5)
    last = lay.square_rect(play.placements[-1].square)
    down = len(play.placements) > 1 and play.placements[0].square.col == play.placements[-1].square.col
    nudge = lay.cell // 5
    # the score at the play's far end: right of a row (or of one tile), below a column
    at = (
        (last[0] + last[2] // 2, last[1] + last[3] + nudge)
        if down
        else (last[0] + last[2] + nudge, last[1] + last[3] // 2)
    )
    badge(surf, str(coach.hint.score), at, COACH, max(14, lay.cell * 2 // 5))


def ghost_squares(snap: TableSnapshot) -> tuple[pygame.Rect, ...]:
    """The squares of the hint ghosted on the board (a click on one lays the hint)."""
    coach = snap.coach
    if coach is None or coach.hint is None or not isinstance(coach.hint.move, Play):
        return ()
    return tuple(pygame.Rect(snap.layout.square_rect(p.square)) for p in coach.hint.move.placements)
