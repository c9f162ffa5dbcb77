"""Tests of matches (rules.md section 6, Servant): rounds, running totals, the Servant, saving a match."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.rules import IllegalMove, Match, Pass, RecordError, RuleOptions, load_match, save_match
from cribtiles.rules.match import round_seed

THREE_ROUNDS = RuleOptions.parse("rounds=3")
QUICK = RuleOptions.parse("rounds=3,exchange=any-time")  # rounds can be ended at once by passing


def finish_round(match: Match, rng: random.Random) -> Match:
    while not match.game.is_over:
        match = match.apply(rng.choice(match.game.legal_actions()))
    return match


def pass_round(match: Match) -> Match:
    """End the round by passing (exchange=any-time): a locked board after two passes each."""
    while not match.game.is_over:
        match = match.apply(Pass())
    return match


def expected_totals(match: Match) -> tuple[int, ...]:
    done = [*match.finished, *([match.game] if match.game.is_over else [])]
    totals = [0] * len(match.names)
    for g in done:
        assert g.outcome is not None
        for p, s in enumerate(g.outcome.final_scores):
            totals[p] += s
    return tuple(totals)


def lowest(totals: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(p for p, t in enumerate(totals) if t == min(totals))


def test_a_match_starts_at_round_one_with_no_servant() -> None:
    m = Match.start(3, THREE_ROUNDS, seed=4, names=["Ann", "Bob", "Cy"])
    assert m.round == 1 and m.finished == () and not m.is_over
    assert m.totals == (0, 0, 0) and m.servant == ()
    assert m.names == ("Ann", "Bob", "Cy") == m.game.names
    assert m.game.seed == round_seed(4, 0) and m.game.options == THREE_ROUNDS


def test_next_round_is_refused_while_the_round_is_played() -> None:
    m = Match.start(2, THREE_ROUNDS, seed=1)
    with pytest.raises(IllegalMove, match="still"):
        m.next_round()
    m = m.apply(m.game.legal_actions()[0])
    assert len(m.game.turns) == 1
    with pytest.raises(IllegalMove, match="still"):
        m.next_round()


@pytest.mark.parametrize("players", [2, 3])
def test_rounds_running_totals_and_the_servant(players: int) -> None:
    rng = random.Random(players)
    m = Match.start(players, THREE_ROUNDS, seed=10 + players)
    seeds = set()
    for r in range(1, 4):
        assert m.round == r
        seeds.add(m.game.seed)
        assert m.game.seed == round_seed(m.seed, r - 1)
        before = m.totals
        m = m.apply(m.game.legal_actions()[0])
        assert m.totals == before  # the round in progress does not count yet
        m = finish_round(m, rng)
        assert m.game.outcome is not None
        assert m.totals == expected_totals(m)
        assert m.totals == tuple(b + f for b, f in zip(before, m.game.outcome.final_scores, strict=True))
        assert m.servant == lowest(m.totals)
        if r < 3:
            assert not m.is_over
            nxt = m.next_round()
            assert nxt.finished == (*m.finished, m.game)
            assert nxt.game.turns == () and nxt.game.board.is_empty()
            assert nxt.totals == m.totals and nxt.servant == m.servant
            assert nxt.game.racks != m.game.racks
            m = nxt
    assert len(seeds) == 3
    assert m.is_over
    assert m.winners == tuple(p for p, t in enumerate(m.totals) if t == max(m.totals))
    with pytest.raises(IllegalMove, match="over"):
        m.next_round()


def test_a_one_round_match_is_over_with_its_game() -> None:
    m = pass_round(Match.start(2, RuleOptions.parse("exchange=any-time"), seed=0))
    assert m.is_over and len(m.servant) >= 1
    with pytest.raises(IllegalMove):
        m.next_round()


def test_tied_lowest_totals_make_every_one_of_them_the_servant() -> None:
    for seed in range(300):
        m = pass_round(Match.start(3, QUICK, seed))
        totals = m.totals
        if sorted(totals)[0] == sorted(totals)[1]:
            assert len(m.servant) >= 2
            assert m.servant == lowest(totals)
            return
    raise AssertionError("no tie found")


def test_the_servant_follows_the_running_totals_not_the_last_round() -> None:
    for seed in range(200):
        m = pass_round(Match.start(2, QUICK, seed))
        m = pass_round(m.next_round())
        last = m.game.final_scores()
        if lowest(m.totals) != lowest(last):
            assert m.servant == lowest(m.totals)
            return
    raise AssertionError("no such match found")


def test_every_round_uses_the_match_options_and_names() -> None:
    m = Match.start(2, QUICK, seed=5, names=["X", "Y"])
    for _ in range(2):
        m = pass_round(m).next_round()
        assert m.game.options == QUICK and m.game.names == ("X", "Y")


# --- saving a match ---


def match_stages() -> list[Match]:
    rng = random.Random(0)
    m = Match.start(2, QUICK, seed=8)
    out = [m]
    m = m.apply(m.game.legal_actions()[0])
    out.append(m)
    m = finish_round(m, rng)
    out.append(m)  # round over, next not started
    m = m.next_round()
    out.append(m)
    m = pass_round(m).next_round()
    m = m.apply(m.game.legal_plays()[0])
    out.append(m)
    m = finish_round(m, rng)
    out.append(m)  # the match is over
    return out


STAGES = match_stages()


@pytest.mark.parametrize("stage", range(len(STAGES)))
def test_save_match_then_load_match_gives_the_same_match(stage: int) -> None:
    m = STAGES[stage]
    loaded = load_match(save_match(m))
    assert loaded == m
    assert loaded.totals == m.totals and loaded.servant == m.servant and loaded.round == m.round


def match_data(stage: int = 3) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(save_match(STAGES[stage]))
    return data


def refused(data: object) -> RecordError:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as info:
        load_match(text)
    assert len(str(info.value)) > 20
    return info.value


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '"x"', "not json"])
def test_damaged_match_text_is_refused(text: str) -> None:
    refused(text)


def test_every_truncation_of_a_saved_match_is_refused() -> None:
    text = save_match(STAGES[3])
    for cut in range(0, len(text), 7):
        with pytest.raises(RecordError):
            load_match(text[:cut])


def test_a_game_record_is_not_a_match() -> None:
    from cribtiles.rules import save

    assert "not a Crib Tiles match" in str(refused(save(STAGES[0].game)))


@pytest.mark.parametrize("version", [0, 2, None, "1"])
def test_an_unknown_match_version_is_refused(version: object) -> None:
    data = match_data()
    data["version"] = version
    assert "version" in str(refused(data))


@pytest.mark.parametrize(
    ("key", "value"), [("seed", "8"), ("seed", True), ("rounds", []), ("rounds", None), ("rounds", {})]
)
def test_a_match_with_missing_parts_is_refused(key: str, value: object) -> None:
    data = match_data()
    data[key] = value
    refused(data)
    del data[key]
    refused(data)


def test_a_match_still_played_may_keep_its_seed_back() -> None:
    """A record sent between rounds of a match (issue 31): its seed, which deals the next rounds, saved as
    null; every round so far loads, and no next round can be dealt from it."""
    played = pass_round(pass_round(Match.start(2, QUICK, seed=11)).next_round())
    withheld = Match(played.options, 0, played.names, played.finished, played.game, seed_withheld=True)
    text = save_match(withheld)
    assert json.loads(text)["seed"] is None and str(played.seed) not in text
    loaded = load_match(text)
    assert loaded == withheld and loaded.finished == played.finished and loaded.game == played.game
    assert loaded.totals == played.totals and loaded.round == 2
    with pytest.raises(IllegalMove, match="keeps its seed back"):
        loaded.next_round()
    over = pass_round(played.next_round())
    assert over.is_over
    data = json.loads(save_match(over))
    data["seed"] = None
    assert "seed is missing" in str(refused(data))  # a match over has no seed left to keep back


def test_rounds_in_the_wrong_order_are_refused() -> None:
    data = match_data(4)
    data["rounds"][0], data["rounds"][1] = data["rounds"][1], data["rounds"][0]
    assert "round 1" in str(refused(data))


def test_a_match_seed_that_does_not_fit_its_rounds_is_refused() -> None:
    data = match_data()
    data["seed"] = data["seed"] + 1
    refused(data)


def test_an_unfinished_round_before_the_last_is_refused() -> None:
    data = match_data(3)
    data["rounds"][0]["actions"] = data["rounds"][0]["actions"][:1]
    assert "never finished" in str(refused(data))


def test_more_rounds_than_the_match_was_set_to_play_are_refused() -> None:
    data = match_data(5)
    for r in data["rounds"]:
        r["options"]["rounds"] = "2"
    assert "more rounds" in str(refused(data))


def test_a_round_with_other_options_or_players_is_refused() -> None:
    data = match_data(3)
    data["rounds"][1]["options"]["start"] = "high"
    data["rounds"][1]["actions"] = []
    refused(data)
    data = match_data(3)
    data["rounds"][1]["players"] = ["Someone", "Else"]
    refused(data)


def test_a_damaged_round_is_refused() -> None:
    data = match_data(3)
    data["rounds"][0]["actions"].append("f7=ZZ")
    refused(data)
    data = match_data(3)
    data["rounds"][1] = "round two"
    refused(data)


def test_deeply_nested_match_json_is_refused() -> None:
    refused("[" * 100_000)


QUICK_TEXT = save_match(pass_round(pass_round(Match.start(2, QUICK, seed=3)).next_round()).next_round())


@settings(max_examples=120, deadline=None)
@given(
    edits=st.lists(
        st.tuples(
            st.floats(0, 1, exclude_max=True),
            st.one_of(
                st.integers(1, 6), st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=3)
            ),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_a_mutated_match_loads_or_raises_record_error(edits: list[tuple[float, int | str]]) -> None:
    text = QUICK_TEXT
    for where, edit in edits:
        i = int(where * len(text))
        text = text[:i] + text[i + edit :] if isinstance(edit, int) else text[:i] + edit + text[i:]
    try:
        m = load_match(text)
    except RecordError:
        return
    assert load_match(save_match(m)) == m
