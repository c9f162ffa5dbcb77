"""Tests of the rule options (rules.md section 6): defaults, the option text, and refusals."""

from __future__ import annotations

import itertools

import pytest

from cribtiles.rules import NotationError, RuleOptions


def test_defaults_are_those_of_rules_md() -> None:
    o = RuleOptions()
    assert (o.start, o.exchange, o.joker, o.rounds, o.mode) == ("low", "when-stuck", False, 1, "standard")
    assert not o.solitaire
    assert RuleOptions.parse("") == o


def test_parse_the_example_of_the_brief() -> None:
    o = RuleOptions.parse("start=high,exchange=any-time,joker=on,rounds=3,mode=solitaire")
    assert o == RuleOptions(start="high", exchange="any-time", joker=True, rounds=3, mode="solitaire")
    assert o.solitaire


def test_unnamed_options_keep_the_defaults() -> None:
    o = RuleOptions.parse("joker=on")
    assert o.joker
    assert (o.start, o.exchange, o.rounds, o.mode) == ("low", "when-stuck", 1, "standard")


def test_unnamed_options_keep_the_base() -> None:
    base = RuleOptions.parse("start=high,rounds=5")
    o = RuleOptions.parse("joker=on", base)
    assert o == RuleOptions(start="high", joker=True, rounds=5)
    assert base == RuleOptions(start="high", rounds=5)  # the base is a value: unchanged


def test_later_options_override_earlier_ones() -> None:
    assert RuleOptions.parse("start=high,start=low").start == "low"


def test_case_spaces_and_empty_items_are_tolerated() -> None:
    assert RuleOptions.parse(" Start = HIGH , , Joker=On ,") == RuleOptions(start="high", joker=True)


@pytest.mark.parametrize(
    ("start", "exchange", "joker", "rounds", "mode"),
    list(
        itertools.product(
            ("low", "high"), ("when-stuck", "any-time"), (False, True), (1, 7, 99), ("standard", "solitaire")
        )
    ),
)
def test_text_round_trips(start: str, exchange: str, joker: bool, rounds: int, mode: str) -> None:
    o = RuleOptions(start=start, exchange=exchange, joker=joker, rounds=rounds, mode=mode)
    assert RuleOptions.parse(o.to_text()) == o
    # whatever the base, a full text names every option
    assert RuleOptions.parse(o.to_text(), RuleOptions.parse("start=high,joker=on,rounds=2")) == o


def test_to_text_names_every_option_in_the_order_of_rules_md() -> None:
    assert RuleOptions().to_text() == "start=low,exchange=when-stuck,joker=off,rounds=1,mode=standard"
    assert RuleOptions(joker=True).as_dict()["joker"] == "on"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("colour=red", ["colour"]),
        ("start", ["name=value"]),
        ("start=middle", ["start", "middle"]),
        ("exchange=never", ["exchange", "never"]),
        ("joker=yes", ["joker", "yes"]),
        ("mode=teams", ["mode", "teams"]),
        ("rounds=0", ["rounds", "0"]),
        ("rounds=100", ["rounds", "100"]),
        ("rounds=-1", ["rounds"]),
        ("rounds=two", ["rounds", "two"]),
        ("rounds=", ["rounds"]),
    ],
)
def test_bad_option_text_is_refused_with_a_reason(text: str, words: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        RuleOptions.parse(text)
    assert isinstance(info.value, ValueError)
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": "middle"},
        {"exchange": "never"},
        {"mode": "teams"},
        {"rounds": 0},
        {"rounds": 100},
        {"rounds": 2.5},
        {"rounds": "3"},
    ],
)
def test_bad_option_values_are_refused_when_built_directly(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        RuleOptions(**kwargs)  # type: ignore[arg-type]


def test_options_are_hashable_values() -> None:
    a = RuleOptions.parse("joker=on,rounds=3")
    b = RuleOptions(joker=True, rounds=3)
    assert a == b and hash(a) == hash(b)
    assert len({a, b, RuleOptions()}) == 2
