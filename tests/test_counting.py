"""Tests for cribtiles.counting: the hand tables both games count by (fifteens, pairs and runs)."""

from __future__ import annotations

import subprocess
import sys
from itertools import combinations_with_replacement

from cribtiles.counting import HANDS, MAX_HAND, RANKS, combinations_of, count_value, key_of
from tests.rules.rules_reference import ref_score_hand

EVERY_HAND = [hand for n in range(1, MAX_HAND + 1) for hand in combinations_with_replacement(RANKS, n)]


def test_rank_keys_are_distinct_and_additive() -> None:
    keys = {key_of(h) for h in EVERY_HAND}
    assert len(keys) == len(EVERY_HAND) == 13 + 8554
    assert set(HANDS) == keys
    assert key_of([3, 4, 4]) + key_of([5, 6]) == key_of([6, 5, 4, 3, 4])


def test_the_table_counts_every_hand_of_one_to_five_ranks_as_the_definitions_do() -> None:
    wrong = []
    for hand in EVERY_HAND:
        entry, ref = HANDS[key_of(hand)], ref_score_hand(hand)
        live = {r for r, alive in zip(hand, ref.contributes, strict=True) if alive}
        counted = (entry.fifteens, entry.pairs, entry.runs, entry.total, entry.live)
        if counted != (ref.fifteens, ref.pairs, ref.runs, ref.total, live):
            wrong.append(hand)
    assert wrong == []


def test_the_combinations_add_up_to_the_table() -> None:
    for hand in EVERY_HAND[:: len(EVERY_HAND) // 500]:
        assert sum(c.points for c in combinations_of(hand)) == HANDS[key_of(hand)].total, hand


def test_count_values() -> None:
    assert [count_value(r) for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_the_counting_imports_only_the_standard_library_and_neither_game() -> None:
    code = "import sys, cribtiles.counting; print(sorted(m for m in sys.modules if m.startswith('cribtiles')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['cribtiles', 'cribtiles.counting']"
