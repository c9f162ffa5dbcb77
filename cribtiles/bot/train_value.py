"""Learn the value of a tile-game position by self-play: `python -m cribtiles.bot.train_value --games 6000`.

Seeded games are played by the Expert's continuation policy (`simulate.policy_turn`: of the 12
best-scoring plays, the best by score plus leave; kept tiles as a debt once the bag is empty). It is
Hard without Hard's estimate of what a play opens, a few hundred times cheaper (a whole game in a few
milliseconds), and it is the policy whose continuations the value will end, so its positions are the
ones the value will be asked about. Before every turn the mover's view gives one sample: its features
(`value_features`), and as target the spread the mover still makes to the end of the game (the final
spread less the spread now: a Monte-Carlo return). Every fifth game is held out, whole, so that no
game's positions are on both sides of the split. A ridge regression on standardized features, in pure
Python, gives the weights (`value.ValueModel`), written with the seed, the data's size, the features
and the held-out figures into `cribtiles/bot/tiles/data/value.json`. The same seed gives the same file.
"""

from __future__ import annotations

import argparse
import importlib
import math
import pickle
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from cribtiles.rules.game import new_game

from .tiles.equity import KEPT_DEBT, LEAVE_WEIGHT, bag_weight
from .tiles.learn_leaves import solve_linear
from .tiles.leave import LeaveTable, default_leave
from .tiles.simulate import policy_turn
from .tiles.value import NetModel, Value, ValueModel, expand, spread
from .tiles.value_features import BOARD_FEATURES, FEATURE_NAMES, position_features

#: Every `HOLDOUT`-th game (by its number from the first seed) is held out for measuring the fit.
HOLDOUT = 5
#: The ridge penalty on standardized features (a few hundred thousand samples: it matters little).
RIDGE = 100.0
_LEAVE, _RACK_COUNT, _BAG = (FEATURE_NAMES.index(f) for f in ("leave", "rack_count", "bag_share"))


@dataclass(frozen=True)
class Sample:
    """One position before a turn, as its mover saw it, and what followed."""

    game: int  # the game's seed
    features: tuple[float, ...]  # `position_features` of the mover's view
    now: float  # the mover's spread before the turn
    rest: float  # the spread the mover made from here to the end (final spread less `now`)
    bag: int  # tiles in the mover's bag


def judgement(sample: Sample) -> float:
    """Today's judgement of the final spread: the spread now plus the rack's value as Hard weighs it
    (`equity.leave_equity`: the leave table's value, a debt of half its count as the bag empties)."""
    w = bag_weight(sample.bag)
    x = sample.features
    return sample.now + (1.0 - w) * LEAVE_WEIGHT * x[_LEAVE] - w * KEPT_DEBT * x[_RACK_COUNT]


def play_game(seed: int, players: int = 2, leave: LeaveTable | None = None) -> list[Sample]:
    """One self-play game of the continuation policy; a sample before every turn."""
    leave = leave or default_leave()
    state = new_game(players, seed=seed)
    seen: list[tuple[int, tuple[float, ...], float, int]] = []
    while not state.is_over:
        p = state.current
        view = state.view(p)
        seen.append((p, position_features(view, leave), spread(state.scores, p), view.bag_size))
        state = policy_turn(state, leave)
    final = state.final_scores()
    return [Sample(seed, x, now, spread(final, p) - now, bag) for p, x, now, bag in seen]


def _games(args: tuple[int, int, int]) -> list[Sample]:
    first, count, players = args
    leave = default_leave()
    return [s for seed in range(first, first + count) for s in play_game(seed, players, leave)]


def self_play(first: int, games: int, players: int = 2, jobs: int = 1) -> list[Sample]:
    """The samples of `games` games from seed `first` on, in seed order whatever `jobs` is."""
    chunk = max(1, min(50, games // max(1, jobs * 4)))
    parts = [(s, min(chunk, first + games - s), players) for s in range(first, first + games, chunk)]
    if jobs <= 1:
        return [s for part in parts for s in _games(part)]
    with ProcessPoolExecutor(jobs) as pool:
        return [s for done in pool.map(_games, parts) for s in done]


def split(samples: Iterable[Sample], first: int) -> tuple[list[Sample], list[Sample]]:
    """(training, held out): every `HOLDOUT`-th game held out whole."""
    train: list[Sample] = []
    held: list[Sample] = []
    for s in samples:
        (held if (s.game - first) % HOLDOUT == HOLDOUT - 1 else train).append(s)
    return train, held


def fit(samples: Sequence[Sample], features: Sequence[str] = FEATURE_NAMES, ridge: float = RIDGE) -> ValueModel:
    """Ridge regression of the spread still to come on the expanded features, standardized; the
    weights are returned unstandardized, so that inference is one sum."""
    if not samples:
        raise ValueError("no samples to fit")
    chosen = [FEATURE_NAMES.index(f) for f in features]
    n = 2 + 2 * len(chosen)
    sums = [0.0] * n
    cross = [[0.0] * n for _ in range(n)]
    sum_xy = [0.0] * n
    sum_y = 0.0
    for s in samples:
        z = expand(s.features, chosen)
        y = s.rest
        sum_y += y
        for i, zi in enumerate(z):
            if zi:
                sums[i] += zi
                sum_xy[i] += zi * y
                row = cross[i]
                for j in range(i, n):
                    row[j] += zi * z[j]
    m = len(samples)
    mean = [v / m for v in sums]
    mean_y = sum_y / m
    cov = [[(cross[min(i, j)][max(i, j)] - m * mean[i] * mean[j]) for j in range(n)] for i in range(n)]
    scale = [math.sqrt(max(cov[i][i], 0.0) / m) for i in range(n)]
    live = [i for i in range(n) if scale[i] > 1e-9]
    a = [[cov[i][j] / (scale[i] * scale[j]) + (ridge if i == j else 0.0) for j in live] for i in live]
    b = [(sum_xy[i] - m * mean[i] * mean_y) / scale[i] for i in live]
    beta = solve_linear(a, b)
    weights = [0.0] * n
    for k, i in enumerate(live):
        weights[i] = beta[k] / scale[i]
    bias = mean_y - sum(w * mu for w, mu in zip(weights, mean, strict=True))
    return ValueModel(tuple(features), tuple(weights), bias)


def td_targets(samples: Sequence[Sample], model: Value, lam: float, players: int = 2) -> list[Sample]:
    """The samples with TD(lambda) returns as targets in place of the Monte-Carlo ones: for each
    player's positions in a game, the spread made until their next turn, plus `1 - lam` of the
    model's value of that next position and `lam` of its own return (at the player's last position,
    the spread made to the end). `lam` = 1 gives back the Monte-Carlo returns. The samples of a
    game follow one another turn by turn (`play_game`), so a player's next position is `players` on."""
    out = list(samples)
    for end in range(len(samples) - 1, -1, -1):
        s = samples[end]
        nxt = end + players
        if nxt < len(samples) and samples[nxt].game == s.game:
            after = samples[nxt]
            made = after.now - s.now
            target = made + (1.0 - lam) * model.remaining(after.features) + lam * out[nxt].rest
            out[end] = replace(s, rest=target)
    return out


#: The network's hidden units, passes over the training positions, positions a step and step size.
HIDDEN, EPOCHS, BATCH, STEP = 32, 12, 512, 1e-3


def fit_net(
    samples: Sequence[Sample], features: Sequence[str] = FEATURE_NAMES, seed: int = 1, epochs: int = EPOCHS
) -> NetModel:
    """A network of one hidden layer fitted to the spread still to come by Adam on the mean square
    error, with numpy (the optional `train` extra): seeded, so the same samples give the same weights."""
    try:
        np: Any = importlib.import_module("numpy")
    except ImportError:
        raise SystemExit("training the network needs numpy: pip install -e '.[train]'") from None
    chosen = [FEATURE_NAMES.index(f) for f in features]
    x = np.array([[s.features[i] for i in chosen] for s in samples], dtype=np.float64)
    y = np.array([s.rest for s in samples], dtype=np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    y_mean, y_scale = float(y.mean()), float(y.std()) or 1.0
    t = (y - y_mean) / y_scale
    rng = np.random.default_rng(seed)
    n, d = z.shape
    params = [
        rng.normal(0.0, 1.0 / math.sqrt(d), (d, HIDDEN)),
        np.zeros(HIDDEN),
        rng.normal(0.0, 1.0 / math.sqrt(HIDDEN), HIDDEN),
        np.zeros(1),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    beta1, beta2, decay, step = 0.9, 0.999, 1e-4, 0
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, BATCH):
            idx = order[start : start + BATCH]
            zb, tb = z[idx], t[idx]
            w1, b1, w2, b2 = params
            h = np.tanh(zb @ w1 + b1)
            err = h @ w2 + b2[0] - tb
            g_out = 2.0 * err / len(idx)
            g_h = np.outer(g_out, w2) * (1.0 - h * h)
            grads = [zb.T @ g_h + decay * w1, g_h.sum(axis=0), h.T @ g_out + decay * w2, np.array([g_out.sum()])]
            step += 1
            for k, g in enumerate(grads):
                first[k] = beta1 * first[k] + (1 - beta1) * g
                second[k] = beta2 * second[k] + (1 - beta2) * g * g
                m_hat = first[k] / (1 - beta1**step)
                v_hat = second[k] / (1 - beta2**step)
                params[k] = params[k] - STEP * m_hat / (np.sqrt(v_hat) + 1e-8)
    w1, b1, w2, b2 = params
    hidden = tuple((float(b1[j]), *(float(v) for v in w1[:, j])) for j in range(HIDDEN))
    out = (y_mean + y_scale * float(b2[0]), *(y_scale * float(v) for v in w2))
    return NetModel(tuple(features), tuple(float(v) for v in mean), tuple(float(v) for v in scale), hidden, out)


@dataclass(frozen=True)
class Fit:
    """How well predictions of the final spread match it: the root mean square error (the same for the
    spread still to come, which differs by the spread now on both sides) and two correlations, with
    the final spread and with the spread still to come (which the spread now does not give away)."""

    n: int
    rmse: float
    corr: float
    corr_rest: float


def _corr(xs: Sequence[float], ys: Sequence[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else 0.0


def measure(samples: Sequence[Sample], predicted_final: Sequence[float]) -> Fit:
    final = [s.now + s.rest for s in samples]
    rest = [s.rest for s in samples]
    pred_rest = [p - s.now for p, s in zip(predicted_final, samples, strict=True)]
    rmse = math.sqrt(sum((p - y) ** 2 for p, y in zip(predicted_final, final, strict=True)) / len(samples))
    return Fit(len(samples), rmse, _corr(predicted_final, final), _corr(pred_rest, rest))


def predict(model: Value, samples: Sequence[Sample]) -> list[float]:
    return [s.now + model.remaining(s.features) for s in samples]


#: The phases of a game the figures are given for, by tiles left in the bag.
PHASES = ((">40", 41, 999), ("21-40", 21, 40), ("9-20", 9, 20), ("1-8", 1, 8), ("0", 0, 0))


def report(held: Sequence[Sample], models: dict[str, Value]) -> dict[str, dict[str, list[float]]]:
    """Per phase and overall, each judge's [positions, RMSE, correlation, correlation of the rest]."""
    out: dict[str, dict[str, list[float]]] = {}
    for phase, low, high in (("all", 0, 999), *PHASES):
        part = [s for s in held if low <= s.bag <= high]
        if len(part) < 2:
            continue
        judges = {"score + leave": [judgement(s) for s in part]}
        judges.update({name: predict(model, part) for name, model in models.items()})
        out[phase] = {}
        for name, pred in judges.items():
            f = measure(part, pred)
            out[phase][name] = [len(part), round(f.rmse, 3), round(f.corr, 4), round(f.corr_rest, 4)]
    return out


def print_report(table: dict[str, dict[str, list[float]]], file: TextIO | None = None) -> None:
    print(
        f"{'bag':>6} {'judge':<22} {'positions':>9} {'RMSE':>7} {'corr':>7} {'corr rest':>9}",
        file=file,
    )
    for phase, judges in table.items():
        for name, (n, rmse, corr, corr_rest) in judges.items():
            print(
                f"{phase:>6} {name:<22} {int(n):>9} {rmse:>7.2f} {corr:>7.3f} {corr_rest:>9.3f}",
                file=file,
            )


def _cached(path: Path | None, key: tuple[int, int, int]) -> list[Sample] | None:
    """The samples kept in `path` by a run of the same seed, games and players, if there are any."""
    if path is None or not path.exists():
        return None
    with path.open("rb") as f:
        found, rows = pickle.load(f)  # a file this command wrote, on this machine
    if tuple(found) != key:
        raise SystemExit(f"{path} holds the positions of seed, games, players {found}, not {key}")
    return [Sample(*row) for row in rows]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=6000, help="self-play games (every fifth held out)")
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--ridge", type=float, default=RIDGE)
    ap.add_argument("--td", type=float, metavar="LAMBDA", help="also fit to TD(lambda) returns (rounds of --td-rounds)")
    ap.add_argument("--td-rounds", type=int, default=2)
    ap.add_argument("--model", choices=("linear", "net"), default="linear", help="net: one hidden layer (numpy)")
    ap.add_argument("--epochs", type=int, default=EPOCHS, help="the network's passes over the data")
    ap.add_argument("--samples", type=Path, help="keep the self-play positions in this file, and reuse them if there")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "tiles" / "data" / "value.json")
    args = ap.parse_args(argv)
    if args.games < HOLDOUT:
        ap.error(f"--games must be at least {HOLDOUT}, so that a game is held out")
    t0 = time.perf_counter()
    samples = _cached(args.samples, (args.seed, args.games, args.players))
    if samples is None:
        samples = self_play(args.seed, args.games, args.players, args.jobs)
        if args.samples:
            with args.samples.open("wb") as f:
                rows = [
                    (s.game, s.features, s.now, s.rest, s.bag) for s in samples
                ]  # plain: any entry point reads them
                pickle.dump(((args.seed, args.games, args.players), rows), f)
    train, held = split(samples, args.seed)
    t1 = time.perf_counter()
    print(
        f"{args.games} games, {len(train)} training and {len(held)} held-out positions, {t1 - t0:.0f} s",
        file=sys.stderr,
    )
    model = fit(train, FEATURE_NAMES, args.ridge)
    plain = fit(train, [f for f in FEATURE_NAMES if f not in BOARD_FEATURES], args.ridge)
    judges: dict[str, Value] = {"learned, no board": plain, "learned value": model}
    shipped: Value = model
    if args.td is not None:
        td = model
        for _ in range(args.td_rounds):
            td = fit(td_targets(train, td, args.td, args.players), FEATURE_NAMES, args.ridge)
        judges[f"TD({args.td:g})"] = td
    if args.model == "net":
        shipped = judges["network"] = fit_net(train, FEATURE_NAMES, args.seed, args.epochs)
    t2 = time.perf_counter()
    print(f"fitted in {t2 - t1:.0f} s", file=sys.stderr)
    table = report(held, judges)
    print_report(table)
    about = {
        "about": "Crib Tiles: the learned value of a tile-game position, by python -m cribtiles.bot.train_value",
        "seed": args.seed,
        "games": args.games,
        "players": args.players,
        "policy": "simulate.policy_turn (score + leave over the 12 best-scoring plays)",
        "holdout": f"every {HOLDOUT}th game",
        "training_positions": len(train),
        "heldout_positions": len(held),
        "ridge": args.ridge,
        **({"hidden": HIDDEN, "epochs": args.epochs, "batch": BATCH, "step": STEP} if args.model == "net" else {}),
        "target": "the mover's spread from this position to the end of the game",
        "heldout_fit": table,
    }
    args.out.write_text(shipped.to_json(**about), encoding="utf-8")
    print(f"wrote the {args.model} value to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
