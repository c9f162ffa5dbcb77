"""Tests of the rule options (rules.md section 6): defaults, the option text, and refusals."""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import fields

import pytest

from cribtiles.rules import NotationError, RuleOptions
from cribtiles.rules.options import BY_NAME, MAX_ROUNDS, OPTIONS, ExchangeRule, Mode, RuleOption, Start


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
    ("kwargs", "words"),
    [
        ({"start": "middle"}, "start must be low or high, not 'middle'"),
        ({"exchange": "never"}, "exchange must be when-stuck or any-time, not 'never'"),
        ({"mode": "teams"}, "mode must be standard or solitaire, not 'teams'"),
        ({"rounds": 0}, "rounds must be a whole number from 1 to 99, not 0"),
        ({"rounds": 100}, "rounds must be a whole number from 1 to 99, not 100"),
        ({"rounds": 2.5}, "rounds must be a whole number from 1 to 99, not 2.5"),
        ({"rounds": "3"}, "rounds must be a whole number from 1 to 99, not '3'"),
    ],
)
def test_bad_option_values_are_refused_when_built_directly(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(words)}$"):
        RuleOptions(**kwargs)  # type: ignore[arg-type]


def test_options_are_hashable_values() -> None:
    a = RuleOptions.parse("joker=on,rounds=3")
    b = RuleOptions(joker=True, rounds=3)
    assert a == b and hash(a) == hash(b)
    assert len({a, b, RuleOptions()}) == 2


# --- the table of options: every row drives parsing, checking and the text ---


def test_every_field_has_a_row_of_the_table_and_every_row_a_field() -> None:
    assert sorted(f.name for f in fields(RuleOptions)) == sorted(row.name for row in OPTIONS)
    assert len(BY_NAME) == len(OPTIONS)
    for row in OPTIONS:
        assert row.label and (bool(row.choices) != (row.count is not None)), row.name
        # the default is one of the row's values
        assert not row.problem(RuleOptions().value(row.name)), row.name


def row_values(row: RuleOption) -> list[tuple[str, object]]:
    """Every value of a row as written and as held (a number row: its ends and one between)."""
    if row.count is not None:
        c = row.count
        return [(str(n), n) for n in sorted({c.low, (c.low + c.high) // 2, c.high})]
    return [(choice.text, choice.value) for choice in row.choices]


@pytest.mark.parametrize("row", OPTIONS, ids=lambda row: row.name)
def test_every_value_of_every_row_parses_checks_and_shows(row: RuleOption) -> None:
    for text, value in row_values(row):
        o = RuleOptions.parse(f"{row.name}={text}")
        assert o.value(row.name) == value and type(o.value(row.name)) is type(value)
        if row.always_written or value != RuleOptions().value(row.name):
            assert f"{row.name}={text}" in o.to_text().split(",") and o.as_dict()[row.name] == text
        else:  # added after games were saved: not written at its default, so their texts stay as they were
            assert row.name not in o.as_dict() and o.to_text() == RuleOptions().to_text()
        assert RuleOptions.parse(o.to_text()) == o == o.with_values({row.name: value})
        assert row.words(o.value(row.name)) and row.about(o.value(row.name))
    with pytest.raises(NotationError, match=row.name):
        RuleOptions.parse(f"{row.name}=nonsense")
    with pytest.raises(ValueError, match=row.name):
        RuleOptions().with_values({row.name: "nonsense"})


def test_the_text_names_every_row_and_the_unknown_option_message_lists_them() -> None:
    assert [item.partition("=")[0] for item in RuleOptions().to_text().split(",")] == [
        f.name for f in fields(RuleOptions) if BY_NAME[f.name].always_written
    ]
    every = RuleOptions(bonuses=False)  # each option not at its default is written, in the fields' order
    assert [item.partition("=")[0] for item in every.to_text().split(",")] == [f.name for f in fields(RuleOptions)]
    with pytest.raises(NotationError) as info:
        RuleOptions.parse("colour=red")
    assert all(row.name in str(info.value) for row in OPTIONS)


def test_the_kinds_are_enums_that_read_and_compare_as_their_texts() -> None:
    o = RuleOptions(start="high", exchange="any-time", mode="solitaire")  # type: ignore[arg-type]
    assert (o.start, o.exchange, o.mode) == (Start.HIGH, ExchangeRule.ANY_TIME, Mode.SOLITAIRE)
    assert (
        o.start is Start.HIGH
        and o.start == "high"
        and o == RuleOptions.parse("start=high,exchange=any-time,mode=solitaire")
    )
    assert json.loads(json.dumps(o.as_dict())) == {
        "start": "high",
        "exchange": "any-time",
        "joker": "off",
        "rounds": "1",
        "mode": "solitaire",
    }


def test_the_form_steps_round_a_rows_choices_and_along_its_range() -> None:
    joker = BY_NAME["joker"]
    assert joker.stepped(False, 1) is True and joker.stepped(True, 1) is False and joker.stepped(True, -1) is False
    rounds = BY_NAME["rounds"]
    assert (rounds.stepped(1, -1), rounds.stepped(1, 1), rounds.stepped(MAX_ROUNDS, 1)) == (1, 2, MAX_ROUNDS)
    assert (rounds.words(1), rounds.words(7)) == ("1 game", "7-round match")
