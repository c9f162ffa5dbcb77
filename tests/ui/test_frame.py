"""The frame path (`ui/frame.py`): pygame-ce's RenderUpdates restores what moved and names the changed
rectangles; what the drawing helpers put on a frame's Layer looks exactly as drawn straight on a surface."""

from __future__ import annotations

import pygame

from cribtiles.ui.frame import Frame, Layer
from cribtiles.ui.paint import draw_circle, draw_rect


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def background() -> pygame.Surface:
    bg = pygame.Surface((120, 90))
    for y in range(90):  # a ground whose every row differs, so a wrong restore shows
        pygame.draw.line(bg, (y * 2, 40 + y, 200 - y), (0, y), (119, y))
    return bg


def square(colour: tuple[int, int, int]) -> pygame.Surface:
    s = pygame.Surface((10, 10))
    s.fill(colour)
    return s


RED, BLUE = square((255, 0, 0)), square((0, 0, 255))


def whole(bg: pygame.Surface, items: list[tuple[pygame.Surface, tuple[int, int]]]) -> bytes:
    out = bg.copy()
    for image, at in items:
        out.blit(image, at)
    return pixels(out)


def test_the_first_frame_is_whole_and_an_equal_one_sends_nothing() -> None:
    bg, screen, frame = background(), pygame.Surface((120, 90)), Frame()
    layer = Layer((120, 90))
    layer.blit(RED, (5, 5))
    assert frame.show(screen, bg, layer.items) is None
    assert pixels(screen) == whole(bg, [(RED, (5, 5))])
    again = Layer((120, 90))
    again.blit(RED, (5, 5))
    assert frame.show(screen, bg, again.items) == []
    assert frame.show(screen, bg, again.items, full=True) is None  # asked for whole: whole


def test_a_moved_item_sends_where_it_was_and_where_it_is() -> None:
    bg, screen, frame = background(), pygame.Surface((120, 90)), Frame()
    first = Layer((120, 90))
    first.blit(RED, (5, 5))
    first.blit(BLUE, (60, 40))
    frame.show(screen, bg, first.items)
    moved = Layer((120, 90))
    moved.blit(RED, (8.7, 5))  # cut to 8, as Surface.blit cuts
    changed = frame.show(screen, bg, moved.items)
    assert changed is not None
    # the red square's old and new places overlap: sent as one; the blue one is gone: its place sent
    assert sorted(tuple(r) for r in changed) == [(5, 5, 13, 10), (60, 40, 10, 10)]
    assert pixels(screen) == whole(bg, [(RED, (8, 5))])


def test_only_what_moved_is_drawn_and_sent_and_what_overlaps_it_is_drawn_again() -> None:
    bg, screen, frame = background(), pygame.Surface((120, 90)), Frame()
    first = Layer((120, 90))
    for at in ((5, 5), (12, 8), (80, 60)):
        first.blit(RED if at != (12, 8) else BLUE, at)
    frame.show(screen, bg, first.items)
    moved = Layer((120, 90))
    for at in ((5, 5), (12, 20), (80, 60)):  # the blue square moves down, off the red one
        moved.blit(RED if at != (12, 20) else BLUE, at)
    changed = frame.show(screen, bg, moved.items)
    assert sorted(tuple(r) for r in changed or []) == [(12, 8, 10, 10), (12, 20, 10, 10)]  # not the red ones
    assert pixels(screen) == whole(bg, [(RED, (5, 5)), (BLUE, (12, 20)), (RED, (80, 60))])


def test_the_same_items_in_another_order_are_drawn_in_that_order() -> None:
    bg, screen, frame = background(), pygame.Surface((120, 90)), Frame()
    under = Layer((120, 90))
    under.blit(RED, (5, 5))
    under.blit(BLUE, (9, 9))
    frame.show(screen, bg, under.items)
    over = Layer((120, 90))
    over.blit(BLUE, (9, 9))
    over.blit(RED, (5, 5))  # now the red square lies over the blue one
    assert frame.show(screen, bg, over.items)
    assert pixels(screen) == whole(bg, [(BLUE, (9, 9)), (RED, (5, 5))])


def test_a_new_background_redraws_the_whole_window() -> None:
    bg, screen, frame = background(), pygame.Surface((120, 90)), Frame()
    layer = Layer((120, 90))
    layer.blit(RED, (5, 5))
    frame.show(screen, bg, layer.items)
    other = bg.copy()
    other.fill((9, 9, 9))
    assert frame.show(screen, other, layer.items) is None
    assert pixels(screen) == whole(other, [(RED, (5, 5))])


def test_rectangles_and_circles_on_a_layer_look_as_drawn_straight() -> None:
    bg = background()
    straight, screen, frame, layer = bg.copy(), pygame.Surface((120, 90)), Frame(), Layer((120, 90))
    for surf in (straight, layer):
        draw_rect(surf, (250, 200, 10), (3, 4, 30, 20), 2, border_radius=6)
        draw_rect(surf, (10, 200, 250), (40.6, 10.2, 22.9, 17.5), 0, border_radius=4)
        draw_rect(surf, (90, 10, 90), (100, 70, 40, 40), 3)  # over the edge: clipped alike
        draw_rect(surf, (90, 10, 90), (50, 50, -4, 8))  # nothing at all
        draw_circle(surf, (0, 0, 0), (20, 60), 7)
        draw_circle(surf, (200, 120, 40), (45.3, 61.8), 7.5)
        draw_circle(surf, (60, 200, 90), (80, 60), 9, 1)
        draw_circle(surf, (255, 255, 255), (118, 2), 5)
    assert isinstance(layer, Layer) and len(layer.items) == 7
    frame.show(screen, bg, layer.items)
    assert pixels(screen) == pixels(straight)
