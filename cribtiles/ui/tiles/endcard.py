"""The end of a game (or of a round of a match) over the table: the racks counted off, the final
scores, the winner; in a match the running totals, the Servant and, at the last round, the match's
winner; in Solitaire which colour won and by how much."""

from __future__ import annotations

import math

import pygame

from cribtiles.rules.tiles import Tile
from cribtiles.table.tiles.history import why_it_ended

from .. import art
from ..geometry import Rect
from ..paint import CREAM, DIM, GOLD, RED, SERVANT, Target, blit_tile, button, fit_width, tag, wrap, write
from .panel import seat_name, servants
from .snapshot import TableSnapshot

COUNT_START, COUNT_EACH = 0.5, 0.35  # seconds before the racks are counted, and per tile
RACK_SLOTS = 5


def end_reason(snap: TableSnapshot) -> str:
    o = snap.state.outcome
    if o is None:
        return ""
    return why_it_ended(o, tuple(_name(snap, p) for p in range(snap.state.players)))


def _in_match(snap: TableSnapshot) -> bool:
    return snap.match is not None and snap.match.options.rounds > 1


def _name(snap: TableSnapshot, p: int) -> str:
    """A seat as the card names it: in Solitaire always by its colour ("Dark (you)")."""
    name = seat_name(snap, p)
    if snap.state.options.solitaire and name != snap.state.names[p]:
        return f"{snap.state.names[p]} ({name.lower()})"
    return name


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def title(snap: TableSnapshot) -> str:
    """What the card says first, once the racks are counted: who won (the game, the round, the
    match), and in Solitaire which colour and by how much."""
    o = snap.state.outcome
    if o is None:
        return ""
    final = o.final_scores
    if snap.state.options.solitaire:
        colours = snap.state.names
        if len(o.winners) > 1:
            return f"{_joined([colours[p] for p in o.winners])} tie at {final[o.winners[0]]}"
        w = o.winners[0]
        return f"{colours[w]} won by {final[w] - max(s for p, s in enumerate(final) if p != w)}"
    match = snap.match
    if match is not None and _in_match(snap) and match.is_over:
        names = [seat_name(snap, p) for p in match.winners]
        if len(names) > 1:
            return f"{_joined(names)} share the match"
        return "You won the match!" if names == ["You"] else f"{names[0]} won the match"
    names = [seat_name(snap, p) for p in o.winners]
    if match is not None and _in_match(snap):
        which = f"round {match.round} of {match.options.rounds}"
        if len(names) > 1:
            return f"A tie in {which}"
        return f"You won {which}!" if names == ["You"] else f"{names[0]} won {which}"
    if len(names) > 1:
        return "A tie!"
    return "You won!" if names == ["You"] else f"{names[0]} won"


def match_line(snap: TableSnapshot) -> str:
    """In a match: where it stands after this round (the Servant), or how it ended."""
    match = snap.match
    if match is None or not _in_match(snap):
        return ""
    low = servants(snap)
    who = _joined([seat_name(snap, p) for p in low])
    are = f"{who} are Servants" if len(low) > 1 else f"{who} {'are' if who == 'You' else 'is'} the Servant"
    if match.is_over:
        return f"After {match.options.rounds} rounds. {are}: the lowest total."
    return f"{are}: the lowest total after round {match.round}."


def _match_lines(snap: TableSnapshot, width: int) -> list[str]:
    size, _ = _end_sizes(snap)
    return wrap(match_line(snap), size - 1, width)[:2] if _in_match(snap) else []


def _end_sizes(snap: TableSnapshot) -> tuple[int, int]:
    """(text size, tile size) of the end card."""
    return max(16, round(snap.layout.height * 0.026)), max(18, round(snap.layout.cell * 0.62))


def end_rects(snap: TableSnapshot) -> tuple[Rect, Rect]:
    """The end-of-game card and its New game button, over the board, sized to what it shows."""
    gx, gy, gw, gh = snap.layout.grid
    size, tile = _end_sizes(snap)
    bh = max(40, round(snap.layout.cell * 1.1))
    w = round(gw * (0.96 if _in_match(snap) else 0.86))
    lines = len(_match_lines(snap, w - 2 * size))
    extra = size * (0.4 + 1.3 * lines) if lines else 0
    h = round(size * 8.0 + snap.state.players * (tile + size) + size * 1.6 + extra + bh * 1.6)
    card = (gx + (gw - w) // 2, gy + (gh - h) // 2, w, h)
    bw = round(w * 0.4)
    new_game = (card[0] + (w - bw) // 2, card[1] + h - bh - bh // 2, bw, bh)
    return card, new_game


def _columns(snap: TableSnapshot, card: Rect) -> tuple[tuple[float, ...], int]:
    """The x of each column (name, score, rack, final and, in a match, total) and the size of the
    rack's tiles, small enough that five of them and the deduction never reach the final score."""
    x, _, w, _ = card
    size, tile = _end_sizes(snap)
    if _in_match(snap):
        cols: tuple[float, ...] = (x + w * 0.05, x + w * 0.31, x + w * 0.36, x + w * 0.79, x + w * 0.95)
    else:
        cols = (x + w * 0.07, x + w * 0.36, x + w * 0.42, x + w * 0.93)
    room = cols[3] - cols[2] - 2 * size * 1.9  # the deduction after the tiles, the final score
    return cols, max(12, min(tile, int(room // RACK_SLOTS) - 3))


def counted_racks(snap: TableSnapshot) -> tuple[tuple[Tile, ...], ...]:
    """The racks the end counts off: none of a game given up (its scores stand as they were)."""
    outcome = snap.state.outcome
    if outcome is not None and outcome.resigned is not None:
        return tuple(() for _ in range(snap.state.players))
    return snap.state.end_racks


def counted(snap: TableSnapshot, elapsed: float) -> int:
    """How many leftover tiles have been counted off `elapsed` seconds (at normal pace) into the
    end of the game."""
    total = sum(len(r) for r in counted_racks(snap))
    if elapsed < COUNT_START:
        return 0
    if elapsed == math.inf:  # instant speed: all counted at once
        return total
    return min(total, 1 + int((elapsed - COUNT_START) / COUNT_EACH))


def all_counted(snap: TableSnapshot, elapsed: float) -> bool:
    """Every rack has been counted off: the final scores stand."""
    return elapsed >= COUNT_START and counted(snap, elapsed) >= sum(len(r) for r in counted_racks(snap))


def draw_end(surf: Target, snap: TableSnapshot, hover: bool, elapsed: float = math.inf) -> None:
    """The end card; the racks' leftover tiles are counted off one by one as `elapsed` grows."""
    o = snap.state.outcome
    if o is None:
        return
    lay = snap.layout
    veil = pygame.Surface((lay.width, lay.height), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 110))
    surf.blit(veil, (0, 0))
    card, new_game = end_rects(snap)
    x, y, w, h = card
    surf.blit(art.soft_shadow(w, h, 16, 10, 170), (x - 20 + 4, y - 20 + 8))
    surf.blit(art.plank(w, h, (92, 58, 34), 81), (x, y))
    size, _ = _end_sizes(snap)
    cols, tile = _columns(snap, card)
    shown = counted(snap, elapsed)
    done = all_counted(snap, elapsed)
    write(surf, title(snap) if done else "Counting the racks", size * 2, GOLD, (x + w / 2, y + size * 0.9), "midtop")
    reason = end_reason(snap)
    if _in_match(snap) and snap.match is not None:
        reason = f"Round {snap.match.round} of {snap.match.options.rounds}. {reason}"
    write(surf, fit_width(reason, size, w - 2 * size), size, CREAM, (x + w / 2, y + size * 3.2), "midtop")
    ty = y + size * 5.2
    heads = ("Player", "Score", "Left on rack", "Final", "Total")
    anchors = ("midleft", "midright", "midleft", "midright", "midright")
    for c, head, anchor in zip(cols, heads, anchors, strict=False):
        write(surf, head, size - 2, DIM, (c, ty), anchor)
    ty += size * 1.6
    before = 0  # tiles of earlier players, counted first
    totals = snap.match.totals if snap.match is not None and _in_match(snap) else ()
    low = servants(snap)
    name_w = round(cols[1] - cols[0] - size * 2.4)
    for p in range(snap.state.players):
        colour = GOLD if p in o.winners and done else CREAM
        mid = ty + tile / 2
        name = fit_width(_name(snap, p), size, name_w)
        if p in low and done:  # the Servant's badge under the name
            write(surf, name, size, colour, (cols[0], mid - size * 0.4), "midleft")
            tag(surf, "Servant", max(11, size - 6), (cols[0], mid + size * 0.55), SERVANT)
        else:
            write(surf, name, size, colour, (cols[0], mid), "midleft")
        write(surf, str(snap.state.scores[p]), size, colour, (cols[1], mid), "midright")
        rack = counted_racks(snap)[p]
        mine = max(0, min(len(rack), shown - before))
        for i, t in enumerate(rack):
            face = art.tile_face(t, tile) if i < mine else art.tile_back(tile)  # face down until counted
            blit_tile(surf, face, cols[2] + i * (tile + 3), mid - tile / 2, tile)
        ded = sum(t.value for t in rack[:mine])
        after = cols[2] + len(rack) * (tile + 3) + 6
        if rack and elapsed >= COUNT_START:
            write(surf, f"-{ded}", size - 1, RED, (after, mid), "midleft")
        elif not rack:
            write(surf, "none", size - 1, DIM, (after, mid), "midleft")
        if mine == len(rack) and elapsed >= COUNT_START:
            write(surf, str(o.final_scores[p]), size + 4, colour, (cols[3], mid), "midright")
            if totals and done:
                best = snap.match is not None and snap.match.is_over and p in snap.match.winners
                write(surf, str(totals[p]), size + 4, GOLD if best else CREAM, (cols[4], mid), "midright")
        before += len(rack)
        ty += tile + size
    for i, line in enumerate(_match_lines(snap, w - 2 * size) if done else []):
        write(surf, line, size - 1, CREAM, (x + w / 2, ty + i * round(size * 1.3)), "midtop")
    small = max(12, size - 4)
    if snap.next_is_round:
        button(surf, new_game, "Next round", True, hover, strong=True)
        again = "Enter or N: the next round of the match"
    elif not snap.plays_again:  # a table online: played again once everyone there agrees
        asked = snap.again
        label = asked.button if asked is not None and asked.button else "Play again"
        if not (snap.watching and (asked is None or asked.button is None)):  # a spectator's only button: Watch it
            button(surf, new_game, label, asked is None or asked.button is not None, hover, strong=True)
        again = asked.text if asked is not None else ""
        told = asked.keys if asked is not None else "L leaves the table"
        keys = " · ".join(k for k in (told, "Esc: look at the board") if k)
        write(
            surf,
            fit_width(again, small, w - 2 * size),
            small,
            CREAM,
            (x + w / 2, new_game[1] - 6 - round(small * 1.3)),
            "midbottom",
        )
        write(surf, fit_width(keys, small, w - 2 * size), small, DIM, (x + w / 2, new_game[1] - 6), "midbottom")
        return
    else:
        button(surf, new_game, "Play again", True, hover, strong=True)
        bots = [s.level for s in snap.seats if s.level is not None]
        game = "match" if _in_match(snap) else "game"
        if len(bots) == 1:
            again = f"Enter or N: a new {game} against the {snap.next_level} bot (L changes the bot)"
        else:
            again = f"Enter or N: a new {game} at the same table"
    write(surf, again, small, DIM, (x + w / 2, new_game[1] - 6 - round(small * 1.3)), "midbottom")
    more = "Esc: look at the board · G: other players or rules"
    write(surf, more, small, DIM, (x + w / 2, new_game[1] - 6), "midbottom")
