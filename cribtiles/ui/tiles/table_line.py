"""The game's terms kept in view under the status line: the rule options in force (Solitaire, the Joker
rule, when exchanges are allowed, who starts) and, in a match, the round and the running totals, so
that nothing the command line or the last New game screen chose acts unseen."""

from __future__ import annotations

from cribtiles.rules.options import OPTIONS, RuleOptions

from .. import art
from ..paint import CREAM, DIM, Target, fit_width, write
from .snapshot import TableSnapshot


def rules_words(options: RuleOptions, short: bool = False) -> tuple[str, ...]:
    """The options in force, each in a few words, in the order of `OPTIONS` (what changes the game most first).

    >>> rules_words(RuleOptions.parse("joker=on,exchange=any-time,start=high"))
    ('Joker rule', 'exchange any time', 'highest tile starts')
    >>> rules_words(RuleOptions(), short=True)
    ('exchange when stuck', 'low starts')
    """
    words = (choice.strip[short] for row in OPTIONS if (choice := row.chosen(options)))
    return tuple(w for w in words if w)


def in_match(snap: TableSnapshot) -> bool:
    return snap.match is not None and snap.match.options.rounds > 1


def running_totals(snap: TableSnapshot) -> tuple[int, ...]:
    """Each player's match total with this round's score so far (its final score once it is over,
    which the match's totals already hold); () outside a match."""
    m = snap.match
    if m is None or not in_match(snap):
        return ()
    state = snap.state
    if state.is_over or m.is_over:
        return m.totals
    return tuple(t + s for t, s in zip(m.totals, state.scores, strict=True))


def _name(snap: TableSnapshot, p: int) -> str:
    alone = sum(1 for s in snap.seats if s.is_person) == 1
    return "You" if p == snap.human and alone else snap.state.names[p]


def match_words(snap: TableSnapshot) -> str:
    """ "Round 2 of 3 · match totals: You 52 · Hard 60" ("" outside a match); says when the peg board
    shows the totals rather than the round."""
    m = snap.match
    totals = running_totals(snap)
    if m is None or not totals:
        return ""
    which = "match totals (on the pegs)" if snap.peg_totals else "match totals"
    each = " · ".join(f"{art.clip(_name(snap, p), 12)} {t}" for p, t in enumerate(totals))
    return f"Round {m.round} of {m.options.rounds} · {which}: {each}"


def rules_line(options: RuleOptions, size: int, width: int) -> str:
    """The rules in force as one line of at most `width` pixels at `size` (shorter words first, then cut)."""
    for short in (False, True):
        text = "Rules: " + " · ".join(rules_words(options, short))
        if art.font(size).size(text)[0] <= width:
            return text
    return fit_width(" · ".join(rules_words(options, True)), size, width)


def text_size(snap: TableSnapshot) -> int:
    return max(12, round(snap.layout.height * 0.0185))


def draw_rules_line(surf: Target, snap: TableSnapshot) -> None:
    """The round and the running totals (in a match) over the rules in force, in the strip under the status."""
    x, y, w, h = snap.layout.rules_line
    size = text_size(snap)
    rules = rules_line(snap.state.options, size, w)
    match = match_words(snap)
    if match:
        write(surf, fit_width(match, size, w), size, CREAM, (x, y + h * 0.27), "midleft")
        write(surf, rules, size, DIM, (x, y + h * 0.73), "midleft")
    else:
        write(surf, rules, size, DIM, (x, y + h * 0.5), "midleft")
