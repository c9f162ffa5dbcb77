"""Who sits at the table of either game: a person with a name, or a bot whose level is data (never read
back from a display name); each game's table checks that its game has that level."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.bot.cribbage import levels as cribbage_levels
from cribtiles.bot.tiles.levels import LEVELS
from cribtiles.names import MAX_NAME, name_problem
from cribtiles.quoting import quoted
from cribtiles.rules.game import MAX_PLAYERS

#: A bot's level in either game (the tile game's first, then those cribbage has besides).
ANY_LEVEL = tuple(dict.fromkeys((*LEVELS, *cribbage_levels.LEVELS)))


@dataclass(frozen=True)
class Seat:
    """One seat: a person (`level` None) or a bot of `level`; `name` is what the table shows."""

    name: str
    level: str | None = None

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in ANY_LEVEL:
            raise ValueError(f"there is no bot level {quoted(self.level)}; the levels are {', '.join(ANY_LEVEL)}")
        if not self.name.strip():
            raise ValueError(f"a name has 1 to {MAX_NAME} characters")
        problem = name_problem(self.name)
        if problem is not None:
            raise ValueError(problem)

    @property
    def is_bot(self) -> bool:
        return self.level is not None

    @property
    def is_person(self) -> bool:
        return self.level is None

    @classmethod
    def person(cls, name: str = "You") -> Seat:
        return cls(name.strip())

    @classmethod
    def bot(cls, level: str, name: str | None = None) -> Seat:
        return cls(name or level.capitalize(), level)

    def as_dict(self) -> dict[str, str | None]:
        return {"name": self.name, "level": self.level}

    @classmethod
    def from_dict(cls, data: object) -> Seat:
        if not isinstance(data, dict):
            raise ValueError("a seat is an object with a name and a level")
        name, level = data.get("name"), data.get("level")
        if not isinstance(name, str) or not (level is None or isinstance(level, str)):
            raise ValueError("a seat has a name and a bot level (or none, for a person)")
        return cls(name, level)


def seat_names(seats: Sequence[Seat]) -> tuple[Seat, ...]:
    """The seats with names told apart: a name given twice gets a number ("Hard", "Hard 2").

    >>> [s.name for s in seat_names([Seat.bot("hard"), Seat.person("Ann"), Seat.bot("hard")])]
    ['Hard', 'Ann', 'Hard 2']
    """
    seen: dict[str, int] = {}
    out = []
    for s in seats:
        n = seen[s.name.lower()] = seen.get(s.name.lower(), 0) + 1
        out.append(s if n == 1 else Seat(f"{s.name[: MAX_NAME - 3]} {n}", s.level))
    return tuple(out)


def parse_players(text: str) -> tuple[Seat, ...]:
    """`--players Ann,Ben,hard`: each entry a bot level or a person's name, 2 to 4 of them.

    >>> [(s.name, s.level) for s in parse_players("Ann, hard,Ben")]
    [('Ann', None), ('Hard', 'hard'), ('Ben', None)]
    """
    entries = [e.strip() for e in text.split(",")]
    if any(not e for e in entries):
        raise ValueError("--players: separate the players with commas, like Ann,Ben,hard")
    if not 2 <= len(entries) <= MAX_PLAYERS:
        raise ValueError(f"--players: Crib Tiles is played by 2 to {MAX_PLAYERS} players, not {len(entries)}")
    seats = []
    for e in entries:
        problem = name_problem(e)
        if problem is not None:
            raise ValueError(f"--players: {problem}")
        seats.append(Seat.bot(e.lower()) if e.lower() in LEVELS else Seat.person(e))
    return seat_names(seats)


def lone_bot(seats: Sequence[Seat]) -> str | None:
    """The level of the only bot at a table of `seats`, None when there are none or several."""
    levels = [s.level for s in seats if s.level is not None]
    return levels[0] if len(levels) == 1 else None


def seats_from_names(names: Sequence[str]) -> tuple[Seat, ...]:
    """Seats for a save written before seats were saved: a level's name was a bot, anything else a
    person (the only way such saves were made: you against one bot, or the arena's bots)."""
    return tuple(Seat(n, n.strip().lower()) if n.strip().lower() in LEVELS else Seat(n) for n in names)
