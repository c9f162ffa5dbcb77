"""The learned value: training from a seed gives the same weights twice, the fit finds a relation it is
given, the weights read back from their file predict exactly what the training code predicts, and the
value of a view is the spread now plus what the model says is still to come."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cribtiles.bot import train_value
from cribtiles.bot.tiles.value import NetModel, ValueModel, default_value, load_model, spread
from cribtiles.bot.tiles.value_features import BOARD_FEATURES, FEATURE_NAMES, position_features
from cribtiles.bot.train_value import Sample, fit, fit_net, play_game, predict, self_play, split, td_targets
from cribtiles.rules import new_game


def test_the_samples_of_a_game_end_on_its_final_spread() -> None:
    samples = play_game(4)
    assert len(samples) >= 20
    finals = {round(s.now + s.rest, 6) for s in samples}
    assert len(finals) == 2  # one final spread per player, each the other's negative
    a, b = finals
    assert a == pytest.approx(-b)
    assert samples[0].now == 0.0 and samples[0].bag == 94


def test_a_tiny_training_run_gives_the_same_weights_twice(tmp_path: Path) -> None:
    for name in ("one.json", "two.json"):
        assert train_value.main(["--games", "6", "--seed", "11", "--out", str(tmp_path / name)]) == 0
    one = (tmp_path / "one.json").read_text(encoding="utf-8")
    assert one == (tmp_path / "two.json").read_text(encoding="utf-8")
    data = json.loads(one)
    assert data["seed"] == 11 and data["games"] == 6
    assert data["features"] == list(FEATURE_NAMES)
    assert data["training_positions"] > 0 and data["heldout_positions"] > 0


def test_games_are_held_out_whole() -> None:
    samples = self_play(20, 10)
    train, held = split(samples, 20)
    assert {s.game for s in train}.isdisjoint({s.game for s in held})
    assert {s.game for s in held} == {24, 29}


def test_the_fit_finds_a_relation_it_is_given() -> None:
    """Targets made from two features by a known rule are predicted by that rule."""
    leave, count = FEATURE_NAMES.index("leave"), FEATURE_NAMES.index("rack_count")
    real = [s for s in self_play(30, 4)]
    made = [replace(s, rest=3.0 * s.features[leave] - 0.5 * s.features[count] + 2.0) for s in real]
    model = fit(made, ridge=1e-6)
    for s in made[::7]:
        assert model.remaining(s.features) == pytest.approx(s.rest, abs=1e-3)


def test_the_stored_weights_predict_what_training_predicts(tmp_path: Path) -> None:
    samples = self_play(40, 5)
    model = fit(samples, [f for f in FEATURE_NAMES if f not in BOARD_FEATURES])
    path = tmp_path / "value.json"
    path.write_text(model.to_json(seed=40), encoding="utf-8")
    stored = load_model(path.read_text(encoding="utf-8"))
    assert stored == model
    assert predict(stored, samples) == predict(model, samples)


def test_the_value_of_a_view_is_the_spread_now_plus_the_rest() -> None:
    state = new_game(2, seed=8)
    for _ in range(6):
        state = state.apply(state.legal_plays()[0])
    state = replace(state, scores=(40, 25))
    model = ValueModel(FEATURE_NAMES, tuple(0.01 * i for i in range(2 + 2 * len(FEATURE_NAMES))), 1.5)
    view = state.view(1)
    assert spread(view.scores, 1) == -15
    assert model(view) == -15 + model.remaining(position_features(view))


def test_a_model_naming_an_unknown_feature_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="does not compute: crystal_ball"):
        load_model(json.dumps({"features": ["crystal_ball"], "weights": [0.0] * 4, "bias": 0.0}))
    with pytest.raises(ValueError, match="need 4 weights"):
        ValueModel(("leave",), (0.0,), 0.0)


def test_the_shipped_value_reads_and_names_todays_features() -> None:
    model = default_value()
    assert model is not None
    assert model.features == FEATURE_NAMES
    sample: Sample = play_game(2)[10]
    assert -200 < model.remaining(sample.features) < 200


def test_the_network_runs_in_plain_python_as_worked_by_hand() -> None:
    """Two features, two tanh units: the value worked out by hand."""
    import math

    net = NetModel(
        ("leave", "rack_count"), (1.0, 20.0), (2.0, 10.0), ((0.5, 1.0, -1.0), (0.0, 0.25, 0.5)), (3.0, 4.0, -2.0)
    )
    x = [0.0] * len(FEATURE_NAMES)
    x[FEATURE_NAMES.index("leave")], x[FEATURE_NAMES.index("rack_count")] = 5.0, 30.0
    z1, z2 = (5.0 - 1.0) / 2.0, (30.0 - 20.0) / 10.0
    expected = 3.0 + 4.0 * math.tanh(0.5 + z1 - z2) - 2.0 * math.tanh(0.25 * z1 + 0.5 * z2)
    assert net.remaining(x) == pytest.approx(expected, rel=1e-12)
    assert load_model(net.to_json()) == net


def test_the_network_trains_the_same_twice_and_its_file_predicts_what_numpy_does(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")  # the optional `train` extra; playing never needs it
    samples = self_play(50, 5)
    one, two = fit_net(samples, seed=3, epochs=2), fit_net(samples, seed=3, epochs=2)
    assert one == two
    stored = load_model(one.to_json())
    assert isinstance(stored, NetModel)
    chosen = list(stored.chosen)
    x = np.array([[s.features[i] for i in chosen] for s in samples])
    w1 = np.array([h[1:] for h in stored.hidden]).T
    b1 = np.array([h[0] for h in stored.hidden])
    by_numpy = np.tanh((x - np.array(stored.mean)) / np.array(stored.scale) @ w1 + b1) @ np.array(stored.out[1:])
    by_numpy += stored.out[0]
    for s, v in zip(samples, by_numpy, strict=True):
        assert stored.remaining(s.features) == pytest.approx(float(v), rel=1e-9, abs=1e-9)


def test_td_returns_are_the_monte_carlo_ones_at_lambda_one_and_one_step_at_zero() -> None:
    samples = self_play(60, 2)
    constant = ValueModel(FEATURE_NAMES, (0.0,) * (2 + 2 * len(FEATURE_NAMES)), 4.0)  # 4 points still to come
    mc = td_targets(samples, constant, 1.0)
    assert [s.rest for s in mc] == pytest.approx([s.rest for s in samples])
    one_step = td_targets(samples, constant, 0.0)
    for i, s in enumerate(one_step):
        after = samples[i + 2] if i + 2 < len(samples) and samples[i + 2].game == s.game else None
        expected = samples[i].rest if after is None else after.now - s.now + 4.0
        assert s.rest == pytest.approx(expected)
    assert sum(s.rest != t.rest for s, t in zip(one_step, samples, strict=True)) > len(samples) // 2
