"""How to play, as the side panel's help (H) says it: the same rules for every game, and what the
options of the game at the table allow (exchanges at any time, the Joker rule, a match, Solitaire)."""

from __future__ import annotations

from cribtiles.rules.options import OPTIONS, RuleOptions
from cribtiles.rules.scorer import Scorer

from ..geometry import Rect
from ..paint import DIM, wrap
from .breakdown import RowSpec, place

BASICS = (
    "Drag tiles from your rack to the board: every row or column of 2-5 tiles is a cribbage hand and "
    "must score. Right-click, wheel or F turns a 6 into a 9.",
    "Keys: arrows move the cursor, Tab or 1-5 pick a tile, Space lays it, Enter plays, R recalls, "
    "S shuffles, P passes, X exchanges, H this help.",
    "A play lies in one row or column and touches the tiles down (the first: 2-5 tiles anywhere). "
    "Fifteens 2, pairs 2, runs 1 a tile; every tile of a line must count in it, at most 5 a line.",
)
#: The bonuses, said among the basics only in a game that has them (`bonuses=off` says so in its own words).
BONUSES = "Bonuses: 10 for the first play, 10 for 5 tiles laid, 10 for a line of 5 tiles of one colour."
COACH_AND_KEYS = (
    "I a hint, B the best plays, T the tiles still out. A speed, M sound, L the next bot, Ctrl+N a new "
    "game, Ctrl+R resigns it, Esc the title screen (rules, tutorial, history, settings). At a table online, "
    "C writes a line to the others.",
)


def passing_words(options: RuleOptions) -> str:
    """When a player may pass or exchange in this game, who started, and the end's deductions.

    >>> passing_words(RuleOptions.parse("exchange=any-time")).split(". ")[0]
    'In this game you may pass or exchange at any time, even when you could play'
    >>> passing_words(RuleOptions()).split(". ")[0]
    'You may pass or exchange only when you cannot play'
    """
    said = (choice.turns for row in OPTIONS if (choice := row.chosen(options)))
    return " ".join([*(s for s in said if s), "Tiles left on a rack at the end are taken off its owner's score."])


def option_words(options: RuleOptions) -> tuple[str, ...]:
    """A paragraph for each option of this game that changes how it is played (none for the defaults)."""
    return tuple(p for row in OPTIONS if (p := row.help(options.value(row.name))))


def bonus_words(options: RuleOptions) -> str:
    """The basics' sentence on the bonuses this game plays, as its scorer prices them ("" for none): an
    option that changes a bonus changes the help with it.

    >>> bonus_words(RuleOptions()) == BONUSES, bonus_words(RuleOptions.parse("bonuses=off"))
    (True, '')
    """
    worth = Scorer.of(options).bonuses
    said = (
        (worth.first_play, "for the first play"),
        (worth.five_tiles, "for 5 tiles laid"),
        (worth.one_colour, "for a line of 5 tiles of one colour"),
    )
    words = [f"{points} {what}" for points, what in said if points]
    return f"Bonuses: {', '.join(words)}." if words else ""


def help_texts(options: RuleOptions) -> tuple[str, ...]:
    """The whole help page for a game under `options`, a paragraph each (the first two are also the
    short help shown while nothing else is in the panel).

    >>> BONUSES in help_texts(RuleOptions()), BONUSES in help_texts(RuleOptions.parse("bonuses=off"))
    (True, False)
    """
    bonuses = (words,) if (words := bonus_words(options)) else ()
    return (*BASICS, *bonuses, passing_words(options), *option_words(options), *COACH_AND_KEYS)


def with_opening(spec: list[RowSpec], opening: str, box: Rect, base: int, pad: int) -> list[RowSpec]:
    """The panel's rows with who started and why (`opening`, the draw for the start) after them, in
    small words, when they fit without shrinking or cutting the rows before: a first breakdown is
    never squeezed or hidden by it (it is in the turn list's order too)."""
    if not opening:
        return spec
    size = base - 2
    extra: list[RowSpec] = [(line, "", DIM, -2, (), 0) for line in wrap(opening, size, box[2])]
    if spec:
        extra.insert(0, ("", "", DIM, -2, (), 0))
    both = [*spec, *extra]
    rows, _ = place(both, box, base, pad)
    alone, _ = place(spec, box, base, pad) if spec else ([], 0)
    whole = len(rows) == len(both) and not any(r.left.startswith("... and ") for r in rows)
    same = all(a.size == b.size and a.rect == b.rect for a, b in zip(alone, rows, strict=False))
    return both if whole and same else spec
