"""The tile game's rows of the online Create screen (its `CREATE_FORM` part in `cribtiles.games`): the
seats besides yours (a friend, a bot, or nobody past the second), each rule option, whether the coach may
be asked, and what happens when a player's time runs out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cribtiles.bot import DEFAULT_LEVEL, LEVELS
from cribtiles.rules.game import MAX_PLAYERS
from cribtiles.rules.options import OPTIONS, RuleOptions, Value

from ..online import form
from ..online.create_rows import FRIEND
from ..online.form import Row


class TileForm:
    """The tile game's rows; `relaid` is not needed: its rows are the same whatever is chosen."""

    words = "Kings Cribbage"

    def __init__(self, relaid: Callable[[Row], None]) -> None:
        kinds = [FRIEND] + [(lv, f"{lv.capitalize()} bot") for lv in LEVELS]
        self.seats = [
            form.choice(
                f"Seat {n}",
                kinds if n == 2 else [("none", "nobody"), *kinds],
                "A friend takes an open seat with the table's code; a bot is run by the server",
            )
            for n in range(2, MAX_PLAYERS + 1)
        ]
        self.seats[0].choose(DEFAULT_LEVEL)
        self.rules = [_rule_row(i) for i in range(len(OPTIONS))]
        self.coach = form.choice(
            "Coach: hints and reviews",
            [(False, "not allowed"), (True, "allowed")],
            "Whether players may ask the coach for a hint and review their game (taking a move back asks the others)",
        )
        self.on_timeout = form.choice(
            "When time runs out",
            [("bot", "a bot moves for them"), ("pass", "they pass")],
            "What happens when a player's time for a move is up",
        )

    def rows(self, timer: Row, absent: Row) -> list[Row]:
        return [*self.seats, *self.rules, self.coach, timer, self.on_timeout, absent]

    def shown_seats(self) -> list[Row]:
        return self.seats

    def options(self) -> RuleOptions:
        return RuleOptions(**{o.name: r.value for o, r in zip(OPTIONS, self.rules, strict=True)})  # type: ignore[arg-type]

    def rules_text(self) -> str:
        return self.options().to_text()

    def settings(self) -> dict[str, Any]:
        return {"coach": bool(self.coach.value), "on_timeout": self.on_timeout.value}


def _rule_row(i: int) -> Row:
    """The row of rule option `i`: its values in words, the default chosen, its note told for the value."""
    option = OPTIONS[i]
    values: list[Value] = (
        [c.value for c in option.choices]
        if option.count is None
        else list(range(option.count.low, option.count.high + 1))
    )
    row = form.choice(option.label, [(v, option.words(v)) for v in values], option.about(values[0]))
    row.choose(RuleOptions().value(option.name))

    def told() -> None:
        row.note = option.about(values[row.index])

    row.changed = told
    return row
