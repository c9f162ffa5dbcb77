"""Tests of game records: JSON save, load and replay, and the refusal of anything that is not a record."""

from __future__ import annotations

import functools
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribtiles.rules import (
    GameRecord,
    GameState,
    Play,
    RecordError,
    RuleOptions,
    has_legal_play,
    load,
    new_game,
    parse_move,
    record_of,
    replay,
    save,
    score_play,
)
from cribtiles.rules.game import LockRule

MODES = [
    (2, ""),
    (3, ""),
    (4, "start=high"),
    (2, "exchange=any-time"),
    (3, "exchange=any-time,joker=on"),
    (2, "mode=solitaire"),
    (2, "mode=solitaire,exchange=any-time,joker=on"),
    (4, "joker=on"),
    (2, "bonuses=off"),
    (3, "joker=on,bonuses=off"),
    (2, "mode=solitaire,bonuses=off"),
]


def step(state: GameState, rng: random.Random) -> GameState:
    """One random legal action; under Joker, sometimes a low declaration and a call by another player."""
    action = rng.choice(state.legal_actions())
    declared = None
    if isinstance(action, Play) and state.options.joker and rng.random() < 0.4:
        declared = rng.randint(0, state.scorer.score(state.board, action).total)
    state = state.apply(action, declared)
    if state.options.joker and rng.random() < 0.3:
        last = state.turns[-1]
        callers = [p for p in range(state.players) if not (last.is_play and p == last.player)]
        state = state.call_joker(rng.choice(callers))
    return state


def game(players: int, text: str, seed: int, steps: int = 10_000) -> list[GameState]:
    """The states of a seeded random game, stopped after `steps` actions or at the end."""
    state = new_game(players, RuleOptions.parse(text), seed)
    rng = random.Random(seed)
    out = [state]
    while not state.is_over and len(out) <= steps:
        state = step(state, rng)
        out.append(state)
    return out


@functools.cache
def saved_text(players: int, text: str, seed: int, steps: int) -> str:
    return save(game(players, text, seed, steps)[-1])


def saved(players: int = 2, text: str = "joker=on", seed: int = 3, steps: int = 6) -> dict[str, Any]:
    """A fresh copy of the JSON data of a short saved game (the game is played once)."""
    data: dict[str, Any] = json.loads(saved_text(players, text, seed, steps))
    return data


def refused(data: object) -> RecordError:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as info:
        load(text)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert len(message) > 20 and "Traceback" not in message
    return info.value


# --- round trips ---


@pytest.mark.parametrize(("players", "text"), MODES)
def test_save_then_load_gives_the_same_state(players: int, text: str) -> None:
    for seed in (1, 2):
        states = game(players, text, seed)
        final = states[-1]
        assert final.is_over
        assert load(save(final)) == final
        middle = states[len(states) // 2]
        assert load(save(middle)) == middle


def test_joker_actions_are_recorded_and_replayed() -> None:
    states = game(3, "joker=on", 5)
    final = states[-1]
    assert final.calls, "this game should hold Joker calls"
    assert any(" declare " in a for a in final.log)
    assert any(a.startswith("joker ") for a in final.log)
    again = load(save(final))
    assert again == final
    assert again.calls == final.calls and again.scores == final.scores


def test_replay_upto_gives_every_intermediate_state() -> None:
    states = game(2, "exchange=any-time", 4)
    record = record_of(states[-1])
    assert len(record.actions) == len(states) - 1
    for k, state in enumerate(states):
        assert replay(record, upto=k) == state


def test_a_loaded_game_goes_on_exactly_as_the_original() -> None:
    """Later exchanges reshuffle the bag the same way after a reload: the seed and counter are restored."""
    states = game(2, "exchange=any-time", 6, steps=8)
    middle = states[-1]
    loaded = load(save(middle))
    rng_a, rng_b = random.Random(1), random.Random(1)
    a, b = middle, loaded
    while not a.is_over:
        a, b = step(a, rng_a), step(b, rng_b)
        assert a == b
    assert any(t.move.__class__.__name__ == "Exchange" for t in a.turns[len(middle.turns) :])


def test_the_record_is_plain_json_in_notation() -> None:
    final = game(2, "joker=on,start=high", 2)[-1]
    data = json.loads(save(final))
    assert data["format"] == "cribtiles-game" and data["version"] == 1
    assert data["seed"] == 2 and data["players"] == ["Player 1", "Player 2"]
    assert RuleOptions.parse(",".join(f"{k}={v}" for k, v in data["options"].items())) == final.options
    for action in data["actions"]:
        words = action.split()
        if words[0] == "joker":
            assert words[1].isdigit()
            continue
        if "declare" in words:
            words = words[: words.index("declare")]
        assert str(parse_move(" ".join(words))) == " ".join(words)
    assert GameRecord.from_json(save(final)) == record_of(final)


def test_names_survive_a_round_trip() -> None:
    s = new_game(3, RuleOptions(), 9, ["Ann", "Bé", 'Cy "the" Third'])
    assert load(save(s)).names == ("Ann", "Bé", 'Cy "the" Third')


# --- refusals ---


@pytest.mark.parametrize("version", [0, 2, "1", None, [1], 1.5])
def test_an_unknown_version_is_refused(version: object) -> None:
    data = saved()
    data["version"] = version
    assert "version" in str(refused(data))


def test_a_missing_version_is_refused() -> None:
    data = saved()
    del data["version"]
    assert "version" in str(refused(data))


@pytest.mark.parametrize(
    "data",
    [[], [1, 2], 5, "a string", None, True, {}, {"format": "cribtiles-match", "version": 1}, {"version": 1}],
)
def test_json_that_is_not_a_game_record_is_refused(data: object) -> None:
    assert "not a Crib Tiles game" in str(refused(json.dumps(data)))


@pytest.mark.parametrize("text", ["", "   ", "{", "not json", "{'format': 'cribtiles-game'}", "\x00", "[1,]"])
def test_damaged_json_is_refused(text: str) -> None:
    refused(text)


def test_every_truncation_of_a_saved_game_is_refused() -> None:
    text = save(game(2, "joker=on", 3)[-1])
    for cut in range(len(text)):
        with pytest.raises(RecordError):
            load(text[:cut])


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("seed", "5"),
        ("seed", True),
        ("seed", 1.5),
        ("seed", None),
        ("players", "AB"),
        ("players", [1, 2]),
        ("players", {"a": "b"}),
        ("players", None),
        ("actions", "pass"),
        ("actions", [1]),
        ("actions", [["pass"]]),
        ("actions", None),
        ("options", []),
        ("options", "joker=on"),
        ("options", {"joker": True}),
        ("options", None),
    ],
)
def test_fields_of_the_wrong_type_are_refused(key: str, value: object) -> None:
    data = saved()
    data[key] = value
    refused(data)


@pytest.mark.parametrize("key", ["seed", "players", "actions", "options"])
def test_missing_fields_are_refused(key: str) -> None:
    data = saved()
    del data[key]
    refused(data)


@pytest.mark.parametrize(
    "options",
    [{"colour": "red"}, {"start": "middle"}, {"rounds": "0"}, {"joker": "maybe"}, {"": ""}],
)
def test_unknown_rule_options_are_refused(options: dict[str, str]) -> None:
    data = saved()
    data["options"] = options
    assert "option" in str(refused(data))


@pytest.mark.parametrize(
    ("players", "mode"),
    [(["Solo"], "standard"), (["A", "B", "C", "D", "E"], "standard"), (["A", "B", "C"], "solitaire")],
)
def test_a_record_with_the_wrong_number_of_players_is_refused(players: list[str], mode: str) -> None:
    data = saved()
    data["players"] = players
    data["options"]["mode"] = mode
    data["actions"] = []
    refused(data)


def test_options_missing_from_a_record_take_their_defaults() -> None:
    s = new_game(2, RuleOptions(), 3)
    s = s.apply(s.legal_plays()[0])
    data = json.loads(save(s))
    data["options"] = {}
    assert load(json.dumps(data)) == s


def illegal_actions() -> list[tuple[str, str]]:
    """(rule options, an action the rules refuse at the end of a short record)."""
    return [
        ("", "pass"),  # the player has a legal play (seed 3)
        ("", "exchange 4L"),
        ("", "f7=ZZ"),
        ("", "a1=5L b1=5D"),
        ("", "hello"),
        ("", "joker 1"),  # Joker is off
        ("joker=on", "joker 7"),
        ("joker=on", "joker -1"),
    ]


@pytest.mark.parametrize(("text", "action"), illegal_actions())
def test_an_illegal_action_in_the_list_is_refused_with_its_place(text: str, action: str) -> None:
    data = saved(text=text, steps=0)
    assert data["actions"] == []
    data["actions"] = [action]
    message = str(refused(data))
    assert "action 1" in message and action in message


def test_a_declaration_above_the_true_score_and_its_call_load_from_a_record() -> None:
    s = new_game(2, RuleOptions.parse("joker=on"), 3)
    play = s.legal_plays()[0]
    total = score_play(s.board, play).total
    data = json.loads(save(s))
    data["actions"] = [f"{play} declare {total + 2}", f"joker {1 - s.current}"]  # muggins style
    loaded = load(json.dumps(data))
    assert loaded.scores[s.current] == total and loaded.scores[1 - s.current] == 2
    data["actions"] = [f"{play} declare -1"]
    refused(data)  # a score below 0 is not a number the record can hold


def test_an_action_after_the_end_is_refused() -> None:
    final = game(2, "", 1)[-1]
    data = json.loads(save(final))
    data["actions"].append("pass")
    assert f"action {len(data['actions'])}" in str(refused(data))


def test_a_record_played_on_a_different_seed_is_refused() -> None:
    data = json.loads(save(game(2, "", 1)[-1]))
    data["seed"] = 2
    refused(data)


@pytest.mark.parametrize(
    "action",
    [
        pytest.param("joker ²", id="joker-superscript"),
        pytest.param("f7=4L g7=5D declare ²", id="declare-superscript"),
        pytest.param("a²=5L b²=5D", id="square-superscript"),
        pytest.param("joker " + "9" * 5000, id="joker-5000-digits"),
    ],
)
def test_odd_digits_in_an_action_are_refused_as_a_record_error(action: str) -> None:
    data = saved(steps=0)
    data["actions"] = [action]
    refused(data)


def test_deeply_nested_json_is_refused() -> None:
    refused("[" * 100_000)


# --- fuzzing ---

SAVED_TEXT = save(game(3, "joker=on,exchange=any-time", 3, steps=9)[-1])
edits = st.lists(
    st.tuples(
        st.floats(0, 1, exclude_max=True),
        st.one_of(
            st.integers(1, 6), st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=4)
        ),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=edits)
def test_a_mutated_save_loads_or_raises_record_error(edits: list[tuple[float, int | str]]) -> None:
    text = SAVED_TEXT
    for where, edit in edits:
        i = int(where * len(text))
        text = text[:i] + text[i + edit :] if isinstance(edit, int) else text[:i] + edit + text[i:]
    try:
        state = load(text)
    except RecordError as e:
        assert str(e)
    else:
        assert isinstance(state, GameState)
        assert load(save(state)) == state


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
SAVED_DATA: dict[str, Any] = json.loads(SAVED_TEXT)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from([*SAVED_DATA, "extra"]), value=json_values, index=st.integers(0, 20))
def test_a_record_with_a_random_value_loads_or_raises_record_error(key: str, value: object, index: int) -> None:
    data = json.loads(SAVED_TEXT)
    if key in ("actions", "players", "options") and index < len(data[key]) and isinstance(data[key], list):
        data[key][index] = value  # one action or one name replaced
    elif key == "options" and index < len(data["options"]):
        data["options"][sorted(data["options"])[index]] = value
    else:
        data[key] = value
    try:
        state = load(json.dumps(data))
    except RecordError as e:
        assert str(e)
    else:
        assert load(save(state)) == state


def _damaged(**changes: object) -> str:
    data = json.loads(save(new_game(2, seed=1, names=("You", "Medium"))))
    data.update(changes)
    return json.dumps(data)


def test_a_huge_name_is_damage_and_the_message_stays_short() -> None:
    with pytest.raises(RecordError) as e:
        load(_damaged(players=["You", "x" * 3_000_000]))
    assert str(e.value) == (
        "the saved game cannot be set up: a player's name is 3,000,000 characters long; names have at most 40"
    )


def test_a_name_with_control_characters_is_damage() -> None:
    """An escape or a bell in a name would retitle, clear or ring the terminals it is printed on."""
    with pytest.raises(RecordError) as e:
        load(_damaged(players=["You", "Ann\x1b]0;PWNED\x07\x1b[2J"]))
    assert str(e.value) == (
        "the saved game cannot be set up: a player's name may hold only printable characters, not control characters"
    )
    with pytest.raises(ValueError, match="only printable characters"):
        new_game(2, seed=1, names=("You", "Ben\x1b[2J"))


def test_a_huge_action_is_damage_and_the_message_quotes_little_of_it() -> None:
    with pytest.raises(RecordError) as e:
        load(_damaged(actions=["f7=" + "A" * 600_000]))
    assert str(e.value) == (
        "the saved game is damaged: action 1 is 'f7=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…' (600,003 characters),"
        " too long to be a move"
    )
    with pytest.raises(RecordError) as e:
        load(_damaged(actions=["f7=4L " + "A" * 100]))
    assert len(str(e.value)) < 300 and "(106 characters)" in str(e.value)


# --- issue 14: records saved before a locked board meant "nobody could play" ---


def with_lock(state: GameState, lock: str | None) -> str:
    """The record of `state` as a Crib Tiles of an older locked-board rule wrote it: "lock" absent
    (before issue 14) or "stuck" (issue 14 to 28)."""
    data = json.loads(save(state))
    assert data.pop("lock") == "nobody-can-play"  # what a record written today says
    if lock is not None:
        data["lock"] = lock
    return json.dumps(data)


def test_a_record_saved_before_the_lock_rule_changed_still_ends_where_it_ended() -> None:
    """Under exchange=any-time four passes by choice used to lock the board: such a record still
    replays to that end (its turns are all there is), while a new record plays on."""
    s = new_game(2, RuleOptions.parse("exchange=any-time"), 2)
    for _ in range(4):
        s = s.apply("pass")
    assert not s.is_over  # today's rule: passing by choice is not a locked board
    old = load(with_lock(s, None))
    assert old.is_over and old.outcome is not None and old.outcome.reason == "locked"
    assert old.lock is LockRule.IDLE and load(save(s)).lock is LockRule.NOBODY_CAN_PLAY
    assert load(save(s)) == s
    again = load(save(old))  # saved again, it keeps its rule
    assert again == old and "lock" not in json.loads(save(old))


def test_a_record_with_an_unknown_end_rule_is_refused() -> None:
    data = json.loads(save(new_game(2, RuleOptions(), 1)))
    for unknown in ("whenever", "idle", 2):
        data["lock"] = unknown
        with pytest.raises(RecordError, match="ends by a rule this version does not know"):
            load(json.dumps(data))


def test_when_stuck_records_end_alike_under_every_rule() -> None:
    """Under when-stuck a pass is allowed only with no play, so the rule before issue 14 and the
    one after it agree; these games end without two rounds in which nobody could play, so today's
    rule ends them alike too."""
    for text, seed in (("", 0), ("", 1), ("mode=solitaire", 0), ("mode=solitaire", 1)):
        last = game(2, text, seed)[-1]
        assert last.outcome is not None
        for lock, rule in ((None, LockRule.IDLE), ("stuck", LockRule.STUCK)):
            assert load(with_lock(last, lock)) == replace(last, lock=rule)


# --- issue 28: a locked board only when nobody can play ---


@functools.cache
def locked_by_the_rule_of_issue_14() -> GameRecord:
    """A game whose four turns end it under the rule of issue 14: both players cannot play from the
    start, pass, pass, pass, and the last exchange brings a play, with 94 tiles in the bag."""
    for seed in range(2000):
        s = new_game(2, RuleOptions(), seed)
        if any(has_legal_play(s.board, r) for r in s.racks):
            continue
        s = s.apply("pass").apply("pass").apply("pass")
        for exchange in s.legal_exchanges():
            if has_legal_play(s.board, s.apply(exchange).racks[s.current]):
                return replace(record_of(s.apply(exchange)), lock=LockRule.STUCK)
    raise AssertionError("no such game found: widen the search")


def test_a_record_of_the_rule_of_issue_14_still_ends_where_it_ended() -> None:
    record = locked_by_the_rule_of_issue_14()
    assert json.loads(record.to_json())["lock"] == "stuck"
    old = load(record.to_json())
    assert old.outcome is not None and old.outcome.reason == "locked" and old.bag_size() == 94
    assert has_legal_play(old.board, old.racks[old.turns[-1].player])  # what today's rule plays on from
    assert old.lock is LockRule.STUCK and load(save(old)) == old  # saved again, it keeps its rule
    today = replay(replace(record, lock=LockRule.NOBODY_CAN_PLAY))
    assert not today.is_over and today.turns == old.turns and today.racks == old.racks


@pytest.mark.parametrize("lock", [None, "stuck"])
def test_an_unfinished_record_of_an_older_rule_goes_on_under_todays(lock: str | None) -> None:
    """Until it ends, a game plays alike under every rule: one saved unfinished goes on under today's."""
    record = locked_by_the_rule_of_issue_14()
    unfinished = replay(replace(record, actions=record.actions[:3]))
    resumed = load(with_lock(unfinished, lock))
    assert resumed == unfinished and resumed.lock is LockRule.NOBODY_CAN_PLAY
    assert not resumed.apply(record.actions[3]).is_over
    halfway = replay(GameRecord.from_json(with_lock(unfinished, lock)), upto=2)  # not the whole: its own rule
    assert halfway.lock is not LockRule.NOBODY_CAN_PLAY and not halfway.is_over
