"""The learned value of a position (issue 33): the final spread a player can expect from here, learned
from self-play by `python -m cribtiles.bot.train_value` and shipped as `data/value.json`.

The model is linear in the features of `value_features`, in two phases: each feature has one weight
for a full bag and one for an empty one, mixed by how full the bag is, since what a hot spot is worth
early (many turns to come, anyone may take it) is not what it is worth with the last tiles. It predicts
the spread still to come; the value adds the spread already scored. The weighted sum is plain Python,
standard library only, on every core: what the compiled core computes is the features' part that reads
the board (value_features), held equal to its Python reference to the last bit, so the value is too.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from itertools import repeat
from operator import mul

from cribtiles.rules.game import PlayerView

from .leave import LeaveTable
from .value_features import FEATURE_NAMES, position_features

DATA_FILE = "value.json"
_BAG_SHARE = FEATURE_NAMES.index("bag_share")


def spread(scores: Sequence[int], player: int) -> float:
    """A player's score less the mean of the others' (the arena's spread in a two-player game)."""
    others = [s for p, s in enumerate(scores) if p != player]
    return scores[player] - sum(others) / len(others) if others else 0.0


def expand(x: Sequence[float], chosen: Sequence[int]) -> list[float]:
    """The model's inputs from all the features `x`: the `chosen` ones, each twice (weighed by how
    full the bag is, and by how empty), after the two phases' own constants."""
    full = min(1.0, max(0.0, x[_BAG_SHARE]))
    empty = 1.0 - full
    picked = [x[i] for i in chosen]
    return [full, empty, *map(mul, picked, repeat(full)), *map(mul, picked, repeat(empty))]


@dataclass(frozen=True)
class ValueModel:
    """A linear value: `bias` plus `weights` times `expand`ed features (those named in `features`)."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float

    def __post_init__(self) -> None:
        unknown = [f for f in self.features if f not in FEATURE_NAMES]
        if unknown:
            raise ValueError(f"the value names features this version does not compute: {', '.join(unknown)}")
        if len(self.weights) != 2 + 2 * len(self.features):
            raise ValueError(f"{len(self.features)} features need {2 + 2 * len(self.features)} weights")

    @cached_property
    def chosen(self) -> tuple[int, ...]:
        return tuple(FEATURE_NAMES.index(f) for f in self.features)

    def remaining(self, x: Sequence[float]) -> float:
        """The spread still to come, from all the features `x` of a position (`position_features`)."""
        rest: float = sum(map(mul, self.weights, expand(x, self.chosen)))  # as many: __post_init__
        return self.bias + rest

    def __call__(self, view: PlayerView, leave: LeaveTable | None = None) -> float:
        """The final spread `view.player` can expect: the spread now plus what is still to come. It is
        learned from the views of players about to move (`view.current == view.player`), in two-player
        games of the standard rules; other views have a value, which is an extrapolation."""
        return spread(view.scores, view.player) + self.remaining(position_features(view, leave))

    def to_json(self, **about: object) -> str:
        data = {
            **about,
            "kind": "linear",
            "features": list(self.features),
            "bias": self.bias,
            "weights": list(self.weights),
        }
        return json.dumps(data, indent=1) + "\n"


@dataclass(frozen=True)
class NetModel:
    """A network of one hidden layer: the `features` standardized by `mean` and `scale`, `hidden` units
    of tanh (each a bias, then a weight per feature), and `out` (a bias, then a weight per unit).
    Trained with numpy (`train_value --model net`); run here in plain Python, the reference."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    hidden: tuple[tuple[float, ...], ...]
    out: tuple[float, ...]

    def __post_init__(self) -> None:
        unknown = [f for f in self.features if f not in FEATURE_NAMES]
        if unknown:
            raise ValueError(f"the value names features this version does not compute: {', '.join(unknown)}")
        n = len(self.features)
        if len(self.mean) != n or len(self.scale) != n or any(len(h) != n + 1 for h in self.hidden):
            raise ValueError(f"{n} features need as many means and scales, and {n + 1} weights a hidden unit")
        if len(self.out) != len(self.hidden) + 1:
            raise ValueError(f"{len(self.hidden)} hidden units need {len(self.hidden) + 1} output weights")

    @cached_property
    def chosen(self) -> tuple[int, ...]:
        return tuple(FEATURE_NAMES.index(f) for f in self.features)

    def remaining(self, x: Sequence[float]) -> float:
        z = [(x[i] - m) / s for i, m, s in zip(self.chosen, self.mean, self.scale, strict=True)]
        total = self.out[0]
        for unit, w in zip(self.hidden, self.out[1:], strict=True):
            total += w * math.tanh(unit[0] + sum(a * b for a, b in zip(unit[1:], z, strict=True)))
        return total

    def __call__(self, view: PlayerView, leave: LeaveTable | None = None) -> float:
        return spread(view.scores, view.player) + self.remaining(position_features(view, leave))

    def to_json(self, **about: object) -> str:
        data = {
            **about,
            "kind": "net",
            "features": list(self.features),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "hidden": [list(h) for h in self.hidden],
            "out": list(self.out),
        }
        return json.dumps(data, indent=1) + "\n"


Value = ValueModel | NetModel


def _floats(values: object) -> tuple[float, ...]:
    if not isinstance(values, list):
        raise ValueError("weights must be lists of numbers")
    return tuple(float(v) for v in values)


def load_model(text: str) -> Value:
    """A value from its JSON: linear (`ValueModel`) or, with `"kind": "net"`, a network (`NetModel`)."""
    data = json.loads(text)
    features = data["features"]
    if not isinstance(features, list):
        raise ValueError("features must be a list of names")
    names = tuple(str(f) for f in features)
    if data.get("kind", "linear") == "net":
        hidden = data["hidden"]
        if not isinstance(hidden, list):
            raise ValueError("hidden must be a list of units")
        units = tuple(_floats(h) for h in hidden)
        return NetModel(names, _floats(data["mean"]), _floats(data["scale"]), units, _floats(data["out"]))
    return ValueModel(names, _floats(data["weights"]), float(data["bias"]))


@lru_cache(maxsize=1)
def default_value() -> Value | None:
    """The shipped value, or None (with a warning) if it cannot be read: a bot then judges as before."""
    try:
        text = resources.files("cribtiles.bot.tiles").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
        return load_model(text)
    except (OSError, ValueError, KeyError, TypeError) as e:
        warnings.warn(f"the learned value could not be read ({e}); judging positions without it", stacklevel=2)
        return None
