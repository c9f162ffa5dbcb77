"""Classic cribbage's rules pages in the rules scene, headless: Tab and the button beside Contents open
the other book, every page draws at every size without its parts running into each other, each example's
cards are where its cell says, and what is drawn beside them is the engine's result."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from cribtiles.cribbage import parse_cards
from cribtiles.games import CRIBBAGE, TILES
from cribtiles.table.cribbage import rulebook as cribbage_rulebook
from cribtiles.table.cribbage.rulebook import CardExample, CardKind, all_examples
from cribtiles.ui.cribbage import cards
from cribtiles.ui.cribbage.rules_cards import PLAY_KEY, extent, lay_card_cell, result_lines
from cribtiles.ui.geometry import centre
from cribtiles.ui.rules_scene import RulesScene, books, last_page, page_layout
from tests.ui.test_rules_scene import LAST, SIZES, Closed, apart, click, host, inside, press

PAGES = cribbage_rulebook.PAGES


@pytest.fixture(autouse=True)
def window() -> Iterator[None]:
    pygame.init()
    pygame.display.set_mode((1280, 800))
    yield
    pygame.event.clear()


def test_tab_and_the_book_button_open_the_other_book_at_its_contents() -> None:
    sc = RulesScene(host(), Closed(), 5)
    assert sc.book == TILES.name and sc.last == LAST
    press(sc, pygame.K_TAB)
    assert (sc.book, sc.page, sc.last) == (CRIBBAGE.name, 0, len(PAGES) - 1)
    press(sc, pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN)
    assert PAGES[sc.page].title == "The play: the count, fifteen and 31"
    press(sc, pygame.K_END, pygame.K_RIGHT)
    assert sc.page == last_page(CRIBBAGE.name) == len(PAGES) - 1 == 15
    click(sc, centre(sc.layout.buttons["book"]))
    assert (sc.book, sc.page) == (TILES.name, 0)
    opened = RulesScene(host(), Closed(), 999, CRIBBAGE.name)
    assert (opened.book, opened.page) == (CRIBBAGE.name, 15)


def test_the_book_button_names_the_other_book() -> None:
    surface = pygame.Surface((1280, 800))
    for book, other in ((TILES.name, CRIBBAGE.name), (CRIBBAGE.name, TILES.name)):
        sc = RulesScene(host(), Closed(), 0, book)
        assert sc.draw(surface, full=True) is None
        names = books()[other].title, books()[book].title
        assert names[0] in ("Classic cribbage", "Kings Cribbage") and names[0] != names[1]
    sc = RulesScene(host(), Closed(), 0, TILES.name)
    sc.draw(surface, full=True)
    assert sc.draw(surface) == []
    press(sc, pygame.K_TAB)
    assert sc.draw(surface) is None  # another book: drawn again


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_cribbage_page_draws_at_every_size_without_overlaps(size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    sc = RulesScene(host(size), Closed(), 0, CRIBBAGE.name)
    for index, page in enumerate(PAGES):
        sc.go(index)
        assert sc.draw(surface, full=True) is None
        lay = page_layout(size, index, CRIBBAGE.name)
        assert len(lay.cells) == len(page.examples)
        assert len(lay.entries) == (len(PAGES) - 1 if index == 0 else 0)
        buttons = list(lay.buttons.values())
        assert len(buttons) == 4 and all(apart(a, b) for i, a in enumerate(buttons) for b in buttons[i + 1 :])
        body_bottom = min(b[1] for b in buttons)
        text_bottom = max((y + round(lay.text * 1.3) for _, _, y in lay.lines), default=lay.top)
        blocks = [c.rect for c in lay.cells] + list(lay.entries)
        for block in blocks:
            assert inside(block, lay.card) and block[1] + block[3] <= body_bottom and block[1] >= text_bottom
        assert all(apart(a, b) for i, a in enumerate(blocks) for b in blocks[i + 1 :])
        for ex, cell in zip(page.examples, lay.cells, strict=True):
            assert inside(cell.visual, cell.rect) and inside(cell.result, cell.rect) and apart(cell.visual, cell.result)
            if size != (800, 600):  # from 1280x800 up, every example whole at a comfortable size
                assert lay.text >= 18, page.title
                assert lay_card_cell(ex, cell.rect, lay.text) is not None, ex.caption  # strict: all of it shown


def test_an_examples_cards_fill_its_picture() -> None:
    """The picture is as many card widths as its cards need: a show's four and the starter, a count's
    cards, a play's cards overlapped in two rows."""
    show = next(ex for _, ex in all_examples() if ex.kind is CardKind.SHOW)
    cell = lay_card_cell(show, (0, 0, 900, 240), 20)
    assert cell is not None
    cols, rows = extent(show)
    assert cell.visual[2] == round(cols * cell.width) and cell.visual[3] == round(rows * cell.width)
    assert rows * cell.width >= cards.height_of(cell.width)
    play = next(ex for _, ex in all_examples() if ex.kind is CardKind.PLAY)
    assert extent(play)[1] > rows  # two rows of cards
    tiny = lay_card_cell(show, (0, 0, 200, 60), 20)
    assert tiny is None  # no room: the page tries larger cells or smaller words


@pytest.mark.parametrize("example", [ex for _, ex in all_examples()], ids=lambda ex: ex.caption)
def test_what_is_drawn_beside_the_cards_is_the_engines(example: CardExample) -> None:
    lines = result_lines(example)
    out = example.outcome()
    if example.kind is CardKind.DEAL:
        assert lines == ["four kept for the hand", "two laid away to the crib"]
    elif out.refusal:
        assert lines == [] and not example.legal
    elif example.kind is CardKind.NOTATION:
        assert lines == ["read as " + " ".join(str(c) for c in parse_cards(example.cards))]
    elif example.kind is CardKind.MUGGINS:
        made, said = int(lines[0].split()[-1]), int(lines[1].split()[-1])
        whom = "to the counter" if made == said else "to the caller"
        assert lines == [f"the cards make {made}", f"said {example.declared}", f"= {example.stated} {whom}"]
    else:
        assert lines[-1] == f"= {example.stated}" and lines[:-1] == (
            [PLAY_KEY] if example.kind is CardKind.PLAY else []
        ) + list(out.lines)
