"""Tests for cribtiles.rules.hands: hand scores, contributing tiles, why lines are invalid, key tables."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.counting import CombinationKind, combinations_of, key_of
from cribtiles.rules import score_hand
from cribtiles.rules.hands import VALID_LINES, why_invalid
from tests.rules.rules_reference import ref_score_hand

A, J, Q, K = 1, 11, 12, 13
ALL_HANDS = [hand for n in range(2, 6) for hand in combinations_with_replacement(range(1, 14), n)]

ranks_st = st.integers(min_value=1, max_value=13)
hands_st = st.lists(ranks_st, min_size=2, max_size=5)


# --- rules.md section 3 examples ---


@pytest.mark.parametrize(
    ("ranks", "fifteens", "pairs", "runs", "total"),
    [
        ((3, 4, 4, 5), 0, 2, 6, 8),
        # 4+5+6 twice over (two 6s) and 4+5+6 again with the other 4: 2 * 2 = 4 sets of 15
        ((4, 4, 5, 6, 6), 8, 4, 12, 24),
        ((5, 5, 5, 5, J), 16, 12, 0, 28),
        # ten pairs; C(5,3) = 10 sets of three 5s make 15
        ((5, 5, 5, 5, 5), 20, 20, 0, 40),
    ],
)
def test_section_3_examples(ranks: tuple[int, ...], fifteens: int, pairs: int, runs: int, total: int) -> None:
    hand = score_hand(ranks)
    assert (hand.fifteens, hand.pairs, hand.runs, hand.total) == (fifteens, pairs, runs, total)
    assert hand.is_valid


@pytest.mark.parametrize(
    ("ranks", "dead"),
    [
        ((6, 7, 8, 9, Q), (Q,)),
        ((4, 5, 6, 8), (8,)),
        ((J, 4), (J, 4)),
    ],
)
def test_section_3_invalid_hands(ranks: tuple[int, ...], dead: tuple[int, ...]) -> None:
    hand = score_hand(ranks)
    assert not hand.is_valid
    assert tuple(r for r, ok in zip(ranks, hand.contributes, strict=True) if not ok) == dead


def test_pair_counts_by_kind() -> None:
    """rules.md 3: 2 / 6 / 12 / 20 for 2 / 3 / 4 / 5 of a kind."""
    assert [score_hand([K] * n).pairs for n in range(2, 6)] == [2, 6, 12, 20]


@pytest.mark.parametrize(
    ("ranks", "runs"),
    [
        ((A, 2, 3), 3),
        ((Q, K, A), 0),  # aces are low only: no wrap
        ((J, Q, K), 3),
        ((9, 10, J, Q, K), 5),
        ((3, 4, 4, 5), 6),
        ((3, 3, 4, 4, 5), 12),  # double double run
        ((3, 3, 3, 4, 5), 9),  # triple run
        ((A, 2, 4, 5), 0),
        ((2, 3, 4, 4, 4), 9),
    ],
)
def test_runs(ranks: tuple[int, ...], runs: int) -> None:
    assert score_hand(ranks).runs == runs


def test_count_values_in_fifteens() -> None:
    assert score_hand([5, 10]).fifteens == 2
    assert score_hand([5, J]).fifteens == 2
    assert score_hand([5, K]).fifteens == 2
    assert score_hand([A, 4, K]).fifteens == 2
    assert score_hand([7, 8]).fifteens == 2
    assert score_hand([6, 9]).fifteens == 2
    assert score_hand([A, 2, 3, 4, 5]).fifteens == 2  # only all five together


# --- exhaustive agreement with the brute-force reference ---


def test_there_are_8554_hands() -> None:
    assert len(ALL_HANDS) == 8554


def test_score_hand_matches_brute_force_on_every_hand() -> None:
    mismatches = []
    for hand in ALL_HANDS:
        got = score_hand(hand)
        ref = ref_score_hand(hand)
        if (got.fifteens, got.pairs, got.runs, got.total, got.contributes, got.is_valid) != (
            ref.fifteens,
            ref.pairs,
            ref.runs,
            ref.total,
            ref.contributes,
            ref.valid,
        ):
            mismatches.append((hand, got, ref))
    assert mismatches == []


def test_valid_lines_table_matches_brute_force() -> None:
    """The move generator's table of valid line keys holds exactly the valid hands, with their scores."""
    expected = {key_of(h): ref.total for h in ALL_HANDS if (ref := ref_score_hand(h)).valid}
    assert expected == VALID_LINES


@settings(max_examples=200, deadline=None)
@given(hands_st, st.randoms(use_true_random=False))
def test_score_is_independent_of_tile_order(ranks: list[int], rnd: random.Random) -> None:
    shuffled = list(ranks)
    rnd.shuffle(shuffled)
    a, b = score_hand(ranks), score_hand(shuffled)
    assert (a.fifteens, a.pairs, a.runs) == (b.fifteens, b.pairs, b.runs)
    # contributes follows the tiles: equal ranks contribute alike
    before = Counter(zip(ranks, a.contributes, strict=True))
    assert before == Counter(zip(shuffled, b.contributes, strict=True))


@settings(max_examples=200, deadline=None)
@given(hands_st)
def test_combinations_add_up_to_the_score(ranks: list[int]) -> None:
    hand = score_hand(ranks)
    combos = combinations_of(ranks)
    by_kind = Counter[CombinationKind]()
    for c in combos:
        by_kind[c.kind] += c.points
        if c.kind is CombinationKind.FIFTEEN:
            assert sum(min(ranks[i], 10) for i in c.positions) == 15
        elif c.kind is CombinationKind.PAIR:
            assert len({ranks[i] for i in c.positions}) == 1
        else:
            rs = sorted(ranks[i] for i in c.positions)
            assert rs == list(range(rs[0], rs[0] + len(rs))) and len(rs) >= 3
    totals = (by_kind[CombinationKind.FIFTEEN], by_kind[CombinationKind.PAIR], by_kind[CombinationKind.RUN])
    assert totals == (hand.fifteens, hand.pairs, hand.runs)
    in_some = {i for c in combos for i in c.positions}
    assert tuple(i in in_some for i in range(len(ranks))) == hand.contributes


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ([], "a hand holds 2 to 5 tiles, not 0"),
        ([5] * 6, "a hand holds 2 to 5 tiles, not 6"),
        ([0, 5], r"0 is not a rank \(1 to 13\)"),
        ([5, 14], r"14 is not a rank \(1 to 13\)"),
        ([5, 5.0], r"5.0 is not a rank \(1 to 13\)"),
    ],
)
def test_score_hand_rejects_bad_input(bad: list[object], words: str) -> None:
    with pytest.raises(ValueError, match=f"^{words}$"):
        score_hand(bad)  # type: ignore[arg-type]


# --- why_invalid: the reasons players read ---


def test_why_invalid_valid_line_is_none() -> None:
    assert why_invalid([4, 5, 6], "row 7") is None
    assert why_invalid([5, 5, 5, 5, 5]) is None


def test_why_invalid_dead_tile_named() -> None:
    assert why_invalid([6, 7, 8, 9, Q], "row 7") == "the Q adds nothing to 6 7 8 9 Q in row 7"
    msg = why_invalid([4, 5, 6, 8])
    assert msg is not None and "the 8 adds nothing to 4 5 6 8" in msg


def test_why_invalid_two_dead_tiles_both_named() -> None:
    msg = why_invalid([7, 8, A, 2], "column c")
    assert msg == "the A and the 2 add nothing to 7 8 A 2 in column c"


def test_why_invalid_scores_nothing() -> None:
    msg = why_invalid([J, 4], "column h")
    assert msg is not None and "column h (J 4) scores nothing" in msg
    msg = why_invalid([6, 10], "column h")
    assert msg is not None and "column h (6 10) scores nothing" in msg


def test_why_invalid_too_long_mentions_five() -> None:
    msg = why_invalid([A, 2, 3, 4, 5, 6], "row 7")
    assert msg is not None and "5" in msg and "row 7" in msg and "6" in msg


@settings(max_examples=300, deadline=None)
@given(hands_st)
def test_why_invalid_agrees_with_validity(ranks: list[int]) -> None:
    assert (why_invalid(ranks) is None) == ref_score_hand(ranks).valid


def test_combination_kinds_are_an_enum_that_reads_as_the_old_strings() -> None:
    assert [(k.name, k.value) for k in CombinationKind] == [("FIFTEEN", "fifteen"), ("PAIR", "pair"), ("RUN", "run")]
    combos = combinations_of([5, 5, 4, 6])  # 5 5 4 6: two fifteens (4 5 6), a pair, two runs of 3
    assert [(c.kind, c.positions, c.points) for c in combos] == [
        (CombinationKind.FIFTEEN, (0, 2, 3), 2),
        (CombinationKind.FIFTEEN, (1, 2, 3), 2),
        (CombinationKind.PAIR, (0, 1), 2),
        (CombinationKind.RUN, (0, 2, 3), 3),
        (CombinationKind.RUN, (1, 2, 3), 3),
    ]
    assert [f"{c.kind}" for c in combos] == ["fifteen", "fifteen", "pair", "run", "run"]
    assert all(type(c.kind) is CombinationKind for c in combos) and combos[2].kind == "pair"


# --- issue 14: double, triple and double-double runs, the figures of the rule book ---


@pytest.mark.parametrize(
    ("hand", "runs", "total"),
    [
        ((3, 4, 5), 3, 3),  # a run of three
        ((3, 4, 4, 5), 6, 8),  # double run: two runs of three (6) + a pair (2)
        ((4, 5, 5, 5, 6), 9, 23),  # triple run: three runs of three (9) + three of a kind (6) + 15s 5+5+5, 4+5+6 x3 (8)
        ((4, 4, 5, 6, 6), 12, 24),  # double-double run: four runs of three (12) + two pairs (4) + 15s 4 (8)
        ((3, 4, 4, 5, 6), 8, 14),  # double run of four: two runs of four (8) + a pair (2) + 15s 4+5+6 x2 (4)
        ((3, 4, 5, 6, 7), 5, 9),  # a run of five (5) + 15s 3+5+7, 4+5+6 (4)
    ],
)
def test_multiple_runs_count_each_run_once(hand: tuple[int, ...], runs: int, total: int) -> None:
    score = score_hand(hand)
    assert score.runs == runs
    assert score.total == total
    run_combos = [c for c in combinations_of(hand) if c.kind is CombinationKind.RUN]
    assert sum(c.points for c in run_combos) == runs
