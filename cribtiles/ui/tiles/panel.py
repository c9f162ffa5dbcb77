"""The side panel: the opponents, the peg board, whose turn, the live preview or the score breakdown
(`info_rows`, which the scene also asks what the pointer is on), the turns, messages and buttons."""

from __future__ import annotations

from dataclasses import dataclass

from cribtiles.rules.game import JokerCall, Turn
from cribtiles.rules.moves import Exchange, Play
from cribtiles.table.tiles.seen import SeenScore, call_row

from .. import art, pegboard
from ..coach_panel import COACH, CoachLayout, coach_layout, draw_coach
from ..geometry import Rect, contains
from ..paint import (
    CREAM,
    DIM,
    GOLD,
    RED,
    SERVANT,
    Target,
    blit_tile,
    button,
    draw_rect,
    fit_width,
    rounded_panel,
    tag,
    wrap,
    write,
)
from .breakdown import InfoRow, RowSpec, draw_info_rows, place, score_rows, seen_rows
from .game_words import did_words, stand_in_words
from .help_text import help_texts, with_opening
from .snapshot import CoachView, TableSnapshot

KEYS = "Enter play · R recall · S shuffle · P pass · X exchange · F flip · A speed · M sound · H help · Esc menu · F11"


def info_rows(snap: TableSnapshot) -> list[InfoRow]:
    """The side panel's text for the moment: exchange help, the live preview, the last play's
    breakdown, or how to play (computed once per change, not once per frame)."""
    key = (
        id(snap.live),
        id(snap.breakdown),
        snap.exchanging,
        len(snap.draft.marked),
        snap.state.current == snap.human,
        snap.layout.width,
        snap.layout.height,
        min(snap.rows_shown or 999, 999),
        snap.help,
        snap.hide_scores,
        len(snap.state.turns),
        snap.human,
        snap.toasts,
        None if snap.past is None else snap.past.number,
        snap.turn_scroll,
        snap.confirming,
        snap.undo_asked,
        None if snap.coach is None else snap.coach.key,
        None if snap.replay is None else (snap.replay.round, snap.replay.at, len(snap.replay.turns), snap.replay.typed),
        snap.state.options,  # the help says what they allow
        snap.opening,  # who starts: each game's own draw
    )
    if _info_cache.key != key:
        rows = _info_rows(snap)
        bare = False
        if _cut_short(rows) and _bar_only(snap):  # the coach's buttons give their room to the text
            rows, bare = _info_rows(snap, bar=False), True
        _info_cache.key, _info_cache.rows, _info_cache.bare = key, tuple(rows), bare
    return list(_info_cache.rows)


def _cut_short(rows: list[InfoRow]) -> bool:
    return any(r.left.startswith("... and ") and r.left.endswith(" more") for r in rows)


def _bar_only(snap: TableSnapshot) -> bool:
    """The coach shows only its buttons (no tiles still out, advice or candidate plays)."""
    laid = coach_layout(snap, _text_bottom(snap))
    return laid is not None and bool(laid.buttons) and laid.tiles is None and laid.advice is None and laid.panel is None


@dataclass
class _InfoCache:
    """The rows of the last moment the panel laid out, and what they were laid out for."""

    key: tuple[object, ...] = ()
    rows: tuple[InfoRow, ...] = ()
    bare: bool = False  # the coach's buttons were left out: the text needed their room


_info_cache = _InfoCache()


def _text_bottom(snap: TableSnapshot) -> int:
    """Where the side panel's text ends: above the keys line, and above the messages when there are some."""
    _, y, _, h = snap.layout.info
    base = max(15, round(snap.layout.height * 0.025))
    bottom = y + h - base // 2 - round(snap.layout.height * 0.017) - 6
    toasts = toast_boxes(snap)
    if toasts:
        bottom = min(bottom, toasts[-1][0][1] - base // 4)
    return bottom


def coach_rects(snap: TableSnapshot) -> CoachLayout | None:
    """Where the coach's buttons, tiles still out, advice and candidate plays sit now (None: no coach).
    The buttons give way to a breakdown too long to show whole with them (the keys still work)."""
    info_rows(snap)
    return coach_layout(snap, _text_bottom(snap), bar=not _info_cache.bare)


def _hint_rows(coach: CoachView) -> list[RowSpec]:
    """The hint explained: the play, the tiles it keeps and what they are worth, the keys, then its
    breakdown (what a small window cuts short is the end of the breakdown, not the keys)."""
    s = coach.hint
    assert s is not None
    kept = " ".join(str(t) for t in s.kept) or "nothing"
    keeps: RowSpec = (f"keeps {kept}, worth {s.leave:+.1f} on later turns (the bots' table)", "", CREAM, -1, (), 0)
    equity: RowSpec = (f"Hard's equity {s.equity:.1f} (score, tiles kept, what it opens)", "", DIM, -2, (), 0)
    if s.breakdown is None:  # an exchange (under exchange=any-time)
        keys = "Enter opens the exchange with them marked · Esc puts it away"
        return [
            ("Hint: the Hard bot would exchange", "", GOLD, 2, (), 0),
            (str(s.move), "", COACH, 0, (), 0),
            keeps,
            (keys, "", DIM, -3, (), 0),
            equity,
        ]
    keys = "Enter (or a click on it) lays it on the board · Esc puts it away"
    rows = score_rows(s.breakdown, "Hint: the Hard bot would play")
    squares = s.breakdown.play.squares
    return [rows[0], (str(s.move), "", COACH, 0, squares, 0), keeps, (keys, "", DIM, -3, (), 0), *rows[1:], equity]


def _info_rows(snap: TableSnapshot, bar: bool = True) -> list[InfoRow]:
    x, y, w, _ = snap.layout.info
    base = max(15, round(snap.layout.height * 0.025))
    pad = base // 2
    x, w = x + pad, w - 2 * pad
    y += pad
    coach = snap.coach
    laid = coach_layout(snap, _text_bottom(snap), bar)
    if laid is not None:
        if laid.panel is not None:  # the candidate plays fill the box
            return []
        y = laid.top
    spec: list[RowSpec] = []
    shown = None  # a breakdown's rows are read out one by one: how many so far
    told = 0  # ... of how many
    live = snap.live
    if coach is not None and coach.hint is not None and not snap.exchanging:
        spec.extend(_hint_rows(coach))
    elif snap.exchanging:
        n = len(snap.draft.marked)
        spec.append(("Exchange", f"{n} chosen", GOLD, 2, (), 0))
        how = (
            "Click the tiles to send back to the bag (or press 1-5), then press Exchange (Enter). "
            "Cancel (Esc) keeps your rack."
        )
        if coach is not None and coach.advice is not None:  # the advice above says which; the buttons say how
            how = ""
        for line in wrap(how, base, w) if how else ():
            spec.append((line, "", CREAM, 0, (), 0))
    elif live is not None and snap.state.current == snap.human:
        if live.score is not None and snap.hide_scores:  # the Joker rule: the person counts it
            spec.append(("A legal play", "", GOLD, 2, live.play.squares, 0))
            for line in wrap("Under the Joker rule you count it yourself when you play it.", base, w):
                spec.append((line, "", CREAM, 0, (), 0))
        elif live.score is not None:
            spec.extend(score_rows(live.score, "This play would score"))
        else:
            spec.append(("Not a legal play", "", RED, 2, live.bad, 0))
            for line in wrap(live.reason[:1].upper() + live.reason[1:] + ".", base, w):
                spec.append((line, "", CREAM, 0, live.bad, 0))
    elif snap.past is not None:  # a turn clicked in the list: its breakdown, on the board as it was
        past = snap.past
        who = seat_name(snap, past.player)
        if past.seen is not None:
            spec.extend(_seen_rows(snap, past.seen, who, base, w, f"Turn {past.number + 1}: "))
        elif past.score is not None:
            spec.extend(score_rows(past.score, f"Turn {past.number + 1}: {who} scored"))
        else:
            spec.append((f"Turn {past.number + 1}: {who} {past.words}", "", GOLD, 2, (), 0))
        _stood_in(spec, snap, past.number, past.player, f"Turn {past.number + 1}: ")
        if snap.replay is None:
            spec.append(("Esc or a click on the board: back to the game", "", DIM, -2, (), 0))
        elif snap.replay.at == len(snap.replay.turns) and snap.state.outcome is not None:
            spec.append((_outcome_words(snap), "", GOLD, 0, (), 0))
    elif snap.replay is not None:  # a replay before its first turn: the draw for the start
        spec.append((f"Round {snap.replay.round}: the racks as dealt", "", GOLD, 2, (), 0))
        for line in wrap(snap.replay.start, base - 1, w):
            spec.append((line, "", CREAM, -1, (), 0))
        spec.append(("Right or Space: the first turn", "", DIM, -2, (), 0))
    elif snap.breakdown is not None:
        who = seat_name(snap, snap.breakdown.player)
        if snap.breakdown.seen is not None:
            spec.extend(_seen_rows(snap, snap.breakdown.seen, who, base, w))
        else:
            spec.extend(score_rows(snap.breakdown.score, f"{who} scored"))
        _stood_in(spec, snap, snap.breakdown.number, snap.breakdown.player)
        shown, told = snap.rows_shown, len(spec)
    if snap.help:
        spec = []
    if snap.confirming is not None:  # "confirm before play": the question comes first
        ask: list[RowSpec] = [(line, "", GOLD, 2, (), 0) for line in wrap(snap.confirming, base + 2, w)]
        ask.append(("Enter or Y plays it; Esc or N goes back", "", CREAM, 0, (), 0))
        spec = [*ask, ("", "", CREAM, 0, (), 0), *spec]
    if snap.undo_asked is not None:  # a request to take back a move: the question, above all else
        asked: list[RowSpec] = [(line, "", GOLD, 2, (), 0) for line in wrap(snap.undo_asked.text, base + 2, w)]
        if snap.undo_asked.keys:
            asked.append((snap.undo_asked.keys, "", CREAM, 0, (), 0))
        spec = [*asked, ("", "", CREAM, 0, (), 0), *spec]
    plain = spec
    if not snap.help:  # who starts and why, under the first breakdown when it fits whole beside it
        spec = with_opening(spec, snap.opening, (x, y, w, _text_bottom(snap) - y), base, pad)
    idle = snap.breakdown is None and snap.past is None and live is None and not snap.exchanging
    idle = idle and (coach is None or coach.hint is None)
    if snap.replay is None and (not spec or idle):
        if spec:
            spec.append(("", "", CREAM, 0, (), 0))
        spec.append(("How to play", "H closes" if snap.help else "", GOLD, 2, (), 0))
        step = -3 if snap.help else -1  # the whole page must fit the smallest window
        texts = help_texts(snap.state.options)
        for text in texts if snap.help else texts[:2]:
            for line in wrap(text, base + step, w):
                spec.append((line, "", DIM, step, (), 0))
    bottom = _text_bottom(snap)  # the text ends above the messages
    # laid out whole, so that rows being read out one by one never move or change size
    top = y
    rows, y = place(spec, (x, top, w, bottom - top), base, pad)
    # the turns so far, newest first, in the room that is left (pointing at one shows its tiles)
    small = base - 2
    lh = round(small * 1.3)
    room = int((bottom - y - round(base * 1.6)) // lh)
    turns = snap.state.turns if snap.replay is None else snap.replay.turns
    if room < 2 and turns and spec is not plain:  # the turn list (and its calls) before who started
        rows, y = place(plain, (x, top, w, bottom - top), base, pad)
        room = int((bottom - y - round(base * 1.6)) // lh)
    rows = rows[:shown]
    revealing = shown is not None and shown < told
    if room >= 2 and turns and not revealing:
        y += pad
        calls = snap.state.calls if snap.replay is None else snap.replay.calls
        newest_first = _entries(turns, calls)[::-1]
        scroll = snap.turn_scroll
        if snap.replay is not None:  # the turn shown stays in the middle of the list
            shown_turn = snap.replay.at - 1
            at = next((i for i, (n, t, _) in enumerate(newest_first) if t is not None and n == shown_turn), None)
            scroll = (len(newest_first) if at is None else at) - room // 2
        scroll = max(0, min(scroll, len(newest_first) - room))
        later = "later" if snap.replay is not None else "newer"
        fits = len(newest_first) <= room
        more = f"{scroll} {later} above (wheel)" if scroll else ("click one to see it" if fits else "")
        if not more and not fits:
            more = f"{len(newest_first) - room} older below (wheel)"
        rows.append(InfoRow((x, y, w, round(base * 1.3)), "Turns", more, GOLD, base))
        y += round(base * 1.3)
        names = tuple(seat_name(snap, p) for p in range(snap.state.players))
        for number, t, call in newest_first[scroll : scroll + room]:
            if t is None:  # a Joker call on turn `number`: who called, on whose play, the points
                assert call is not None
                called = turns[number].move
                text, right = call_row(call, turns[number].player, names)
                squares = called.squares if isinstance(called, Play) else ()
                rows.append(InfoRow((x, y, w, lh), "   " + text, right, DIM, small, squares, 0, number))
                y += lh
                continue
            who = seat_name(snap, t.player)
            if snap.state.stand_in(number) is not None:  # made by the table's stand-in, online
                who = f"{who} (a bot)"
            if isinstance(t.move, Play):
                text, right, squares = (
                    f"{who}:  " + " ".join(str(p) for p in t.move.placements),
                    str(t.points),
                    t.move.squares,
                )
            elif isinstance(t.move, Exchange):
                n = t.drawn
                text, right, squares = f"{who} exchanged {n} tile{'s' if n != 1 else ''}", "0", ()
            else:
                text, right, squares = f"{who} passed", "0", ()
            shown_now = snap.past is not None and snap.past.number == number
            rows.append(InfoRow((x, y, w, lh), text, right, GOLD if shown_now else DIM, small, squares, 0, number))
            y += lh
    return rows


def _entries(
    turns: tuple[Turn, ...], calls: tuple[tuple[int, JokerCall], ...]
) -> list[tuple[int, Turn | None, JokerCall | None]]:
    """The turn list's entries, oldest first: each turn (number, turn, None), then the Joker calls made
    on it (number, None, call)."""
    on: dict[int, list[JokerCall]] = {}
    for before, call in calls:
        if 1 <= before <= len(turns):
            on.setdefault(before - 1, []).append(call)
    out: list[tuple[int, Turn | None, JokerCall | None]] = []
    for number, t in enumerate(turns):
        out.append((number, t, None))
        out.extend((number, None, call) for call in on.get(number, ()))
    return out


def _stood_in(spec: list[RowSpec], snap: TableSnapshot, number: int | None, player: int, prefix: str = "") -> None:
    """A turn the table's stand-in made (online: time ran out, or away too long) is headed as the bot's,
    not as the player's own ("A bot played for you (your time ran out)", its points beside it)."""
    why = None if number is None or not spec else snap.state.stand_in(number)
    if why is None or number is None or number >= len(snap.state.turns):
        return
    heading = spec[0]
    did = did_words(snap.state.turns[number].move)
    spec[0] = (prefix + stand_in_words(why, seat_name(snap, player), did), *heading[1:])


def _seen_rows(
    snap: TableSnapshot, seen: SeenScore, who: str, base: int, width: int, prefix: str = ""
) -> list[RowSpec]:
    """A play's score as the table lets it be seen (`seen_rows`), with a word while it is hidden."""
    names = tuple(seat_name(snap, p) for p in range(snap.state.players))
    rows = seen_rows(seen, who, names, prefix)
    if seen.hidden:
        why = "Its score shows once Joker can no longer be called on it (a call, or the next player's turn)."
        rows.extend((line, "", DIM, -2, (), 0) for line in wrap(why, base - 2, width))
    return rows


def _outcome_words(snap: TableSnapshot) -> str:
    """The end of the game in a few words: who won, with what."""
    outcome = snap.state.outcome
    if outcome is None:
        return ""
    names = [seat_name(snap, p) for p in outcome.winners]
    best = outcome.final_scores[outcome.winners[0]]
    verb = "won" if len(names) == 1 else "shared the win"
    m = snap.match
    over = f"Round {m.round} over" if m is not None and m.options.rounds > 1 else "Game over"
    return f"{over}: {' and '.join(names)} {verb} with {best}"


# --- pieces ---


def opponent_tiles(snap: TableSnapshot, player: int) -> list[Rect]:
    """Where the tile backs of `player` lie in the opponents' area."""
    ox, oy, ow, oh = snap.layout.opponents
    others = [p for p in range(snap.state.players) if p != snap.human or snap.watching]
    band = oh // max(1, len(others))
    k = others.index(player) if player in others else 0
    size = min(round(snap.layout.cell * 0.8), band - 8)
    gap = max(3, size // 8)
    n = snap.state.rack_sizes[player]
    x0 = ox + ow - n * (size + gap) - gap
    y0 = oy + k * band + (band - size) // 2
    return [(x0 + i * (size + gap), y0, size, size) for i in range(n)]


def toast_boxes(snap: TableSnapshot) -> list[tuple[Rect, list[str]]]:
    """Where the messages sit, the newest lowest: at the foot of the side panel's text box, which
    ends above them (`_info_rows`), so they cover no tile and no row the player reads."""
    lay = snap.layout
    size = _toast_size(snap)
    x, y0, w, h = lay.info
    y = y0 + h - round(lay.height * 0.017) - 14
    boxes = []
    for toast in snap.toasts[-2:][::-1]:
        lines = wrap(toast, size, w - 40)
        bh = round(size * 1.3) * len(lines) + 14
        boxes.append(((x + 8, y - bh, w - 16, bh), lines))
        y -= bh + 6
    return boxes


def _toast_size(snap: TableSnapshot) -> int:
    return max(15, round(snap.layout.height * 0.023))


def draw_toasts(surf: Target, snap: TableSnapshot) -> None:
    """Short messages (a pass, an exchange, a refused button) at the foot of the side panel's text box."""
    size = _toast_size(snap)
    for r, lines in toast_boxes(snap):
        rounded_panel(surf, r, (44, 28, 14, 255), 10)
        draw_rect(surf, (150, 110, 60), r, 1, border_radius=10)
        for i, line in enumerate(lines):
            write(surf, line, size, CREAM, (r[0] + r[2] / 2, r[1] + 7 + i * round(size * 1.3)), "midtop")


def draw_panel(surf: Target, snap: TableSnapshot) -> None:
    _draw_opponents(surf, snap)
    _draw_pegboard(surf, snap)
    _draw_status(surf, snap)
    _draw_info(surf, snap)
    draw_coach(surf, snap, coach_rects(snap))
    if snap.replay is not None:
        for name, rect, label, enabled in replay_buttons(snap):
            button(surf, rect, label, enabled, contains(rect, snap.mouse), strong=name == "next")
        return
    for i, (rect, label, enabled) in enumerate(panel_buttons(snap)):
        button(surf, rect, label, enabled, contains(rect, snap.mouse), strong=i == 0)
    undo = undo_button(snap)
    if undo is not None:
        button(surf, undo[0], undo[1], undo[2], contains(undo[0], snap.mouse))


def _play_row(snap: TableSnapshot) -> tuple[Rect, Rect | None]:
    """The Play button's rectangle, and the Undo button's at its right end when it is shown (Play
    keeps its middle, where keyboard users and the autopilot find it)."""
    lay = snap.layout
    px, py, pw, ph = lay.buttons["play"]
    if not snap.undo_shown or snap.replay is not None:
        return (px, py, pw, ph), None
    gap = max(6, lay.margin // 2)
    uw = max(70, round(pw * 0.24))
    return (px, py, pw - uw - gap, ph), (px + pw - uw, py, uw, ph)


def undo_button(snap: TableSnapshot) -> tuple[Rect, str, bool] | None:
    """The Undo button (where, label, enabled), or None when it is not shown: the setting is off or no
    bot sits at the table."""
    rect = _play_row(snap)[1]
    return None if rect is None else (rect, "Undo", snap.can_undo)


def replay_buttons(snap: TableSnapshot) -> list[tuple[str, Rect, str, bool]]:
    """A replay's buttons in the panel: (name, where, label, enabled); Back and Next share the big row."""
    r = snap.replay
    assert r is not None
    lay = snap.layout
    px, py, pw, ph = lay.buttons["play"]
    gap = max(6, lay.margin // 2)
    back_w = (pw - gap) * 2 // 5
    first = r.at == 0 and r.round == 1
    last = r.at == len(r.turns) and r.round == r.rounds
    return [
        ("back", (px, py, back_w, ph), "< Back", not first),
        ("next", (px + back_w + gap, py, pw - back_w - gap, ph), "Next turn >", not last),
        ("export", lay.buttons["pass"], "Export (E)", r.can_export),
        ("close", lay.buttons["exchange"], "Close (Esc)", True),
    ]


def rack_buttons(snap: TableSnapshot) -> list[tuple[str, Rect, str, bool]]:
    """The buttons beside the rack: Shuffle and Recall; in a replay, the start and the end of the round."""
    lay = snap.layout
    if snap.replay is not None:
        r = snap.replay
        return [
            ("start", lay.buttons["shuffle"], "Start", r.at > 0),
            ("end", lay.buttons["recall"], "End", r.at < len(r.turns)),
        ]
    if snap.watching:
        return []
    return [
        ("shuffle", lay.buttons["shuffle"], "Shuffle", len(snap.draft.order) > 1),
        ("recall", lay.buttons["recall"], "Recall", bool(snap.draft.placed)),
    ]


#: The keys' line at a table online watched from no seat.
WATCH_KEYS = "You are watching: nothing to play · C chat · A speed · H help · Esc menu"
REPLAY_KEYS = "Right/Space next · Left back · Home End · PgUp PgDn 5 · [ ] round · Tab rack · E export · Esc close"


def keys_line(snap: TableSnapshot, size: int, width: int) -> str:
    """The keys written at the foot of the side panel's text box, as many as fit `width`."""
    text: str
    shorter: tuple[str, ...]
    if snap.replay is not None:
        text = REPLAY_KEYS
        shorter = (text.replace(" · Tab rack", ""), text.replace(" · Tab rack", "").replace(" · [ ] round", ""))
    elif snap.watching:
        text = WATCH_KEYS
        shorter = (text.replace(" · A speed", ""),)
    else:
        keys = KEYS.replace(" · H help", " · C chat · H help") if snap.chat is not None else KEYS  # online
        text = keys.replace(" · H help", " · U undo · H help") if snap.undo_shown else keys
        shorter = (
            text.replace(" · F11", "").replace(" · M sound", ""),
            keys.replace(" · F11", "").replace(" · M sound", ""),
            keys.replace(" · F11", "").replace(" · M sound", "").replace(" · F flip", "").replace(" · A speed", ""),
        )
    for candidate in (text, *shorter):
        if art.font(size).size(candidate)[0] <= width:
            return str(candidate)
    return shorter[-1]


def panel_buttons(snap: TableSnapshot) -> list[tuple[Rect, str, bool]]:
    """The side panel's buttons as they show now: (where, label, enabled), Play first. While tiles
    are chosen for an exchange there are two, one state: "Exchange 2 tiles" and one wide Cancel (a
    click on either half of it cancels), and no second, dimmed "Exchange..." beside them."""
    lay = snap.layout
    if snap.watching:  # nothing to play from no seat
        return []
    if snap.exchanging:
        n = len(snap.draft.marked)
        label = f"Exchange {n} tile{'s' if n != 1 else ''}" if n else "Choose tiles to exchange"
        (px, py, _, ph), (ex, _, ew, _) = lay.buttons["pass"], lay.buttons["exchange"]
        return [(_play_row(snap)[0], label, snap.buttons.exchange_ready), ((px, py, ex + ew - px, ph), "Cancel", True)]
    play_label = "Play"
    play_ok = snap.buttons.can_play
    if snap.confirming is not None:
        play_label, play_ok = "Yes, play it", True
    elif snap.declaring is not None:
        play_label = f"Declare {snap.declaring.typed or snap.declaring.points}"
    elif play_ok and snap.hide_scores:
        play_label = "Play and count"
    elif play_ok and snap.live is not None and snap.live.score is not None:
        play_label = f"Play  {snap.live.score.total}"
    pass_label, pass_ok = "Pass", snap.buttons.can_pass
    asked = snap.undo_asked if snap.confirming is None and snap.declaring is None else None
    if asked is not None and asked.yes is not None:  # "Allow" and "Refuse" until it is answered
        play_label, play_ok = asked.yes, True
    if asked is not None and asked.no is not None:
        pass_label, pass_ok = asked.no, True
    return [
        (_play_row(snap)[0], play_label, play_ok),
        (lay.buttons["pass"], pass_label, pass_ok),
        (lay.buttons["exchange"], "Exchange...", snap.buttons.can_exchange),
    ]


def seat_name(snap: TableSnapshot, p: int) -> str:
    """How the table names seat `p`: "You" for the only person at a table of bots, else the name."""
    return "You" if p == snap.you else snap.state.names[p]


def servants(snap: TableSnapshot) -> tuple[int, ...]:
    """The Servant (or Servants, tied) of a match of several rounds: the lowest running total after
    the rounds played so far; nobody before the first round ends, nor in a single game."""
    m = snap.match
    return m.servant if m is not None and m.options.rounds > 1 else ()


def _seat_label(snap: TableSnapshot, p: int) -> str:
    level = snap.seats[p].level
    name = snap.state.names[p]
    if level is None:
        return name
    return f"{name} (bot)" if name.lower() == level else f"{name} ({level} bot)"


def _draw_opponents(surf: Target, snap: TableSnapshot) -> None:
    """The other seats: name, what kind of player, whether it is their turn, their tiles (backs).
    Two lines a seat when there is room; one when three share the space."""
    lay = snap.layout
    ox, oy, ow, oh = lay.opponents
    others = [p for p in range(snap.state.players) if p != snap.human or snap.watching]
    band = oh // max(1, len(others))
    size = max(15, round(lay.height * 0.026))
    one_line = band < size * 2.4
    if one_line:
        size = max(13, min(size, round(band * 0.62)))
    for k, p in enumerate(others):
        y = oy + k * band
        mid = y + band // 2 - 2
        backs = opponent_tiles(snap, p)
        room_right = (backs[0][0] if backs else ox + ow) - 10
        servant = p in servants(snap)
        badge_w = art.font(max(11, size - 4)).size("Servant")[0] + 20 if servant else 0
        label = fit_width(_seat_label(snap, p), size, max(40, room_right - (ox + 30) - badge_w))
        if snap.thinking and snap.state.current == p and snap.seats[p].level is not None:  # a bot; a person plays
            status, colour = "thinking" + "." * (1 + int(snap.now * 3) % 3), GOLD
        elif snap.state.current == p and not snap.state.is_over:
            status, colour = "to play", GOLD
        else:
            from cribtiles.bot import DESCRIPTIONS

            level = snap.seats[p].level
            status, colour = (DESCRIPTIONS.get(level, "") if level is not None else "a person at this table"), DIM
        said = snap.about[p] if p < len(snap.about) else ""  # what a table online says of the seat (away 3 min)
        if said and colour == GOLD:  # their turn: beside "to play" (a person away is not thinking: the table waits)
            status = f"{'to play' if snap.seats[p].level is None else status} · {said}"
        elif said:
            status, colour = said, DIM
        name_colour = GOLD if snap.state.current == p and not snap.state.is_over else CREAM
        if one_line:
            r = write(surf, label, size, name_colour, (ox + 30, mid), "midleft")
            if servant:
                r = tag(surf, "Servant", max(11, size - 4), (r[0] + r[2] + 8, mid), SERVANT)
            if colour == GOLD or said:
                write(surf, status, size - 2, colour, (r[0] + r[2] + 10, mid), "midleft")
        else:
            r = write(surf, label, size, name_colour, (ox + 30, mid - size * 0.55), "midleft")
            if servant:
                tag(surf, "Servant", max(11, size - 4), (r[0] + r[2] + 8, mid - size * 0.55), SERVANT)
            small = size - 3 if colour == GOLD else max(12, size - 5)
            lines = wrap(status, small, max(40, room_right - (ox + 30)))
            if lines:
                more = "..." if len(lines) > 1 else ""
                write(surf, lines[0] + more, small, colour, (ox + 30, mid + size * 0.55), "midleft")
        flying = len(snap.flights) if snap.state.current == p else 0
        for r in backs[: max(0, len(backs) - flying)]:
            blit_tile(surf, art.tile_back(r[2]), r[0], r[1], r[2])


def pegboard_holes(surf: Target, snap: TableSnapshot) -> None:
    """The plank, each player's lane and holes, and the names (the static part of the peg board)."""
    names = [seat_name(snap, p) for p in range(snap.state.players)]
    pegboard.draw_board(surf, snap.layout.pegboard, names, _peg_text(snap))


def _peg_text(snap: TableSnapshot) -> int:
    return max(14, round(snap.layout.height * 0.022))


def peg_number(snap: TableSnapshot, p: int) -> int:
    """The score written by a player's pegs: it counts with the moving peg and settles on the game's
    own score, and at the end, once the racks are counted off, on the final score."""
    pegs = snap.pegs[p]
    if pegs.moving:
        return round(pegs.back) if pegs.waiting else round(pegs.shown)
    return snap.state.final_scores()[p] if snap.racks_counted else snap.state.scores[p]


def peg_offsets(snap: TableSnapshot) -> tuple[int, ...]:
    """What each player's pegs stand ahead of their round score: the match's totals of the rounds before
    this one while the peg board shows the match (a click on it), else nothing."""
    m = snap.match
    n = snap.state.players
    if not snap.peg_totals or m is None or m.options.rounds <= 1:
        return (0,) * n
    if snap.state.is_over or m.is_over:  # the totals already hold this round
        return tuple(t - s for t, s in zip(m.totals, snap.state.final_scores(), strict=True))
    return m.totals


def _draw_pegboard(surf: Target, snap: TableSnapshot) -> None:
    low = servants(snap)
    ahead = peg_offsets(snap)
    lanes = []
    for p, pegs in enumerate(snap.pegs):
        servant = p in low
        colour = SERVANT if servant else art.PLAYER_COLOURS[p % 4]  # the Servant's pegs are pewter
        number = peg_number(snap, p) + ahead[p]
        badge = "Servant" if servant else ""
        lanes.append(pegboard.Lane(colour, pegs.back + ahead[p], pegs.shown + ahead[p], number, badge, SERVANT))
    pegboard.draw_lanes(surf, snap.layout.pegboard, lanes, _peg_text(snap))


def _draw_status(surf: Target, snap: TableSnapshot) -> None:
    lay = snap.layout
    x, y, w, h = lay.status
    size = max(16, round(lay.height * 0.027))
    state = snap.state
    replaying = snap.replay
    if replaying is not None:
        rounds = f"Round {replaying.round} of {replaying.rounds} · " if replaying.rounds > 1 else ""
        typed = f" · go to turn {replaying.typed}_" if replaying.typed else ""
        who = f"Replay · {rounds}turn {replaying.at} of {len(replaying.turns)}{typed}"
        write(surf, who, size - 1, GOLD, (x, y + h / 2), "midleft")
        bag = state.bag_size()
        write(surf, f"Bag: {bag}", size - 2, CREAM, (x + w, y + h / 2), "midright")
        return
    if state.is_over:
        who = "Game over"
    elif snap.busy or snap.thinking or state.current != snap.human:
        who = f"{state.names[state.current]}'s turn"
    else:
        name = seat_name(snap, state.current)
        who = "Your turn" if name == "You" else f"{name}'s turn"
        if snap.buttons.may_pass and snap.buttons.no_play:
            who += ": no play, pass or exchange"
    if snap.clock and not state.is_over:  # a table online with a turn timer
        who += f" · {snap.clock}"
    write(surf, who, size, GOLD if state.current == snap.human else CREAM, (x, y + h / 2), "midleft")
    bag = state.bag_size(snap.human)
    write(surf, f"Bag: {bag} tile{'s' if bag != 1 else ''}", size - 2, CREAM, (x + w, y + h / 2), "midright")


def _draw_info(surf: Target, snap: TableSnapshot) -> None:
    rows = info_rows(snap)
    for row in rows:
        if row.squares and row.squares == snap.hover_rows:
            rounded_panel(surf, (row.rect[0] - 4, row.rect[1], row.rect[2] + 8, row.rect[3]), (255, 214, 102, 50), 6)
    draw_info_rows(surf, rows)


# --- the end of the game ---
