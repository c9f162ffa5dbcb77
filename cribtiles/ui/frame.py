"""One dirty-rectangle path for both tables: a still background, and each frame's moving items as
sprites of pygame-ce's own `LayeredDirty` group, which restores from the background where items went
or came, draws them and what overlaps them again, and says which rectangles of the window changed."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import cast

import pygame

#: What a frame blits: a lasting surface (never changed once made) and where.
Placed = tuple[pygame.Surface, tuple[int, int, int, int]]


class Layer:
    """A frame's moving items, in drawing order, collected rather than drawn: the drawing helpers of
    `paint` blit onto it as onto a surface (a rectangle or a circle becomes a small cached surface)."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.items: list[Placed] = []

    def blit(self, source: pygame.Surface, dest: tuple[float, float] | pygame.Rect) -> pygame.Rect:
        # the same rounding as Surface.blit's: a float place is cut to whole pixels
        r = source.get_rect(topleft=(dest[0], dest[1]))
        self.items.append((source, (r.x, r.y, r.w, r.h)))
        return r

    def get_size(self) -> tuple[int, int]:
        return self.size


class _Item(pygame.sprite.DirtySprite):
    """One blit of a frame as the group sees it: `image` drawn at `rect`, dirty (to be drawn and sent)
    until it has been drawn once; an item drawn again unchanged stays clean."""

    def __init__(self, image: pygame.Surface, rect: tuple[int, int, int, int]) -> None:
        super().__init__()
        self.image = image
        self.rect = pygame.Rect(rect)
        self.key = (id(image), rect)  # the image is held: its id is its own while this item lives


class Frame:
    """A view's memory of its last frame on the window, as pygame-ce's `LayeredDirty` group of last
    frame's items: an item drawn again unchanged is left alone, the group restores from the background
    where items went or came, redraws what overlaps those places, and names them."""

    def __init__(self) -> None:
        # always by rectangles (the group would switch to whole frames when one drawing is slow)
        self.group: pygame.sprite.LayeredDirty[_Item] = pygame.sprite.LayeredDirty(
            _use_update=True, _time_threshold=math.inf
        )
        self.screen: pygame.Surface | None = None
        self.background: pygame.Surface | None = None

    def show(
        self, screen: pygame.Surface, background: pygame.Surface, items: list[Placed], full: bool = False
    ) -> list[pygame.Rect] | None:
        """Put `background` with `items` over it on `screen`. Returns the rectangles that changed since
        the last frame ([] when nothing did), or None when the whole window did (the first frame, a new
        screen or background (a new turn, a new size), or `full`)."""
        whole = full or screen is not self.screen or background is not self.background
        self.screen, self.background = screen, background
        if whole:
            screen.blit(background, (0, 0))
            self.group.empty()
            self.group.add(*(_Item(image, rect) for image, rect in items))
            self.group.lostsprites = []  # nothing to take away: the background covers it all
            self.group.draw(screen, background)
            return None
        sprites, kept = self._match(items)
        if len(kept) == len(sprites) == len(self.group):
            return []  # the window already shows this frame: nothing to draw nor send
        self.group.remove(*(s for s in self.group.sprites() if s not in kept))  # their places: lost
        lost = _disjoint(self.group.lostsprites)
        self.group.empty()  # then all again in this frame's order, the kept ones clean
        self.group.add(*sprites)
        self.group.lostsprites = lost
        for sprite in kept:
            sprite.dirty = 0
        return cast(list[pygame.Rect], self.group.draw(screen, background))

    def _match(self, items: list[Placed]) -> tuple[list[_Item], set[_Item]]:
        """This frame's sprites in drawing order, each last frame's where the same image lies in the same
        place and the order among those kept is as it was (else what overlaps might change unseen)."""
        old = self.group.sprites()
        places: dict[tuple[int, tuple[int, int, int, int]], list[int]] = {}
        for i, sprite in enumerate(old):
            places.setdefault(sprite.key, []).append(i)
        sprites: list[_Item] = []
        kept: set[_Item] = set()
        last = -1
        for image, rect in items:
            at = next((i for i in places.get((id(image), rect), ()) if i > last), None)
            if at is None:
                sprites.append(_Item(image, rect))
            else:
                last = at
                sprites.append(old[at])
                kept.add(old[at])
        return sprites, kept


def _disjoint(rects: Iterable[pygame.Rect | pygame.FRect]) -> list[pygame.Rect | pygame.FRect]:
    """The places given, those that overlap joined: the group redraws a still item once for each place
    it meets, and a see-through one drawn twice where two places overlap would darken or lighten."""
    out: list[pygame.Rect | pygame.FRect] = []
    for r in rects:
        joined = pygame.Rect(r)
        i = joined.collidelist(out)
        while i > -1:
            joined.union_ip(out.pop(i))
            i = joined.collidelist(out)
        out.append(joined)
    return out
