"""The rule book of classic cribbage: every example's stated figure is the engine's (worked out again by
the engine's public functions, and a play's by the rules written out by hand), refused examples are refused
in the engine's words, the facts the pages state are the engine's, and docs/rules.md holds the pages."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cribtiles.cribbage import CardError, parse_card, parse_cards, peg_points, show_total
from cribtiles.cribbage.cards import JACK
from cribtiles.cribbage.events import MarginKind, outcome_of
from cribtiles.cribbage.muggins import WRONG_CALL
from cribtiles.table.cribbage.rulebook import (
    DEALER,
    NON_DEALER,
    PAGES,
    CardExample,
    CardKind,
    all_examples,
    contents,
    cribbage_markdown,
    with_cribbage,
)
from tests.cribbage.test_distribution import PUBLISHED

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
EXAMPLES = all_examples()
IDS = [f"{page.title}: {ex.caption}" for page, ex in EXAMPLES]


@pytest.mark.parametrize("example", [ex for _, ex in EXAMPLES], ids=IDS)
def test_every_stated_figure_is_the_engines(example: CardExample) -> None:
    out = example.outcome()
    assert out.total == example.stated
    if example.stated is not None:
        assert out.refusal == ""
        assert re.search(rf"(?<![\d.]){example.stated}(?!\d)", example.caption), "the caption states the figure"
    elif example.kind is not CardKind.DEAL:
        assert out.refusal, "a refused example says why"


@pytest.mark.parametrize("example", [ex for _, ex in EXAMPLES], ids=IDS)
def test_each_example_checked_again_by_the_engines_public_functions(example: CardExample) -> None:
    """Worked out afresh: a show by show_total (the bots' fast path, not score_show's items), a count by
    peg_points, a notation by parse_cards, his heels by the rank of the starter."""
    kind = example.kind
    if kind is CardKind.SHOW:
        assert show_total(parse_cards(example.cards), parse_card(example.starter), example.crib) == example.stated
    elif kind is CardKind.MUGGINS:
        made = show_total(parse_cards(example.cards), parse_card(example.starter), example.crib)
        assert example.stated == (abs(made - example.declared) or WRONG_CALL)
    elif kind is CardKind.PEG and example.legal:
        assert peg_points(parse_cards(example.cards)) == example.stated
    elif kind in (CardKind.PEG, CardKind.NOTATION) and not example.legal:
        with pytest.raises(CardError) as caught:
            cards = parse_cards(example.cards)
            peg_points(cards)
        assert str(caught.value) == example.outcome().refusal
    elif kind is CardKind.NOTATION:
        assert len(parse_cards(example.cards)) == example.stated
    elif kind is CardKind.STARTER:
        assert example.stated == (2 if parse_card(example.starter).rank == JACK else 0)
    elif kind is CardKind.PLAY:
        assert play_by_hand(example) == example.stated
    else:
        assert kind is CardKind.DEAL and len(example.hand) == 6 and set(parse_cards(example.other)) < set(example.hand)


def play_by_hand(example: CardExample) -> int:
    """The play's points from the rules as a player says them, over the cards as the example lays them:
    each card scores what peg_points gives among the cards since the count began; a count that ends short
    of 31 (a go, or the end of the play) gives its last card 1."""
    laid = example.outcome().laid
    assert [str(c) for _, c, _ in laid] == example.order.split()
    pone, dealer = set(parse_cards(example.cards)), set(parse_cards(example.other))
    assert all((c in pone) == (who == NON_DEALER) and (c in dealer) == (who == DEALER) for who, c, _ in laid)
    points, count_cards, count = 0, [], 0
    for _, card, after in laid:
        if count + card.value != after:  # the count started again before this card
            points += 1 if count != 31 else 0
            count_cards, count = [], 0
        count_cards.append(card)
        count += card.value
        assert count == after <= 31
        points += peg_points(count_cards)
        if count == 31:
            count_cards, count = [], 0
    return points + (1 if count_cards else 0)  # the last card, unless it made 31


def test_the_pages_are_the_ones_a_player_needs_in_order() -> None:
    assert PAGES[0].title == "Contents" and contents() == tuple(p.title for p in PAGES[1:])
    assert contents() == (
        "The deal and the crib",
        "The starter and his heels",
        "The play: the count, fifteen and 31",
        "Pairs and runs in the play",
        "Go and the last card",
        "The show",
        "Flush and his nobs",
        "121, the lurch and the skunk",
        "Three players",
        "Four: partnerships",
        "Five-card cribbage",
        "A game to 61",
        "Counting by hand (optional)",
        "Muggins (optional)",
        "Writing cards down",
    )
    assert all(p.paragraphs for p in PAGES)
    assert {ex.kind for _, ex in EXAMPLES} == set(CardKind)
    assert any(ex.crib for _, ex in EXAMPLES)


def test_the_facts_the_pages_state_are_the_engines() -> None:
    text = " ".join(" ".join(p.paragraphs) for p in PAGES)
    assert "The most a hand can score is 29" in text and max(PUBLISHED) == 29 and PUBLISHED[29] > 0
    never = re.search(r"No hand scores ((?:\d+, )*\d+ or \d+)\.", text)
    assert never is not None
    assert sorted(int(n) for n in re.findall(r"\d+", never.group(1))) == [s for s, n in PUBLISHED.items() if n == 0]
    assert "has not reached 91 is lurched" in text and "Below 61 it is a double lurch" in text
    assert outcome_of((121, 90), 0, 121).margin_kind is MarginKind.SKUNK
    assert outcome_of((121, 91), 0, 121).margin_kind is MarginKind.WIN
    assert outcome_of((60, 121), 1, 121).margin_kind is MarginKind.DOUBLE_SKUNK
    assert outcome_of((61, 121), 1, 121).margin_kind is MarginKind.SKUNK


def test_docs_rules_md_holds_the_pages() -> None:
    """docs/rules.md's classic cribbage section is made from the pages: regenerate it with
    `python3 -c "from pathlib import Path; from cribtiles.table.cribbage.rulebook import with_cribbage;
    p = Path('docs/rules.md'); p.write_text(with_cribbage(p.read_text()))"`."""
    text = DOCS.read_text(encoding="utf-8")
    assert cribbage_markdown() in text
    assert with_cribbage(text) == text
    for page in PAGES[1:]:
        assert f"### {page.title}" in text
    with pytest.raises(ValueError, match="no classic cribbage section"):
        with_cribbage("# nothing here")


def test_the_rule_book_imports_no_pygame() -> None:
    code = "import sys, cribtiles.table.cribbage.rulebook\nprint('pygame' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "False"


def test_a_show_is_summed_up_by_kind() -> None:
    from cribtiles.cribbage import score_show
    from cribtiles.table.cribbage.rulebook import show_lines

    assert show_lines(score_show(parse_cards("5H 5D 5S JC"), parse_card("5C"))) == (
        "8 fifteens: 16",
        "6 pairs: 12",
        "his nobs: 1",
    )
    assert show_lines(score_show(parse_cards("3D 3S 4H 5C"), parse_card("6D"))) == (
        "2 fifteens: 4",
        "a pair: 2",
        "2 runs of four: 8",
    )
    for _, ex in EXAMPLES:
        if ex.kind is CardKind.SHOW:
            out = ex.outcome()
            assert sum(int(line.rpartition(": ")[2]) for line in out.lines) == out.total
