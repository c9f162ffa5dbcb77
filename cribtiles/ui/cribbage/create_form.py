"""Classic cribbage's rows of the online Create screen (its `CREATE_FORM` part in `cribtiles.games`): which
cribbage (and so how many seats), the seats besides yours labelled by where they sit, and its rules. It has
no pass (a bot moves for a player out of time) and no coach at the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cribtiles.bot.cribbage.levels import LEVELS
from cribtiles.cribbage.options import Variant
from cribtiles.table.cribbage.table import DEFAULT_LEVEL

from ..online import form
from ..online.create_rows import FRIEND
from ..online.form import Row
from .setup import GAMES, default_target

OFF_ON: tuple[tuple[object, str], ...] = ((False, "off"), (True, "on"))
#: The other seats as each variant has them (partners sit across: seats 1 and 3 against 2 and 4).
CRIB_SEATS: dict[Variant, tuple[tuple[str, str], ...]] = {
    Variant.SIX_CARD: (("Seat 2", "Your opponent"),),
    Variant.FIVE_CARD: (("Seat 2", "Your opponent"),),
    Variant.THREE: (("Seat 2", "On your left, for themselves"), ("Seat 3", "On your right, for themselves")),
    Variant.PARTNERSHIP: (
        ("Seat 2", "On your left: against you and your partner"),
        ("Seat 3: your partner", "Across the table: you peg together"),
        ("Seat 4", "On your right: against you and your partner"),
    ),
}


class CribbageForm:
    """Cribbage's rows; choosing another variant changes the seats shown, so the screen's rows are laid out
    again (`relaid`, the variant's row kept in focus)."""

    words = "Classic cribbage"

    def __init__(self, relaid: Callable[[Row], None]) -> None:
        self.relaid = relaid
        self.variant = form.choice("Cribbage", list(GAMES.items()), "Which cribbage, and so how many seats")
        self.variant.changed = self._variant_changed
        self.seats = [
            form.choice(f"Seat {n}", [FRIEND] + [(lv, f"{lv.capitalize()} bot") for lv in LEVELS]) for n in range(2, 5)
        ]
        for row in self.seats:
            row.choose(DEFAULT_LEVEL)
        self.seat = self.seats[0]
        self.rules = [
            form.choice("Muggins", OFF_ON, "On: each counts their own hands aloud, and a wrong count may be called"),
            form.choice("Muggins in the play", OFF_ON, "On: each says what a card laid scores, and may be called"),
            form.choice("Game to", [(121, "121 points"), (61, "61 points")], "How far round the board the game goes"),
        ]

    def rows(self, timer: Row, absent: Row) -> list[Row]:
        return [self.variant, *self.shown_seats(), *self.rules, timer, absent]

    def shown_seats(self) -> list[Row]:
        """The other seats of the cribbage chosen, labelled by where they sit."""
        told = CRIB_SEATS[self.chosen]
        for row, (label, where) in zip(self.seats, told, strict=False):
            row.label = label
            row.note = f"{where}: a friend takes an open seat with the table's code, or the server's bot plays"
        return self.seats[: len(told)]

    @property
    def chosen(self) -> Variant:
        variant = self.variant.value
        assert isinstance(variant, Variant)
        return variant

    def _variant_changed(self) -> None:
        """Its seats, and its target by custom (five-card is played to 61)."""
        self.rules[2].choose(default_target(self.chosen))
        self.relaid(self.variant)

    def rules_text(self) -> str:
        muggins, in_play, target = (r.value for r in self.rules)
        variant = "" if self.chosen is Variant.SIX_CARD else f",variant={self.chosen.value}"
        onoff = f"muggins={'on' if muggins else 'off'},play_muggins={'on' if in_play else 'off'}"
        return f"{onoff},target={target}{variant}"

    def settings(self) -> dict[str, Any]:
        return {}
