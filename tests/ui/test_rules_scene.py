"""The rules pages in the window, headless: real key and mouse events turn the pages, Escape closes,
and every page draws at every size without its parts running into each other."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from types import SimpleNamespace

import pygame
import pytest

from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.rulebook import PAGES
from cribtiles.ui.geometry import Layout, Rect, centre
from cribtiles.ui.rules_scene import PageLayout, RulesScene, books, page_layout
from cribtiles.ui.tiles.rules_book import reason_fits

LAST = len(PAGES) - 1  # the tile book's last page, the book the scene opens with
SIZES = [(800, 600), (1280, 800), (1920, 1080), (3840, 2400)]


@pytest.fixture(autouse=True)
def window() -> Iterator[None]:
    pygame.init()
    pygame.display.set_mode((1280, 800))
    yield
    pygame.event.clear()


def host(size: tuple[int, int] = (1280, 800)) -> SimpleNamespace:
    return SimpleNamespace(layout=Layout.of(*size), prefs=Preferences())


class Closed:
    def __init__(self) -> None:
        self.times = 0

    def __call__(self) -> None:
        self.times += 1


def scene(page: int = 0) -> tuple[RulesScene, Closed]:
    closed = Closed()
    return RulesScene(host(), closed, page), closed


def feed(sc: RulesScene) -> None:
    for event in pygame.event.get():
        sc.handle(event)


def press(sc: RulesScene, *keys: int) -> None:
    for key in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    feed(sc)


def click(sc: RulesScene, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))
    feed(sc)


def test_the_keys_turn_the_pages() -> None:
    sc, closed = scene()
    for key, page in [
        (pygame.K_RIGHT, 1),
        (pygame.K_PAGEDOWN, 2),
        (pygame.K_SPACE, 3),
        (pygame.K_LEFT, 2),
        (pygame.K_PAGEUP, 1),
        (pygame.K_BACKSPACE, 0),
        (pygame.K_BACKSPACE, 0),  # no page before the first
        (pygame.K_END, LAST),
        (pygame.K_RIGHT, LAST),  # nor after the last
        (pygame.K_HOME, 0),
    ]:
        press(sc, key)
        assert sc.page == page, pygame.key.name(key)
    assert closed.times == 0


def test_escape_closes() -> None:
    sc, closed = scene(4)
    press(sc, pygame.K_ESCAPE)
    assert closed.times == 1 and sc.page == 4


def test_up_down_and_enter_choose_on_the_contents_page() -> None:
    sc, _ = scene()
    press(sc, pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN)
    assert sc.page == 3 and PAGES[3].title == "Pairs"
    press(sc, pygame.K_HOME, pygame.K_UP, pygame.K_UP, pygame.K_UP, pygame.K_RETURN)
    assert sc.page == LAST  # up from the first entry wraps round to the last
    press(sc, pygame.K_HOME, pygame.K_DOWN)
    assert sc.page == 0  # Up/Down do not turn pages


def test_a_click_on_an_entry_opens_its_page() -> None:
    sc, _ = scene()
    entries = sc.layout.entries
    assert len(entries) == len(PAGES) - 1
    title = "Double, triple and double-double runs"
    number = next(i for i, p in enumerate(PAGES) if p.title == title)
    click(sc, centre(entries[number - 1]))
    assert sc.page == number


def test_next_back_and_contents_buttons() -> None:
    sc, _ = scene(2)
    buttons = sc.layout.buttons
    click(sc, centre(buttons["next"]))
    assert sc.page == 3
    click(sc, centre(sc.layout.buttons["back"]))
    click(sc, centre(sc.layout.buttons["back"]))
    assert sc.page == 1
    click(sc, centre(sc.layout.buttons["contents"]))
    assert sc.page == 0
    click(sc, centre(sc.layout.buttons["back"]))  # Back on the first page does nothing
    assert sc.page == 0


def test_a_page_out_of_range_is_brought_in() -> None:
    assert RulesScene(host(), Closed(), 999).page == LAST
    assert RulesScene(host(), Closed(), -3).page == 0


def test_draw_says_what_changed() -> None:
    sc, _ = scene()
    surface = pygame.Surface((1280, 800))
    assert sc.draw(surface, full=True) is None
    assert sc.draw(surface) == []  # nothing changed: nothing drawn
    press(sc, pygame.K_RIGHT)
    assert sc.draw(surface) is None


def inside(inner: Rect, outer: Rect) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[0] + inner[2] <= outer[0] + outer[2]
        and inner[1] + inner[3] <= outer[1] + outer[3]
    )


def apart(a: Rect, b: Rect) -> bool:
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


def check_layout(lay: PageLayout, index: int) -> None:
    page = PAGES[index]
    assert len(lay.cells) == len(page.examples)
    assert len(lay.entries) == (len(PAGES) - 1 if index == 0 else 0)
    buttons = list(lay.buttons.values())
    for a, b in combinations(buttons, 2):
        assert apart(a, b)
    body_bottom = min(b[1] for b in buttons)
    text_bottom = max((y + round(lay.text * 1.3) for _, _, y in lay.lines), default=lay.top)
    assert text_bottom <= body_bottom
    blocks = [c.rect for c in lay.cells] + list(lay.entries)
    for block in blocks:
        assert inside(block, lay.card) and block[1] + block[3] <= body_bottom and block[1] >= text_bottom
    for a, b in combinations(blocks, 2):
        assert apart(a, b)
    for cell in lay.cells:
        assert inside(cell.visual, cell.rect) and inside(cell.result, cell.rect)
        assert apart(cell.visual, cell.result)
        assert cell.result[2] > 0


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_page_draws_at_every_size_without_overlaps(size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    sc = RulesScene(host(size), Closed())
    for index in range(len(PAGES)):
        sc.go(index)
        assert sc.draw(surface, full=True) is None
        lay = page_layout(size, index)
        check_layout(lay, index)
        if size != (800, 600):  # from 1280x800 up, every example whole at a comfortable size
            assert lay.text >= 18, PAGES[index].title
            for ex, cell in zip(PAGES[index].examples, lay.cells, strict=True):
                assert reason_fits(ex, cell.result, lay.text), ex.caption  # a refusal's words all shown


def test_the_size_is_read_at_draw_time() -> None:
    sc, _ = scene()
    sc.draw(pygame.Surface((1280, 800)), full=True)
    first = sc.layout.card
    sc.draw(pygame.Surface((960, 640)), full=True)
    assert sc.layout.card != first and sc.layout.card[2] < first[2]


def test_the_books_are_each_games_own_in_the_registrys_order() -> None:
    """Each game's rule book is its `RULE_BOOK` part: Kings Cribbage's first, the book the scene opens with."""
    assert [(name, book.title) for name, book in books().items()] == [
        ("tiles", "Kings Cribbage"),
        ("cribbage", "Classic cribbage"),
    ]
    assert books()["tiles"].pages == PAGES and scene()[0].book == "tiles"
