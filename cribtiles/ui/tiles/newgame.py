"""The New game screen over the table: who sits where (people by name, bots by level), the rule
options, the seed; Start and Cancel. Mouse and keyboard (Tab, arrows, Space, typing, Enter, Escape).

The form itself (its state, how keys change it, its geometry) is `newgame_form.py`, without pygame.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Protocol

import pygame

from .. import art
from ..geometry import Rect
from ..paint import CREAM, DIM, GOLD, RED, badge, button, write
from .newgame_form import (
    Action,
    Control,
    FormLayout,
    NewGameForm,
    Part,
    arrow_step,
    control_at,
    form_layout,
    rule_label,
)

ARROWED = (Part.KIND, Part.RULE)
FIELD = (34, 22, 14, 170)  # the recessed field a value sits in
CARD_WOOD = (92, 58, 34)  # the end card's wood


class Underneath(Protocol):
    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None: ...


class NewGameScene:
    """The form over a veiled, paused table; `on_start(form)` or `on_cancel()` when it is done."""

    def __init__(
        self,
        form: NewGameForm,
        under: Underneath,
        on_start: Callable[[NewGameForm], None],
        on_cancel: Callable[[], None],
    ) -> None:
        self.form = form
        self.under = under
        self.on_start = on_start
        self.on_cancel = on_cancel
        self.mouse: tuple[int, int] = (-1, -1)
        self._backdrop: pygame.Surface | None = None
        screen = pygame.display.get_surface()
        self.size = screen.get_size() if screen is not None else (1280, 800)  # the window's, as last drawn

    def layout(self, size: tuple[int, int]) -> FormLayout:
        return form_layout(size[0], size[1], self.form)

    # --- input ---

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def handle(self, event: pygame.event.Event) -> None:
        form = self.form
        if event.type == pygame.TEXTINPUT:
            form.type(event.text)
        elif event.type == pygame.KEYDOWN:
            self._key(event.key, event.mod)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._click(event.pos)

    def _key(self, key: int, mod: int) -> None:
        form = self.form
        text = form.is_text(form.focus)
        if key == pygame.K_ESCAPE:
            self.on_cancel()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._act(form.enter())
        elif key == pygame.K_TAB:
            form.tab(-1 if mod & pygame.KMOD_SHIFT else 1)
        elif key in (pygame.K_UP, pygame.K_DOWN):
            form.tab(-1 if key == pygame.K_UP else 1)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and not text:
            form.step(-1 if key == pygame.K_LEFT else 1)
        elif key == pygame.K_SPACE and not text:  # in a name, Space arrives as text
            self._act(form.press())
        elif key in (pygame.K_BACKSPACE, pygame.K_DELETE):
            form.backspace(whole=bool(mod & pygame.KMOD_CTRL) or key == pygame.K_DELETE)

    def _click(self, pos: tuple[int, int]) -> None:
        form = self.form
        lay = self.layout(self.size)
        c = control_at(lay, pos)
        if c is None:
            return
        if form.is_text(c):
            if form.focus == c and form.selected:  # a second click puts the caret at the end
                form.selected = False
            else:
                form.focus_on(c)
        elif c.part is Part.WHO or c.part is Part.RULE:
            form.focus_on(c)
            form.step(arrow_step(lay.controls[c], pos[0]))
        else:
            self._act(form.press(c))

    def _act(self, action: Action | None) -> None:
        if action is Action.START:
            self.on_start(self.form)
        elif action is Action.CANCEL:
            self.on_cancel()

    def update(self, dt: float) -> None:
        """The table underneath is paused while the screen is open: Cancel finds it as it was."""

    # --- drawing ---

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        size = self.size = surface.get_size()
        whole = full or self._backdrop is None or self._backdrop.get_size() != size
        if whole:
            self.under.draw(surface, full=True)
            veil = pygame.Surface(size, pygame.SRCALPHA)
            veil.fill((0, 0, 0, 120))
            surface.blit(veil, (0, 0))
            self._backdrop = surface.copy()
        lay = self.layout(size)
        x, y, w, h = lay.card
        area = pygame.Rect(x - 24, y - 24, w + 48, h + 56).clip(surface.get_rect())
        if not whole and self._backdrop is not None:
            surface.blit(self._backdrop, area, area)
        draw_form(surface, self.form, lay, self.mouse)
        return None if whole else [area]


def draw_form(surf: pygame.Surface, form: NewGameForm, lay: FormLayout, mouse: tuple[int, int]) -> None:
    """The card: title, seats, rules, the notes under them, Start and Cancel."""
    x, y, w, h = lay.card
    s = lay.size
    surf.blit(art.soft_shadow(w, h, 16, 10, 170), (x - 20 + 4, y - 20 + 8))
    surf.blit(art.plank(w, h, CARD_WOOD, 83), (x, y))
    write(surf, "New game", round(s * 1.9), GOLD, lay.title, "midtop")
    hint = "Tab, arrows and Space, or the mouse · Enter starts · Esc goes back"
    write(surf, hint, s - 3, DIM, (lay.title[0], lay.title[1] + round(s * 1.6)), "midtop")
    (lx, ly), (rx, ry) = lay.heads
    write(surf, "Sides: Dark against Light" if form.solitaire else "Players", s, CREAM, (lx, ly))
    write(surf, "Rules", s, CREAM, (rx, ry))
    hover = control_at(lay, mouse)
    for c, rect in lay.labels.items():
        _label(surf, form, c, rect, s)
    for seat, (bx, by, _, bh) in lay.blanks.items():
        write(surf, form.blank_words(seat), s - 1, DIM, (bx + round(s * 0.5), by + bh / 2), "midleft")
    problem = form.problem()
    for c, rect in lay.controls.items():
        focused = c == form.focus
        lit = c == hover
        if c.part in (Part.ADD, Part.REMOVE, Part.START, Part.CANCEL):
            enabled = not (c.part is Part.START and problem)
            label = "" if c.part is Part.REMOVE else form.value(c)
            button(surf, rect, label, enabled, lit, strong=c.part is Part.START)
            if c.part is Part.REMOVE:  # a cross drawn to size: the font's "×" is too small to see
                _cross(surf, rect)
        else:
            _field(surf, form, c, rect, s, focused, lit)
        if focused:
            _ring(surf, rect)
    nx, ny, nw = lay.notes
    line = round(s * 1.35)
    notes = [(form.warning, GOLD), (problem, RED), (form.about(hover or form.focus), CREAM)]
    for text, colour in [(t, c) for t, c in notes if t]:
        write(surf, _fit(text, s - 1, nw), s - 1, colour, (nx, ny))
        ny += line


def _label(surf: pygame.Surface, form: NewGameForm, c: Control, rect: Rect, s: int) -> None:
    x, y, _, h = rect
    if c.part is Part.KIND and not form.solitaire:
        badge(surf, str(c.seat + 1), (x + h // 2, y + h // 2), art.PLAYER_COLOURS[c.seat], s - 2)
        return
    text = form.seat_label(c.seat) if c.part is Part.KIND else rule_label(c)
    write(surf, text, s, CREAM, (x, y + h / 2), "midleft")


def _field(surf: pygame.Surface, form: NewGameForm, c: Control, rect: Rect, s: int, focused: bool, lit: bool) -> None:
    """A value in its recessed field: arrows at both ends of a choice, a caret in text being typed."""
    x, y, w, h = rect
    surf.blit(_inset(w, h, lit), (x, y))
    text = form.value(c)
    if form.is_text(c):
        pad = round(s * 0.5)
        room = w - 2 * pad - 4
        if not text and not focused:
            write(surf, "random" if c.part is Part.SEED else "", s, DIM, (x + pad, y + h / 2), "midleft")
            return
        shown = _fit_tail(text, s, room) if focused else _fit(text, s, room)
        r = write(surf, shown, s, CREAM, (x + pad, y + h / 2), "midleft")
        if focused and form.selected and text:
            mark = pygame.Surface((r[2] + 4, r[3]), pygame.SRCALPHA)
            mark.fill((*GOLD, 70))
            surf.blit(mark, (r[0] - 2, r[1]))
        elif focused:
            cx = r[0] + (r[2] if text else 0) + 2
            pygame.draw.line(surf, GOLD, (cx, y + h * 0.22), (cx, y + h * 0.78), 2)
        return
    arrows = c.part in ARROWED or (c.part is Part.WHO and form.seats[c.seat].bot)
    colour = GOLD if focused else CREAM
    if arrows:
        a = max(5, round(h * 0.16))
        mid = y + h // 2
        for sign, ax in ((-1, x + a + 4), (1, x + w - a - 4)):
            tip = ax + sign * a
            pygame.draw.polygon(surf, DIM, [(tip, mid), (tip - sign * a, mid - a), (tip - sign * a, mid + a)])
        room = w - 4 * a - 16
    else:
        room = w - 12
    write(surf, _fit(text, s, room), s, colour, (x + w / 2, y + h / 2), "center")


def _cross(surf: pygame.Surface, rect: Rect) -> None:
    x, y, w, h = rect
    r = max(4, round(min(w, h) * 0.18))
    cx, cy = x + w // 2, y + h // 2
    for dx in (-r, r):
        pygame.draw.line(surf, CREAM, (cx - dx, cy - r), (cx + dx, cy + r), 3)


def _ring(surf: pygame.Surface, rect: Rect) -> None:
    x, y, w, h = rect
    pygame.draw.rect(surf, GOLD, (x - 3, y - 3, w + 6, h + 6), 2, border_radius=8)


@lru_cache(maxsize=64)
def _inset(w: int, h: int, lit: bool) -> pygame.Surface:
    """A field cut into the wood: darker, its upper-left edge in shade."""
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    fill = (52, 34, 22, 190) if lit else FIELD
    pygame.draw.rect(surf, fill, (0, 0, w, h), border_radius=6)
    art.bevel(surf, (0, 0, w, h), 2, raised=False, strength=70, radius=6)
    return surf


def _fit(text: str, size: int, width: int) -> str:
    """`text`, cut at the end with an ellipsis to fit `width` pixels."""
    f = art.font(size)
    text = art.clip(text)
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


def _fit_tail(text: str, size: int, width: int) -> str:
    """The end of `text` that fits `width` pixels (a name being typed shows where the caret is)."""
    f = art.font(size)
    if f.size(text)[0] <= width:
        return text
    while text and f.size("…" + text)[0] > width:
        text = text[1:]
    return "…" + text
