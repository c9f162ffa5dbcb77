"""Tests for cribtiles.table.settings: the settings model, and every value read back checked from it."""

from __future__ import annotations

import json
from dataclasses import asdict, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.rules.options import RuleOptions
from cribtiles.table.settings import MOST_HINTS, SPEEDS, Preferences, read_preferences

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from([*(f.name for f in fields(Preferences)), "x"]), json_values))
def test_reading_never_raises_and_keeps_only_valid_values(data: dict[str, object]) -> None:
    prefs, bad = read_preferences(data)
    assert 2 <= len(prefs.seats) <= 4 and all(isinstance(n, str) and n.strip() for n, _ in prefs.seats)
    assert RuleOptions.parse(prefs.rules) is not None
    assert isinstance(prefs.level, str) and prefs.speed in SPEEDS
    assert isinstance(prefs.sound, bool) and isinstance(prefs.fullscreen, bool)
    assert len(prefs.window) == 2 and all(type(n) is int and 100 <= n <= 16384 for n in prefs.window)
    assert 0 <= prefs.volume <= 100 and 0 <= prefs.hint_limit <= MOST_HINTS
    assert set(bad) <= set(data) - {"x"}


@pytest.mark.parametrize("data", [None, [], "x", 3, 2.5, True])
def test_anything_but_an_object_gives_the_defaults_and_names_every_setting(data: object) -> None:
    assert read_preferences(data) == (Preferences(), [f.name for f in fields(Preferences)])


def test_every_setting_survives_its_own_file_and_refuses_a_value_of_another_type() -> None:
    """Written as the game writes it (JSON of the dataclass) and read back: the same settings, none
    bad; and for each field a value of the wrong kind is named and leaves the default."""
    chosen = Preferences(
        level="hard", speed="fast", sound=False, fullscreen=True, window=(1024, 700),
        seats=(("Ann", None), ("Ben", "easy"), ("Cy", None)), rules="joker=on,rounds=3", volume=35,
        colour_marks=True, confirm_play=True, undo=False, hints=False, tutorial_offered=True,
        tutorial_done=True, hint_limit=5, coach_notes=True, tiles_out=True,
    )  # fmt: skip
    assert read_preferences(json.loads(json.dumps(asdict(chosen)))) == (chosen, [])
    for f in fields(Preferences):
        wrong: object = "not this" if not isinstance(f.default, str) else 7
        prefs, bad = read_preferences({f.name: wrong})
        assert bad == [f.name] and prefs == Preferences(), f.name


def test_ranges_and_choices_come_from_the_fields() -> None:
    for data, good in (
        ({"volume": 100}, True), ({"volume": 101}, False), ({"volume": -1}, False), ({"volume": True}, False),
        ({"hint_limit": MOST_HINTS}, True), ({"hint_limit": MOST_HINTS + 1}, False),
        ({"speed": "instant"}, True), ({"speed": "warp"}, False),
        ({"level": "expert"}, True), ({"level": "god"}, False),
        ({"window": [100, 16384]}, True), ({"window": [99, 800]}, False), ({"rules": "start=sideways"}, False),
        ({"seats": [["Ann", None]]}, False), ({"seats": [["Ann", None], ["\x1b[2J", "easy"]]}, False),
    ):  # fmt: skip
        assert (read_preferences(data)[1] == []) is good, data
