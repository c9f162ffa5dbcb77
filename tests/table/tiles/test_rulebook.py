"""Tests of the rule book's pages: every example's stated figure is the engine's, every refused example
is refused by the engine, and docs/rules.md holds the same examples and run figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cribtiles.rules import IllegalMove, NotationError, Play, parse_move, parse_rack, score_hand, score_play
from cribtiles.rules.options import OPTIONS
from cribtiles.rules.tiles import parse_rank
from cribtiles.table.tiles.rulebook import (
    PAGES,
    Example,
    ExampleKind,
    all_examples,
    contents,
    examples_markdown,
    with_examples,
)

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
EXAMPLES = all_examples()
IDS = [f"{page.title}: {ex.caption}" for page, ex in EXAMPLES]


def ranks(text: str) -> tuple[int, ...]:
    return tuple(parse_rank(w) for w in text.split())


@pytest.mark.parametrize("example", [ex for _, ex in EXAMPLES], ids=IDS)
def test_every_stated_figure_is_the_engines(example: Example) -> None:
    out = example.outcome()
    assert out.total == example.stated
    if example.legal:
        assert out.refusal == ""
        assert re.search(rf"(?<![\d.]){example.stated}(?!\d)", example.caption), "the caption states the figure"


@pytest.mark.parametrize("example", [ex for _, ex in EXAMPLES], ids=IDS)
def test_each_example_checked_again_by_the_engines_public_functions(example: Example) -> None:
    """Worked out afresh, not through the page's own code: a hand by score_hand, a play by
    score_play, a rack by its count values."""
    if example.kind is ExampleKind.RACK:
        assert sum(min(10, 6 if t.rank == 9 else t.rank) for t in parse_rack(example.tiles)) == example.stated
        return
    if not example.legal:
        with pytest.raises((IllegalMove, NotationError)) as caught:
            move = parse_move(example.tiles)
            assert isinstance(move, Play)
            score_play(example.before, move)
        assert str(caught.value) == example.outcome().refusal and str(caught.value)
        return
    move = parse_move(example.tiles)
    assert isinstance(move, Play)
    if example.kind is ExampleKind.HAND:
        assert score_hand([t.rank for t in move.tiles]).total == example.stated
    else:
        assert score_play(example.before, move).total == example.stated


def test_the_pages_are_the_ones_a_player_needs_in_order() -> None:
    assert PAGES[0].title == "Contents" and contents() == tuple(p.title for p in PAGES[1:])
    assert contents() == (
        "What a hand is",
        "Fifteens",
        "Pairs",
        "Runs",
        "Double, triple and double-double runs",
        "The first play",
        "What is legal and what is not",
        "Bonuses",
        "6s and 9s",
        "Exchanges and passing",
        "The end of the game",
        "The optional rules",
        "Solitaire",
        "Writing moves down",
    )
    assert all(p.paragraphs for p in PAGES)
    kinds = {ex.kind for _, ex in EXAMPLES}
    assert kinds == set(ExampleKind)
    assert any(not ex.legal for _, ex in EXAMPLES) and any(ex.legal for _, ex in EXAMPLES)


def test_the_runs_alone_figures_of_the_page_are_the_engines() -> None:
    page = next(p for p in PAGES if p.title.startswith("Double"))
    text = " ".join(page.paragraphs)
    found = re.findall(r"((?:[0-9AJQK]+ ){2,4}[0-9AJQK]+) scores (\d+)", text)
    assert [f for f, _ in found] == ["3 4 4 5", "4 5 5 5 6", "4 4 5 6 6", "3 4 4 5 6"]
    for hand, runs in found:
        assert score_hand(ranks(hand)).runs == int(runs)


def test_docs_rules_md_holds_the_pages_examples() -> None:
    """docs/rules.md's examples section is made from the pages: regenerate it with
    `python3 -c "from pathlib import Path; from cribtiles.table.tiles.rulebook import with_examples;
    p = Path('docs/rules.md'); p.write_text(with_examples(p.read_text()))"`."""
    text = DOCS.read_text(encoding="utf-8")
    assert examples_markdown() in text
    assert with_examples(text) == text
    for _, ex in EXAMPLES:
        assert ex.caption in text


def test_the_run_table_of_docs_rules_md_is_the_engines() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = re.findall(r"^\| ((?:[0-9AJQK]+ )+[0-9AJQK]+) \| \*\*(\d+)\*\* \|", text, re.MULTILINE)
    assert len(rows) == 4
    for hand, runs in rows:
        assert score_hand(ranks(hand)).runs == int(runs)
    for hand, total in re.findall(r"((?:[0-9AJQK]+ ){3,4}[0-9AJQK]+) = (\d+)", text):
        assert score_hand(ranks(hand)).total == int(total), hand


def test_docs_marks_every_choice_the_sheet_leaves_open() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for choice in (
        "13 × 13 board",
        "104 wooden tiles",
        "2 to 4 players",
        "A 6/9 counts as a 6 in this draw, and tied players draw again",
        "a 6/9 counts as 6",
        "share the win",
        "scores its whole hand",
        "on a tie, all of them are",
        "running totals",
        "A locked board",
        # issue 28: the sheet's remaining open points
        "adding to 15 (",
        "Three of a kind hold 3 pairs",
        "five of a\n  kind 10 pairs",
        "of 4: **4**",
        "**+30** in bonuses",
        "after each game",
    ):
        i = text.index(choice)
        assert "(our choice)" in text[max(0, i - 200) : i + 200], choice


#: The pages' open choices of the sheet, by page, each in a paragraph marked "(our choice)".
PAGE_CHOICES = {
    "Fifteens": "scores 2",
    "Pairs": "three and five of a kind blank",
    "Runs": "run of four blank",
    "Bonuses": "They add up",
    "The end of the game": "nobody can play now",
    "The optional rules": "A round is one game",
}


@pytest.mark.parametrize(("title", "choice"), PAGE_CHOICES.items())
def test_the_pages_mark_the_choices_the_sheet_leaves_open(title: str, choice: str) -> None:
    (page,) = (p for p in PAGES if p.title == title)
    (paragraph,) = (para for para in page.paragraphs if choice in para)
    assert "(our choice)" in paragraph


def test_the_figures_of_the_pages_choices_are_the_engines() -> None:
    """The figures the pages give for the sheet's blanks and for bonuses adding up, held to the engine."""
    text = {p.title: " ".join(p.paragraphs) for p in PAGES}
    assert "15 scores 2." in text["Fifteens"] and score_hand(ranks("7 8")).fifteens == 2
    three, five = re.findall(r"makes them (\d+) and (\d+)", text["Pairs"])[0]
    assert (score_hand(ranks("8 8 8")).pairs, score_hand(ranks("8 8 8 8 8")).pairs) == (int(three), int(five))
    four = re.findall(r"run of four blank: (\d+)", text["Runs"])[0]
    assert score_hand(ranks("3 4 5 6")).runs == int(four)
    (bonus,) = re.findall(r"\+(\d+)", text["Bonuses"])
    bonuses = next(p for p in PAGES if p.title == "Bonuses").examples[0]  # A 2 3 4 5 all light, first play
    score = bonuses.outcome().score
    assert score is not None and len(score.bonuses) == 3 and sum(b.points for b in score.bonuses) == int(bonus)
    docs = DOCS.read_text(encoding="utf-8")
    assert f"**+{bonus}** in bonuses" in docs and f"7 + {bonus} = {bonuses.stated}" in docs


def test_the_rule_book_imports_no_pygame() -> None:
    code = "import sys, cribtiles.table.tiles.rulebook\nprint('pygame' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "False"


def test_the_rule_book_and_docs_rules_md_describe_every_row_of_the_options_table() -> None:
    """A row added to `OPTIONS` needs its paragraph in the rule book and its `name=value` in docs/rules.md."""
    (page,) = (p for p in PAGES if p.title == "The optional rules")
    assert page.paragraphs == tuple(p for row in OPTIONS for p in row.book())
    options = DOCS.read_text(encoding="utf-8").split("## Options", 1)[1].split("\n## ", 1)[0]
    for row in OPTIONS:
        others = [f"*{row.name}={c.text}*" for c in row.choices[1:]] or [f"*{row.name}=N*"]
        assert all(o in options for o in others), row.name
        assert row.book() or any(p.title == row.words(row.choices[-1].value) for p in PAGES), row.name
