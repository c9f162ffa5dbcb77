"""What each game's rule book on the Rules screen is made of (its `RULE_BOOK` part in `cribtiles.games`):
its name, its pages, and how one of its examples is laid in a cell of a page and drawn there. The screen
(`rules_scene.py`) lays the pages out, turns them and draws what every book shares: the card, the words,
the contents, each example's field and caption, the buttons."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import pygame

from .geometry import Rect

#: The smallest size of a page's words: a window too small for the pages gets these, whatever overlaps.
SMALLEST_TEXT = 12

E = TypeVar("E")
E_co = TypeVar("E_co", covariant=True)


@dataclass(frozen=True)
class Cell:
    """Where one example is drawn: its caption's lines, its picture (`unit` the side of its tiles or the
    width of its cards, which the page makes as large as it can), its result beside the picture."""

    rect: Rect
    caption: tuple[str, ...]
    visual: Rect
    unit: int
    result: Rect


class BookPage(Protocol[E_co]):
    """One page of a rule book: its title, its paragraphs, its examples (the first page is the contents)."""

    @property
    def title(self) -> str: ...

    @property
    def paragraphs(self) -> tuple[str, ...]: ...

    @property
    def examples(self) -> Sequence[E_co]: ...


@dataclass(frozen=True)
class RuleBook(Generic[E]):
    """A game's rule book: its name (on the button that opens it and over its contents), its pages (the
    first its contents), an example's cell at a text size (None when it cannot be drawn readably in the
    rectangle: `strict`, every part of it readable; else only so that nothing overlaps), and the example
    drawn in its cell at a text size (its picture and result; the field and caption are the screen's)."""

    title: str
    pages: Sequence[BookPage[E]]
    lay: Callable[[E, Rect, int, bool], Cell | None]
    draw: Callable[[pygame.Surface, E, Cell, int], None]
