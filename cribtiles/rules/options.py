"""Rule options (rules.md section 6): who starts, when exchanges are allowed, Joker, rounds, mode.

Written as `start=high,exchange=any-time,joker=on`; `RuleOptions.parse(o.to_text()) == o`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from cribtiles.quoting import quoted

from .errors import NotationError

START_LOW, START_HIGH = "low", "high"
WHEN_STUCK, ANY_TIME = "when-stuck", "any-time"
STANDARD, SOLITAIRE = "standard", "solitaire"

_CHOICES: dict[str, tuple[str, ...]] = {
    "start": (START_LOW, START_HIGH),
    "exchange": (WHEN_STUCK, ANY_TIME),
    "joker": ("off", "on"),
    "mode": (STANDARD, SOLITAIRE),
}
MAX_ROUNDS = 99


@dataclass(frozen=True)
class RuleOptions:
    start: str = START_LOW
    exchange: str = WHEN_STUCK
    joker: bool = False
    rounds: int = 1
    mode: str = STANDARD

    def __post_init__(self) -> None:
        if self.start not in _CHOICES["start"]:
            raise ValueError(f"start must be low or high, not {quoted(self.start)}")
        if self.exchange not in _CHOICES["exchange"]:
            raise ValueError(f"exchange must be when-stuck or any-time, not {quoted(self.exchange)}")
        if self.mode not in _CHOICES["mode"]:
            raise ValueError(f"mode must be standard or solitaire, not {quoted(self.mode)}")
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds must be a whole number from 1 to {MAX_ROUNDS}, not {quoted(self.rounds)}")

    @property
    def solitaire(self) -> bool:
        return self.mode == SOLITAIRE

    def as_dict(self) -> dict[str, str]:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = ("on" if value else "off") if isinstance(value, bool) else str(value)
        return out

    def to_text(self) -> str:
        """Every option, in the order of rules.md: `start=low,exchange=when-stuck,...`."""
        return ",".join(f"{k}={v}" for k, v in self.as_dict().items())

    @classmethod
    def parse(cls, text: str, base: RuleOptions | None = None) -> RuleOptions:
        """`start=high,exchange=any-time` -> options; unnamed options keep `base`'s (or the defaults)."""
        return (base or cls()).with_text(text)

    def with_text(self, text: str) -> RuleOptions:
        changes: dict[str, object] = {}
        for item in text.replace(" ", "").split(","):
            if not item:
                continue
            name, eq, value = item.partition("=")
            if not eq:
                raise NotationError(f"{quoted(item)}: write options as name=value, like start=high")
            name, value = name.lower(), value.lower()
            if name == "rounds":
                if not (value.isascii() and value.isdigit() and len(value) <= 2) or not 1 <= int(value) <= MAX_ROUNDS:
                    raise NotationError(f"rounds must be a whole number from 1 to {MAX_ROUNDS}, not {quoted(value)}")
                changes[name] = int(value)
            elif name in _CHOICES:
                if value not in _CHOICES[name]:
                    raise NotationError(f"{name} may be {' or '.join(_CHOICES[name])}, not {quoted(value)}")
                changes[name] = value == "on" if name == "joker" else value
            else:
                raise NotationError(f"there is no rule option {quoted(name)} (start, exchange, joker, rounds, mode)")
        return replace(self, **changes)  # type: ignore[arg-type]
