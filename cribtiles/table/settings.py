"""The player's settings: what they are, their defaults, and how each value read back is checked.

One dataclass says it all. Each field's type is its first check (a bool is a bool, an int is a whole
number that is not a bool, a str is a str); where the type is not enough the field names its allowed
values (`choices`), its range (`span`), or a check of its own (`check`, with `read` turning the JSON
value into the field's type). `read_preferences` checks a settings file's values from the dataclass
alone, so adding a setting is one field. Below the window (no pygame): the text mode and the window
share it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, fields
from typing import Any, get_type_hints

from cribtiles.bot.tiles.levels import DEFAULT_LEVEL, LEVELS
from cribtiles.rules.game import MAX_NAME, MAX_PLAYERS
from cribtiles.rules.options import RuleOptions

#: Animation speeds by name: a factor on every animation and pause (0 = instant).
SPEEDS = {"normal": 1.0, "fast": 0.5, "instant": 0.0}
#: The Settings screen's choices of hints per game (0: no limit); a settings file may hold any
#: number up to MOST_HINTS.
HINT_LIMITS = (1, 3, 5, 10, 0)
MOST_HINTS = 99
MIN_SEATS = 2
WINDOW_SIDES = range(100, 16384 + 1)  # pixels, each side of a remembered window
RULES_CAP = 200  # characters of remembered rule options (every option written out takes 66)

#: A remembered seat: the person's name (kept while a bot sits there) and the bot's level, None for
#: a person. Saved as a JSON pair in the settings.
SeatPair = tuple[str, str | None]
DEFAULT_SEATS: tuple[SeatPair, ...] = (("You", None), ("Player 2", "medium"))


def _good_pair(pair: object) -> bool:
    return (
        isinstance(pair, tuple | list)
        and len(pair) == 2
        and isinstance(pair[0], str)
        and 0 < len(pair[0]) <= MAX_NAME
        and bool(pair[0].strip())
        and pair[0].isprintable()
        and (pair[1] is None or (isinstance(pair[1], str) and pair[1] in LEVELS))
    )


def good_seats(value: object) -> bool:
    """Whether `value` (from the settings file) is 2 to 4 remembered seats."""
    return isinstance(value, list | tuple) and MIN_SEATS <= len(value) <= MAX_PLAYERS and all(map(_good_pair, value))


def _seat_pairs(value: Any) -> tuple[SeatPair, ...]:
    return tuple((name, level) for name, level in value)


def _window_size(value: object) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and n in WINDOW_SIDES for n in value)
    )


def _rules_text(value: object) -> bool:
    """Rule options as `--rules` takes them (`start=high,joker=on`), short enough to be ours."""
    if not isinstance(value, str) or len(value) > RULES_CAP:
        return False
    try:
        RuleOptions.parse(value)
    except ValueError:  # NotationError, in words
        return False
    return True


def _setting(
    default: Any,
    *,
    choices: Collection[object] | None = None,
    span: tuple[int, int] | None = None,
    check: Callable[[object], bool] | None = None,
    read: Callable[[Any], Any] | None = None,
) -> Any:
    """A field of `Preferences` with what a value read back must be, beyond its type."""
    return field(default=default, metadata={"choices": choices, "span": span, "check": check, "read": read})


@dataclass
class Preferences:
    level: str = _setting(DEFAULT_LEVEL, choices=LEVELS)  # the bot of the next new game
    speed: str = _setting("normal", choices=SPEEDS)
    sound: bool = True
    fullscreen: bool = False
    window: tuple[int, int] = _setting((1280, 800), check=_window_size, read=tuple)
    # the last choices of the New game screen, offered next time: each seat's person's name (kept
    # while a bot sits there) and its bot's level (None: a person sits there); the rule options as
    # in --rules ("" for the defaults). A lone bot among the seats plays at `level` (L changes it).
    seats: tuple[SeatPair, ...] = _setting(DEFAULT_SEATS, check=good_seats, read=_seat_pairs)
    rules: str = _setting("", check=_rules_text)
    # the Settings screen: sound volume in percent (`sound` is the mute switch), letters on the tiles
    # telling light from dark for those who cannot tell the colours, a confirmation before each play,
    # whether a play can be taken back against bots, whether the coach may give hints, whether
    # the first-game tutorial was offered (at the first start, once), and whether it was played to its end
    volume: int = _setting(80, span=(0, 100))
    colour_marks: bool = False
    confirm_play: bool = False
    undo: bool = True
    hints: bool = True
    tutorial_offered: bool = False
    tutorial_done: bool = False
    # the coach at the table: hints per game (0: no limit), a quiet note after
    # each of your plays when a better one scored more (or it opens or closes a big reply), and the
    # tiles still out shown in the panel
    hint_limit: int = _setting(0, span=(0, MOST_HINTS))
    coach_notes: bool = False
    tiles_out: bool = False

    @property
    def pace(self) -> float:
        return SPEEDS.get(self.speed, 1.0)


def _good(kind: object, meta: Any, value: object) -> bool:
    """Whether `value` may stand in a field of type `kind` whose allowed values `meta` names."""
    if meta.get("check") is not None:
        return bool(meta["check"](value))
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        low, high = meta.get("span") or (-(2**63), 2**63)
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    if kind is str:
        choices = meta.get("choices")
        return isinstance(value, str) and (choices is None or value in choices)
    raise TypeError(f"a setting of type {kind} needs a check of its own")


def read_preferences(data: object) -> tuple[Preferences, list[str]]:
    """Preferences from a settings file's JSON, every value checked by its field (never raising); the
    names of the values that were not understood, which keep their defaults. Missing values are not bad."""
    prefs = Preferences()
    if not isinstance(data, dict):
        return prefs, [f.name for f in fields(Preferences)]
    kinds = get_type_hints(Preferences)
    bad: list[str] = []
    for f in fields(Preferences):
        if f.name not in data:
            continue
        value = data[f.name]
        if not _good(kinds[f.name], f.metadata, value):
            bad.append(f.name)
            continue
        read = f.metadata.get("read")
        setattr(prefs, f.name, value if read is None else read(value))
    return prefs, bad
